// Implicit supersession through the public interface: an agent records a fact and then the
// user's turn over MCP (the SDK's client, the real `statelens mcp` child); the context it
// assembles no longer presents the old statement, and the inspector can say why; on every store.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { dbTarget, type DbTarget } from '../helpers/db-targets';
import { describeStores } from '../helpers/stores';
import { connectMcp, readServed, type McpSession } from './client';

interface Conflict {
  factId: string;
  outcome: string;
  newFactId: string | null;
  cue: string;
  entity: string;
  reason: string;
}

describeStores('a turn that contradicts a fact, over MCP', (_open, kind) => {
  let mcp: McpSession;
  let target: DbTarget;
  const ok = (name: string, args: unknown) => mcp.ok(name, args);

  beforeAll(async () => {
    target = dbTarget(kind, 'turns');
    mcp = await connectMcp(target.db, 'statelens-turns-test');
  }, 120_000);

  afterAll(async () => {
    await mcp?.close();
  });

  it('"Meeting is Tuesday at 2pm", then "Let\'s do the meeting Thursday at 3pm": only Thursday is current, and the chain says why', async () => {
    const P = 'user:acme/ana';
    const written = await ok('record_facts', { partition: P, facts: [{ key: 'meeting', value: 'Meeting is Tuesday at 2pm', ts: '2026-03-01T09:00:00Z' }] });
    const oldId = (written.results as Array<{ factId: string }>)[0]?.factId;
    const recorded = await ok('record_turns', {
      partition: P,
      session_id: 'chat',
      turns: [{ speaker: 'user', text: "Let's do the meeting Thursday at 3pm", ts: '2026-03-01T10:00:00Z' }],
    });
    const [conflict] = (recorded.items as Array<{ conflicts: Conflict[] }>)[0]?.conflicts ?? [];
    expect(conflict).toMatchObject({ factId: oldId, outcome: 'superseded', cue: "let's do", entity: 'meeting' });

    const ctx = await ok('assemble_context', { partition: P, strategy: 'state_based', query: 'When is the meeting?', session_id: 'chat', preview: true });
    expect(ctx.text).toContain('meeting: Meeting is Thursday at 3pm');
    expect(ctx.text).not.toContain('Tuesday');
    expect(ctx.text).not.toContain('2pm');

    mcp = await readServed(
      target,
      mcp,
      (store) => {
        const h = store.scope({ kind: 'user', org: 'acme', user: 'ana' });
        const chain = h.chain(oldId ?? '');
        expect(chain.versions.map((v) => v.value)).toEqual(['Meeting is Tuesday at 2pm', 'Meeting is Thursday at 3pm']);
        const old = chain.versions[0];
        expect(old?.supersessionRule).toBe('implicit');
        expect(old?.supersessionReason).toBe(
          `turn 0 of session "chat" (user) names "meeting" with the change cue "let's do" and states a different day and time`,
        );
        expect(chain.versions[1]?.source).toMatchObject({ type: 'conversation', identity: 'user', turnIndex: 0 });
      },
      'statelens-turns-test',
    );
  }, 120_000);

  it('a hedged turn flags the fact for review instead; the context marks it and the review queue names the turn', async () => {
    const P = 'user:acme/ben';
    const written = await ok('record_facts', { partition: P, facts: [{ key: 'meeting', value: 'Meeting is Tuesday at 2pm' }] });
    const oldId = (written.results as Array<{ factId: string }>)[0]?.factId;
    const recorded = await ok('record_turns', { partition: P, turns: [{ speaker: 'user', text: 'Could we maybe move the meeting to Thursday instead?' }] });
    expect((recorded.items as Array<{ conflicts: Conflict[] }>)[0]?.conflicts[0]).toMatchObject({ factId: oldId, outcome: 'needs_review', newFactId: null });

    const ctx = await ok('assemble_context', { partition: P, strategy: 'state_based', query: 'When is the meeting?', preview: true });
    expect(ctx.text).toContain('[NEEDS REVIEW] meeting: Meeting is Tuesday at 2pm');

    mcp = await readServed(
      target,
      mcp,
      (store) => {
        const h = store.scope({ kind: 'user', org: 'acme', user: 'ben' });
        const [entry] = h.reviewQueue().entries;
        expect(entry?.fact.id).toBe(oldId);
        expect(entry?.cause.text).toMatch(/^contradicted by turn 0 of session "default" \(user\) names "meeting" with the change cue "instead"/);
        expect(entry?.cause.turn).toMatchObject({
          sessionId: 'default',
          turnIndex: 0,
          speaker: 'user',
          text: 'Could we maybe move the meeting to Thursday instead?',
          cue: 'instead',
        });
      },
      'statelens-turns-test',
    );
  }, 120_000);
});
