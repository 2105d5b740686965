// Property: for random stores built through the engine's own write paths (facts with every
// supersession rule, dependencies, proposals, deletions, turns, environment, queries, agent
// state, context documents, documents), export -> import into an empty database -> export
// gives the same content, ignoring nothing but the export timestamp; json and ndjson agree.
import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { exportStore } from '../../electron/engine/snapshot/export';
import { importSnapshotFile } from '../../electron/engine/snapshot/import';
import type { Store } from '../../electron/engine/store';
import { describeStores, propertyRuns } from '../helpers/stores';
import { tmpDir } from '../helpers/tmp';
import { withoutTimestamp } from './populate';

const PARTITIONS = [
  { kind: 'user', org: 'acme', user: 'u1' },
  { kind: 'user', org: 'acme', user: 'u2' },
  { kind: 'capability', org: 'acme', capability: 'billing' },
] as const;
const KEYS = ['budget', 'meeting', 'stock_price', 'plan', 'owner', 'city'];
const VALUES = ['$200k', 'actually $120k', 'what if we hire?', 'Thursday "3pm"', 'naïve café ☕', 'line one\nline two', '=SUM(A1)', 'tentative draft', ''];
const AUTHORITIES = [null, 'intern', 'peer', 'manager', 'policy'];

const op = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      op: fc.constant('write' as const),
      p: fc.nat(2),
      key: fc.constantFrom(...KEYS),
      value: fc.constantFrom(...VALUES),
      authority: fc.constantFrom(...AUTHORITIES),
      day: fc.nat(30),
      supersedes: fc.option(fc.constantFrom(...KEYS)),
      depend: fc.boolean(),
    }),
  },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('delete' as const), p: fc.nat(2), pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('turn' as const), p: fc.nat(1), text: fc.string({ maxLength: 30 }) }) },
  {
    weight: 1,
    arbitrary: fc.record({
      op: fc.constant('env' as const),
      p: fc.nat(1),
      key: fc.constantFrom('now', 'timezone', 'alert'),
      value: fc.string({ maxLength: 20 }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('query' as const), p: fc.nat(1), prompt: fc.string({ minLength: 1, maxLength: 30 }) }) },
  {
    weight: 1,
    arbitrary: fc.record({
      op: fc.constant('state' as const),
      p: fc.nat(1),
      session: fc.constantFrom('s1', 's2'),
      id: fc.constantFrom('x1', 'x2'),
      count: fc.nat(3),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ op: fc.constant('doc' as const), p: fc.nat(1), session: fc.constantFrom('memory', 's1'), body: fc.string({ maxLength: 60 }) }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      op: fc.constant('orgdoc' as const),
      title: fc.string({ minLength: 1, maxLength: 20 }),
      acl: fc.array(fc.constantFrom('hr', 'finance'), { maxLength: 2 }),
    }),
  },
);
type Op = typeof op extends fc.Arbitrary<infer T> ? T : never;

function apply(store: Store, ops: readonly Op[]): void {
  for (const o of ops) {
    try {
      switch (o.op) {
        case 'write': {
          let h = store.scope(PARTITIONS[o.p] ?? PARTITIONS[0], { create: true });
          if (h.ctx.kind === 'capability' && h.ctx.maturity !== 'master') {
            store.setMaturity(h.id, 'master', { actor: 'admin' });
            h = store.scopeById(h.id);
          }
          const previous = o.depend ? h.allFacts().at(-1)?.id : undefined;
          h.writeFact({
            key: o.key,
            value: o.value || 'empty',
            ts: `2026-01-${String(1 + o.day).padStart(2, '0')}T00:00:00Z`,
            source: { type: o.authority === 'policy' ? 'policy' : 'user', authority: o.authority },
            ...(o.supersedes ? { supersedes: o.supersedes } : {}),
            ...(previous ? { dependsOn: [previous] } : {}),
          });
          break;
        }
        case 'delete': {
          const h = store.scope(PARTITIONS[o.p] ?? PARTITIONS[0], { create: true });
          const facts = h.allFacts();
          const victim = facts[o.pick % Math.max(1, facts.length)];
          if (victim) h.deleteFacts({ ids: [victim.id] }, { actor: 'test', reason: 'property' });
          break;
        }
        case 'turn':
          store
            .scope(PARTITIONS[o.p] ?? PARTITIONS[0], { create: true })
            .addWorkingItems([{ sessionId: 's1', key: 'turn', value: o.text, itemType: 'turn', speaker: 'user' }]);
          break;
        case 'env':
          store.scope(PARTITIONS[o.p] ?? PARTITIONS[0], { create: true }).setEnvironment([{ key: o.key, value: o.value }]);
          break;
        case 'query':
          store
            .scope(PARTITIONS[o.p] ?? PARTITIONS[0], { create: true })
            .saveQuery({ label: 'Q', prompt: o.prompt, groundTruth: { must_mention: [o.prompt] } });
          break;
        case 'state':
          store.scope(PARTITIONS[o.p] ?? PARTITIONS[0], { create: true }).applyAgentStateUpdate(o.session, {
            expectations: [{ id: o.id, action: 'act', expected_outcome: 'n items', expected_count: o.count }],
            assumptions: [{ id: 'a1', hypothesis: 'h', confidence: 0.5 }],
          });
          break;
        case 'doc':
          store.scope(PARTITIONS[o.p] ?? PARTITIONS[0], { create: true }).putContextDocument(o.session, o.body);
          break;
        case 'orgdoc':
          store.scope({ kind: 'organizational', org: 'acme' }, { create: true }).putDocument({ title: o.title, body: 'body', acl: o.acl });
          break;
      }
    } catch (e) {
      // Typed refusals (a level the maturity forbids, an empty title...) are part of the domain.
      if (!(e instanceof Error) || e.name !== 'StatelensError') throw e;
    }
  }
}

describeStores('snapshot round trip (property)', (openStore, kind) => {
  it('export -> import into an empty database -> export is identical, for json and ndjson', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 40 }), async (ops) => {
        const store = openStore();
        const copyNd = openStore();
        const copyJson = openStore();
        try {
          apply(store, ops);
          const dir = tmpDir();
          const a = path.join(dir, 'a.ndjson');
          const j = path.join(dir, 'a.json');
          await exportStore(store, { format: 'ndjson', out: a });
          await exportStore(store, { format: 'json', out: j });
          const first = fs.readFileSync(a, 'utf8');

          // json and ndjson carry the same records.
          const doc = JSON.parse(fs.readFileSync(j, 'utf8')) as { header: unknown; records: unknown[]; end: unknown };
          const lines = first
            .trimEnd()
            .split('\n')
            .map((l) => JSON.parse(l) as unknown);
          expect([doc.header, ...doc.records, doc.end].map((r) => withoutTimestamp(JSON.stringify(r)))).toEqual(
            lines.map((r) => withoutTimestamp(JSON.stringify(r))),
          );

          importSnapshotFile(copyNd, a);
          importSnapshotFile(copyJson, j);
          for (const copy of [copyNd, copyJson]) {
            const b = path.join(dir, `b-${copy === copyNd ? 'nd' : 'json'}.ndjson`);
            await exportStore(copy, { format: 'ndjson', out: b });
            expect(withoutTimestamp(fs.readFileSync(b, 'utf8'))).toBe(withoutTimestamp(first));
          }
          // The restored store answers like the original.
          for (const ref of PARTITIONS) {
            const ids = store.listPartitions().find((p) => JSON.stringify(p.ref) === JSON.stringify(ref));
            if (!ids) continue;
            expect(copyNd.scope(ref).validFacts()).toEqual(store.scope(ref).validFacts());
          }
        } finally {
          store.close();
          copyNd.close();
          copyJson.close();
        }
      }),
      { numRuns: propertyRuns(kind, 25) },
    );
    // Three stores, two exports and two imports a run: near two minutes on PGlite on a loaded machine.
  }, 600_000);
});
