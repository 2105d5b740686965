// Identity belongs to its session, as an agent meets it over MCP (the SDK client, the real
// `statelens mcp` child): a VP starting a session changes neither an analyst's running session
// nor a session that set no identity, and each running session keeps the identity it set.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { dbTarget } from '../helpers/db-targets';
import { describeStores } from '../helpers/stores';
import { connectMcp, type McpSession } from './client';

describeStores('identity per session over MCP', (_open, kind) => {
  let mcp: McpSession;

  beforeAll(async () => {
    mcp = await connectMcp(dbTarget(kind, 'identity').db, 'statelens-session-identity-test');
  }, 120_000);

  afterAll(async () => {
    await mcp?.close();
  });

  it("an analyst's session never sees a VP+ fact after a VP starts a session", async () => {
    const P = 'org:acme';
    const person = { department: 'Finance', organization: 'Acme', permissions: [] };
    await mcp.ok('record_facts', { partition: P, facts: [{ key: 'plan', value: '[CONFIDENTIAL — restricted to VP+] Layoffs planned for Q3' }] });
    await mcp.ok('set_identity', { partition: P, session_id: 'analyst', identity: { userName: 'Ann', userId: 'ann', authority: 'analyst', ...person } });
    const text = async (session: string): Promise<string> =>
      String((await mcp.ok('assemble_context', { partition: P, strategy: 'state_based', query: 'plan', session_id: session, preview: true })).text);
    expect(await text('analyst')).not.toContain('Layoffs');
    await mcp.ok('set_identity', { partition: P, session_id: 'vp', identity: { userName: 'Vic', userId: 'vic', authority: 'VP Finance', ...person } });
    expect(await text('vp')).toContain('Layoffs');
    expect(await text('analyst')).not.toContain('Layoffs');
    expect(await text('nobody')).not.toContain('Layoffs');
  });
});

describeStores('two running sessions keep their identities over MCP', (_open, kind) => {
  let analystAgent: McpSession;
  let vpAgent: McpSession;
  const clients: McpSession[] = [];

  beforeAll(async () => {
    const db = dbTarget(kind, 'identity_two').db;
    analystAgent = await connectMcp(db, 'statelens-identity-analyst');
    clients.push(analystAgent);
    // Two agent processes on one store where it admits two; a PGlite folder serves one.
    vpAgent = kind === 'pglite' ? analystAgent : await connectMcp(db, 'statelens-identity-vp');
    if (vpAgent !== analystAgent) clients.push(vpAgent);
  }, 240_000);

  afterAll(async () => {
    for (const c of clients) await c.close();
  });

  it('an analyst and a VP of one partition each see what their own identity allows, before and after the other sets or ends', async () => {
    const P = 'user:acme/pat';
    const person = { department: 'Finance', organization: 'Acme', permissions: [] };
    const ANALYST = { userName: 'Ann', userId: 'ann', authority: 'analyst', ...person };
    const VP = { userName: 'Vic', userId: 'vic', authority: 'VP Finance', ...person };
    await analystAgent.ok('record_facts', {
      partition: P,
      facts: [
        { key: 'budget_cut', value: '[CONFIDENTIAL — restricted to Finance] Q3 budget cut 12%' },
        { key: 'plan', value: '[CONFIDENTIAL — restricted to VP+] Layoffs planned for Q3' },
      ],
    });
    const view = async (agent: McpSession, session: string): Promise<string> => {
      const text = String(
        (await agent.ok('assemble_context', { partition: P, strategy: 'state_based', query: 'plan budget', session_id: session, preview: true })).text,
      );
      return `${text.includes('budget cut 12%') ? 'finance' : '-'} ${text.includes('Layoffs') ? 'layoffs' : '-'}`;
    };
    const set = await analystAgent.ok('set_identity', { partition: P, session_id: 'analyst', identity: ANALYST });
    expect(set).toMatchObject({ sessionId: 'analyst', identity: { authority: 'analyst' } });
    expect(await view(analystAgent, 'analyst')).toBe('finance -');

    const vpSet = await vpAgent.ok('set_identity', { partition: P, session_id: 'vp', identity: VP });
    expect(vpSet).toMatchObject({ sessionId: 'vp', identity: { authority: 'VP Finance' } });
    expect(await view(vpAgent, 'vp')).toBe('finance layoffs');
    // The analyst's running session kept its identity (it still reads its Finance fact).
    expect(await view(analystAgent, 'analyst')).toBe('finance -');
    expect(await view(analystAgent, 'nobody')).toBe('- -');
    // Setting the analyst's identity again changes nothing; another one in its session is refused.
    expect(await analystAgent.ok('set_identity', { partition: P, session_id: 'analyst', identity: ANALYST })).toMatchObject({
      identity: { authority: 'analyst' },
    });
    expect((await analystAgent.fails('set_identity', { partition: P, session_id: 'analyst', identity: VP })).code).toBe('CONFLICT');

    // Ending the VP's session removes the VP's identity only.
    expect(await vpAgent.ok('end_session', { partition: P, session_id: 'vp' })).toMatchObject({ identityReleased: true });
    expect(await view(analystAgent, 'analyst')).toBe('finance -');
    expect(await view(vpAgent, 'vp')).toBe('- -');

    // The user's own words carry the writing session's identity's authority, never another's.
    const vp2 = await vpAgent.ok('set_identity', { partition: P, session_id: 'vp2', identity: VP });
    expect(vp2).toMatchObject({ identity: { authority: 'VP Finance' } });
    const written = await vpAgent.ok('record_facts', {
      partition: P,
      session_id: 'vp2',
      facts: [{ key: 'travel_cap', value: 'max $2,000 a trip', source: { type: 'user' } }],
    });
    expect((written.results as Array<{ authority: { role: string; origin: string } }>)[0]?.authority).toMatchObject({ role: 'executive', origin: 'identity' });
    const unnamed = await vpAgent.ok('record_facts', { partition: P, facts: [{ key: 'hotel_cap', value: 'max $200 a night', source: { type: 'user' } }] });
    expect((unnamed.results as Array<{ authority: { origin: string } }>)[0]?.authority.origin).not.toBe('identity');

    // And the analyst's ending leaves the VP's later session as it was.
    expect(await analystAgent.ok('end_session', { partition: P, session_id: 'analyst' })).toMatchObject({ identityReleased: true });
    expect(await view(analystAgent, 'analyst')).toBe('- -');
    expect(await view(vpAgent, 'vp2')).toBe('finance layoffs');
  });
});
