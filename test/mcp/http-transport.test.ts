// `statelens mcp --http` as a team reaches it: the SDK's Streamable HTTP client lists the tools
// (each with its title and annotations), writes and reads back; raw requests without the token,
// with a wrong one, from a foreign Origin or Host, or with an oversized body are refused before
// the protocol sees them. (The whole MCP suite runs over HTTP with STATELENS_TEST_MCP_TRANSPORT=http.)
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MCP_MAX_BODY_BYTES } from '../../electron/mcp/http-limits';
import { tmpDir } from '../helpers/tmp';
import { connectMcp } from './client';
import { startHttpMcp, type HttpMcpChild } from './http-server';

let served: HttpMcpChild;
let dir: string;

beforeAll(async () => {
  // Shared by the tests (the per-test temporary folders go after each test).
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'statelens-mcp-http-'));
  served = await startHttpMcp(path.join(dir, 'team.db'));
}, 180_000);
afterAll(async () => {
  await served?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

function raw(options: { method?: string; headers?: Record<string, string>; body?: string | Buffer }): Promise<{ status: number; body: string }> {
  const url = new URL(served.url);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: options.method ?? 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...options.headers },
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8').on('data', (c: string) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', (e: NodeJS.ErrnoException) => (e.code === 'EPIPE' || e.code === 'ECONNRESET' ? resolve({ status: -1, body: e.code }) : reject(e)));
    req.end(options.body);
  });
}

const initialize = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});

describe('statelens mcp --http', () => {
  it('serves the tools to the SDK Streamable HTTP client, each with a title and annotations', async () => {
    const client = new Client({ name: 'team-agent', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(served.url), { requestInit: { headers: { authorization: `Bearer ${served.token}` } } }));
    try {
      const { tools } = await client.listTools();
      expect(tools.length).toBeGreaterThan(10);
      for (const t of tools) {
        expect(t.title, t.name).toBeTruthy();
        expect(t.annotations, t.name).toMatchObject({
          readOnlyHint: expect.any(Boolean),
          destructiveHint: expect.any(Boolean),
          idempotentHint: expect.any(Boolean),
          openWorldHint: expect.any(Boolean),
        });
      }
      expect(tools.find((t) => t.name === 'search_facts')?.annotations?.readOnlyHint).toBe(true);
    } finally {
      await client.close();
    }
  }, 60_000);

  it('writes and reads back over HTTP, with two sessions at once', async () => {
    const a = await connectMcp(path.join(tmpDir(), 'rw.db'), 'agent-a', 'http');
    try {
      const written = await a.ok('record_facts', { partition: 'user:acme/ann', facts: [{ key: 'city', value: 'Oslo' }] });
      expect(JSON.stringify(written)).toContain('created');
      const found = await a.ok('search_facts', { partition: 'user:acme/ann', query: 'Oslo' });
      expect(JSON.stringify(found)).toContain('Oslo');
    } finally {
      await a.close();
    }
    const c1 = new Client({ name: 'one', version: '1' });
    const c2 = new Client({ name: 'two', version: '1' });
    const opts = { requestInit: { headers: { authorization: `Bearer ${served.token}` } } };
    await c1.connect(new StreamableHTTPClientTransport(new URL(served.url), opts));
    await c2.connect(new StreamableHTTPClientTransport(new URL(served.url), opts));
    try {
      await c1.callTool({ name: 'record_facts', arguments: { partition: 'user:acme/bob', facts: [{ key: 'tz', value: 'CET' }] } });
      const seen = await c2.callTool({ name: 'search_facts', arguments: { partition: 'user:acme/bob', query: 'CET' } });
      expect(JSON.stringify(seen.content)).toContain('CET');
    } finally {
      await c1.close();
      await c2.close();
    }
  }, 120_000);

  it('refuses a missing or wrong token, a foreign Origin or Host, and an oversized body', async () => {
    const auth = { authorization: `Bearer ${served.token}` };
    expect((await raw({ body: initialize })).status).toBe(401);
    expect((await raw({ body: initialize, headers: { authorization: 'Bearer nope' } })).status).toBe(401);
    expect((await raw({ body: initialize, headers: { authorization: `Bearer ${served.token}x` } })).status).toBe(401);
    expect((await raw({ body: initialize, headers: { ...auth, origin: 'http://evil.example' } })).status).toBe(403);
    expect((await raw({ body: initialize, headers: { ...auth, host: 'evil.example' } })).status).toBe(403);
    const big = await raw({ body: Buffer.alloc(MCP_MAX_BODY_BYTES + 1, 0x20), headers: auth });
    expect([413, -1]).toContain(big.status);
    expect((await raw({ body: '{not json', headers: auth })).status).toBe(400);
    expect((await raw({ method: 'GET', headers: auth })).status).toBe(400);
    // The same request with the token, our Host and no Origin is served.
    const ok = await raw({ body: initialize, headers: auth });
    expect(ok.status).toBe(200);
    expect(ok.body).toContain('"serverInfo"');
    expect(served.stderr()).not.toMatch(/Error|at .*\.ts:\d+/);
  }, 60_000);
});
