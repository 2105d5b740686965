// An agent's search that means nothing, over the real MCP stdio transport: a query with no word
// to look for, or one over the limits, is a tool error with INVALID_INPUT (never every fact),
// and the server keeps serving.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliEntry, repoRoot } from '../helpers/child';

const P = 'user:acme/u1';
let client: Client;
let dir: string;

async function call(args: Record<string, unknown>): Promise<{ isError: boolean; body: Record<string, unknown> }> {
  const r = (await client.callTool({ name: 'search_facts', arguments: args })) as CallToolResult;
  const first = r.content[0];
  if (!first || first.type !== 'text') throw new Error('no text content');
  return { isError: r.isError === true, body: JSON.parse(first.text) as Record<string, unknown> };
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'statelens-mcp-search-'));
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [cliEntry, 'mcp', '--db', path.join(dir, 'mcp.db')],
    cwd: repoRoot,
    stderr: 'pipe',
  });
  client = new Client({ name: 'statelens-test', version: '1.0.0' });
  await client.connect(transport);
  const write = (await client.callTool({
    name: 'record_facts',
    arguments: {
      partition: P,
      facts: [
        { key: 'budget', value: 'capped at 50k' },
        { key: 'city', value: 'Lyon' },
      ],
    },
  })) as CallToolResult;
  expect(write.isError).not.toBe(true);
}, 60_000);

afterAll(async () => {
  await client?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('search_facts with a query that means nothing', () => {
  it('refuses punctuation-only and empty queries, and filter searches alike, with INVALID_INPUT', async () => {
    for (const args of [{ query: '*' }, { query: '"((' }, { query: '' }, { query: '...' }, { filter: { search: '^' } }]) {
      const r = await call({ partition: P, ...args });
      expect(r.isError, JSON.stringify(args)).toBe(true);
      expect(r.body.code, JSON.stringify(args)).toBe('INVALID_INPUT');
    }
    expect((await call({ partition: P, query: '()' })).body.message).toMatch(/has no word to look for/);
  });

  it('refuses oversized queries, then still answers a good one', async () => {
    const words = await call({ partition: P, query: Array.from({ length: 40 }, (_, i) => `w${i}`).join(' ') });
    expect(words).toMatchObject({ isError: true, body: { code: 'INVALID_INPUT' } });
    expect(String(words.body.message)).toMatch(/40 words; at most 32/);
    const long = await call({ partition: P, query: 'x'.repeat(200_000) });
    expect(long).toMatchObject({ isError: true, body: { code: 'INVALID_INPUT' } });
    expect(String(long.body.message)).toMatch(/at most 500 characters/);
    const good = await call({ partition: P, query: 'budget' });
    expect(good.isError).toBe(false);
    expect((good.body.facts as Array<{ key: string }>).map((f) => f.key)).toEqual(['budget']);
  });
});
