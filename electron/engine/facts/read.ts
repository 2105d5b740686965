// Reads of persistent facts inside one partition: by id, valid-only, the current value of a
// key following the chain, and as-of-time validity. A fact's chain is query/chain.ts chainFor.
import type { Fact } from '../../../shared/domain';
import { StatelensError } from '../../../shared/errors';
import type { PartitionContext } from '../context';
import { stmt } from '../db/statements';
import { derivedFactsOf, dependsOnOf } from './dependencies';
import { decodeFactCursor, encodeFactCursor } from '../query/cursor';
import { FACT_COLUMNS, rowToFact, type FactRow } from './rows';
import { chainHead } from './write';
import { requireTimestamp } from '../../../shared/timestamp';

export function getFactRow(ctx: PartitionContext, id: string): FactRow | undefined {
  return stmt<[string, number], FactRow>(ctx.db, `SELECT ${FACT_COLUMNS} FROM facts f WHERE f.id = ? AND f.partition_id = ?`).get(id, ctx.partitionId);
}

export function getFact(ctx: PartitionContext, id: string): Fact | undefined {
  const row = getFactRow(ctx, id);
  return row ? rowToFact(row, dependsOnOf(ctx, id), derivedFactsOf(ctx, id)) : undefined;
}

/** All valid facts, oldest first (edges not loaded: use getFact for the neighbourhood). */
export function validFacts(ctx: PartitionContext): Fact[] {
  return stmt<[number], FactRow>(ctx.db, `SELECT ${FACT_COLUMNS} FROM facts f WHERE f.partition_id = ? AND f.is_valid = 1 ORDER BY f.ts, f.rid`)
    .all(ctx.partitionId)
    .map((r) => rowToFact(r));
}

export function allFacts(ctx: PartitionContext): Fact[] {
  return stmt<[number], FactRow>(ctx.db, `SELECT ${FACT_COLUMNS} FROM facts f WHERE f.partition_id = ? ORDER BY f.ts, f.rid`)
    .all(ctx.partitionId)
    .map((r) => rowToFact(r));
}

/** A key's current value (get_current_value): the valid global fact for `key`, else the head of the chain
 * the newest superseded global fact with that key belongs to (a correction may carry a new key).
 * Task, draft and hypothetical facts are not the key's value, and neither is where they lead. */
export function currentFact(ctx: PartitionContext, key: string): Fact | undefined {
  const valid = stmt<[number, string], FactRow>(
    ctx.db,
    `SELECT ${FACT_COLUMNS} FROM facts f WHERE f.partition_id = ? AND f.key = ? AND f.is_valid = 1 AND f.scope = 'global' ORDER BY +f.ts DESC, f.rid DESC LIMIT 1`,
  ).get(ctx.partitionId, key);
  if (valid) return rowToFact(valid);
  const newest = stmt<[number, string], FactRow>(
    ctx.db,
    `SELECT ${FACT_COLUMNS} FROM facts f WHERE f.partition_id = ? AND f.key = ? AND f.is_valid = 0 AND f.status = 'superseded' AND +f.scope = 'global' ORDER BY +f.ts DESC, f.rid DESC LIMIT 1`,
  ).get(ctx.partitionId, key);
  if (!newest) return undefined;
  const head = chainHead(ctx, newest);
  return head.is_valid === 1 ? rowToFact(head) : undefined;
}

/** Page size of factsAsOf when the caller names none. */
export const AS_OF_PAGE_SIZE = 1_000;

/** One keyset page of the state as of a time. */
export interface FactsAsOfPage {
  readonly facts: Fact[];
  /** Pass back as `after` for the next page; null exactly when no fact follows this page. */
  readonly next: string | null;
}

// The keyset order of as-of pages, in the inspector's cursor format ((ts, rid) ascending).
const AS_OF_ORDER = { column: 'ts', direction: 'asc' } as const;
const AS_OF_WHERE = "f.partition_id = @pid AND f.ts <= @at AND +f.status <> 'proposal' AND f.archived_at IS NULL AND (f.valid_to IS NULL OR f.valid_to > @at)";

/**
 * Facts valid at time `at` (established at or before it and not yet superseded then), oldest
 * first, one page at a time: never truncated silently, every fact is reached by following
 * `next` (keyset on (ts, rid) through the (partition_id, ts, rid) index, so each page costs the
 * same however deep it is).
 */
export function factsAsOf(ctx: PartitionContext, at: string, page: { readonly limit?: number; readonly after?: string | null } = {}): FactsAsOfPage {
  const limit = page.limit ?? AS_OF_PAGE_SIZE;
  if (!Number.isSafeInteger(limit) || limit < 1) throw new StatelensError('INVALID_INPUT', `Invalid page size ${limit}: a positive integer is needed`);
  const params: Record<string, unknown> = { pid: ctx.partitionId, at: requireTimestamp(at, 'as-of time'), limit: limit + 1 };
  let sql = `SELECT ${FACT_COLUMNS} FROM facts f WHERE ${AS_OF_WHERE} ORDER BY f.ts, f.rid LIMIT @limit`;
  if (page.after) {
    const from = decodeFactCursor(page.after, AS_OF_ORDER);
    if (typeof from.value !== 'string') throw new StatelensError('INVALID_INPUT', 'Invalid page cursor: not a cursor of an as-of read');
    params.after_ts = from.value;
    params.after_rid = from.rid;
    sql = `SELECT ${FACT_COLUMNS} FROM facts f WHERE ${AS_OF_WHERE} AND (f.ts, f.rid) > (@after_ts, @after_rid) ORDER BY f.ts, f.rid LIMIT @limit`;
  }
  const rows = stmt<[Record<string, unknown>], FactRow>(ctx.db, sql).all(params);
  const more = rows.length > limit;
  if (more) rows.length = limit;
  const last = rows[rows.length - 1];
  return { facts: rows.map((r) => rowToFact(r)), next: more && last ? encodeFactCursor(AS_OF_ORDER, { value: last.ts, rid: last.rid }) : null };
}

/** Every fact valid at `at`, read page by page (for callers that want the whole state). */
export function* eachFactAsOf(ctx: PartitionContext, at: string, pageSize = AS_OF_PAGE_SIZE): Generator<Fact> {
  let after: string | null = null;
  do {
    const page = factsAsOf(ctx, at, { limit: pageSize, after });
    yield* page.facts;
    after = page.next;
  } while (after !== null);
}
