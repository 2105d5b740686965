// The model's invariants as properties over random sequences of agent writes
// (supersedes by id, label or key; implicit same-key writes; authority and timestamp variants;
// dependencies) and user deletions (ids and filters) on every store: a valid fact has
// no superseded_by, chains are acyclic and every pointer resolves in its partition, a deletion
// flags every surviving transitive dependent and never revives a superseded fact, the preview
// predicts the delete, validity now is the as-of state after every timestamp, and verifyDatabase
// passes after every sequence.
// Then the as-of history under the engine's own inference (writes that name no `supersedes`,
// one at a time and batched, with timestamps in any order, and deletions): as of any instant
// at most one fact per (key, scope, scope id) is valid, and currentValue agrees with the as-of
// read after every timestamp. Explicit supersession is applied as given (it may leave two valid
// facts on one key, e.g. naming a fact of another key), so that property is not claimed for it.
import fc from 'fast-check';
import { expect, it } from 'vitest';

type ValueOf<A> = A extends fc.Arbitrary<infer T> ? T : never;
import type { Fact } from '../../shared/domain';
import type { FactWriteInput } from '../../shared/writes';
import type { DeletionSelectionInput, FactFilterInput } from '../../shared/query';
import type { PartitionHandle } from '../../electron/engine/partition-handle';
import type { Store } from '../../electron/engine/store';
import { verifyDatabase } from '../../electron/engine/verify/verify';
import { describeStores, propertyRuns, type OpenStore } from '../helpers/stores';
import { dependentsOf, pointerRows } from './support';

const RUNS = Number(process.env.STATELENS_PROPERTY_RUNS ?? 100);
const MAX_OPS = 40;

const KEYS = ['budget', 'meeting', 'owner', 'stock_price', 'address'] as const;
const VALUES = ['$200k', 'Tuesday 2pm', 'Ann', 'actually $120k', 'now Thursday', 'Bob', 'I moved to Oak Ave', 'draft: maybe $150k', '$95'] as const;
const LABELS = ['F-1', 'F-2', 'F-3', 'W-AUTO'] as const;
const AUTHORITIES = [undefined, 'guest', 'peer', 'employee', 'manager', 'executive', 'policy'] as const;

const refArb = fc.record({ via: fc.constantFrom('id', 'label', 'key'), pick: fc.nat() });
const writeArb = fc.record({
  op: fc.constant('write' as const),
  partition: fc.nat({ max: 1 }),
  key: fc.constantFrom(...KEYS),
  value: fc.constantFrom(...VALUES),
  label: fc.option(fc.constantFrom(...LABELS), { nil: undefined }),
  authority: fc.constantFrom(...AUTHORITIES),
  sourceType: fc.constantFrom('user', 'user', 'policy', 'observation'),
  day: fc.option(fc.integer({ min: 1, max: 28 }), { nil: undefined }),
  timeSensitive: fc.option(fc.boolean(), { nil: undefined }),
  supersedes: fc.option(refArb, { freq: 3, nil: undefined }),
  dependsOn: fc.array(fc.nat(), { maxLength: 3 }),
});
const deleteArb = fc.record({
  op: fc.constant('delete' as const),
  partition: fc.nat({ max: 1 }),
  how: fc.constantFrom('one', 'list', 'filter'),
  picks: fc.array(fc.nat(), { minLength: 1, maxLength: 4 }),
  filter: fc.constantFrom<FactFilterInput>(
    { key: 'budget' },
    { validity: 'superseded' as const },
    { validity: 'proposal' as const },
    { search: 'actually' },
    { needsReview: true },
    { sourceTypes: ['policy'] },
    { to: '2026-01-10T00:00:00Z' },
  ),
});
type Op = ValueOf<typeof writeArb> | ValueOf<typeof deleteArb>;
const opsArb = fc.array(fc.oneof({ arbitrary: writeArb, weight: 4 }, { arbitrary: deleteArb, weight: 1 }), { minLength: 1, maxLength: MAX_OPS });

function checkInvariants(store: Store): void {
  const rows = pointerRows(store.db);
  for (const f of rows.values()) {
    if (f.is_valid === 1) expect(f.superseded_by, `valid ${f.id} has superseded_by`).toBeNull();
    expect(f.is_valid === 1, `${f.id} status ${f.status}`).toBe(f.status === 'active');
    for (const pointer of [f.superseded_by, f.supersedes, f.proposal_for]) {
      if (pointer === null) continue;
      expect(rows.get(pointer)?.partition_id, `${f.id} points at ${pointer} outside its partition or nowhere`).toBe(f.partition_id);
    }
    if (f.supersedes !== null) expect(rows.get(f.supersedes)?.superseded_by, `${f.supersedes} does not name ${f.id} as successor`).toBe(f.id);
    const seen = new Set([f.id]);
    for (let next = f.superseded_by; next !== null; next = rows.get(next)?.superseded_by ?? null) {
      expect(seen.has(next), `cycle through ${next}`).toBe(false);
      seen.add(next);
    }
  }
  // Valid now exactly when the as-of window is open: the as-of state after every timestamp is
  // the valid facts.
  const disagree = store.db
    .prepare("SELECT id FROM facts WHERE is_valid <> CASE WHEN status <> 'proposal' AND valid_to IS NULL THEN 1 ELSE 0 END")
    .pluck()
    .all();
  expect(disagree, 'facts whose validity now differs from their open as-of window').toEqual([]);
}

function runSequence(openStore: OpenStore, ops: readonly Op[]): void {
  const store = openStore();
  try {
    const handles: PartitionHandle[] = [
      store.scope({ kind: 'user', org: 'acme', user: 'u1' }, { create: true }),
      store.scope({ kind: 'organizational', org: 'acme' }, { create: true }),
    ];
    const written: string[][] = [[], []];
    for (const op of ops) {
      const h = handles[op.partition]!;
      const mine = written[op.partition]!;
      if (op.op === 'write') {
        const input: FactWriteInput = {
          key: op.key,
          value: op.value,
          ...(op.label ? { label: op.label } : {}),
          source: { type: op.sourceType, ...(op.authority ? { authority: op.authority } : {}) },
          ...(op.day ? { ts: `2026-01-${String(op.day).padStart(2, '0')}T00:00:00Z` } : {}),
          ...(op.timeSensitive !== undefined ? { timeSensitive: op.timeSensitive } : {}),
          dependsOn: op.dependsOn.filter(() => mine.length > 0).map((i) => mine[i % mine.length]!),
        };
        if (op.supersedes && mine.length > 0) {
          const target = h.getFact(mine[op.supersedes.pick % mine.length]!);
          const ref = !target
            ? `gone-${op.supersedes.pick}`
            : op.supersedes.via === 'id'
              ? target.id
              : op.supersedes.via === 'label'
                ? (target.label ?? target.key)
                : target.key;
          input.supersedes = ref;
        }
        const result = h.writeFact(input);
        if (result.outcome !== 'duplicate') mine.push(result.factId);
      } else {
        const existing = h.allFacts().map((f) => f.id);
        if (existing.length === 0) continue;
        const selection: DeletionSelectionInput =
          op.how === 'filter'
            ? { filter: op.filter }
            : { ids: [...new Set((op.how === 'one' ? op.picks.slice(0, 1) : op.picks).map((i) => existing[i % existing.length]!))] };
        const before = pointerRows(store.db, h.id);
        const preview = h.previewDeletion(selection);
        const deleted = new Set(preview.ids);
        expect(preview.truncated).toBe(false);
        const dependents = [...dependentsOf(store.db, h.id, deleted)].filter((id) => !deleted.has(id));
        const result = h.deleteFacts(selection, { actor: 'property', reason: 'random deletion' });
        expect(result).toMatchObject({ deleted: preview.toDelete, flagged: preview.flaggedCount, relinked: preview.relinkedCount });
        expect(new Set(result.flaggedIds)).toEqual(new Set(dependents));
        expect(result.scrub === null || result.scrub.complete).toBe(true);
        const after = pointerRows(store.db, h.id);
        for (const id of before.keys()) expect(after.has(id), `${id} deleted or kept as planned`).toBe(!deleted.has(id));
        for (const id of dependents) {
          expect(after.get(id)?.needs_review, `dependent ${id} flagged`).toBe(1);
          expect(deleted.has(after.get(id)?.review_cause_fact ?? ''), `dependent ${id} names a deleted cause`).toBe(true);
        }
        for (const [id, row] of after) {
          // A deletion never changes whether a surviving fact is valid.
          expect(row.status, `status of ${id}`).toBe(before.get(id)?.status);
        }
      }
      checkInvariants(store);
    }
    const report = verifyDatabase(store);
    expect(report.checks.filter((c) => !c.ok)).toEqual([]);
  } finally {
    store.close();
  }
}

describeStores('engine invariants under random writes, supersessions and deletions', (openStore, kind) => {
  const runs = propertyRuns(kind, RUNS);
  it(`hold for ${runs} random sequences of up to ${MAX_OPS} operations`, () => {
    fc.assert(
      fc.property(opsArb, (ops) => runSequence(openStore, ops)),
      { numRuns: runs },
    );
  });
});

// ---- As-of history under inferred supersession ----

const END_OF_TIME = '9999-12-31T23:59:59Z';
const H_KEYS = ['budget', 'stock_price', 'owner', 'fx_rate'] as const; // stock_price, fx_rate: time-sensitive by name
const H_VALUES = ['$200k', 'actually $120k', 'Ann', 'Bob', '$95', '$90', 'what if $300k', 'draft: $150k', 'draft: $180k', 'now Thursday'] as const;

const historyWriteArb = fc.record({
  key: fc.constantFrom(...H_KEYS),
  value: fc.constantFrom(...H_VALUES),
  authority: fc.constantFrom(...AUTHORITIES),
  sourceType: fc.constantFrom('user', 'user', 'policy', 'observation'),
  // Few distinct days, so equal timestamps are common; none means the clock's now.
  day: fc.option(fc.integer({ min: 1, max: 12 }), { nil: undefined }),
  timeSensitive: fc.option(fc.boolean(), { nil: undefined }),
  task: fc.option(fc.constantFrom('T-1', 'T-2'), { freq: 4, nil: undefined }),
});
type HistoryWrite = ValueOf<typeof historyWriteArb>;
const historyOpArb = fc.oneof(
  { arbitrary: fc.record({ op: fc.constant('write' as const), w: historyWriteArb }), weight: 6 },
  { arbitrary: fc.record({ op: fc.constant('batch' as const), ws: fc.array(historyWriteArb, { minLength: 2, maxLength: 6 }) }), weight: 2 },
  {
    arbitrary: fc.record({
      op: fc.constant('delete' as const),
      picks: fc.array(fc.nat(), { minLength: 1, maxLength: 3 }),
      filter: fc.option(
        fc.constantFrom<FactFilterInput>(
          { key: 'stock_price' },
          { validity: 'valid' as const },
          { validity: 'superseded' as const },
          { to: '2026-01-06T00:00:00Z' },
        ),
        { nil: undefined },
      ),
    }),
    weight: 1,
  },
);

function historyInput(w: HistoryWrite): FactWriteInput {
  return {
    key: w.key,
    value: w.value,
    source: { type: w.sourceType, ...(w.authority ? { authority: w.authority } : {}) },
    ...(w.day ? { ts: `2026-01-${String(w.day).padStart(2, '0')}T00:00:00Z` } : {}),
    ...(w.timeSensitive !== undefined ? { timeSensitive: w.timeSensitive } : {}),
    ...(w.task ? { scope: 'task' as const, scopeId: w.task } : {}),
  };
}

function heldAt(facts: readonly Fact[], t: string): Fact[] {
  return facts.filter((f) => f.status !== 'proposal' && f.ts <= t && (f.validTo === null || f.validTo > t));
}

/** As of every instant where the history can change (each ts and valid_to), at most one fact
 * per (key, scope, scope id); the valid facts are the state after every timestamp, and
 * currentValue agrees with it. With `viaReads`, the engine's paged as-of read is compared with
 * the windows at every such instant too. */
function checkHistory(h: PartitionHandle, viaReads: boolean): void {
  const facts = h.allFacts();
  const instants = new Set<string>([END_OF_TIME]);
  for (const f of facts) {
    instants.add(f.ts);
    if (f.validTo !== null) instants.add(f.validTo);
  }
  for (const t of instants) {
    const held = heldAt(facts, t);
    const byHistory = new Map<string, string[]>();
    for (const f of held) {
      const k = `${f.key} / ${f.scope} / ${f.scopeId ?? '-'}`;
      byHistory.set(k, [...(byHistory.get(k) ?? []), `${f.id}=${f.value} [${f.ts}, ${f.validTo ?? 'open'})`]);
    }
    for (const [k, ids] of byHistory) expect(ids.length, `as of ${t}, ${k} has ${ids.join(', ')}`).toBe(1);
    if (viaReads)
      expect(
        h.allFactsAsOf(t).map((f) => f.id),
        `factsAsOf(${t})`,
      ).toEqual(held.map((f) => f.id));
  }
  const now = h.allFactsAsOf(END_OF_TIME);
  expect(new Set(now.map((f) => f.id)), 'valid now = as of after every timestamp').toEqual(new Set(h.validFacts().map((f) => f.id)));
  for (const key of H_KEYS) {
    const asOf = now.find((f) => f.key === key && f.scope === 'global');
    expect(h.currentValue(key), `currentValue(${key})`).toBe(asOf?.value);
  }
}

function runHistory(openStore: OpenStore, ops: ReadonlyArray<ValueOf<typeof historyOpArb>>): void {
  const store = openStore();
  try {
    const h = store.scope({ kind: 'user', org: 'acme', user: 'u1' }, { create: true });
    for (const op of ops) {
      if (op.op === 'write') h.writeFact(historyInput(op.w));
      else if (op.op === 'batch') h.writeFacts(op.ws.map(historyInput));
      else {
        const existing = h.allFacts().map((f) => f.id);
        if (existing.length === 0) continue;
        const selection: DeletionSelectionInput = op.filter
          ? { filter: op.filter }
          : { ids: [...new Set(op.picks.map((i) => existing[i % existing.length]!))] };
        h.deleteFacts(selection, { actor: 'property', reason: 'random deletion' });
      }
      checkHistory(h, false);
    }
    checkHistory(h, true);
  } finally {
    store.close();
  }
}

describeStores('as-of history under inferred supersession', (openStore, kind) => {
  const runs = propertyRuns(kind, RUNS);
  it(`at most one valid fact per (key, scope) at any instant, and currentValue = the as-of read now, over ${runs} random sequences`, () => {
    fc.assert(
      fc.property(fc.array(historyOpArb, { minLength: 1, maxLength: MAX_OPS }), (ops) => runHistory(openStore, ops)),
      { numRuns: runs },
    );
  });

  it('a late write between two timestamps (the reported overlap) leaves one value per instant', () => {
    runHistory(openStore, [
      { op: 'write', w: { key: 'stock_price', value: '$200k', authority: undefined, sourceType: 'user', day: 1, timeSensitive: undefined, task: undefined } },
      { op: 'write', w: { key: 'stock_price', value: '$95', authority: undefined, sourceType: 'user', day: 9, timeSensitive: undefined, task: undefined } },
      { op: 'write', w: { key: 'stock_price', value: '$90', authority: undefined, sourceType: 'user', day: 5, timeSensitive: undefined, task: undefined } },
    ]);
  });
});
