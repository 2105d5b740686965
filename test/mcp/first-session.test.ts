// A new memory's first session over MCP (the SDK client, the real `statelens mcp` child):
// await_consistency → get_context → put_context works on a partition that does not exist yet,
// the reads answering as an empty partition that says so; a refused write creates no partition.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { dbTarget } from '../helpers/db-targets';
import { describeStores } from '../helpers/stores';
import { connectMcp, type McpSession } from './client';

describeStores('the first session on a new partition over MCP', (_open, kind) => {
  let mcp: McpSession;

  beforeAll(async () => {
    mcp = await connectMcp(dbTarget(kind, 'first').db, 'statelens-first-session-test');
  }, 120_000);

  afterAll(async () => {
    await mcp?.close();
  });

  it('await_consistency → get_context → put_context starts without an error', async () => {
    const P = 'user:acme/newcomer';
    const consistent = await mcp.ok('await_consistency', { partition: P });
    expect(consistent).toMatchObject({ consistent: true, partition: 'acme / user newcomer', partitionId: null, exists: false });
    const context = await mcp.ok('get_context', { partition: P, session_id: 's1' });
    expect(context).toMatchObject({ partitionId: null, exists: false, document: null });
    const facts = await mcp.ok('search_facts', { partition: P });
    expect(facts).toMatchObject({ exists: false, facts: [], total: { count: 0, capped: false } });
    const put = await mcp.ok('put_context', { partition: P, session_id: 's1', body: '## Facts\n- likes tea\n' });
    expect(put.partitionId).toEqual(expect.any(Number));
    const again = await mcp.ok('get_context', { partition: P, session_id: 's1' });
    expect(again).toMatchObject({ exists: true, partitionId: put.partitionId });
    expect((again.document as { body: string }).body).toContain('likes tea');
  });

  it('a malformed partition is still refused, not read as empty', async () => {
    const refused = await mcp.fails('get_context', { partition: 'user:acme', session_id: 's1' });
    expect(refused.code).toBe('INVALID_INPUT');
  });

  it.each([
    ['a capability level above the maturity', 'capability:acme/fresh-level', 'record_facts', { facts: [{ key: 'k', value: 'v', level: 'strategy' }] }],
    ['a bad timezone', 'user:acme/fresh-tz', 'set_environment', { signals: [{ key: 'timezone', value: 'Mars/Olympus' }] }],
    ['an oversized document', 'user:acme/fresh-doc', 'put_context', { session_id: 's1', body: 'word '.repeat(6000) }],
  ])('a write refused for %s creates no partition', async (_what, P, tool, args) => {
    const refused = await mcp.call(tool, { partition: P, ...args });
    expect(refused.isError).toBe(true);
    expect(await mcp.ok('await_consistency', { partition: P })).toMatchObject({ exists: false, partitionId: null });
  });
});
