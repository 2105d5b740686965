// The MCP server's answers to what a careless agent sends: lines that are not JSON, messages
// over the size limit, params that are not an object, null tool arguments, timestamps that are
// not date-times and partition names with control or bidirectional characters. Raw lines to
// the real `statelens mcp` child process, so malformed input reaches it as sent; on every store,
// where what was refused must have written nothing.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { MAX_MESSAGE_BYTES } from '../../electron/mcp/line-transport';
import { dbTarget, type DbTarget } from '../helpers/db-targets';
import { cliEntry, repoRoot } from '../helpers/paths';
import { describeStores } from '../helpers/stores';

interface Answer {
  id: number | string | null;
  result?: { isError?: boolean; content: Array<{ type: string; text: string }> };
  error?: { code: number; message: string };
}

describeStores('statelens mcp answers bad input and keeps serving', (_open, kind) => {
  let child: ChildProcessWithoutNullStreams;
  let target: DbTarget;
  let pending = '';
  let stderr = '';
  const answers: Answer[] = [];
  const waiters: Array<() => void> = [];

  function send(line: string | Buffer): void {
    child.stdin.write(line);
    child.stdin.write('\n');
  }

  async function next(): Promise<Answer> {
    while (answers.length === 0) {
      if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode}): ${stderr}`);
      await new Promise<void>((resolve) => waiters.push(resolve));
    }
    return answers.shift() as Answer;
  }

  async function request(id: number, method: string, params: unknown): Promise<Answer> {
    send(JSON.stringify({ jsonrpc: '2.0', id, method, params }));
    const a = await next();
    expect(a.id).toBe(id);
    return a;
  }

  async function tool(
    id: number,
    name: string,
    args: unknown,
  ): Promise<{ isError: boolean; body: { code?: string; message?: string } & Record<string, unknown> }> {
    const a = await request(id, 'tools/call', { name, arguments: args });
    const text = a.result?.content[0]?.text ?? '{}';
    return { isError: a.result?.isError === true, body: JSON.parse(text) as { code?: string; message?: string } };
  }

  beforeAll(async () => {
    target = dbTarget(kind, 'bad');
    child = spawn(process.execPath, [cliEntry, 'mcp', '--db', target.db], { cwd: repoRoot });
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.stdout.on('data', (c: Buffer) => {
      pending += c.toString();
      for (let nl = pending.indexOf('\n'); nl !== -1; nl = pending.indexOf('\n')) {
        answers.push(JSON.parse(pending.slice(0, nl)) as Answer);
        pending = pending.slice(nl + 1);
      }
      for (const w of waiters.splice(0)) w();
    });
    child.on('exit', () => {
      for (const w of waiters.splice(0)) w();
    });
    const init = await request(0, 'initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } });
    expect(init.result).toBeDefined();
    send(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
  }, 120_000);

  afterAll(() => {
    child?.kill();
  });

  it('a line that is not JSON gets -32700; a non-JSON-RPC object gets -32600', async () => {
    send('{"jsonrpc":"2.0","id":1,"method":');
    expect(await next()).toMatchObject({ id: 1, error: { code: -32700, message: expect.stringMatching(/^Parse error/) as unknown } });
    send('hello');
    expect(await next()).toMatchObject({ id: null, error: { code: -32700 } });
    send('{"id":2,"hello":"there"}');
    expect(await next()).toMatchObject({ id: 2, error: { code: -32600 } });
    expect((await request(3, 'tools/list', {})).result).toBeDefined();
  });

  it('array params and null tool arguments get a readable -32602, not a schema dump', async () => {
    const arrayParams = await request(10, 'tools/call', ['record_facts', {}]);
    expect(arrayParams.error).toEqual({ code: -32602, message: 'Invalid params: params must be an object (named parameters), not an array' });
    const nullArgs = await request(11, 'tools/call', { name: 'record_facts', arguments: null });
    expect(nullArgs.error).toEqual({ code: -32602, message: 'Invalid params: the arguments of record_facts must be an object of named arguments, not null' });
    expect((await request(12, 'tools/list', {})).result).toBeDefined();
  });

  it('a message larger than the old 10 MiB buffer is served; one over the limit is answered, and the session goes on', async () => {
    // 100 facts of 100,000 two-byte characters: 20 MB, the largest call the schema allows.
    const facts = Array.from({ length: 100 }, (_, i) => ({ key: `k${i}`, value: 'é'.repeat(100_000), ts: '2026-01-01T00:00:00Z' }));
    const big = await tool(20, 'record_facts', { partition: 'user:acme/u1', facts });
    expect(big.isError, JSON.stringify(big.body).slice(0, 300)).toBe(false);
    expect(big.body.results).toHaveLength(100);
    const over = Buffer.alloc(MAX_MESSAGE_BYTES + 1024, 'x');
    over.write(
      '{"jsonrpc":"2.0","id":21,"method":"tools/call","params":{"name":"record_facts","arguments":{"partition":"user:acme/u1","facts":[{"key":"k","value":"',
    );
    send(over);
    expect(await next()).toMatchObject({ id: 21, error: { code: -32600, message: expect.stringMatching(/over the 67108864-byte limit/) as unknown } });
    expect((await request(22, 'tools/list', {})).result).toBeDefined();
    expect(child.exitCode).toBeNull();
  });

  it('timestamps that are not date-times and unsafe partition names are tool errors that say why', async () => {
    for (const ts of ['zzzz', '9999-pinned']) {
      // A valid fact before the bad one: the whole call is refused, not half written.
      const r = await tool(30, 'record_facts', {
        partition: 'user:acme/u1',
        facts: [
          { key: 'good', value: '1' },
          { key: 'price', value: '1', ts },
        ],
      });
      expect(r.isError).toBe(true);
      expect(r.body).toMatchObject({ code: 'INVALID_INPUT', message: expect.stringContaining(`not a date-time: "${ts}"`) as unknown });
    }
    const turns = await tool(31, 'record_turns', {
      partition: 'user:acme/u1',
      session_id: 's1',
      turns: [
        { speaker: 'user', text: 'hello' },
        { speaker: 'user', text: 'hi', ts: '9999-pinned' },
      ],
    });
    expect(turns.body).toMatchObject({ code: 'INVALID_INPUT', message: expect.stringContaining('not a date-time') as unknown });
    for (const partition of ['user:acme/u\u202e1', 'user:acme/u\u00001', { kind: 'user', org: 'a/b', user: 'u' }, 'user:\u0430cme/u1', 'user:acme/u\u200b1']) {
      const r = await tool(32, 'record_facts', { partition, facts: [{ key: 'k', value: 'v' }] });
      expect(r.isError, JSON.stringify(partition)).toBe(true);
      expect(r.body.code).toBe('INVALID_INPUT');
    }
    const late = await tool(33, 'record_facts', {
      partition: 'user:acme/u2',
      facts: [
        { key: 'stock_price', value: '$100', ts: '2026-01-01T06:00:00Z' },
        { key: 'stock_price', value: '$90', ts: '2026-01-01T10:00:00+05:00' },
      ],
    });
    expect((late.body.results as Array<{ outcome: string }>).map((x) => x.outcome)).toEqual(['created', 'stale']);
  });

  it('an object or array value over 100,000 characters as JSON, or nested 10,000 deep, is INVALID_INPUT', async () => {
    // A value is text over MCP: an object or array is refused whatever its size, and structured
    // data sent as JSON text is held to the same limit as any text.
    const big = await tool(40, 'record_facts', { partition: 'user:acme/u1', facts: [{ key: 'blob', value: { a: 'z'.repeat(3_000_000) } }] });
    expect(big.isError).toBe(true);
    expect(big.body).toMatchObject({ code: 'INVALID_INPUT', message: expect.stringMatching(/facts\.0\.value/) as unknown });
    const list = await tool(41, 'record_facts', { partition: 'user:acme/u1', facts: [{ key: 'list', value: JSON.stringify(['y'.repeat(100_000)]) }] });
    expect(list.body.code).toBe('INVALID_INPUT');
    // Written as text: JSON.stringify itself cannot serialise a value this deep.
    const deep = `${'['.repeat(10_000)}1${']'.repeat(10_000)}`;
    send(
      `{"jsonrpc":"2.0","id":42,"method":"tools/call","params":{"name":"record_facts","arguments":{"partition":"user:acme/u1","facts":[{"key":"deep","value":${deep}}]}}}`,
    );
    const answer = await next();
    expect(answer.id).toBe(42);
    // The value is not text, so it is refused before anything reads its depth: as a tool error or
    // as invalid params, never as an internal error, and the session goes on.
    const refusal = answer.result?.isError ? (JSON.parse(answer.result.content[0]?.text ?? '{}') as { code?: string }) : undefined;
    expect(refusal?.code === 'INVALID_INPUT' || answer.error?.code === -32602, JSON.stringify(answer).slice(0, 300)).toBe(true);
  });

  it('what was refused wrote nothing: only the accepted facts are in the store', async () => {
    // Served until stdin ends; a PGlite folder is then free for this process to read.
    const exited = new Promise<void>((resolve) => (child.exitCode !== null ? resolve() : child.once('exit', () => resolve())));
    child.stdin.end();
    await exited;
    const store = target.open({ readonly: true });
    try {
      expect(
        store
          .listPartitions()
          .map((p) => p.label)
          .sort(),
      ).toEqual(['acme / user u1', 'acme / user u2']);
      const u1 = store.scope({ kind: 'user', org: 'acme', user: 'u1' });
      const keys = u1.allFacts().map((f) => f.key);
      expect(keys).toHaveLength(100);
      expect(keys).not.toContain('good');
      expect(keys).not.toContain('k');
      expect(u1.workingItems({ includeExpired: true })).toEqual([]);
      expect(
        store
          .scope({ kind: 'user', org: 'acme', user: 'u2' })
          .allFacts()
          .map((f) => f.value)
          .sort(),
      ).toEqual(['$100', '$90']);
    } finally {
      store.close();
    }
  }, 120_000);
});
