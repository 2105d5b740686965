// The memories table's read: filtered, sorted, keyset-paged facts (never OFFSET), with
// full-text matches as ranges. A page walks the sort column's index, unless one filter
// selects a small candidate set (a rare word, the review flag, a key, an authority, ...):
// then that set is read through its own index and sorted.
import { StatelensError } from '../../../shared/errors';
import { TOTAL_COUNT_CAP, type CappedCount, type FactPage } from '../../../shared/inspect';
import { FactFilter, FactSort, PageRequest, type FactFilterInput } from '../../../shared/query';
import type { z } from 'zod';
import type { PartitionContext } from '../context';
import { dialectOf } from '../db/dialect';
import { stmt } from '../db/statements';
import { decodeFactCursor, encodeFactCursor, type SortPosition } from './cursor';
import { filterSql, whereOf, type FilterName, type FilterSql } from './filter-sql';
import { MARK_CLOSE, MARK_OPEN, containsMarkers, guardSearch } from './fts';
import { markMatches, searchPhrases } from './mark-matches';
import { ROW_VIEW_COLUMNS, toRowView, type MarkedText, type RowViewRow } from './row-view';
import { SORT_SPECS } from './sort-columns';
import { parseInput } from './validate';

export interface ListFactsRequest {
  readonly filter?: FactFilterInput;
  readonly sort?: z.input<typeof FactSort>;
  readonly page?: z.input<typeof PageRequest>;
}

/** At most this many candidates: reading them all and sorting beats walking the sort index.
 * (A denser search walks the sort index and tests membership in the match list, which costs
 * O(matches) per page; probing FTS5 row by row was measured far slower, so it is not offered.) */
export const DRIVER_LIMIT = 20_000;

/** Reading a small candidate set through the index of one filter. */
const DRIVERS = {
  search: { from: 'facts f NOT INDEXED', part: 'search' },
  review: { from: 'facts f INDEXED BY facts_partition_review', part: 'needsReview' },
  key: { from: 'facts f INDEXED BY facts_sort_key', part: 'key' },
  authority: { from: 'facts f INDEXED BY facts_sort_authority', part: 'authorities' },
  source: { from: 'facts f INDEXED BY facts_sort_source_type', part: 'sourceTypes' },
  memory: { from: 'facts f INDEXED BY facts_sort_memory_type', part: 'memoryTypes' },
  scope: { from: 'facts f INDEXED BY facts_sort_scope', part: 'scopes' },
  status: { from: 'facts f INDEXED BY facts_sort_status', part: 'validity' },
  range: { from: 'facts f INDEXED BY facts_partition_ts', part: 'range' },
} as const satisfies Record<string, { from: string; part: FilterName }>;
export type DriverPlan = keyof typeof DRIVERS;

/** `sort-index`: walk the sort column's index; otherwise read one filter's candidate set. */
export type PagePlan = 'sort-index' | DriverPlan;

type Row = RowViewRow & { sort_v: string | number };

function isDriver(plan: string): plan is DriverPlan {
  return Object.hasOwn(DRIVERS, plan);
}

/** Whether a plan can serve this filter and sort (a cursor's plan hint may be stale). */
function planApplies(plan: string, filter: FactFilter, sql: FilterSql, sort: FactSort): plan is PagePlan {
  if (plan === 'sort-index') return true;
  if (!isDriver(plan)) return false;
  if (plan === 'review') return filter.needsReview === true;
  if (plan === 'status') return filter.validity === 'superseded' || filter.validity === 'proposal';
  if (plan === 'range') return sort.column !== 'ts' && sql.parts.some((p) => p.name === 'range');
  return sql.parts.some((p) => p.name === DRIVERS[plan].part);
}

function capped(ctx: PartitionContext, sql: string, params: Record<string, unknown>, cap: number): number {
  return stmt<[Record<string, unknown>], number>(ctx.db, `SELECT count(*) FROM (${sql} LIMIT ${cap + 1})`)
    .pluck()
    .get(params) as number;
}

/** Picks the plan: the smallest candidate set of at most DRIVER_LIMIT, else the sort index. */
export function choosePlan(ctx: PartitionContext, filter: FactFilter, sql: FilterSql, sort: FactSort): PagePlan {
  let best: { plan: PagePlan; n: number } = { plan: 'sort-index', n: Infinity };
  for (const plan of Object.keys(DRIVERS) as DriverPlan[]) {
    if (!planApplies(plan, filter, sql, sort)) continue;
    // The match list is read whole whatever the partition, so it is counted whole.
    const n =
      plan === 'search'
        ? capped(ctx, dialectOf(ctx.db).ftsRids('@fts'), { fts: sql.params.fts }, DRIVER_LIMIT)
        : capped(
            ctx,
            `SELECT 1 FROM ${DRIVERS[plan].from} WHERE f.partition_id = @partition_id AND ${sql.parts.find((p) => p.name === DRIVERS[plan].part)?.sql ?? 'true'}`,
            sql.params,
            DRIVER_LIMIT,
          );
    if (n <= DRIVER_LIMIT && n < best.n) best = { plan, n };
  }
  return best.plan;
}

/** The SQL of one page segment (exported for the query-plan tests). */
export function pageSql(plan: PagePlan, sort: FactSort, where: readonly string[], segment: 'first' | 'ties' | 'rest' | 'after'): string {
  const spec = SORT_SPECS[sort.column];
  const { expr } = spec;
  const dir = sort.direction === 'asc' ? 'ASC' : 'DESC';
  const cmp = sort.direction === 'asc' ? '>' : '<';
  const from = isDriver(plan) ? DRIVERS[plan].from : `facts f INDEXED BY ${spec.index}`;
  const base = `SELECT ${ROW_VIEW_COLUMNS}, ${expr} AS sort_v FROM ${from} WHERE ${where.join(' AND ')}`;
  switch (segment) {
    case 'first':
      return `${base} ORDER BY ${expr} ${dir}, f.rid ${dir} LIMIT @limit`;
    // Keyset along an index in two range scans: the rest of the tie group, then what follows.
    case 'ties':
      return `${base} AND ${expr} = @cursor_v AND f.rid ${cmp} @cursor_r ORDER BY f.rid ${dir} LIMIT @limit`;
    case 'rest':
      return `${base} AND ${expr} ${cmp} @cursor_v ORDER BY ${expr} ${dir}, f.rid ${dir} LIMIT @limit`;
    // Over a small candidate set one row-value comparison is enough.
    case 'after':
      return `${base} AND (${expr}, f.rid) ${cmp} (@cursor_v, @cursor_r) ORDER BY ${expr} ${dir}, f.rid ${dir} LIMIT @limit`;
  }
}

function run(ctx: PartitionContext, sql: string, params: Record<string, unknown>): Row[] {
  return stmt<[Record<string, unknown>], Row>(ctx.db, sql).all(params);
}

function cursorPosition(ctx: PartitionContext, sort: FactSort, after: string): SortPosition & { plan?: string } {
  const pos = decodeFactCursor(after, sort);
  const plan = pos.plan === undefined ? {} : { plan: pos.plan };
  if (pos.value !== undefined) return { value: pos.value, rid: pos.rid, ...plan };
  const value = stmt<[number, number], string | number>(ctx.db, `SELECT ${SORT_SPECS[sort.column].expr} FROM facts f WHERE f.rid = ? AND f.partition_id = ?`)
    .pluck()
    .get(pos.rid, ctx.partitionId);
  if (value === undefined) throw new StatelensError('INVALID_INPUT', 'Invalid page cursor: the row it points at was deleted; start again from the first page');
  return { value, rid: pos.rid, ...plan };
}

interface MarkRow {
  rid: number;
  k: string | null;
  v: string | null;
  marked: number;
}

const MARK_COLUMNS = `highlight(facts_fts, 0, @o, @c) AS k, highlight(facts_fts, 1, @o, @c) AS v,
  (SELECT instr(key, @o) + instr(key, @c) + instr(value, @o) + instr(value, @c) FROM facts WHERE rid = facts_fts.rowid) AS marked`;

/** highlight() output for the page's rows. An exact-word query is probed row by row; a prefix
 * query, whose every probe re-expands the prefix, is run once over the page's rowid range. */
function highlights(ctx: PartitionContext, sql: FilterSql, rows: readonly Row[]): Map<number, MarkedText> {
  const params = { fts: sql.fts, o: MARK_OPEN, c: MARK_CLOSE };
  let marks: MarkRow[];
  if (rows.length === 0) marks = [];
  else if (!sql.ftsPrefix) {
    // CAST: better-sqlite3 binds numbers as REAL, and FTS5 ignores a REAL rowid constraint
    // (it returns every match), so the rowid must reach it as an integer.
    const probe = stmt<[Record<string, unknown>], MarkRow>(
      ctx.db,
      `SELECT facts_fts.rowid AS rid, ${MARK_COLUMNS} FROM facts_fts WHERE facts_fts MATCH @fts AND rowid = CAST(@rid AS INTEGER)`,
    );
    marks = rows.flatMap((r) => probe.all({ ...params, rid: r.rid }));
  } else {
    const rids = rows.map((r) => r.rid);
    // `+rowid`: keeps the IN list from becoming one FTS5 probe per value.
    marks = stmt<[Record<string, unknown>], MarkRow>(
      ctx.db,
      `SELECT facts_fts.rowid AS rid, ${MARK_COLUMNS} FROM facts_fts WHERE facts_fts MATCH @fts
         AND rowid BETWEEN CAST(@lo AS INTEGER) AND CAST(@hi AS INTEGER) AND +rowid IN (SELECT value FROM json_each(@rids))`,
    ).all({ ...params, lo: Math.min(...rids), hi: Math.max(...rids), rids: JSON.stringify(rids) });
  }
  const byRid = new Map(marks.map((m) => [m.rid, m]));
  const out = new Map<number, MarkedText>();
  for (const r of rows) {
    const h = byRid.get(r.rid);
    // Text that already holds our markers cannot be split reliably: show it without ranges.
    out.set(r.rid, h && h.marked === 0 ? { key: h.k, value: h.v } : { key: null, value: null });
  }
  return out;
}

/** The same marks where the store has no highlight(): the page's texts, marked in JS. */
function markedInJs(ctx: PartitionContext, search: string, rows: readonly Row[]): Map<number, MarkedText> {
  const phrases = searchPhrases(search);
  const texts =
    rows.length === 0
      ? []
      : stmt<[Record<string, unknown>], { rid: number; key: string; value: string }>(
          ctx.db,
          'SELECT f.rid, f.key, f.value FROM facts f WHERE f.rid IN (SELECT CAST(value AS INTEGER) FROM json_each(@rids))',
        ).all({ rids: JSON.stringify(rows.map((r) => r.rid)) });
  const out = new Map<number, MarkedText>();
  for (const t of texts) {
    const clean = !containsMarkers(t.key) && !containsMarkers(t.value);
    out.set(Number(t.rid), clean ? { key: markMatches(t.key, phrases), value: markMatches(t.value, phrases) } : { key: null, value: null });
  }
  return out;
}

function countWith(ctx: PartitionContext, sql: FilterSql, cap: number): number {
  if (sql.fts === null) return capped(ctx, `SELECT 1 FROM facts f WHERE ${whereOf(sql).join(' AND ')}`, sql.params, cap);
  // With a search, count from the match list: it stops after `cap` hits instead of probing
  // FTS5 for every fact of the partition.
  const rest = whereOf(sql, 'search');
  const fts = dialectOf(ctx.db).ftsFacts('@fts', 'CROSS JOIN');
  return capped(ctx, `SELECT 1 FROM ${fts.from} WHERE ${fts.match} AND ${rest.join(' AND ')}`, sql.params, cap);
}

/** Counts facts matching a filter, stopping at `cap` (then `capped` is true). */
export function countFacts(ctx: PartitionContext, filterInput: FactFilterInput = {}, cap = TOTAL_COUNT_CAP): CappedCount {
  const filter = parseInput(FactFilter, filterInput, 'filter');
  const limit = Math.max(1, Math.min(Math.floor(cap), 100_000_000));
  const sql = filterSql(ctx.partitionId, filter, dialectOf(ctx.db));
  const n = guardSearch(filter.search, () => countWith(ctx, sql, limit));
  return n > limit ? { count: limit, capped: true } : { count: n, capped: false };
}

/** Engine-internal: force a page plan (tests prove every plan pages identically). */
export interface ListFactsOptions {
  readonly plan?: PagePlan;
}

/** One page of facts; pass `nextCursor` back as `page.after` for the next. */
export function listFacts(ctx: PartitionContext, request: ListFactsRequest = {}, options: ListFactsOptions = {}): FactPage {
  const filter = parseInput(FactFilter, request.filter ?? {}, 'filter');
  const sort = parseInput(FactSort, request.sort ?? {}, 'sort');
  const page = parseInput(PageRequest, request.page ?? {}, 'page');
  const sql = filterSql(ctx.partitionId, filter, dialectOf(ctx.db));
  const cursor = page.after ? cursorPosition(ctx, sort, page.after) : null;
  return guardSearch(filter.search, () => {
    const hinted = options.plan ?? cursor?.plan;
    if (options.plan !== undefined && !planApplies(options.plan, filter, sql, sort)) {
      throw new StatelensError('INVALID_INPUT', `Plan ${options.plan} cannot serve this filter and sort`);
    }
    const plan: PagePlan = hinted !== undefined && planApplies(hinted, filter, sql, sort) ? hinted : choosePlan(ctx, filter, sql, sort);
    const where = whereOf(sql);
    const want = page.limit + 1;
    const params = { ...sql.params, limit: want, ...(cursor ? { cursor_v: cursor.value, cursor_r: cursor.rid } : {}) };
    let rows: Row[];
    if (!cursor) rows = run(ctx, pageSql(plan, sort, where, 'first'), params);
    else if (isDriver(plan)) rows = run(ctx, pageSql(plan, sort, where, 'after'), params);
    else {
      rows = run(ctx, pageSql(plan, sort, where, 'ties'), params);
      if (rows.length < want) rows = rows.concat(run(ctx, pageSql(plan, sort, where, 'rest'), { ...params, limit: want - rows.length }));
    }
    const more = rows.length > page.limit;
    if (more) rows = rows.slice(0, page.limit);
    const last = rows[rows.length - 1];
    const marks = sql.fts === null ? null : dialectOf(ctx.db).ftsHighlight ? highlights(ctx, sql, rows) : markedInJs(ctx, filter.search ?? '', rows);
    let total: CappedCount | null = null;
    if (!page.after) {
      const n = countWith(ctx, sql, TOTAL_COUNT_CAP);
      total = n > TOTAL_COUNT_CAP ? { count: TOTAL_COUNT_CAP, capped: true } : { count: n, capped: false };
    }
    return {
      rows: rows.map((r) => toRowView(r, marks?.get(r.rid) ?? null)),
      nextCursor: more && last ? encodeFactCursor(sort, { value: last.sort_v, rid: last.rid }, plan) : null,
      total,
    };
  });
}

/** The plan a first page with this request would use (for tests and the benchmark). */
export function planFor(ctx: PartitionContext, request: ListFactsRequest = {}): PagePlan {
  const filter = parseInput(FactFilter, request.filter ?? {}, 'filter');
  const sort = parseInput(FactSort, request.sort ?? {}, 'sort');
  const sql = filterSql(ctx.partitionId, filter, dialectOf(ctx.db));
  return guardSearch(filter.search, () => choosePlan(ctx, filter, sql, sort));
}
