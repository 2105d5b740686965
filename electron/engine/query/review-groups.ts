// The review queue grouped by upstream cause: one group per fact whose change flagged others
// (with how it changed: superseded, deleted by whom and when), and dismissing a whole group at
// once as one ordinary, undoable dismissal.
import { MAX_DISMISS_IDS, MAX_REVIEW_GROUPS, splitReviewCauses, type DismissCauseResult, type ReviewGroups } from '../../../shared/inspect';
import { StatelensError } from '../../../shared/errors';
import type { PartitionContext } from '../context';
import { stmt } from '../db/statements';
import { reviewCauseOf } from './fact-detail';
import { dismissReview } from './review';

export const REVIEW_GROUPS_SQL = `SELECT f.review_cause_fact AS cause, count(*) AS n, max(f.rid) AS newest FROM facts f INDEXED BY facts_partition_review
  WHERE f.partition_id = ? AND f.needs_review = 1 GROUP BY f.review_cause_fact ORDER BY n DESC, newest DESC LIMIT ?`;
const NEWEST_CAUSE_SQL = 'SELECT id, review_cause FROM facts WHERE rid = ? AND partition_id = ?';
const TOTAL_SQL = 'SELECT count(*) FROM facts INDEXED BY facts_partition_review WHERE partition_id = ? AND needs_review = 1';
const GROUP_COUNT_SQL = `${TOTAL_SQL} AND review_cause_fact IS ?`;
export const GROUP_IDS_SQL = `SELECT f.id FROM facts f INDEXED BY facts_partition_review
  WHERE f.partition_id = ? AND f.needs_review = 1 AND f.review_cause_fact IS ? ORDER BY f.rid DESC LIMIT ?`;

/** Largest group first (then the most recently flagged); at most `limit` groups. */
export function reviewGroups(ctx: PartitionContext, limit: number = MAX_REVIEW_GROUPS): ReviewGroups {
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_REVIEW_GROUPS) {
    throw new StatelensError('INVALID_INPUT', `A group limit is a whole number from 1 to ${MAX_REVIEW_GROUPS}`, { limit });
  }
  const rows = stmt<[number, number], { cause: string | null; n: number | string; newest: number | string }>(ctx.db, REVIEW_GROUPS_SQL).all(
    ctx.partitionId,
    limit + 1,
  );
  const total = Number(stmt<[number], number | string>(ctx.db, TOTAL_SQL).pluck().get(ctx.partitionId) ?? 0);
  const groups = rows.slice(0, limit).map((r) => {
    const newest = stmt<[number, number], { id: string; review_cause: string | null }>(ctx.db, NEWEST_CAUSE_SQL).get(Number(r.newest), ctx.partitionId);
    const cause = reviewCauseOf(ctx, { id: newest?.id ?? '', needsReview: true, reviewCause: newest?.review_cause ?? null, reviewCauseFact: r.cause });
    return {
      causeFactId: r.cause,
      count: Number(r.n),
      cause: cause?.cause ?? null,
      replacement: cause?.replacement ?? null,
      deleted: cause?.deleted ?? null,
      text: splitReviewCauses(newest?.review_cause ?? null).text,
    };
  });
  return { groups, truncated: rows.length > limit, total };
}

/**
 * Dismisses every flag one upstream fact raised (null: the flags no fact raised), newest first,
 * at most MAX_DISMISS_IDS per call, as one `dismiss_review` audit entry that `review.undoDismiss`
 * undoes like any other. Runs inside the caller's transaction.
 */
export function dismissCause(ctx: PartitionContext, causeFactId: string | null, options: { actor: string; reason?: string }): DismissCauseResult {
  const ids = stmt<[number, string | null, number], string>(ctx.db, GROUP_IDS_SQL)
    .pluck()
    .all(ctx.partitionId, causeFactId, MAX_DISMISS_IDS + 1);
  if (ids.length === 0) {
    throw new StatelensError('NOT_FOUND', 'No fact of this partition awaits review because of that change (already dismissed?)', { causeFactId });
  }
  const batch = ids.slice(0, MAX_DISMISS_IDS);
  const result = dismissReview(ctx, batch, options);
  const remaining =
    ids.length > MAX_DISMISS_IDS
      ? Number(stmt<[number, string | null], number | string>(ctx.db, GROUP_COUNT_SQL).pluck().get(ctx.partitionId, causeFactId))
      : 0;
  return { ...result, remaining };
}
