// The review queue (every needs_review fact with the upstream change that caused it) and
// dismissing flags, the one review action besides deletion, and undoing a dismissal; both audited.
import {
  DismissReviewRequest,
  splitReviewCauses,
  UndoDismissRequest,
  type DismissResult,
  type RestoreReviewResult,
  type ReviewQueuePage,
} from '../../../shared/inspect';
import { PageRequest } from '../../../shared/query';
import { StatelensError } from '../../../shared/errors';
import { z } from 'zod';
import { recordAudit } from '../audit/audit';
import type { PartitionContext } from '../context';
import { stmt } from '../db/statements';
import { decodeRidCursor, encodeRidCursor } from './cursor';
import { reviewCauseOf } from './fact-detail';
import { ROW_VIEW_COLUMNS, toRowView, type RowViewRow } from './row-view';
import { parseInput } from './validate';

export const REVIEW_QUEUE_SQL = `SELECT ${ROW_VIEW_COLUMNS}, f.review_cause, f.review_cause_fact FROM facts f INDEXED BY facts_partition_review
  WHERE f.partition_id = ? AND f.needs_review = 1 AND f.rid < ? ORDER BY f.rid DESC LIMIT ?`;
/** The same, for the flags one upstream fact raised (`IS`: a null cause names the flags no fact raised). */
export const REVIEW_QUEUE_BY_CAUSE_SQL = `SELECT ${ROW_VIEW_COLUMNS}, f.review_cause, f.review_cause_fact FROM facts f INDEXED BY facts_partition_review
  WHERE f.partition_id = ? AND f.needs_review = 1 AND f.review_cause_fact IS ? AND f.rid < ? ORDER BY f.rid DESC LIMIT ?`;
export const DISMISS_LOOKUP_SQL =
  'SELECT f.id, f.needs_review, f.review_cause, f.review_cause_fact FROM json_each(?) j CROSS JOIN facts f ON f.id = j.value WHERE f.partition_id = ?';

type QueueRow = RowViewRow & { review_cause: string | null; review_cause_fact: string | null };

/** Newest flagged fact first (by insertion), keyset-paged along the partial review index; with
 * `causeFactId` (null included), only the flags that upstream fact raised (one cause group). */
export function reviewQueue(ctx: PartitionContext, pageInput: z.input<typeof PageRequest> = {}, causeFactId?: string | null): ReviewQueuePage {
  const page = parseInput(PageRequest, pageInput, 'page');
  const before = page.after ? decodeRidCursor(page.after) : Number.MAX_SAFE_INTEGER;
  const rows =
    causeFactId === undefined
      ? stmt<[number, number, number], QueueRow>(ctx.db, REVIEW_QUEUE_SQL).all(ctx.partitionId, before, page.limit + 1)
      : stmt<[number, string | null, number, number], QueueRow>(ctx.db, REVIEW_QUEUE_BY_CAUSE_SQL).all(ctx.partitionId, causeFactId, before, page.limit + 1);
  const more = rows.length > page.limit;
  const shown = more ? rows.slice(0, page.limit) : rows;
  const last = shown[shown.length - 1];
  const total = stmt<[number], number>(ctx.db, 'SELECT count(*) FROM facts INDEXED BY facts_partition_review WHERE partition_id = ? AND needs_review = 1')
    .pluck()
    .get(ctx.partitionId) as number;
  return {
    entries: shown.map((r) => ({
      fact: toRowView(r, null),
      cause: reviewCauseOf(ctx, { id: r.id, needsReview: true, reviewCause: r.review_cause, reviewCauseFact: r.review_cause_fact }) ?? {
        ...splitReviewCauses(r.review_cause),
        causeFactId: r.review_cause_fact,
        turn: null,
        cause: null,
        replacement: null,
        deleted: null,
      },
    })),
    nextCursor: more && last ? encodeRidCursor(last.rid) : null,
    total,
  };
}

/**
 * Clears needs_review (and its cause) on the given facts and records one audit entry.
 * Runs inside the caller's transaction. Every id must name a fact of this partition, or
 * nothing is changed; facts that are not flagged are reported and left alone.
 */
export function dismissReview(ctx: PartitionContext, ids: readonly string[], options: { actor: string; reason?: string }): DismissResult {
  const request = parseInput(DismissReviewRequest, { ids, ...options }, 'dismissal');
  const unique = [...new Set(request.ids)];
  const rows = stmt<[string, number], { id: string; needs_review: number; review_cause: string | null; review_cause_fact: string | null }>(
    ctx.db,
    DISMISS_LOOKUP_SQL,
  ).all(JSON.stringify(unique), ctx.partitionId);
  const found = new Map(rows.map((r) => [r.id, r]));
  const missing = unique.filter((id) => !found.has(id));
  if (missing.length > 0) {
    throw new StatelensError('NOT_FOUND', `${missing.length} of the facts to dismiss are not in this partition; nothing was changed`, {
      missing: missing.slice(0, 20),
    });
  }
  const dismissed = unique.filter((id) => found.get(id)?.needs_review === 1);
  const notFlagged = unique.filter((id) => found.get(id)?.needs_review !== 1);
  if (dismissed.length === 0) return { dismissed, notFlagged, auditId: null };
  const clear = stmt(ctx.db, 'UPDATE facts SET needs_review = 0, review_cause = NULL, review_cause_fact = NULL WHERE id = ? AND partition_id = ?');
  for (const id of dismissed) clear.run(id, ctx.partitionId);
  const causes = [...new Set(dismissed.map((id) => found.get(id)?.review_cause_fact).filter((c): c is string => !!c))];
  const auditId = recordAudit(ctx, {
    actor: request.actor,
    action: 'dismiss_review',
    targetIds: dismissed,
    reason: request.reason ?? null,
    details: {
      count: dismissed.length,
      causeFacts: causes.slice(0, 100),
      // What undo puts back: each flag with its cause, exactly as it was.
      flags: dismissed.map((id) => ({ id, cause: found.get(id)?.review_cause ?? null, causeFact: found.get(id)?.review_cause_fact ?? null })),
    },
  });
  return { dismissed, notFlagged, auditId };
}

const DismissedFlags = z.array(z.strictObject({ id: z.string(), cause: z.string().nullable(), causeFact: z.string().nullable() }));

/**
 * Undoes a dismissal: puts each flag back with the cause it had, and records one audit entry.
 * Only while nothing else has been recorded in the partition since the dismissal (no later
 * delete, supersession, dismissal or undo), so a flag never returns onto a changed state.
 * Restores flags only; no fact is created or edited.
 */
export function undoDismissReview(ctx: PartitionContext, dismissalAuditId: number, options: { actor: string }): RestoreReviewResult {
  const request = parseInput(UndoDismissRequest, { auditId: dismissalAuditId, ...options }, 'undo');
  const row = stmt<[number, number], { action: string; details: string }>(
    ctx.db,
    'SELECT action, details FROM audit_log WHERE id = ? AND partition_id = ?',
  ).get(request.auditId, ctx.partitionId);
  if (!row || row.action !== 'dismiss_review') {
    throw new StatelensError('NOT_FOUND', `Audit entry ${request.auditId} is not a dismissal of review flags in this partition`, { auditId: request.auditId });
  }
  const later = stmt<[number, number], number>(ctx.db, 'SELECT count(*) FROM audit_log WHERE partition_id = ? AND id > ?')
    .pluck()
    .get(ctx.partitionId, request.auditId) as number;
  if (later > 0) {
    throw new StatelensError(
      'CONFLICT',
      'The partition changed after the dismissal (a later delete, supersession or review action); the flags can no longer be restored',
      { auditId: request.auditId, laterEntries: later },
    );
  }
  const parsed = DismissedFlags.safeParse((JSON.parse(row.details) as { flags?: unknown }).flags);
  if (!parsed.success) {
    throw new StatelensError('CONFLICT', 'This dismissal was recorded without its causes, so it cannot be undone', { auditId: request.auditId });
  }
  const restore = stmt(
    ctx.db,
    'UPDATE facts SET needs_review = 1, review_cause = ?, review_cause_fact = ? WHERE id = ? AND partition_id = ? AND needs_review = 0',
  );
  const restored = parsed.data.filter((f) => restore.run(f.cause, f.causeFact, f.id, ctx.partitionId).changes > 0).map((f) => f.id);
  const auditId = recordAudit(ctx, {
    actor: request.actor,
    action: 'restore_review',
    targetIds: restored,
    reason: 'undo of a dismissal',
    details: { count: restored.length, undoes: request.auditId },
  });
  return { restored, auditId };
}
