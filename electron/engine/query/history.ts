// Time travel's reads beyond the as-of table: how one fact and its edges stood at an instant,
// a partition's change counts over time (the scrubber's density strip), and what changed
// between two instants. Validity at t is the fact's window [ts, valid_to) holding t, as in
// factsAsOf; a proposal or an empty window never held any instant.
import type { EngineDb } from '../db/connection';
import type { Fact } from '../../../shared/domain';
import { StatelensError } from '../../../shared/errors';
import type { AsOfState, ChangeKind, FactAsOf, FactBrief, FactChange, FactChanges, Timeline } from '../../../shared/inspect';
import { requireTimestamp } from '../../../shared/timestamp';
import type { PartitionContext } from '../context';
import { stmt } from '../db/statements';
import { briefOf } from './row-view';

type Window = Pick<Fact, 'status' | 'ts' | 'validTo'>;

/** Where `at` falls in a fact's validity window. */
export function stateAt(f: Window, at: string): AsOfState {
  if (f.status === 'proposal' || (f.validTo !== null && f.validTo <= f.ts)) return 'never';
  if (f.ts > at) return 'not-yet';
  if (f.validTo !== null && f.validTo <= at) return 'ended';
  return 'valid';
}

interface EdgeRow {
  id: string;
  ts: string;
  valid_to: string | null;
  status: Fact['status'];
}

/** `briefs` as they stood at `at`: only facts recorded by then, valid or superseded as then. */
function briefsAsOf(ctx: PartitionContext, briefs: readonly FactBrief[], at: string): { briefs: FactBrief[]; later: number } {
  if (briefs.length === 0) return { briefs: [], later: 0 };
  const rows = stmt<[string, number], EdgeRow>(
    ctx.db,
    'SELECT f.id, f.ts, f.valid_to, f.status FROM json_each(?) j CROSS JOIN facts f ON f.id = j.value WHERE f.partition_id = ?',
  ).all(JSON.stringify(briefs.map((b) => b.id)), ctx.partitionId);
  const byId = new Map(rows.map((r) => [r.id, r]));
  const out: FactBrief[] = [];
  let later = 0;
  for (const b of briefs) {
    const r = byId.get(b.id);
    const state = r ? stateAt({ status: r.status, ts: r.ts, validTo: r.valid_to }, at) : 'not-yet';
    if (state === 'not-yet') {
      later += 1;
      continue;
    }
    const valid = state === 'valid';
    out.push({
      ...b,
      isValid: valid,
      status: b.status === 'proposal' ? 'proposal' : valid ? 'active' : 'superseded',
      supersessionRule: valid ? null : b.supersessionRule,
    });
  }
  return { briefs: out, later };
}

/** The as-of part of a fact's detail, and its edge lists as they stood at `at`. */
export function detailAsOf(
  ctx: PartitionContext,
  fact: Fact,
  chain: { versions: readonly Fact[]; proposals: readonly Fact[] },
  edges: { dependsOn: readonly FactBrief[]; derivedFacts: readonly FactBrief[] },
  at: string,
): { asOf: FactAsOf; dependsOn: FactBrief[]; derivedFacts: FactBrief[] } {
  const state = stateAt(fact, at);
  const then = state === 'valid' ? undefined : chain.versions.find((v) => stateAt(v, at) === 'valid');
  const thenBrief = then ? briefOf(ctx, then.id) : null;
  const dependsOn = briefsAsOf(ctx, edges.dependsOn, at);
  const derivedFacts = briefsAsOf(ctx, edges.derivedFacts, at);
  return {
    asOf: {
      at,
      state,
      // As it stood then: valid, not (yet) superseded.
      validVersion: thenBrief ? { ...thenBrief, status: 'active', isValid: true, supersessionRule: null } : null,
      laterEdges: dependsOn.later + derivedFacts.later,
    },
    dependsOn: dependsOn.briefs,
    derivedFacts: derivedFacts.briefs,
  };
}

// A fact "takes effect" at ts unless its window is empty; its validity "ends" at valid_to.
const TAKES_EFFECT = "f.status <> 'proposal' AND (f.valid_to IS NULL OR f.valid_to > f.ts)";
const ENDS = "f.status <> 'proposal' AND f.valid_to IS NOT NULL AND f.valid_to > f.ts";
const MS_PER_DAY = 86_400_000;

/** The partition's history from its oldest to its newest fact time in `buckets` equal slices,
 * each with the facts that took effect and those whose validity ended in it. */
export function timeline(ctx: PartitionContext, buckets: number): Timeline {
  if (!Number.isSafeInteger(buckets) || buckets < 1) throw new StatelensError('INVALID_INPUT', `Invalid bucket count ${buckets}`);
  const span = stmt<[number], { first: string | null; last: string | null }>(
    ctx.db,
    'SELECT min(f.ts) AS first, max(f.ts) AS last FROM facts f WHERE f.partition_id = ?',
  ).get(ctx.partitionId);
  if (!span?.first || !span.last) return { first: null, last: null, buckets: [] };
  const lo = Date.parse(span.first);
  const hi = Date.parse(span.last);
  const n = hi > lo ? buckets : 1;
  const width = Math.max(1, (hi - lo) / n);
  const out = Array.from({ length: n }, (_, i) => ({ start: new Date(lo + i * width).toISOString(), added: 0, ended: 0 }));
  // The slice number is floor(q). CAST(q AS INTEGER) truncates in SQLite but rounds in
  // PostgreSQL, so the one it rounded up is taken back down (q >= 0 here).
  const q = (column: string): string => `((julianday(${column}) - julianday(@first)) * ${MS_PER_DAY}.0 / @width)`;
  const count = (column: 'f.ts' | 'f.valid_to', where: string): Array<{ b: number; c: number }> =>
    stmt<[Record<string, unknown>], { b: number; c: number }>(
      ctx.db,
      `SELECT CAST(${q(column)} AS INTEGER) - CASE WHEN CAST(${q(column)} AS INTEGER) > ${q(column)} THEN 1 ELSE 0 END AS b, count(*) AS c
       FROM facts f WHERE f.partition_id = @pid AND ${where} AND ${column} >= @first AND ${column} <= @last GROUP BY b`,
    ).all({ pid: ctx.partitionId, first: span.first, last: span.last, width });
  const slot = (b: number) => out[Math.min(n - 1, Math.max(0, b))];
  for (const r of count('f.ts', TAKES_EFFECT)) {
    const s = slot(r.b);
    if (s) s.added += r.c;
  }
  for (const r of count('f.valid_to', ENDS)) {
    const s = slot(r.b);
    if (s) s.ended += r.c;
  }
  return { first: span.first, last: span.last, buckets: out };
}

const KIND_ORDER: Record<ChangeKind, number> = { deleted: 0, superseded: 1, invalidated: 2, 'became-valid': 3 };

interface ChangeRow {
  id: string;
  at: string;
  by: string | null;
}

function changeQuery(db: EngineDb, sql: string, params: Record<string, unknown>): ChangeRow[] {
  return stmt<[Record<string, unknown>], ChangeRow>(db, sql).all(params);
}

/** The facts that became valid, were superseded or invalidated, or were deleted in (from, to]
 * (the instants in either order): in time order, at most `limit`, with every kind's total. */
export function changesBetween(ctx: PartitionContext, fromAt: string, toAt: string, limit: number): FactChanges {
  const a0 = requireTimestamp(fromAt, 'from');
  const b0 = requireTimestamp(toAt, 'to');
  const [from, to] = a0 <= b0 ? [a0, b0] : [b0, a0];
  if (!Number.isSafeInteger(limit) || limit < 1) throw new StatelensError('INVALID_INPUT', `Invalid limit ${limit}`);
  const params = { pid: ctx.partitionId, from, to, limit };
  const became = `FROM facts f WHERE f.partition_id = @pid AND f.ts > @from AND f.ts <= @to AND ${TAKES_EFFECT}`;
  const ended = `FROM facts f WHERE f.partition_id = @pid AND f.valid_to > @from AND f.valid_to <= @to AND ${ENDS}`;
  const deleted = `FROM audit_log a CROSS JOIN json_each(a.target_ids) j
    WHERE a.partition_id = @pid AND a.action = 'delete' AND a.at > @from AND a.at <= @to`;
  const total = (sql: string) => stmt<[Record<string, unknown>], number>(ctx.db, `SELECT count(*) ${sql}`).pluck().get(params) ?? 0;
  const superseded = `${ended} AND f.superseded_by IS NOT NULL`;
  const invalidated = `${ended} AND f.superseded_by IS NULL`;
  const totals = {
    'became-valid': total(became),
    superseded: total(superseded),
    invalidated: total(invalidated),
    deleted: total(deleted),
  };
  // The first `limit` changes overall are among the first `limit` of each kind.
  const rows: FactChange[] = [
    ...changeQuery(ctx.db, `SELECT f.id, f.ts AS at, NULL AS by ${became} ORDER BY f.ts, f.rid LIMIT @limit`, params).map((r) => ({
      kind: 'became-valid' as const,
      at: r.at,
      factId: r.id,
      by: null,
    })),
    ...changeQuery(ctx.db, `SELECT f.id, f.valid_to AS at, f.superseded_by AS by ${superseded} ORDER BY f.valid_to, f.rid LIMIT @limit`, params).map((r) => ({
      kind: 'superseded' as const,
      at: r.at,
      factId: r.id,
      by: r.by,
    })),
    ...changeQuery(ctx.db, `SELECT f.id, f.valid_to AS at, NULL AS by ${invalidated} ORDER BY f.valid_to, f.rid LIMIT @limit`, params).map((r) => ({
      kind: 'invalidated' as const,
      at: r.at,
      factId: r.id,
      by: null,
    })),
    ...changeQuery(ctx.db, `SELECT j.value AS id, a.at AS at, NULL AS by ${deleted} ORDER BY a.at, a.id, j.key LIMIT @limit`, params).map((r) => ({
      kind: 'deleted' as const,
      at: r.at,
      factId: String(r.id),
      by: null,
    })),
  ];
  rows.sort((x, y) => (x.at < y.at ? -1 : x.at > y.at ? 1 : KIND_ORDER[x.kind] - KIND_ORDER[y.kind]));
  const all = totals['became-valid'] + totals.superseded + totals.invalidated + totals.deleted;
  return { from, to, changes: rows.slice(0, limit), totals, truncated: all > limit };
}
