// An agent's search that means nothing, over the real MCP stdio transport: a query with no word
// to look for, or one over the limits, is a tool error with INVALID_INPUT (never every fact),
// and the server keeps serving; on every store.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { dbTarget } from '../helpers/db-targets';
import { describeStores } from '../helpers/stores';
import { connectMcp, type McpSession } from './client';

const P = 'user:acme/u1';
describeStores('search_facts with a query that means nothing', (_open, kind) => {
  let mcp: McpSession;
  const call = (args: Record<string, unknown>) => mcp.call('search_facts', args);

  beforeAll(async () => {
    mcp = await connectMcp(dbTarget(kind, 'search').db);
    await mcp.ok('record_facts', {
      partition: P,
      facts: [
        { key: 'budget', value: 'capped at 50k' },
        { key: 'city', value: 'Lyon' },
      ],
    });
  }, 120_000);

  afterAll(async () => {
    await mcp?.close();
  });

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
