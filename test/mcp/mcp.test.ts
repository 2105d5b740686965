// The MCP server as an agent meets it: the SDK's own Client over stdio, spawning the real
// `statelens mcp` as a child process, then the inspector's view of what the agent wrote, on a
// SQLite file, a PGlite folder and (with STATELENS_TEST_PG_URL) a server schema.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { dbTarget, type DbTarget } from '../helpers/db-targets';
import { describeStores } from '../helpers/stores';
import { connectMcp, MCP_TRANSPORT, readServed, type McpSession } from './client';

const P = 'user:acme/u1';

describeStores(`statelens mcp over ${MCP_TRANSPORT} (SDK client)`, (_open, kind) => {
  let mcp: McpSession;
  let target: DbTarget;
  const ok = (name: string, args: unknown) => mcp.ok(name, args);
  const fails = (name: string, args: unknown) => mcp.fails(name, args);

  beforeAll(async () => {
    // Its own database: the server keeps it open across tests.
    target = dbTarget(kind, 'mcp');
    mcp = await connectMcp(target.db);
  }, 120_000);

  afterAll(async () => {
    await mcp?.close();
  });

  it('lists every tool with a JSON Schema of its arguments', async () => {
    const { tools } = await mcp.client.listTools();
    const names = tools.map((t) => t.name).sort();
    expect(names).toEqual(
      [
        'assemble_context',
        'await_consistency',
        'end_session',
        'get_agent_state',
        'get_context',
        'put_context',
        'record_facts',
        'record_turns',
        'search_facts',
        'set_environment',
        'set_environment_providers',
        'set_identity',
        'update_agent_state',
        'verify_expectation',
      ].sort(),
    );
    const record = tools.find((t) => t.name === 'record_facts');
    expect(record?.inputSchema.properties).toHaveProperty('partition');
    expect(record?.inputSchema.properties).toHaveProperty('facts');
    expect(mcp.stderr()).toMatch(
      MCP_TRANSPORT === 'http' ? /statelens mcp: serving \S+ over Streamable HTTP at \S+ \(14 tools\)/ : /statelens mcp: serving \S+ over stdio \(14 tools\)/,
    );
  });

  it('records facts with supersedes, turns, environment; the inspector sees the chain', async () => {
    const first = await ok('record_facts', {
      partition: P,
      facts: [{ label: 'F1', key: 'budget', value: '$200,000', source: { type: 'system', authority: 'peer' }, ts: '2026-01-01T10:00:00Z' }],
    });
    const results = first.results as Array<{ factId: string; outcome: string }>;
    expect(results[0]?.outcome).toBe('created');
    const second = await ok('record_facts', {
      partition: 'user:acme/u1',
      facts: [{ key: 'budget_v2', value: '$120,000', supersedes: 'budget', ts: '2026-01-02T10:00:00Z' }],
    });
    const r2 = (second.results as Array<{ outcome: string; supersededId: string }>)[0];
    expect(r2?.outcome).toBe('superseded');
    expect(r2?.supersededId).toBe(results[0]?.factId);

    const turns = await ok('record_turns', {
      partition: P,
      session_id: 's1',
      turns: [
        { speaker: 'user', text: 'hi' },
        { speaker: 'assistant', text: 'hello' },
      ],
    });
    expect((turns.items as Array<{ turnIndex: number }>).map((i) => i.turnIndex)).toEqual([0, 1]);
    const more = await ok('record_turns', { partition: P, session_id: 's1', turns: [{ speaker: 'user', text: 'again' }] });
    expect((more.items as Array<{ turnIndex: number }>)[0]?.turnIndex).toBe(2);
    await ok('set_environment', {
      partition: P,
      signals: [
        { key: 'now', value: '2026-01-03T00:00:00Z' },
        { key: 'alerts', value_json: '["storm"]' },
      ],
    });

    // The inspector reads the same store: the superseded budget is invalid, the chain links up.
    mcp = await readServed(target, mcp, (store) => {
      const h = store.scope({ kind: 'user', org: 'acme', user: 'u1' });
      expect(h.currentValue('budget')).toBe('$120,000');
      expect(h.chain(results[0]?.factId ?? '').versions.map((v) => v.value)).toEqual(['$200,000', '$120,000']);
      expect(h.workingItems({ sessionId: 's1' }).map((w) => w.value)).toEqual(['hi', 'hello', 'again']);
      expect(h.environment().map((e) => e.key)).toEqual(['alerts', 'now']);
    });
  }, 120_000);

  it('updates agent state and verifies expectations with the deterministic matcher', async () => {
    const updated = await ok('update_agent_state', {
      partition: P,
      session_id: 's1',
      update: {
        expectations: [
          { id: 'x1', action: 'create tasks', expected_outcome: 'two tasks', expected_count: 2 },
          { id: 'x2', action: 'link', expected_outcome: 'ids', expected_ids: ['t1'] },
        ],
      },
    });
    expect((updated.state as { expectations: Array<{ status: string }> }).expectations.map((e) => e.status)).toEqual(['pending', 'pending']);
    const confirmed = await ok('verify_expectation', { partition: P, session_id: 's1', expectation_id: 'x1', tool_result: { id: 'call-1', count: 2 } });
    expect(confirmed.outcome).toBe('confirmed');
    const failed = await ok('verify_expectation', { partition: P, session_id: 's1', expectation_id: 'x2', tool_result: { id: 'call-2', ids: ['t9'] } });
    expect(failed.outcome).toBe('failed');
    expect((failed.assumption as { hypothesis: string }).hypothesis).toMatch(/Expected "ids"/);
    const got = await ok('get_agent_state', { partition: P, session_id: 's1' });
    expect((got.state as { assumptions: unknown[] }).assumptions).toHaveLength(1);
  });

  it('puts and gets context documents with versions, assembles contexts, searches facts', async () => {
    expect((await ok('get_context', { partition: P, session_id: 'memory' })).document).toBeNull();
    const v1 = await ok('put_context', { partition: P, session_id: 'memory', body: '## Facts\n- budget: $120,000' });
    expect((v1.document as { version: number }).version).toBe(1);
    await ok('put_context', { partition: P, session_id: 'memory', body: '## Facts\n- budget: $120,000\n## Timeline\n- 2026-01-02' });
    expect(((await ok('get_context', { partition: P, session_id: 'memory' })).document as { version: number }).version).toBe(2);
    expect(((await ok('get_context', { partition: P, session_id: 'memory', version: 1 })).document as { body: string }).body).not.toContain('Timeline');

    const ctx = await ok('assemble_context', { partition: P, strategy: 'state_based', budget: 500, query: 'what is the budget?', session_id: 's1' });
    expect(ctx.text).toContain('$120,000');
    expect(ctx.text).not.toContain('$200,000');
    expect(ctx.tokens as number).toBeLessThanOrEqual(500);
    const doc = await ok('assemble_context', { partition: P, strategy: 'context_document', budget: 200, session_id: 'memory', preview: true });
    expect(doc.text).toContain('Timeline');

    const found = await ok('search_facts', { partition: P, query: 'budget' });
    expect((found.facts as Array<{ value: string }>).map((f) => f.value)).toEqual(['$120,000']);
    const all = await ok('search_facts', { partition: P, query: 'budget', filter: { validity: 'all' } });
    expect((all.facts as unknown[]).length).toBe(2);
    expect((await ok('await_consistency', {})).consistent).toBe(true);
  });

  it('answers bad calls with tool errors in our error shape and keeps serving', async () => {
    const missing = await fails('record_facts', { facts: [{ key: 'k', value: 'v' }] });
    expect(missing.code).toBe('INVALID_INPUT');
    expect(missing.details?.field).toBe('partition');
    const badPartition = await fails('record_facts', { partition: 'nonsense', facts: [{ key: 'k', value: 'v' }] });
    expect(badPartition.code).toBe('INVALID_INPUT');
    expect(badPartition.message).toMatch(/user:ORG\/USER/);
    const badField = await fails('record_facts', { partition: P, facts: [{ key: '', value: 'v', bogus: 1 }] });
    expect(badField.code).toBe('INVALID_INPUT');
    expect(badField.message).toMatch(/facts\.0/);
    const level = await fails('record_facts', { partition: 'capability:acme/billing', facts: [{ key: 'h', value: 'retry', level: 'strategy' }] });
    expect(level.code).toBe('LEVEL_NOT_ALLOWED');
    // A read of a partition not created yet answers as an empty one; acting on one is NOT_FOUND.
    expect(await ok('search_facts', { partition: 'user:nobody/here', query: 'x' })).toMatchObject({
      exists: false,
      facts: [],
      total: { count: 0, capped: false },
    });
    const unknownPartition = await fails('verify_expectation', {
      partition: 'user:nobody/here',
      session_id: 's1',
      expectation_id: 'e',
      tool_result: { id: 'c' },
    });
    expect(unknownPartition.code).toBe('NOT_FOUND');
    const noExpectation = await fails('verify_expectation', { partition: P, session_id: 's1', expectation_id: 'nope', tool_result: { id: 'c' } });
    expect(noExpectation.code).toBe('NOT_FOUND');
    const tooLong = await fails('put_context', { partition: P, session_id: 'memory', body: 'word '.repeat(5001) });
    expect(tooLong.code).toBe('INVALID_INPUT');
    expect(tooLong.message).toMatch(/5000/);
    const noTool = await fails('drop_tables', {});
    expect(noTool.code).toBe('NOT_FOUND');
    // Still alive and consistent after every failure.
    expect((await ok('await_consistency', {})).consistent).toBe(true);
  });
});
