// Scale figures on one large database (1M facts; 100k in quick mode): open to first page,
// keyset paging, search, state_based and reference assembly, as-of reads, an ndjson export and
// deleting 10,000 facts. Prints nothing itself; returns rows for the benchmark report.
import fs from 'node:fs';
import path from 'node:path';
import { listFacts } from '../engine/query';
import { exportStore } from '../engine/snapshot/export';
import { Store } from '../engine/store';
import type { PartitionHandle } from '../engine/partition-handle';
import type { FactPage } from '../../shared/inspect';
import { median, round, sizeLabel, type BenchRow } from './section';

export function p95(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil(0.95 * s.length) - 1)] ?? NaN;
}

/** Runs `fn` up to `runs` times but stops once `budgetMs` is spent (slow paths at 1M facts). */
function repeat<T>(fn: () => T, runs: number, budgetMs: number): { times: number[]; last: T } {
  const times: number[] = [];
  const start = performance.now();
  let last: T;
  do {
    const t0 = performance.now();
    last = fn();
    times.push(performance.now() - t0);
  } while (times.length < runs && performance.now() - start < budgetMs);
  return { times, last };
}

function time<T>(fn: () => T): [T, number] {
  const t0 = performance.now();
  const r = fn();
  return [r, performance.now() - t0];
}

/** The partition with the most facts: the one a person would open first. */
function largest(store: Store): PartitionHandle {
  const top = store
    .listPartitions()
    .slice()
    .sort((a, b) => b.facts - a.facts)[0];
  if (!top) throw new Error('the database has no partition');
  return store.scopeById(top.id);
}

export interface ScaleOptions {
  readonly db: string;
  readonly workDir: string;
  readonly facts: number;
  /** Deleting this many facts (10,000 by default). */
  readonly deleteCount: number;
  readonly log?: (line: string) => void;
}

export async function measureScale(o: ScaleOptions): Promise<BenchRow[]> {
  const log = o.log ?? (() => undefined);
  const rows: BenchRow[] = [];
  const at = sizeLabel(o.facts);
  const add = (metric: string, value: number, unit: string, extra: { target?: string; baseline?: string; note?: string } = {}) => {
    const row: BenchRow = {
      metric: `${metric} @${at}`,
      value: round(value),
      unit,
      ...(extra.target ? { target: extra.target } : {}),
      ...(extra.baseline || extra.note ? { baseline: [extra.baseline, extra.note].filter(Boolean).join('; ') } : {}),
    };
    rows.push(row);
    log(`  ${row.metric}: ${row.value} ${unit}${extra.target ? ` (target ${extra.target})` : ''}${row.baseline ? ` — ${row.baseline}` : ''}`);
  };

  // Open to first page: what the app does on launch (open + checks, partition list with counts,
  // first page of the largest partition with its capped total).
  const t0 = performance.now();
  const store = Store.open(o.db);
  const tOpen = performance.now() - t0;
  const [partitions, tList] = time(() => store.listPartitions());
  const handle = largest(store);
  const [first, tFirst] = time(() => listFacts(handle.ctx, { sort: { column: 'ts', direction: 'desc' }, page: { limit: 100 } }));
  const total = partitions.reduce((s, p) => s + p.facts, 0);
  add('open to first page', performance.now() - t0, 'ms', {
    note: `open ${tOpen.toFixed(0)} ms + partition list ${tList.toFixed(0)} ms + first page ${tFirst.toFixed(1)} ms; ${partitions.length} partitions, ${total.toLocaleString('en-US')} facts, largest is partition ${handle.id} with ${(partitions.find((p) => p.id === handle.id)?.facts ?? 0).toLocaleString('en-US')} facts`,
  });
  add('  open (quick_check, migrations, pragmas)', tOpen, 'ms');
  add('  partition list with counts', tList, 'ms');
  add('  first page of 100 with total', tFirst, 'ms');

  // Keyset paging: successive pages along three sort orders.
  for (const sort of [
    { column: 'ts', direction: 'desc' },
    { column: 'key', direction: 'asc' },
    { column: 'importance', direction: 'desc' },
  ] as const) {
    const times: number[] = [];
    let after: string | null = null;
    for (let i = 0; i < 41; i++) {
      const cursor: string | null = after;
      const [page, t] = time((): FactPage => listFacts(handle.ctx, { sort, page: { limit: 100, after: cursor } }));
      if (i > 0) times.push(t);
      after = page.nextCursor;
      if (!after) break;
    }
    add(`keyset page of 100, sort ${sort.column} ${sort.direction}, median`, median(times), 'ms');
    add(`keyset page of 100, sort ${sort.column} ${sort.direction}, p95`, p95(times), 'ms');
  }
  // A deep page: walking 100k rows down by cursor, the last page costs what the second did.
  {
    let after: string | null = first.nextCursor;
    let deep = 0;
    let pages = 0;
    for (let i = 0; i < 200 && after; i++) {
      const cursor: string | null = after;
      const [page, t] = time((): FactPage => listFacts(handle.ctx, { sort: { column: 'ts', direction: 'desc' }, page: { limit: 500, after: cursor } }));
      after = page.nextCursor;
      deep = t;
      pages++;
    }
    add(`keyset page of 500 at depth ${(pages * 500).toLocaleString('en-US')}`, deep, 'ms');
  }

  // Full-text search: the commonest word of the partition, a rare one, both, and a word that
  // matches nothing (picked from a sample of the partition, so they fit any generated data).
  const counts = new Map<string, number>();
  for (const v of store.db.prepare('SELECT value FROM facts WHERE partition_id = ? ORDER BY rid LIMIT 3000').pluck().all(handle.id) as string[]) {
    for (const w of new Set(v.toLowerCase().match(/[a-z]{5,}/g) ?? [])) counts.set(w, (counts.get(w) ?? 0) + 1);
  }
  const byCount = [...counts.entries()].sort((a, b) => b[1] - a[1]);
  const common = byCount[0]?.[0] ?? 'budget';
  const rare = byCount.find(([, c]) => c <= 3)?.[0] ?? byCount[byCount.length - 1]?.[0] ?? 'vendor';
  for (const word of [common, rare, `${rare} ${common}`, 'zzqqxx']) {
    const { times, last } = repeat(() => listFacts(handle.ctx, { filter: { search: word }, page: { limit: 100 } }), 5, 20_000);
    const hits = last.total ? `${last.total.count.toLocaleString('en-US')}${last.total.capped ? '+' : ''}` : String(last.rows.length);
    add(`search "${word}" (${hits} matches in the partition), first page, median`, median(times), 'ms');
  }

  // Assembly on the largest partition; the reference strategy is the in-process baseline.
  const query = 'What is the current budget and deadline for the vendor contract?';
  const medians: Record<string, number> = {};
  for (const strategy of ['reference', 'balanced', 'state_based'] as const) {
    const { times, last } = repeat(() => handle.assemble({ strategy, budget: 8000, query, provenance: 'included' }), strategy === 'reference' ? 3 : 9, 30_000);
    const tokens = last.tokens;
    medians[strategy] = median(times);
    const target = strategy === 'state_based' ? (o.facts >= 1_000_000 ? '≤ 50 ms median at 1M' : '≤ 10 ms median at 100k') : undefined;
    const ref = medians.reference ?? NaN;
    add(`assembly ${strategy}, budget 8,000, median`, median(times), 'ms', {
      ...(target ? { target } : {}),
      ...(strategy !== 'reference' ? { baseline: `reference ${round(ref)} ms (${(median(times) / ref).toFixed(2)}x)` } : {}),
      note: `${tokens.toLocaleString('en-US')} tokens, ${times.length} runs`,
    });
    add(`assembly ${strategy}, budget 8,000, p95`, p95(times), 'ms');
  }

  // As-of-time reads at the middle of the recorded history.
  const span = store.db.prepare('SELECT min(ts) AS lo, max(ts) AS hi FROM facts WHERE partition_id = ?').get(handle.id) as { lo: string; hi: string };
  const mid = new Date((Date.parse(span.lo) + Date.parse(span.hi)) / 2).toISOString();
  {
    const times: number[] = [];
    for (let i = 0; i < 5; i++) times.push(time(() => handle.factsAsOf(mid, { limit: 100 }))[1]);
    add('as-of-time read (100 facts valid at mid-history), median', median(times), 'ms');
    const [page, t] = time(() => listFacts(handle.ctx, { filter: { asOf: mid }, page: { limit: 100 } }));
    add('as-of-time table page with count (time travel)', t, 'ms', {
      note: `${(page.total?.count ?? page.rows.length).toLocaleString('en-US')} facts valid then`,
    });
  }

  // Export of the whole database as NDJSON, with its peak memory.
  {
    const out = path.join(o.workDir, 'scale-export.ndjson');
    fs.rmSync(out, { force: true });
    const rss0 = process.memoryUsage().rss;
    let peak = rss0;
    const t = performance.now();
    const summary = await exportStore(store, {
      format: 'ndjson',
      out,
      onProgress: () => {
        peak = Math.max(peak, process.memoryUsage().rss);
      },
    });
    const took = performance.now() - t;
    peak = Math.max(peak, process.memoryUsage().rss);
    add('export ndjson, whole database', took / 1000, 's', {
      note: `${summary.records.toLocaleString('en-US')} records, ${(summary.bytes / 1e6).toFixed(0)} MB`,
    });
    add('export ndjson rate', summary.records / (took / 1000), 'records/s');
    add('export ndjson peak RSS growth', (peak - rss0) / 1e6, 'MB');
    fs.rmSync(out, { force: true });
  }

  // Deleting 10,000 facts: one call on the largest partition when it holds enough (every third
  // fact: chains and dependents), otherwise one call per partition, largest first.
  {
    const byFacts = store
      .listPartitions()
      .slice()
      .sort((a, b) => b.facts - a.facts);
    let remaining = o.deleteCount;
    let calls = 0;
    let deleted = 0;
    let flagged = 0;
    let relinked = 0;
    let incomplete = 0;
    const remedies = new Set<string>();
    const t = performance.now();
    for (const p of byFacts) {
      if (remaining <= 0) break;
      const stride = Math.max(1, Math.min(3, Math.floor(p.facts / remaining)));
      const ids = store.db
        .prepare('SELECT id FROM facts WHERE partition_id = ? AND rid % ? = 0 ORDER BY rid LIMIT ?')
        .pluck()
        .all(p.id, stride, remaining) as string[];
      if (ids.length === 0) continue;
      const r = store.scopeById(p.id).deleteFacts({ ids }, { actor: 'bench', reason: 'scale benchmark' });
      calls++;
      deleted += r.deleted;
      flagged += r.flagged;
      relinked += r.relinked;
      if (r.scrub && !r.scrub.complete) incomplete++;
      if (r.scrub) remedies.add(r.scrub.remedy);
      remaining -= r.deleted;
    }
    const took = performance.now() - t;
    add(`delete ${deleted.toLocaleString('en-US')} facts with cascades and scrub (${calls} call${calls === 1 ? '' : 's'})`, took, 'ms', {
      target: '≤ 1,000 ms',
      note: `${flagged} dependents flagged, ${relinked} pointers relinked; scrub remedies ${[...remedies].join(', ')}; ${incomplete} incomplete`,
    });
  }
  store.close();
  return rows;
}
