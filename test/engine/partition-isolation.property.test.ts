// Privacy by architecture, as a property: random writes into several partitions (users and
// capabilities of two orgs, organisational knowledge of both), and every read through one
// handle (valid and all facts, getFact and chain of another partition's id, as-of reads,
// current values, working items, documents, deletion previews) returns only that partition's
// rows, while a deletion in one partition (by filter or by ids) never touches another's.
import fc from 'fast-check';
import { expect, it } from 'vitest';

type ValueOf<A> = A extends fc.Arbitrary<infer T> ? T : never;
import type { PartitionRef } from '../../shared/domain';
import type { PartitionHandle } from '../../electron/engine/partition-handle';
import type { Store } from '../../electron/engine/store';
import { describeStores, propertyRuns, type OpenStore } from '../helpers/stores';

const RUNS = Number(process.env.STATELENS_PROPERTY_RUNS ?? 100);
const MAX_OPS = 30;

const PARTITIONS: PartitionRef[] = [
  { kind: 'user', org: 'acme', user: 'ann' },
  { kind: 'user', org: 'acme', user: 'bob' },
  { kind: 'capability', org: 'acme', capability: 'billing' },
  { kind: 'organizational', org: 'acme' },
  { kind: 'user', org: 'globex', user: 'ann' },
  { kind: 'organizational', org: 'globex' },
];
// Shared vocabulary, so ids, keys and search words collide across partitions.
const KEYS = ['budget', 'owner', 'policy', 'meeting'] as const;
const WORDS = ['alpha', 'bravo', 'charlie', 'delta'] as const;

const partitionArb = fc.nat({ max: PARTITIONS.length - 1 });
const opArb = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      op: fc.constant('fact' as const),
      p: partitionArb,
      key: fc.constantFrom(...KEYS),
      word: fc.constantFrom(...WORDS),
      n: fc.nat({ max: 3 }),
      dep: fc.option(fc.nat(), { nil: undefined }),
    }),
  },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('item' as const), p: partitionArb, word: fc.constantFrom(...WORDS) }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('document' as const), p: fc.constantFrom(3, 5), word: fc.constantFrom(...WORDS) }) },
  {
    weight: 2,
    arbitrary: fc.record({
      op: fc.constant('deleteFilter' as const),
      p: partitionArb,
      filter: fc.oneof(
        fc.record({ search: fc.constantFrom(...WORDS) }),
        fc.record({ key: fc.constantFrom(...KEYS) }),
        fc.constant({ validity: 'superseded' as const }),
      ),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      op: fc.constant('deleteIds' as const),
      p: partitionArb,
      picks: fc.array(fc.nat(), { minLength: 1, maxLength: 3 }),
      foreign: fc.boolean(),
    }),
  },
);

interface Owned {
  facts: Map<string, number>;
  items: Map<string, number>;
  documents: Map<string, number>;
}

function otherPartitionsDump(store: Store, partitionId: number): string {
  const q = (sql: string): unknown[] => store.db.prepare(sql).all(partitionId);
  return JSON.stringify([
    q('SELECT * FROM facts WHERE partition_id <> ? ORDER BY rid'),
    q('SELECT * FROM fact_edges WHERE partition_id <> ? ORDER BY dependent, depends_on'),
    q('SELECT * FROM working_items WHERE partition_id <> ? ORDER BY rid'),
    q('SELECT * FROM org_documents WHERE partition_id <> ? ORDER BY rid'),
    q('SELECT * FROM audit_log WHERE partition_id IS NOT ? ORDER BY id'),
  ]);
}

function checkReads(handles: PartitionHandle[], owned: Owned): void {
  const allFactIds = [...owned.facts.keys()];
  handles.forEach((h, i) => {
    const mine = (id: string): boolean => owned.facts.get(id) === i;
    for (const f of h.allFacts()) expect(mine(f.id), `allFacts of ${i} returned ${f.id}`).toBe(true);
    for (const f of h.validFacts()) expect(mine(f.id), `validFacts of ${i} returned ${f.id}`).toBe(true);
    for (const f of h.allFactsAsOf('2100-01-01T00:00:00Z')) expect(mine(f.id), `factsAsOf of ${i} returned ${f.id}`).toBe(true);
    for (const key of KEYS) {
      const current = h.currentFact(key);
      if (current) expect(mine(current.id), `currentFact(${key}) of ${i}`).toBe(true);
    }
    for (const id of allFactIds) {
      if (mine(id)) continue;
      expect(h.getFact(id), `getFact(${id}) through ${i}`).toBeUndefined();
      expect(h.chain(id), `chain(${id}) through ${i}`).toEqual({ versions: [], proposals: [] });
    }
    for (const f of h.allFacts()) {
      const detail = h.getFact(f.id);
      for (const linked of [...(detail?.dependsOn ?? []), ...(detail?.derivedFacts ?? [])]) expect(mine(linked), `edge ${f.id} -> ${linked}`).toBe(true);
      const { versions, proposals } = h.chain(f.id);
      for (const v of [...versions, ...proposals]) expect(mine(v.id), `chain of ${f.id} holds ${v.id}`).toBe(true);
    }
    for (const w of h.workingItems({ includeExpired: true })) expect(owned.items.get(w.id), `working item ${w.id} through ${i}`).toBe(i);
    for (const d of h.documents()) expect(owned.documents.get(d.id), `document ${d.id} through ${i}`).toBe(i);
    const everything = h.previewDeletion({ all: true });
    expect(everything.toDelete).toBe(h.allFacts().length);
    for (const id of everything.ids) expect(mine(id), `deletion preview of ${i} holds ${id}`).toBe(true);
  });
}

function runSequence(openStore: OpenStore, ops: ReadonlyArray<ValueOf<typeof opArb>>): void {
  const store = openStore();
  try {
    const handles = PARTITIONS.map((ref) => store.scope(ref, { create: true }));
    const owned: Owned = { facts: new Map(), items: new Map(), documents: new Map() };
    for (const op of ops) {
      const h = handles[op.p]!;
      const mineList = (): string[] => [...owned.facts].filter(([, p]) => p === op.p).map(([id]) => id);
      if (op.op === 'fact') {
        const deps = mineList();
        const r = h.writeFact({
          key: op.key,
          value: `${op.word} ${op.n}`,
          ...(op.dep !== undefined && deps.length > 0 ? { dependsOn: [deps[op.dep % deps.length]!] } : {}),
        });
        if (r.outcome !== 'duplicate') owned.facts.set(r.factId, op.p);
      } else if (op.op === 'item') {
        const [id] = h.addWorkingItems([{ key: 'turn', value: `said ${op.word}` }]);
        owned.items.set(id!, op.p);
      } else if (op.op === 'document') {
        owned.documents.set(h.putDocument({ title: op.word, body: `about ${op.word}` }), op.p);
      } else if (op.op === 'deleteFilter') {
        const before = otherPartitionsDump(store, h.id);
        const ownBefore = new Set(h.allFacts().map((f) => f.id));
        const result = h.deleteFacts({ filter: op.filter }, { actor: 'isolation' });
        expect(otherPartitionsDump(store, h.id)).toBe(before);
        const ownAfter = new Set(h.allFacts().map((f) => f.id));
        expect(ownBefore.size - ownAfter.size).toBe(result.deleted);
        for (const id of ownBefore) if (!ownAfter.has(id)) owned.facts.delete(id);
      } else {
        const mine = mineList();
        const others = [...owned.facts].filter(([, p]) => p !== op.p).map(([id]) => id);
        const pool = op.foreign ? others : mine;
        if (pool.length === 0) continue;
        const ids = [...new Set(op.picks.map((i) => pool[i % pool.length]!))];
        const before = otherPartitionsDump(store, h.id);
        if (op.foreign) {
          const all = JSON.stringify(store.db.prepare('SELECT * FROM facts ORDER BY rid').all());
          expect(() => h.deleteFacts({ ids }, { actor: 'isolation' })).toThrow(expect.objectContaining({ code: 'NOT_FOUND' }));
          expect(h.previewDeletion({ ids }).toDelete).toBe(0);
          expect(JSON.stringify(store.db.prepare('SELECT * FROM facts ORDER BY rid').all())).toBe(all);
        } else {
          expect(h.deleteFacts({ ids }, { actor: 'isolation' }).deleted).toBe(ids.length);
          for (const id of ids) owned.facts.delete(id);
        }
        expect(otherPartitionsDump(store, h.id)).toBe(before);
      }
    }
    checkReads(handles, owned);
  } finally {
    store.close();
  }
}

describeStores('partition isolation', (openStore, kind) => {
  const runs = propertyRuns(kind, RUNS);
  it(`no read or delete through one handle reaches another partition (${runs} runs)`, () => {
    fc.assert(
      fc.property(fc.array(opArb, { minLength: 1, maxLength: MAX_OPS }), (ops) => runSequence(openStore, ops)),
      { numRuns: runs },
    );
  });
});
