// Identity belongs to its session, as an agent meets it over MCP (the SDK client, the real
// `statelens mcp` child): a VP starting a session changes neither an analyst's running session
// nor a session that set no identity.
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
