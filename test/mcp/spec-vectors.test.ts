// The specification's three test vectors in their literal form, through the MCP server as an
// agent meets it: the SDK's client over stdio, spawning the real `statelens mcp`. The identity of
// the third is set the way an agent's events set it, through `statelens ingest`. On every store.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { statelens } from '../helpers/child';
import { dbTarget } from '../helpers/db-targets';
import { describeStores } from '../helpers/stores';
import { connectMcp, type McpSession } from './client';

type Result = { factId: string; outcome: string; supersededId: string | null; reason: string | null; authority: { role: string; origin: string } };
const results = (r: Record<string, unknown>): Result[] => r.results as Result[];

async function assembled(mcp: McpSession, partition: string, query: string): Promise<string> {
  return (await mcp.ok('assemble_context', { partition, strategy: 'state_based', query, preview: true })).text as string;
}

describeStores('specification test vectors over MCP', (_open, kind) => {
  let mcp: McpSession;
  let dir: string;
  const ok = (name: string, args: unknown) => mcp.ok(name, args);
  const context = (partition: string, query: string) => assembled(mcp, partition, query);

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'statelens-spec-mcp-'));
    const db = dbTarget(kind, 'spec').db;
    const events = path.join(dir, 'identity.jsonl');
    fs.writeFileSync(
      events,
      `${JSON.stringify({ type: 'identity', partition: 'user:acme/ian', identity_role: { user_name: 'Ian', authority: 'intern', department: 'Sales', organization: 'Acme' } })}\n`,
    );
    const ingest = await statelens(['ingest', events, '--db', db]);
    expect(ingest.code, ingest.stderr).toBe(0);
    mcp = await connectMcp(db, 'statelens-spec');
  }, 180_000);

  afterAll(async () => {
    await mcp?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('1: basic supersession — the context says cancelled, never approved', async () => {
    const P = 'user:acme/t1';
    await ok('record_facts', { partition: P, facts: [{ key: 'status_v1', value: 'approved' }] });
    const r = results(await ok('record_facts', { partition: P, facts: [{ key: 'status_v2', value: 'cancelled', supersedes: 'status_v1' }] }));
    expect(r[0]).toMatchObject({ outcome: 'superseded', rule: 'explicit' });
    const text = await context(P, 'What is the current status?');
    expect(text).toContain('cancelled');
    expect(text).not.toContain('approved');
    // Without the explicit pointer, the versioned key of the same entity supersedes too.
    await ok('record_facts', { partition: 'user:acme/t1b', facts: [{ key: 'status_v1', value: 'approved' }] });
    const implicit = results(await ok('record_facts', { partition: 'user:acme/t1b', facts: [{ key: 'status_v2', value: 'cancelled' }] }));
    expect(implicit[0]?.outcome).toBe('superseded');
    expect(implicit[0]?.reason).toMatch(/same entity "status" \(key-version/);
    expect(await context('user:acme/t1b', 'What is the current status?')).not.toContain('approved');
  });

  it('2: emphatic repetition — three mentions of approved do not outweigh one supersession', async () => {
    const P = 'user:acme/t2';
    for (let i = 0; i < 3; i++) await ok('record_facts', { partition: P, facts: [{ key: 'order_v1', value: 'approved' }] });
    const r = results(await ok('record_facts', { partition: P, facts: [{ key: 'order_v2', value: 'cancelled', supersedes: 'order_v1' }] }));
    expect(r[0]?.outcome).toBe('superseded');
    const text = await context(P, 'Should we proceed with the order?');
    expect(text).toContain('cancelled');
    expect(text).not.toContain('approved');
  });

  it("3: authority override — the intern's plain suggestion does not supersede the CFO's policy", async () => {
    const P = 'user:acme/ian';
    const policy = results(await ok('record_facts', { partition: P, facts: [{ key: 'policy', value: 'max 15%', source: { identity: 'CFO' } }] }));
    expect(policy[0]?.authority).toMatchObject({ role: 'executive' });
    await ok('record_turns', { partition: P, turns: [{ speaker: 'user', text: "Let's offer 25%" }] });
    const offer = results(await ok('record_facts', { partition: P, facts: [{ key: 'policy', value: "Let's offer 25%" }] }));
    expect(offer[0]).toMatchObject({ outcome: 'proposal', supersededId: null, authority: { role: 'intern', origin: 'identity' } });
    expect(offer[0]?.reason).toMatch(/^intern \(intern, from the session identity\) may not override CFO \(executive: cfo\)/);
    const text = await context(P, 'Can we offer 25%?');
    expect(text).toContain('max 15%');
    const found = (await ok('search_facts', { partition: P, query: 'policy' })).facts as Array<{ id: string; value: string }>;
    expect(found.map((f) => f.value)).toEqual(['max 15%']);
    expect(found[0]?.id).toBe(policy[0]?.factId);
  });
});
