// The read side of assembly: named SELECTs over one partition, "as of" a time when asked.
// Nothing here writes; every query is bounded by the partition id and, where it could be large,
// streamed (iterate) so a strategy reads only as many rows as its budget can take.
import type { Identity, OrgDocument } from '../../../shared/domain';
import type { PartitionContext } from '../context';
import { dialectOf, type Dialect } from '../db/dialect';
import { stmt } from '../db/statements';
import type { FactRow } from '../facts/rows';
import { canRead } from '../layers/documents';
import { LATEST_SIGNALS_SQL } from '../layers/environment';
import { sessionIdentity } from '../layers/identity';
import { ensurePermissionFunction, readableSql, readerBinding, withheldSql } from './permissions';
import type { WorkingRow } from '../layers/working-set';

/** Validity "now" (is_valid) or as of a past time (from the recorded history). */
export interface TimeView {
  /** The assembly's now: the as-of time when given, else the clock. */
  readonly now: string;
  readonly asOf: string | null;
  /** Who reads (see permissions.readerKey): facts it may not see never leave this module. */
  readonly reader: string;
}

// Unary + keeps the planner off the many (partition_id, x) indexes for these terms, so the
// plans stay the intended ones (FTS first, rowid lookups, the (partition_id, ts) order).
const VALID_NOW = '+f.is_valid = 1';
// An archived fact is superseded (never valid now) and left out of past views too.
const VALID_AS_OF = "+f.status <> 'proposal' AND f.archived_at IS NULL AND f.ts <= @asOf AND (f.valid_to IS NULL OR f.valid_to > @asOf)";

export function validClause(view: TimeView): string {
  return view.asOf === null ? VALID_NOW : VALID_AS_OF;
}

function params(ctx: PartitionContext, view: TimeView, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return view.asOf === null
    ? { pid: ctx.partitionId, reader: readerBinding(ctx, view), ...extra }
    : { pid: ctx.partitionId, asOf: view.asOf, reader: readerBinding(ctx, view), ...extra };
}

/** The facts a strategy may receive: valid in the view and readable by the view's reader. Every
 * query that hands facts to a strategy filters with this, so the permission check happens once,
 * here, before any ranking. */
function candidateClause(ctx: PartitionContext, view: TimeView): string {
  ensurePermissionFunction(ctx.db);
  return `${validClause(view)} AND ${readableSql(dialectOf(ctx.db).name)}`;
}

/** Why a fact may be out whatever the strategy does, as the sweep of complete provenance reads
 * it (see SweepRow); null: valid in the view and of a scope every assembly may show. */
export const SweepCode = { Superseded: 1, Proposal: 2, SessionScoped: 3, TaskScoped: 4, Future: 5, Withheld: 6 } as const;
export type SweepCode = (typeof SweepCode)[keyof typeof SweepCode];

/**
 * A fact as the sweep of complete provenance reads it: id, key, a SweepCode (null for most
 * facts) and the one detail that code needs (superseded_by, proposal_for, scope_id or ts).
 * Few columns, since converting values to JavaScript is most of what reading every fact costs.
 */
export type SweepRow = [id: string, key: string, code: SweepCode | null, detail: string | null];

const SWEEP_PAGE = 4096;

// The now view classifies in SQL (validity is is_valid; is_valid = 1 only for active facts).
// A valid fact its reader may not see is Withheld (with the audience as detail) before any scope.
// As of a time, the same classification from the recorded history (VALID_AS_OF's rule); a fact
// written after the view's time is Future, with its ts as the detail.
const AS_OF_VALID = 'f.ts <= @asOf AND (f.valid_to IS NULL OR f.valid_to > @asOf)';

function sweepSql(view: TimeView, next: boolean, dialect: Dialect['name']): string {
  const withheld = withheldSql('f.value', dialect);
  const eligibleCode = `(CASE WHEN ${withheld} IS NOT NULL THEN ${SweepCode.Withheld} WHEN f.scope = 'session' THEN ${SweepCode.SessionScoped} WHEN f.scope = 'task' THEN ${SweepCode.TaskScoped} END)`;
  const eligibleDetail = `coalesce(${withheld}, CASE WHEN f.scope IN ('session', 'task') THEN f.scope_id END)`;
  // The now view classifies in SQL (validity is is_valid; is_valid = 1 only for active facts).
  const columns =
    view.asOf === null
      ? `f.id, f.key, CASE WHEN f.is_valid = 1 THEN ${eligibleCode}
  WHEN f.status = 'proposal' THEN ${SweepCode.Proposal} ELSE ${SweepCode.Superseded} END,
  CASE WHEN f.is_valid = 1 THEN ${eligibleDetail} WHEN f.status = 'proposal' THEN f.proposal_for ELSE f.superseded_by END`
      : `f.id, f.key, CASE WHEN f.status = 'proposal' THEN ${SweepCode.Proposal}
  WHEN ${AS_OF_VALID} THEN ${eligibleCode}
  WHEN f.ts > @asOf THEN ${SweepCode.Future} ELSE ${SweepCode.Superseded} END,
  CASE WHEN f.status = 'proposal' THEN f.proposal_for
  WHEN ${AS_OF_VALID} THEN ${eligibleDetail}
  WHEN f.ts > @asOf THEN f.ts ELSE f.superseded_by END`;
  return `SELECT ${columns} FROM facts f WHERE f.partition_id = @pid${next ? ' AND (f.ts, f.rid) > (@ts, @rid)' : ''} ORDER BY f.ts, f.rid LIMIT ${SWEEP_PAGE}`;
}

/** Every fact of the partition (for complete provenance), oldest first (ts, rid), in pages read
 * by key along the (partition_id, ts, rid) index. */
export function* allFactPages(ctx: PartitionContext, view: TimeView): Generator<SweepRow[]> {
  ensurePermissionFunction(ctx.db);
  const dialect = dialectOf(ctx.db).name;
  const first = stmt<[Record<string, unknown>], unknown[]>(ctx.db, sweepSql(view, false, dialect)).raw(true);
  const next = stmt<[Record<string, unknown>], unknown[]>(ctx.db, sweepSql(view, true, dialect)).raw(true);
  const at = stmt<[string], unknown[]>(ctx.db, 'SELECT ts, rid FROM facts WHERE id = ?').raw(true);
  let page = first.all(params(ctx, view));
  for (;;) {
    yield page as SweepRow[];
    const last = page[page.length - 1];
    if (page.length < SWEEP_PAGE || last === undefined) return;
    const [ts, rid] = (at.get(last[0] as string) ?? []) as [string?, number?];
    if (ts === undefined) return;
    page = next.all(params(ctx, view, { ts, rid }));
  }
}

/** The columns assembly needs of a fact: few, since building row objects dominates read cost. */
export interface LeanFact {
  rid: number;
  id: string;
  key: string;
  value: string;
  scope: FactRow['scope'];
  scope_id: string | null;
  is_constraint: number;
  constraint_type: FactRow['constraint_type'];
  needs_review: number;
  review_cause_fact: string | null;
}

const LEAN = 'f.rid, f.id, f.key, f.value, f.scope, f.scope_id, f.is_constraint, f.constraint_type, f.needs_review, f.review_cause_fact';

type LeanArray = [number, string, string, string, LeanFact['scope'], string | null, number, LeanFact['constraint_type'], number, string | null];

/** Rows come back as arrays (raw mode) and become objects of one fixed shape here: building
 * row objects is most of what a read costs, and this way is several times cheaper. */
function lean(a: unknown[]): LeanFact {
  const r = a as LeanArray;
  return {
    rid: r[0],
    id: r[1],
    key: r[2],
    value: r[3],
    scope: r[4],
    scope_id: r[5],
    is_constraint: r[6],
    constraint_type: r[7],
    needs_review: r[8],
    review_cause_fact: r[9],
  };
}

function rawStmt(ctx: PartitionContext, sql: string) {
  return stmt<[Record<string, unknown>], unknown[]>(ctx.db, sql).raw(true);
}

/** Facts by row id, read in one statement (rows of other partitions are not returned). */
export function leanFacts(ctx: PartitionContext, rids: readonly number[]): Map<number, LeanFact> {
  const rows = rawStmt(ctx, `SELECT ${LEAN} FROM facts f WHERE f.rid IN (SELECT CAST(value AS INTEGER) FROM json_each(@rids)) AND +f.partition_id = @pid`).all({
    rids: JSON.stringify(rids),
    pid: ctx.partitionId,
  });
  const out = new Map<number, LeanFact>();
  for (const a of rows) {
    const f = lean(a);
    out.set(f.rid, f);
  }
  return out;
}

export type SimpleOrder = 'recent' | 'important' | 'balanced';

/** When a fact was last touched: accessed, else established. */
const RECENT_AT = 'coalesce(f.last_accessed_at, f.ts)';

const ORDER_SQL: Record<SimpleOrder, string> = {
  // Most recent touch first: a fact's last access, or, if it was never accessed, when it was
  // established (a fact written a minute ago is more recent than one read yesterday).
  recent: `${RECENT_AT} DESC, f.ts DESC, f.rid DESC`,
  important: 'f.importance DESC, f.ts DESC, f.rid DESC',
  // Importance decayed by age (BALANCED_SCORE). See validFactsOrdered for why a fact's age
  // counts from its ts and not its created_at.
  balanced: 'score DESC, f.ts DESC, f.rid DESC',
};

/** Facts read whole at a time while a strategy takes them in order. */
const ORDERED_BATCH = 64;
/** Below this many facts in the partition, balanced scores them all (cheaper than bounding). */
const SCORE_ALL_BELOW = 4_096;

// Importance x 1 / (1 + hours since the fact was added), never a negative age: a recent fact of
// middling importance can outrank an old important one.
const BALANCED_SCORE = 'f.importance / (1.0 + max(0.0, (julianday(@now) - julianday(f.ts)) * 24.0))';

/**
 * Valid facts in a strategy's order with its score, streamed. SQL ranks row ids and scores and
 * keeps only the best `first` (ORDER BY ... LIMIT: a bounded top-k, not a sort of the whole
 * partition; for balanced, most facts are not even scored: see balancedTop); only facts the
 * strategy may take are read whole. A strategy that wants more gets the continuation from the
 * same query with eight times the limit (the order is total: rid breaks every tie, and the
 * assembly's read transaction keeps the snapshot).
 */
export function* validFactsOrdered(
  ctx: PartitionContext,
  view: TimeView,
  order: SimpleOrder,
  first = 1024,
  /** Partitions with fewer facts are scored whole (tests lower it to reach the bounded path). */
  scoreAllBelow = SCORE_ALL_BELOW,
): Generator<LeanFact & { score: number }> {
  // `balanced` ages a memory from when it entered the agent's memory. Here that is `ts`
  // (when the agent's recorded history has the fact established), not `created_at` (when this
  // database stored the row): the two are equal for a live agent write, whose ts defaults to
  // the write time, and differ only for back-dated writes, where created_at says nothing about
  // the memory. A StateBench replay stores a whole timeline within seconds (every created_at
  // alike, so decay would rank by importance alone) and assembles as of each query's ts, which
  // precedes every created_at (a negative age); the history that as-of views read is indexed
  // by ts, so "hours since added at the view's now" is only defined on ts.
  const score = order === 'balanced' ? BALANCED_SCORE : order === 'important' ? 'f.importance' : `coalesce(julianday(${RECENT_AT}), 0.0)`;
  const ranked = rawStmt(
    ctx,
    `SELECT f.rid AS rid, ${score} AS score FROM facts f WHERE f.partition_id = @pid AND ${candidateClause(ctx, view)} ORDER BY ${ORDER_SQL[order]} LIMIT @limit`,
  );
  const extra = order === 'balanced' ? { now: view.now } : {};
  let limit = Math.max(1, Math.ceil(first));
  const top = (): ScoredRid[] | undefined => (order === 'balanced' ? balancedTop(ctx, view, limit, scoreAllBelow) : undefined);
  let rows = top() ?? (ranked.all(params(ctx, view, { ...extra, limit })) as ScoredRid[]);
  for (let given = 0; ;) {
    for (let i = given; i < rows.length; i += ORDERED_BATCH) {
      const batch = rows.slice(i, i + ORDERED_BATCH);
      const facts = leanFacts(
        ctx,
        batch.map(([rid]) => rid),
      );
      for (const [rid, s] of batch) {
        const f = facts.get(rid);
        if (f) yield { ...f, score: s };
      }
    }
    if (rows.length < limit) return;
    given = rows.length;
    limit *= 8;
    rows = top() ?? (ranked.all(params(ctx, view, { ...extra, limit })) as ScoredRid[]);
  }
}

/** What the simple orders rank by, for facts by row id: importance, when the fact was established
 * and when it was last touched (accessed, else established). Read only for the facts placed. */
export function rankingInputs(ctx: PartitionContext, rids: readonly number[]): Map<number, { importance: number; ts: string; touched: string }> {
  const rows = rawStmt(
    ctx,
    `SELECT f.rid, f.importance, f.ts, ${RECENT_AT} FROM facts f WHERE f.rid IN (SELECT CAST(value AS INTEGER) FROM json_each(@rids)) AND +f.partition_id = @pid`,
  ).all({ rids: JSON.stringify(rids), pid: ctx.partitionId }) as Array<[number, number, string, string]>;
  return new Map(rows.map(([rid, importance, ts, touched]) => [rid, { importance, ts, touched }]));
}

type ScoredRid = [rid: number, score: number];

/** julianday() difference the timestamp order may hide: a day overflow ("02-31" is March 2nd:
 * up to 3 days), a time of day up to 24:59:59 and a zone offset up to 14:59 (40 hours). */
const TS_ORDER_SLACK_DAYS = 7;
/** Index probes spent checking timestamp forms (one per distinct year present). */
const TS_FORM_PROBES = 32;
/** Index entries counted at most to choose between the age and the importance bound. */
const RANGE_COUNT_CAP = 50_000;

/**
 * The first `k` facts of balanced's order without scoring every fact, or undefined when that is
 * not known to be safe here (the caller then scores them all).
 *
 * tau is the k-th best score among a few thousand valid facts (the newest 2k and the k most
 * important): k facts score at least tau, so the k best of the partition all do. A score,
 * importance / (1 + hours since ts), reaches tau only for a fact younger than max(importance) /
 * tau hours, and only with importance at least tau x (1 + the youngest age). Each bound is a
 * range of an index, (partition_id, ts) or (partition_id, importance); the facts in the smaller
 * range are scored (exactly as in the plain query), nothing else is. Age is read on timestamps
 * as strings, which is sound because every timestamp of the partition starts "YYYY-" (checked,
 * one index probe per year present): julianday() rejects such a string (a NULL score ranks last)
 * or reads it as that date, whose string order follows time to within TS_ORDER_SLACK_DAYS, kept
 * as slack on both bounds.
 */
function balancedTop(ctx: PartitionContext, view: TimeView, k: number, scoreAllBelow: number): ScoredRid[] | undefined {
  const small =
    stmt<[number, number], { one: number }>(ctx.db, 'SELECT 1 AS one FROM facts f WHERE f.partition_id = ? LIMIT 1 OFFSET ?').get(
      ctx.partitionId,
      Math.max(0, scoreAllBelow - 1),
    ) === undefined;
  if (small) return undefined;
  const maxImportance = stmt<[number], { m: number | null }>(ctx.db, 'SELECT max(f.importance) AS m FROM facts f WHERE f.partition_id = ?').get(
    ctx.partitionId,
  )?.m;
  const jdNow = julianDay(ctx, view.now);
  if (typeof maxImportance !== 'number' || !(maxImportance > 0) || !Number.isFinite(maxImportance) || jdNow === null || !datedTimestamps(ctx)) return undefined;
  const valid = candidateClause(ctx, view);
  const newestSql = `SELECT f.ts AS ts FROM facts f WHERE f.partition_id = @pid AND ${valid} ORDER BY f.ts DESC, f.rid DESC LIMIT 1 OFFSET @offset`;
  const newestAt = (offset: number): string | undefined =>
    stmt<[Record<string, unknown>], { ts: string }>(ctx.db, newestSql).get(params(ctx, view, { offset }))?.ts;
  const newest = newestAt(0);
  if (newest === undefined) return undefined;
  const ranked = (from: string, where: string): string =>
    `SELECT f.rid AS rid, ${BALANCED_SCORE} AS score FROM ${from} WHERE f.partition_id = @pid AND ${valid}${where} ORDER BY ${ORDER_SQL.balanced} LIMIT @limit`;
  const sample = new Map<number, number | null>();
  const sampled = (sql: string, extra: Record<string, unknown>): void => {
    for (const [rid, score] of rawStmt(ctx, sql).all(params(ctx, view, { now: view.now, limit: k, ...extra })) as ScoredRid[]) sample.set(rid, score);
  };
  sampled(ranked('facts f', ' AND f.ts >= @from'), { from: newestAt(2 * k - 1) ?? '' });
  sampled(`SELECT f.rid, ${BALANCED_SCORE} FROM facts f WHERE f.partition_id = @pid AND ${valid} ORDER BY f.importance DESC LIMIT @limit`, {});
  const scores = [...sample.values()].filter((x): x is number => typeof x === 'number').sort((a, b) => b - a);
  const tau = scores[k - 1];
  if (tau === undefined || !(tau > 0)) return undefined;
  // Relative 1e-9 and an hour absorb the rounding of the score's arithmetic.
  const spanDays = (maxImportance / (24 * tau)) * (1 + 1e-9) + 1;
  const cut = isoDate(jdNow - spanDays - TS_ORDER_SLACK_DAYS) ?? '';
  const jdNewest = julianDay(ctx, newest.slice(0, 10));
  const minAgeHours = jdNewest === null ? 0 : Math.max(0, (jdNow - jdNewest - TS_ORDER_SLACK_DAYS) * 24 - 1);
  const minImportance = tau * (1 + minAgeHours) * (1 - 1e-9);
  const sql = ranked(`facts f INDEXED BY ${smallerRange(ctx, cut, minImportance)}`, ' AND f.ts >= @cut AND f.importance >= @minImportance');
  // Every fact scoring tau or more is in both ranges, and at least k do: the k best of the
  // ranges are the k best of the partition.
  const top = rawStmt(ctx, sql).all(params(ctx, view, { now: view.now, limit: k, cut, minImportance })) as ScoredRid[];
  return top.length === k ? top : undefined;
}

/** The index whose range (ts from `cut`, or importance from `minImportance`) holds fewer facts
 * of the partition, counted on the indexes alone with caps growing until one range ends (ties,
 * and ranges past RANGE_COUNT_CAP, go to ts: it reads rows in about the order they were written). */
function smallerRange(ctx: PartitionContext, cut: string, minImportance: number): 'facts_partition_ts' | 'facts_sort_importance' {
  const counted = (sql: string, extra: Record<string, unknown>, cap: number): number =>
    stmt<[Record<string, unknown>], { n: number }>(ctx.db, `SELECT count(*) AS n FROM (${sql} LIMIT @cap)`).get({ pid: ctx.partitionId, cap, ...extra })?.n ??
    0;
  for (let cap = 1024; ; cap *= 4) {
    const byAge = counted('SELECT 1 FROM facts f WHERE f.partition_id = @pid AND f.ts >= @cut', { cut }, cap);
    const byImportance = counted('SELECT 1 FROM facts f WHERE f.partition_id = @pid AND f.importance >= @minImportance', { minImportance }, cap);
    if (byImportance < byAge) return 'facts_sort_importance';
    if (byAge < cap || cap >= RANGE_COUNT_CAP) return 'facts_partition_ts';
  }
}

function julianDay(ctx: PartitionContext, time: string): number | null {
  return stmt<[string], { j: number | null }>(ctx.db, 'SELECT julianday(?) AS j').get(time)?.j ?? null;
}

/** The calendar date (YYYY-MM-DD, years 0000-9999) of a Julian day number. */
function isoDate(jd: number): string | undefined {
  const ms = (jd - 2440587.5) * 86_400_000;
  if (!Number.isFinite(ms) || Math.abs(ms) > 8.64e15) return undefined;
  const iso = new Date(ms).toISOString();
  return /^\d{4}-\d{2}-\d{2}T/.test(iso) ? iso.slice(0, 10) : undefined;
}

/** Whether every fact timestamp of the partition starts "YYYY-": one index probe per distinct
 * year, giving up after TS_FORM_PROBES. */
function datedTimestamps(ctx: PartitionContext): boolean {
  const probe = stmt<[Record<string, unknown>], { ts: string }>(
    ctx.db,
    'SELECT f.ts AS ts FROM facts f WHERE f.partition_id = @pid AND f.ts >= @from ORDER BY f.ts LIMIT 1',
  );
  let from = '';
  for (let i = 0; i < TS_FORM_PROBES; i++) {
    const ts = probe.get({ pid: ctx.partitionId, from })?.ts;
    if (ts === undefined) return true;
    if (!/^\d{4}-/.test(ts)) return false;
    // Every string from "YYYY-" up to "YYYY." starts "YYYY-": skip the rest of this year.
    from = `${ts.slice(0, 4)}.`;
  }
  return false;
}

/** Valid facts newest first (the non-relevant tail of state_based), streamed via (partition_id, ts). */
export function* validFactsNewestFirst(ctx: PartitionContext, view: TimeView): Generator<LeanFact> {
  const sql = `SELECT ${LEAN} FROM facts f WHERE f.partition_id = @pid AND ${candidateClause(ctx, view)} ORDER BY f.ts DESC, f.rid DESC`;
  for (const a of rawStmt(ctx, sql).iterate(params(ctx, view))) yield lean(a);
}

/** Valid facts oldest first (the reference's timestamp order). */
export function validFactsOrderedByTs(ctx: PartitionContext, view: TimeView): LeanFact[] {
  const sql = `SELECT ${LEAN} FROM facts f WHERE f.partition_id = @pid AND ${candidateClause(ctx, view)} ORDER BY f.ts, f.rid`;
  return stmt<[Record<string, unknown>], LeanFact>(ctx.db, sql).all(params(ctx, view));
}

/** What a match of a common term adds (BM25 is negative: lower ranks first). */
const COMMON_TERM_SCORE = -1e-3;

/** A relevant fact's row id and FTS5 BM25 of the OR query (negative: lower is better), with the
 * fact itself when the scoring query already read it (rare terms); `leanFacts` reads the rest. */
export interface Candidate {
  readonly rid: number;
  readonly id: string;
  readonly is_constraint: number;
  bm25: number;
  fact?: LeanFact;
}

/**
 * Valid facts matching any of the FTS5 term expressions, best BM25 first (key weighted below
 * value). BM25 is a sum over terms, so each term is scored in its own query and the sums are
 * FTS5's own BM25 of the OR query. A term matching more than `perTerm` valid facts of the
 * partition is common: its newest `perTerm` matches count with a nominal score, below any rarer
 * term's, instead of BM25 (FTS5 finds a term's IDF by walking all its rows, which grows with the
 * index). The cost is bounded at any partition size, and the ranking is FTS5's BM25 exactly
 * whenever every term is rarer than `perTerm`.
 */
export function relevantFacts(ctx: PartitionContext, view: TimeView, termQueries: readonly string[], perTerm: number, limit: number): Candidate[] {
  const dialect = dialectOf(ctx.db);
  const fts = dialect.ftsFacts('@match');
  const from = `FROM ${fts.from}
    WHERE ${fts.match} AND +f.partition_id = @pid AND ${candidateClause(ctx, view)}
    ORDER BY ${fts.rid} DESC LIMIT @limit`;
  const plain = rawStmt(ctx, `SELECT f.rid, f.id, f.is_constraint ${from}`);
  const scored = rawStmt(ctx, `SELECT ${LEAN}, ${dialect.ftsRank('@match')} ${from}`);
  const byRid = new Map<number, Candidate>();
  const add = (r: { rid: number; id: string; is_constraint: number }, bm25: number, fact?: LeanFact): void => {
    const seen = byRid.get(r.rid);
    if (seen) {
      seen.bm25 += bm25;
      seen.fact ??= fact;
    } else
      byRid.set(
        r.rid,
        fact ? { rid: r.rid, id: r.id, is_constraint: r.is_constraint, bm25, fact } : { rid: r.rid, id: r.id, is_constraint: r.is_constraint, bm25 },
      );
  };
  for (const term of termQueries) {
    const match = dialect.ftsQuery(term);
    const rows = plain.all(params(ctx, view, { match, limit: perTerm + 1 })) as Array<[number, string, number]>;
    if (rows.length <= perTerm) {
      for (const a of scored.all(params(ctx, view, { match, limit: perTerm }))) {
        const f = lean(a);
        add(f, a[10] as number, f);
      }
    } else {
      for (const [rid, id, isConstraint] of rows.slice(0, perTerm)) add({ rid, id, is_constraint: isConstraint }, COMMON_TERM_SCORE);
    }
  }
  return [...byRid.values()].sort((a, b) => a.bm25 - b.bm25 || b.rid - a.rid).slice(0, limit);
}

const DEAD_COLUMNS = 'f.id, f.key, f.value, f.valid_to, f.superseded_by';
const DEAD_NOW = "+f.is_valid = 0 AND +f.status = 'superseded'";
const DEAD_AS_OF = "+f.status <> 'proposal' AND +f.ts <= @asOf AND f.valid_to IS NOT NULL AND f.valid_to <= @asOf";

export interface DeadFactRow {
  id: string;
  key: string;
  value: string;
  valid_to: string | null;
  superseded_by: string | null;
}

/** The values of the facts that replaced the given ones (by id), where there is one. */
export function successorValues(ctx: PartitionContext, ids: readonly string[]): Map<string, string> {
  const out = new Map<string, string>();
  for (let i = 0; i < ids.length; i += 500) {
    const rows = stmt<[string, number], { id: string; value: string }>(
      ctx.db,
      `SELECT f.id AS id, s.value AS value FROM facts f JOIN facts s ON s.id = f.superseded_by
       WHERE f.id IN (SELECT value FROM json_each(?)) AND +f.partition_id = ?`,
    ).all(JSON.stringify(ids.slice(i, i + 500)), ctx.partitionId);
    for (const r of rows) out.set(r.id, r.value);
  }
  return out;
}

/** Whether more than `limit` facts are dead in the view (counted on an index, rows not read). */
export function deadCountExceeds(ctx: PartitionContext, view: TimeView, limit: number): boolean {
  const where =
    view.asOf === null
      ? "f.is_valid = 0 AND f.status = 'superseded'"
      : "+f.status <> 'proposal' AND f.ts <= @asOf AND f.valid_to IS NOT NULL AND f.valid_to <= @asOf";
  const sql = `SELECT count(*) AS n FROM (SELECT 1 FROM facts f WHERE f.partition_id = @pid AND ${where} LIMIT @limit)`;
  const row = stmt<[Record<string, unknown>], { n: number }>(ctx.db, sql).get(params(ctx, view, { limit: limit + 1 }));
  return (row?.n ?? 0) > limit;
}

/** Facts dead in the view (superseded by then). */
export function deadFacts(ctx: PartitionContext, view: TimeView, limit: number): DeadFactRow[] {
  // Here the (partition_id, status) and (partition_id, ts) indexes are the right way in.
  const where =
    view.asOf === null
      ? "f.is_valid = 0 AND f.status = 'superseded'"
      : "+f.status <> 'proposal' AND f.ts <= @asOf AND f.valid_to IS NOT NULL AND f.valid_to <= @asOf";
  const sql = `SELECT ${DEAD_COLUMNS} FROM facts f WHERE f.partition_id = @pid AND ${where} LIMIT @limit`;
  return stmt<[Record<string, unknown>], DeadFactRow>(ctx.db, sql).all(params(ctx, view, { limit }));
}

/** Proposals established in the view, each with the value of the fact it was proposed against:
 * a lower authority's value that did not override it is no more current than a superseded one,
 * whenever it is repeated (so no `valid_to`). */
export function overruledProposals(ctx: PartitionContext, view: TimeView, limit: number): Array<DeadFactRow & { successor_value: string }> {
  const upTo = view.asOf === null ? '' : 'AND +f.ts <= @asOf';
  // '+': proposals are found on the (partition_id, status) index and then sorted. Ordering by the
  // (partition_id, ts) index instead walks every fact of a partition that has few proposals, on
  // every state_based assembly (10 ms at 20k facts, a fifth of the whole assembly at 100k).
  const sql = `SELECT f.id, f.key, f.value, NULL AS valid_to, f.superseded_by, o.value AS successor_value
    FROM facts f JOIN facts o ON o.id = f.proposal_for
    WHERE f.partition_id = @pid AND f.status = 'proposal' ${upTo} ORDER BY +f.ts DESC LIMIT @limit`;
  return stmt<[Record<string, unknown>], DeadFactRow & { successor_value: string }>(ctx.db, sql).all(params(ctx, view, { limit }));
}

/** Dead facts matching an FTS5 expression, newest first (the large-partition complement of deadFacts). */
export function deadFactsMatching(ctx: PartitionContext, view: TimeView, match: string, limit: number): DeadFactRow[] {
  const dialect = dialectOf(ctx.db);
  const fts = dialect.ftsFacts('@match');
  const sql = `SELECT ${DEAD_COLUMNS} FROM ${fts.from}
     WHERE ${fts.match} AND +f.partition_id = @pid AND ${view.asOf === null ? DEAD_NOW : DEAD_AS_OF} ORDER BY ${fts.rid} DESC LIMIT @limit`;
  return stmt<[Record<string, unknown>], DeadFactRow>(ctx.db, sql).all(params(ctx, view, { match: dialect.ftsQuery(match), limit }));
}

/** The facts the given facts replaced (their predecessors), dead in the view. Each row's
 * successor is a fact asked about, whose value the caller has. */
export function predecessors(ctx: PartitionContext, view: TimeView, ids: readonly string[]): DeadFactRow[] {
  if (ids.length === 0) return [];
  const sql = `SELECT ${DEAD_COLUMNS} FROM facts f WHERE f.superseded_by IN (SELECT value FROM json_each(@ids)) AND +f.partition_id = @pid AND ${view.asOf === null ? DEAD_NOW : DEAD_AS_OF}`;
  return stmt<[Record<string, unknown>], DeadFactRow>(ctx.db, sql).all(params(ctx, view, { ids: JSON.stringify(ids) }));
}

/** Facts that died since `since`: the predecessors of facts established from then on (newest
 * first, at most `limit` of those), with the value that replaced each. A turn said at `since` or
 * later can only assert a value "since superseded" if it is one of these. */
export function diedSince(ctx: PartitionContext, view: TimeView, since: string, limit: number): Array<DeadFactRow & { successor_value: string }> {
  const upTo = view.asOf === null ? '' : 'AND s.ts <= @asOf';
  const sql = `SELECT ${DEAD_COLUMNS}, s.value AS successor_value
    FROM (SELECT s.id, s.value FROM facts s WHERE s.partition_id = @pid AND s.ts >= @since ${upTo} ORDER BY s.ts DESC LIMIT @limit) s
    JOIN facts f ON f.superseded_by = s.id
    WHERE +f.partition_id = @pid AND ${view.asOf === null ? DEAD_NOW : DEAD_AS_OF}`;
  return stmt<[Record<string, unknown>], DeadFactRow & { successor_value: string }>(ctx.db, sql).all(params(ctx, view, { since, limit }));
}

/** Does a fact valid in the view have exactly this value? (Found through the
 * (partition_id, substr(value, 1, 64)) index, then compared whole.) */
export function validValueExists(ctx: PartitionContext, view: TimeView, value: string): boolean {
  const sql = `SELECT 1 AS one FROM facts f WHERE f.partition_id = @pid AND substr(f.value, 1, 64) = substr(@value, 1, 64) AND f.value = @value AND ${validClause(view)} LIMIT 1`;
  return stmt<[Record<string, unknown>], { one: number }>(ctx.db, sql).get(params(ctx, view, { value })) !== undefined;
}

/** The timestamps of the given facts (to tell whether a review cause happened before as-of). */
export function factTimes(ctx: PartitionContext, ids: readonly string[]): Map<string, string> {
  const out = new Map<string, string>();
  const q = stmt<[string, number], { ts: string }>(ctx.db, 'SELECT ts FROM facts WHERE id = ? AND +partition_id = ?');
  for (const id of ids) {
    const r = q.get(id, ctx.partitionId);
    if (r) out.set(id, r.ts);
  }
  return out;
}

export type { WorkingRow };

export const WORKING_LIMIT = 5_000;

/** The session's most recent working items (at most WORKING_LIMIT) that the view's reader may
 * see, oldest first; the others, with the audience that withholds each, apart. */
export function sessionItems(
  ctx: PartitionContext,
  view: TimeView,
  sessionId: string,
): { items: WorkingRow[]; withheld: Array<{ item: WorkingRow; audience: string }> } {
  ensurePermissionFunction(ctx.db);
  const rows = stmt<[Record<string, unknown>], WorkingRow & { withheld: string | null }>(
    ctx.db,
    `SELECT id, session_id, key, value, item_type, speaker, turn_index, created_at, expires_at, priority, ${withheldSql('value', dialectOf(ctx.db).name)} AS withheld
     FROM working_items WHERE partition_id = @pid AND session_id = @sid ORDER BY created_at DESC, rid DESC LIMIT @limit`,
  ).all({ pid: ctx.partitionId, sid: sessionId, limit: WORKING_LIMIT, reader: readerBinding(ctx, view) });
  const items: WorkingRow[] = [];
  const withheld: Array<{ item: WorkingRow; audience: string }> = [];
  for (const { withheld: audience, ...item } of rows.reverse()) {
    if (audience === null) items.push(item);
    else withheld.push({ item, audience });
  }
  return { items, withheld };
}

/** The identity of the session a context is assembled for (never another session's). */
export function identityOf(ctx: PartitionContext, sessionId: string): Identity | undefined {
  return sessionIdentity(ctx, sessionId);
}

export interface SignalRow {
  key: string;
  value: string;
  observed_at: string;
}

/** The environment as of `at`: the latest observation per key made by then. */
export function signals(ctx: PartitionContext, at: string): SignalRow[] {
  return stmt<[{ p: number; at: string }], SignalRow>(ctx.db, LATEST_SIGNALS_SQL).all({ p: ctx.partitionId, at });
}

const NO_IDENTITY: Identity = { userName: '', userId: '', authority: '', department: '', organization: '', permissions: [] };

/** The organisation's documents split by what `identity` may read (none readable without one
 * unless public). Empty when the org has no organisational partition. */
export function orgDocuments(ctx: PartitionContext, identity: Identity | undefined): { allowed: OrgDocument[]; denied: OrgDocument[] } {
  const org = stmt<[string], { id: number }>(ctx.db, "SELECT id FROM partitions WHERE org_id = ? AND kind = 'organizational'").get(ctx.orgId);
  if (!org) return { allowed: [], denied: [] };
  const rows = stmt<[number], { id: string; title: string; body: string; acl: string; created_at: string }>(
    ctx.db,
    'SELECT id, title, body, acl, created_at FROM org_documents WHERE partition_id = ? ORDER BY rid',
  ).all(org.id);
  const docs: OrgDocument[] = rows.map((r) => ({ id: r.id, title: r.title, body: r.body, acl: JSON.parse(r.acl) as string[], createdAt: r.created_at }));
  const who = identity ?? NO_IDENTITY;
  return { allowed: docs.filter((d) => canRead(d.acl, who)), denied: docs.filter((d) => !canRead(d.acl, who)) };
}

/** The latest stored context document of a session (its newest version), if any. */
export function latestContextDocument(
  ctx: PartitionContext,
  sessionId: string,
  asOf: string | null,
): { version: number; body: string; createdAt: string } | undefined {
  const row = stmt<[Record<string, unknown>], { version: number; body: string; created_at: string }>(
    ctx.db,
    `SELECT version, body, created_at FROM context_documents WHERE partition_id = @pid AND session_id = @sid
       AND (@asOf IS NULL OR created_at <= @asOf) ORDER BY version DESC LIMIT 1`,
  ).get({ pid: ctx.partitionId, sid: sessionId, asOf });
  return row ? { version: row.version, body: row.body, createdAt: row.created_at } : undefined;
}

/**
 * Global facts a scoped write shadows in this view: a hypothetical, draft, task or session fact
 * of the view's own session or task (valid in the view, readable by its reader) hides the
 * global facts filed under its key or its entity there, and only there (a write naming a global
 * fact is filed under that fact's entity). Global fact id -> the shadowing fact's id.
 */
export function shadowedInView(
  ctx: PartitionContext,
  view: TimeView,
  req: { readonly sessionId: string; readonly taskId?: string | undefined },
): Map<string, string> {
  const out = new Map<string, string>();
  const scopeIds = [req.sessionId, ...(req.taskId === undefined ? [] : [req.taskId])];
  const sql = `SELECT g.id AS shadowed, f.id AS shadow FROM facts f
    JOIN facts g ON g.partition_id = f.partition_id AND g.scope = 'global' AND (g.key = f.key OR g.entity_key = f.entity_key)
    WHERE f.partition_id = @pid AND f.scope <> 'global' AND f.scope_id IN (SELECT value FROM json_each(@scopes))
      AND ${candidateClause(ctx, view)} AND ${candidateClause(ctx, view).replace(/\bf\./g, 'g.')}
    ORDER BY f.ts, f.rid`;
  for (const r of stmt<[Record<string, unknown>], { shadowed: string; shadow: string }>(ctx.db, sql).all(
    params(ctx, view, { scopes: JSON.stringify([...new Set(scopeIds)]) }),
  ))
    out.set(r.shadowed, r.shadow);
  return out;
}
