// Query benchmark for the inspector's read side: builds a partition of N facts with raw bulk
// inserts (the write path has its own benchmark), then times first and deep pages under every
// sort, searches, filters, detail, neighbourhood and the review queue. Prints figures only.
// Run: npx tsx electron/engine/query/bench.ts [facts=1000000] [--keep FILE]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SORT_COLUMNS } from '../../../shared/query';
import { Store } from '../store';
import type { PartitionHandle } from '../partition-handle';

const WORDS = ['budget', 'travel', 'vendor', 'deadline', 'hiring', 'roadmap', 'security'];

/** Bulk-inserts `n` synthetic facts (with edges and review flags) into the partition. */
export function bulkFacts(store: Store, p: PartitionHandle, n: number, batch = 100_000, from = 1): number {
  const t0 = performance.now();
  const insert = store.db.prepare(`
    WITH RECURSIVE seq(i) AS (SELECT CAST(@start AS INTEGER) UNION ALL SELECT i + 1 FROM seq WHERE i < CAST(@end AS INTEGER))
    INSERT INTO facts (id, partition_id, org_id, key, value, source_type, source_authority, ts, created_at,
      importance, memory_type, scope, status, is_valid, valid_to, access_count, last_accessed_at)
    SELECT 'b_' || i, @p, @org, 'topic_' || (i % 5000),
      'note ' || i || ' about ' || (CASE i % 7 ${WORDS.map((w, k) => `WHEN ${k} THEN '${w}'`).join(' ')} END)
        || (CASE WHEN i % 50000 = 0 THEN ' zebracorn' ELSE '' END) || ' for the quarterly plan',
      (CASE i % 4 WHEN 0 THEN 'user' WHEN 1 THEN 'agent' WHEN 2 THEN 'observation' ELSE 'policy' END),
      (CASE i % 5 WHEN 0 THEN NULL WHEN 1 THEN 'employee' WHEN 2 THEN 'manager' WHEN 3 THEN 'executive' ELSE 'policy' END),
      printf('2025-%02d-%02dT%02d:%02d:00.000Z', 1 + i % 12, 1 + i % 28, i % 24, i % 60),
      printf('2026-01-01T00:%02d:%02d.000Z', (i / 60) % 60, i % 60),
      (i % 10) / 10.0,
      (CASE i % 3 WHEN 0 THEN 'user' WHEN 1 THEN 'capability' ELSE 'organizational' END),
      (CASE i % 11 WHEN 0 THEN 'task' WHEN 1 THEN 'draft' ELSE 'global' END),
      (CASE WHEN i % 10 = 0 THEN 'superseded' ELSE 'active' END),
      (CASE WHEN i % 10 = 0 THEN 0 ELSE 1 END),
      (CASE WHEN i % 10 = 0 THEN '2025-12-31T00:00:00.000Z' END),
      i % 7,
      (CASE WHEN i % 3 = 0 THEN NULL ELSE printf('2026-02-%02dT00:00:00.000Z', 1 + i % 28) END)
    FROM seq`);
  const last = from + n - 1;
  for (let start = from; start <= last; start += batch) {
    const end = Math.min(last, start + batch - 1);
    store.db.transaction(() => insert.run({ start, end, p: p.id, org: p.ctx.orgId })).immediate();
  }
  const ms = performance.now() - t0;
  // A dependency forest (each fact rests on the first fact of its block of 10) and review flags.
  const block = (i: string) => `'b_' || (${i} - (${i} - 1) % 10)`;
  const num = 'CAST(substr(id, 3) AS INTEGER)';
  store.db.exec(`INSERT OR IGNORE INTO fact_edges (partition_id, dependent, depends_on)
    SELECT partition_id, id, ${block(num)} FROM facts
    WHERE partition_id = ${p.id} AND id LIKE 'b\\_%' ESCAPE '\\' AND ${num} BETWEEN ${from} AND ${last} AND (${num} - 1) % 10 <> 0
      AND ${block(num)} IN (SELECT id FROM facts)`);
  store.db.exec(`UPDATE facts SET needs_review = 1, review_cause = 'bench', review_cause_fact = ${block(num)}
    WHERE partition_id = ${p.id} AND id LIKE 'b\\_%' ESCAPE '\\' AND ${num} BETWEEN ${from} AND ${last} AND ${num} % 997 = 0`);
  return ms;
}

function time<T>(fn: () => T, repeat = 3): { ms: number; result: T } {
  let best = Infinity;
  let result!: T;
  for (let i = 0; i < repeat; i++) {
    const t0 = performance.now();
    result = fn();
    best = Math.min(best, performance.now() - t0);
  }
  return { ms: best, result };
}

const fmt = (ms: number) => `${ms.toFixed(ms < 10 ? 2 : 1)} ms`;

export function runQueryBench(n: number, log: (line: string) => void = console.log, keep?: string): void {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'statelens-qbench-'));
  const file = keep ?? path.join(dir, 'bench.db');
  const store = Store.open(file);
  try {
    const p = store.scope({ kind: 'user', org: 'bench', user: 'u1' }, { create: true });
    const existing = p.countFacts({}, n).count;
    if (existing < n) {
      const ms = bulkFacts(store, p, n - existing, 100_000, existing + 1);
      log(`bulk insert of ${n - existing} facts (all indexes incl. migration 002 and FTS): ${fmt(ms)} = ${Math.round(((n - existing) / ms) * 1000)} rows/s`);
    }
    // A hub for the graph figures: the head of every block of ten among the first 100,000
    // facts also rests on b_1 (so a few hops from b_55 reach thousands of facts).
    store.db.exec(`INSERT OR IGNORE INTO fact_edges (partition_id, dependent, depends_on)
      SELECT partition_id, id, 'b_1' FROM facts WHERE partition_id = ${p.id} AND id LIKE 'b\\_%' ESCAPE '\\'
        AND CAST(substr(id, 3) AS INTEGER) BETWEEN 11 AND 100000 AND (CAST(substr(id, 3) AS INTEGER) - 1) % 10 = 0`);
    log(`partition holds ${p.countFacts({}, 100_000_000).count} facts`);
    const limit = 100;
    for (const column of SORT_COLUMNS) {
      for (const direction of ['asc', 'desc'] as const) {
        const sort = { column, direction };
        const first = time(() => p.listFacts({ sort, page: { limit } }));
        let after = first.result.nextCursor;
        for (let i = 0; i < 48 && after; i++) after = p.listFacts({ sort, page: { limit, after } }).nextCursor;
        const deep = time(() => p.listFacts({ sort, page: { limit, after } }));
        log(
          `sort ${column.padEnd(14)} ${direction.padEnd(4)} first page ${fmt(first.ms).padStart(10)} (incl. capped total)  page 50 ${fmt(deep.ms).padStart(10)}`,
        );
      }
    }
    const cases: Array<[string, object]> = [
      ['search common word "budget"', { search: 'budget' }],
      ['search rare word "zebracorn"', { search: 'zebracorn' }],
      ['search prefix "quart"', { search: 'quart' }],
      ['valid only', { validity: 'valid' }],
      ['needs_review', { needsReview: true }],
      ['as of 2025-06-15', { asOf: '2025-06-15T00:00:00.000Z' }],
      ['key topic_42', { key: 'topic_42' }],
      ['authority guest (no match)', { authorities: ['guest'] }],
    ];
    for (const [label, filter] of cases) {
      const r = time(() => p.listFacts({ filter, sort: { column: 'ts', direction: 'desc' }, page: { limit } }));
      const total = r.result.total;
      log(
        `filter ${label.padEnd(30)} first page ${fmt(r.ms).padStart(10)}  rows ${r.result.rows.length}  total ${total ? `${total.count}${total.capped ? '+' : ''}` : '-'}`,
      );
    }
    const exact = time(() => p.countFacts({ validity: 'valid' }, 100_000_000), 1);
    log(`exact count of valid facts: ${exact.result.count} in ${fmt(exact.ms)}`);
    log(`fact detail of a hub with ${p.factDetail('b_1').fact.derivedFacts.length} dependents: ${fmt(time(() => p.factDetail('b_1')).ms)}`);
    log(`fact detail of a leaf: ${fmt(time(() => p.factDetail('b_55')).ms)}`);
    for (const [hops, maxNodes] of [
      [2, 2000],
      [5, 5000],
    ] as const) {
      const hood = time(() => p.neighbourhood('b_55', { hops, maxNodes }));
      log(
        `neighbourhood of b_55 (${hops} hops, max ${maxNodes}): ${fmt(hood.ms)}, ${hood.result.nodes.length} nodes, ${hood.result.edges.length} edges${hood.result.truncated ? ', truncated' : ''}`,
      );
    }
    const rq = time(() => p.reviewQueue({ limit }));
    log(`review queue first page: ${fmt(rq.ms)}, total flagged ${rq.result.total}`);
  } finally {
    store.close();
    if (!keep) fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Raw insert cost of migration 002's indexes: the same bulk insert with and without them. */
export function indexCostBench(n: number, log: (line: string) => void = console.log): void {
  for (const withSortIndexes of [false, true]) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'statelens-qbench-'));
    const store = Store.open(path.join(dir, 'cost.db'));
    try {
      if (!withSortIndexes) {
        const names = store.db.prepare("SELECT name FROM sqlite_schema WHERE type = 'index' AND name LIKE 'facts_sort_%'").pluck().all() as string[];
        for (const name of names) store.db.exec(`DROP INDEX ${name}`);
      }
      const p = store.scope({ kind: 'user', org: 'bench', user: 'u1' }, { create: true });
      const ms = bulkFacts(store, p, n, 50_000);
      log(`raw bulk insert of ${n} facts ${withSortIndexes ? 'with' : 'without'} the 11 sort indexes: ${Math.round((n / ms) * 1000)} rows/s`);
    } finally {
      store.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const n = Number(process.argv[2] ?? 1_000_000);
  const keepAt = process.argv.indexOf('--keep');
  indexCostBench(Math.min(n, 200_000));
  runQueryBench(n, console.log, keepAt > 0 ? process.argv[keepAt + 1] : undefined);
}
