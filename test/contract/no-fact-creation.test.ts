// Users may delete memories but never create them: every call channel of the contract, given
// valid payloads (the samples and random valid variations of them), is called through the
// registrar against a real engine, and the set of stored fact ids is compared before and after.
// A channel that added a fact, whatever its name, fails here.
import path from 'node:path';
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CALL_CHANNELS, callDef, type CallChannel } from '../../shared/contract';
import { migratePg } from '../../electron/engine/db/pg/schema';
import { SyncPg } from '../../electron/engine/db/pg/sync-client';
import { RecentServers } from '../../electron/main/recent-files';
import type { Fixture } from './fixture';
import { senderEvent, startFixtureHarness, type FixtureHarness } from './harness';
import { allSamples } from './samples';

const VARIATIONS = 25;
let fx: Fixture;
let h: FixtureHarness;

beforeAll(async () => {
  h = await startFixtureHarness('statelens-no-create-');
  fx = h.fx;
  // The recent server `db.connect` reopens: an empty PostgreSQL store (PGlite, in this process).
  const pgDir = path.join(h.dir, 'pg');
  const setup = SyncPg.open({ kind: 'pglite', dataDir: pgDir });
  try {
    migratePg(setup);
  } finally {
    setup.close();
  }
  new RecentServers(path.join(h.dir, 'data', 'recent-servers.json')).remember({ url: `pglite:${pgDir}`, schema: 'statelens', org: 'acme' });
}, 120_000);
afterAll(() => h?.close());

function storedFactIds(): Set<string> {
  const db = new Database(fx.path, { readonly: true });
  try {
    return new Set(db.prepare('SELECT id FROM facts').pluck().all() as string[]);
  } finally {
    db.close();
  }
}

/** Valid payloads: each sample, and samples with one number or string inside replaced by another
 * value of the same kind, kept only when the contract still accepts them. */
function validPayloads(channel: CallChannel): unknown[] {
  const samples = allSamples(fx)[channel] as readonly unknown[];
  const varied = fc.sample(
    fc
      .tuple(
        fc.constantFrom(...samples),
        fc.nat(),
        fc.oneof(fc.string({ maxLength: 20 }), fc.integer({ min: 0, max: 5000 }), fc.constantFrom(fx.chainHeadId, fx.flaggedId, ...fx.factIds.slice(0, 10))),
      )
      .map(([sample, pick, value]) => vary(sample, pick, value)),
    { numRuns: VARIATIONS, seed: 20261125 + CALL_CHANNELS.indexOf(channel) },
  );
  return [...samples, ...varied.filter((p) => callDef(channel).input.safeParse(p).success)];
}

function vary(sample: unknown, pick: number, value: string | number): unknown {
  const copy = structuredClone(sample) as Record<string, unknown>;
  const leaves: Array<[Record<string, unknown> | unknown[], string | number]> = [];
  const walk = (v: unknown) => {
    const entries: Array<[string | number, unknown]> = Array.isArray(v) ? v.map((x, i) => [i, x]) : v && typeof v === 'object' ? Object.entries(v) : [];
    for (const [k, x] of entries) {
      if (x !== null && typeof x === 'object') walk(x);
      else leaves.push([v as Record<string, unknown>, k]);
    }
  };
  walk(copy);
  const leaf = leaves[pick % Math.max(1, leaves.length)];
  if (leaf && typeof (leaf[0] as Record<string | number, unknown>)[leaf[1]] === typeof value) (leaf[0] as Record<string | number, unknown>)[leaf[1]] = value;
  return copy;
}

/** An undo names a dismissal: the sample's is made just before it (the fixture's flagged fact,
 * flagged again as an agent's write would, then dismissed), so the call is one that works;
 * variations keep the ids they were given. */
async function withFreshDismissal(channel: CallChannel, payload: unknown): Promise<unknown> {
  const sample = payload as { partitionId?: number; auditId?: number };
  if (channel !== 'review.undoDismiss' || sample.auditId !== 1 || sample.partitionId === undefined) return payload;
  const db = new Database(fx.path);
  try {
    db.prepare("UPDATE facts SET needs_review = 1, review_cause = 'an upstream fact changed' WHERE id = ?").run(fx.flaggedId);
  } finally {
    db.close();
  }
  const dismissed = await h.registrar.receive('review.dismiss', senderEvent(h.contents), [{ partitionId: sample.partitionId, factIds: [fx.flaggedId] }]);
  const auditId = dismissed.ok ? (dismissed.value as { auditId: number | null }).auditId : null;
  return auditId === null ? payload : { ...sample, auditId };
}

describe('no channel creates a fact', () => {
  for (const channel of CALL_CHANNELS) {
    it(`${channel}: no fact id appears after any valid call`, async () => {
      const answered: string[] = [];
      for (const payload of validPayloads(channel)) {
        await h.services.engine.call('db.openPath', { path: fx.path, create: false, readonly: false });
        const call = await withFreshDismissal(channel, payload);
        const before = storedFactIds();
        const result = await h.registrar.receive(channel, senderEvent(h.contents), [call]);
        answered.push(result.ok ? 'ok' : result.error.code);
        // An export runs on after its answer: ask again (a call queued behind it) before counting.
        await h.registrar.receive('partitions.list', senderEvent(h.contents), [{}]);
        const created = [...storedFactIds()].filter((id) => !before.has(id));
        expect(created, `${channel} ${JSON.stringify(payload)} created facts`).toEqual([]);
      }
      // The samples themselves are answered (so the check above ran on calls that did work).
      expect(answered, `${channel}: ${answered.join(', ')}`).toContain('ok');
    });
  }
});
