// The specification's rules as an agent meets them over MCP (the SDK client, the real
// `statelens mcp` child process): a write cannot raise its tier, restricted facts stay out of
// every strategy, balanced is the default strategy, the working set upserts and ends with the
// session, the identity is fixed for a session, the environment has its fields; on every store.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { dbTarget } from '../helpers/db-targets';
import { describeStores } from '../helpers/stores';
import { connectMcp, type McpSession } from './client';

describeStores('specification rules over MCP', (_open, kind) => {
  let mcp: McpSession;
  const call = (name: string, args: unknown) => mcp.call(name, args);
  const ok = (name: string, args: unknown) => mcp.ok(name, args);

  // One database for the block: each test works in partitions of its own.
  beforeAll(async () => {
    mcp = await connectMcp(dbTarget(kind, 'rules').db, 'statelens-rules-test');
  }, 120_000);

  afterAll(async () => {
    await mcp?.close();
  });

  it('a write cannot raise its own tier: record_facts with a maturity is refused and writes nothing', async () => {
    const P = 'capability:acme/outreach';
    expect(
      (await ok('record_facts', { partition: P, facts: [{ key: 'e1', value: 'A prospect replied within an hour', level: 'event' }] })).results,
    ).toHaveLength(1);
    const refused = await call('record_facts', {
      partition: P,
      maturity: 'master',
      facts: [{ key: 'playbook', value: 'Lead with ROI for enterprise', level: 'strategy' }],
    });
    expect(refused.isError).toBe(true);
    expect(refused.body.code).toBe('INVALID_INPUT');
    expect(String(refused.body.message)).toMatch(/maturity.*statelens maturity/);
    const level = await call('record_facts', { partition: P, facts: [{ key: 'playbook', value: 'Lead with ROI for enterprise', level: 'strategy' }] });
    expect(level.body.code).toBe('LEVEL_NOT_ALLOWED');
    const facts = (await ok('search_facts', { partition: P })).facts as Array<{ key: string }>;
    expect(facts.map((f) => f.key)).toEqual(['e1']);
  });

  it('restricted facts stay out of every strategy for an identity outside the audience', async () => {
    const P = 'user:acme/sam';
    await ok('set_identity', {
      partition: P,
      identity: { userName: 'Sam', userId: 'sam', authority: 'engineer', department: 'Engineering', organization: 'Acme', permissions: [] },
    });
    await ok('record_facts', {
      partition: P,
      facts: [
        { key: 'dana_review', value: '[CONFIDENTIAL — restricted to HR] Dana Wu is on a performance improvement plan', importance: 9 },
        { key: 'standup', value: 'Standup is at 9:30 with Dana Wu' },
      ],
    });
    for (const strategy of ['recent', 'important', 'balanced', 'state_based', 'reference']) {
      const r = await ok('assemble_context', { partition: P, strategy, query: 'Dana Wu', preview: true, include_provenance: true });
      expect(r.text, strategy).not.toContain('performance improvement');
      expect(r.text, strategy).toContain('Standup');
      const entry = (r.provenance as Array<{ label: string; status: string; reason?: string }>).find((e) => e.label === 'dana_review');
      expect(entry, strategy).toMatchObject({ status: 'excluded', reason: 'permission' });
    }
  });

  it('assemble_context without a strategy assembles balanced', async () => {
    const r = await ok('assemble_context', { partition: 'user:acme/sam', preview: true });
    expect(r.strategy).toBe('balanced');
  });

  it('the working set upserts by key and end_session clears it; the identity is fixed until then', async () => {
    const P = 'user:acme/ivy';
    const ivy = { userName: 'Ivy', userId: 'ivy', authority: 'intern', department: 'Sales', organization: 'Acme', permissions: [] };
    await ok('set_identity', { partition: P, session_id: 's1', identity: ivy });
    const cfo = await call('set_identity', { partition: P, session_id: 's1', identity: { ...ivy, authority: 'CFO' } });
    expect(cfo.isError).toBe(true);
    expect(cfo.body.code).toBe('CONFLICT');

    await ok('record_turns', { partition: P, session_id: 's1', turns: [{ speaker: 'user', text: 'first draft', turn_index: 0 }] });
    await ok('record_turns', { partition: P, session_id: 's1', turns: [{ speaker: 'user', text: 'second draft', turn_index: 0 }] });
    const before = await ok('assemble_context', { partition: P, strategy: 'reference', session_id: 's1', preview: true });
    expect(before.text).toContain('second draft');
    expect(before.text).not.toContain('first draft');

    const ended = await ok('end_session', { partition: P, session_id: 's1' });
    expect(ended).toMatchObject({ sessionId: 's1', workingItemsCleared: 1, identityReleased: true });
    const after = await ok('assemble_context', { partition: P, strategy: 'reference', session_id: 's1', preview: true });
    expect(after.text).not.toContain('second draft');
    // A new session may set another identity.
    await ok('set_identity', { partition: P, session_id: 's2', identity: { ...ivy, authority: 'manager' } });
  });

  it('set_environment returns the environment fields, and a bad timezone is refused', async () => {
    const P = 'user:acme/env';
    const r = await ok('set_environment', {
      partition: P,
      signals: [
        { key: 'timezone', value: 'America/New_York', observed_at: '2026-03-01T00:00:00Z' },
        { key: 'location', value: 'NYC office', observed_at: '2026-03-01T00:00:00Z' },
        { key: 'build_status', value: 'green', observed_at: '2026-03-01T00:00:00Z' },
      ],
    });
    expect(r.state).toMatchObject({ timezone: 'America/New_York', location: 'NYC office', externalData: { build_status: 'green' } });
    expect(String((r.state as { currentDate: string }).currentDate)).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect((await call('set_environment', { partition: P, signals: [{ key: 'timezone', value: 'Nowhere/Land' }] })).body.code).toBe('INVALID_INPUT');
    const ctx = await ok('assemble_context', { partition: P, strategy: 'state_based', preview: true, as_of: '2026-03-02T03:00:00Z' });
    expect(ctx.text).toContain('- current_date: 2026-03-01');
    expect(ctx.text).toContain('- location: NYC office');
  });
});
