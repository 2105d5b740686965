// The batched write path (FactWriteBatch, used by PartitionHandle.writeFacts, the importer and
// the demo generator) must leave exactly the database the one-at-a-time path leaves: same rows,
// chains, edges, review flags, audit entries and write results, over random write sequences.
import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { FactWriteBatch, writeFact } from '../../electron/engine/facts/write';
import { Store } from '../../electron/engine/store';
import type { FactWriteInput, WriteResult } from '../../shared/writes';
import { tmpDbPath } from '../helpers/tmp';
import { describeStores } from '../helpers/stores';

// Keys and values that meet under one entity too (a key version, one meeting's time and day, a
// generic key whose value names the meeting), so held rows must be found by entity as well.
const keys = ['budget', 'owner', 'stock_price', 'status', 'office', 'budget_v2', 'meeting_time', 'meeting_day', 'update'];
const values = [
  '$200k',
  'actually $120k',
  'Ann',
  'Bob',
  'draft plan',
  'what if we move',
  'must not exceed $5k',
  '42',
  'Tuesday 2pm',
  "let's do the meeting Thursday 3pm",
];
const entities = ['meeting', 'offsite'];
const labels = ['W-AUTO', 'F-1', 'F-2'];
const authorities = [null, 'guest', 'peer', 'manager', 'executive', 'policy'];
const sourceTypes = ['user', 'policy', 'system'];
const stamps = ['2026-01-01T00:00:00Z', '2026-01-02T00:00:00Z', '2026-01-03T00:00:00Z'];
/** Ids the deterministic id source hands out, so references can name earlier facts. */
const ids = Array.from({ length: 12 }, (_, i) => `f_${String(i + 1).padStart(8, '0')}`);
const refs = [...keys, ...labels, ...ids, 'nothing-here'];

const writeArb: fc.Arbitrary<FactWriteInput> = fc
  .record(
    {
      key: fc.constantFrom(...keys),
      value: fc.constantFrom(...values),
      label: fc.constantFrom(...labels),
      authority: fc.constantFrom(...authorities),
      type: fc.constantFrom(...sourceTypes),
      ts: fc.constantFrom(...stamps),
      scope: fc.constantFrom('draft', 'task'),
      entity: fc.constantFrom(...entities),
      supersedes: fc.constantFrom(...refs),
      dependsOn: fc.array(fc.constantFrom(...refs), { maxLength: 2 }),
      derivedFacts: fc.array(fc.constantFrom(...refs), { maxLength: 1 }),
    },
    { requiredKeys: ['key', 'value'] },
  )
  .map((r) => ({
    key: r.key,
    value: r.value,
    ...(r.label ? { label: r.label } : {}),
    ...(r.type || r.authority !== undefined ? { source: { type: r.type ?? 'user', authority: r.authority ?? null } } : {}),
    ...(r.ts ? { ts: r.ts } : {}),
    ...(r.entity ? { entity: r.entity } : {}),
    ...(r.scope ? { scope: r.scope, ...(r.scope === 'task' ? { scopeId: 't1' } : {}) } : {}),
    ...(r.supersedes ? { supersedes: r.supersedes } : {}),
    ...(r.dependsOn?.length ? { dependsOn: r.dependsOn } : {}),
    ...(r.derivedFacts?.length ? { derivedFacts: r.derivedFacts } : {}),
  }));

function dump(store: Store): unknown {
  const db = store.db;
  return {
    facts: db.prepare('SELECT * FROM facts ORDER BY rid').all(),
    edges: db.prepare('SELECT * FROM fact_edges ORDER BY dependent, depends_on').all(),
    audit: db.prepare('SELECT at, actor, action, partition_id, target_ids, reason, details FROM audit_log ORDER BY id').all(),
    fts: db.prepare("SELECT rowid FROM facts_fts WHERE facts_fts MATCH 'budget OR ann OR plan' ORDER BY rowid").all(),
  };
}

// Every run starts from a copy of one migrated, empty database (creating one per run is slow).
let template: string | undefined;
let copies = 0;

function freshStore(): Store {
  if (!template || !fs.existsSync(template)) {
    // (each test's temporary folders are removed after it)
    template = tmpDbPath('template.db');
    Store.open(template).close();
  }
  const file = path.join(path.dirname(template), `run-${++copies}.db`);
  fs.copyFileSync(template, file);
  let id = 0;
  let t = Date.parse('2026-01-01T00:00:00.000Z');
  return Store.open(file, { clock: { now: () => new Date((t += 1000)).toISOString() }, idSource: () => String(++id).padStart(8, '0') });
}

function run(inputs: readonly FactWriteInput[], batchSize: number | null): { results: WriteResult[]; state: unknown } {
  const store = freshStore();
  try {
    const handle = store.scope({ kind: 'user', org: 'acme', user: 'u1' }, { create: true });
    // The user's own unlabelled words carry this authority (read once per batch).
    handle.setIdentity({ userName: 'Ann', userId: 'u1', authority: 'manager', department: 'Sales', organization: 'Acme', permissions: [] });
    const results = store.write([handle.id], 'test', () => {
      if (batchSize === null) return inputs.map((i) => writeFact(handle.ctx, i));
      const batch = new FactWriteBatch(handle.ctx, batchSize);
      const out = inputs.map((i) => batch.write(i));
      batch.flush();
      return out;
    });
    return { results, state: dump(store) };
  } finally {
    store.close();
    for (const suffix of ['', '-wal', '-shm']) fs.rmSync(`${store.path}${suffix}`, { force: true });
  }
}

describeStores('batched fact writes', (openStore) => {
  it('leave the same database as one write at a time', () => {
    fc.assert(
      fc.property(fc.array(writeArb, { minLength: 1, maxLength: 14 }), fc.integer({ min: 1, max: 6 }), (inputs, batchSize) => {
        const one = run(inputs, null);
        const many = run(inputs, batchSize);
        expect(many.results).toEqual(one.results);
        expect(many.state).toEqual(one.state);
      }),
      { numRuns: 150 },
    );
  });

  it('see their own held rows: a chain inside one batch resolves like it does row by row', () => {
    const store = openStore();
    const h = store.scope({ kind: 'user', org: 'acme', user: 'u1' }, { create: true });
    const r = h.writeFacts([
      { label: 'F-1', key: 'budget', value: '$200k' },
      { key: 'budget', value: '$150k' },
      { key: 'budget_corrected', value: '$120k', supersedes: 'budget' },
      { key: 'plan', value: 'buy', dependsOn: ['F-1'] },
    ]);
    expect(r.map((x) => x.outcome)).toEqual(['created', 'superseded', 'superseded', 'created']);
    expect(r[2]?.supersededId).toBe(r[1]?.factId);
    expect(h.currentValue('budget')).toBe('$120k');
    expect(h.getFact(r[3]?.factId as string)?.dependsOn).toEqual([r[0]?.factId]);
    store.close();
  });

  it('flag held dependents in place, in the order of the database walk, and defer supersessions of inserted rows', () => {
    // a <- b <- c and a <- d, then a is superseded twice and b once, with some rows inserted
    // (batch of 2) or all held (batch of 20): the needs_review walk crosses held edges, and a
    // row of the database superseded in the batch is seen superseded before its UPDATE runs.
    const inputs: FactWriteInput[] = [
      { key: 'a', value: 'one' },
      { key: 'b', value: 'two', dependsOn: ['a'] },
      { key: 'c', value: 'three', dependsOn: ['b'] },
      { key: 'd', value: 'four', dependsOn: ['a'] },
      { key: 'a', value: 'actually five' },
      { key: 'b', value: 'now six' },
      { key: 'a', value: 'seven', supersedes: 'f_00000001' },
    ];
    const one = run(inputs, null);
    expect(one.results[4]?.flagged).toEqual(['f_00000002', 'f_00000004', 'f_00000003']);
    for (const size of [2, 3, 20]) {
      const many = run(inputs, size);
      expect(many.results).toEqual(one.results);
      expect(many.state).toEqual(one.state);
    }
  });
});
