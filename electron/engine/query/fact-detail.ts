// Everything the fact detail panel shows about one fact: the fact, its supersession chain and
// proposals, the facts it rests on and that rest on it, why it needs review, and its audit trail.
import { StatelensError } from '../../../shared/errors';
import { splitReviewCauses, type FactDetail, type ReviewCause, type SourceDeletion, type TurnCause } from '../../../shared/inspect';
import type { AuditEntry, Fact } from '../../../shared/domain';
import { auditRowToEntry } from '../audit/audit';
import type { PartitionContext } from '../context';
import { stmt } from '../db/statements';
import { getFact } from '../facts/read';
import { watchedFile } from '../import/foreign/mcp-memory-pending';
import { chainFor } from './chain';
import { briefOf, briefsOf } from './row-view';
import { detailAsOf } from './history';
import { requireTimestamp } from '../../../shared/timestamp';

/** Edges listed with briefs per direction; the fact itself carries every id. */
export const DETAIL_EDGE_LIMIT = 1000;
export const DETAIL_AUDIT_LIMIT = 200;

/** The audit entries naming this fact, newest first. (Own statement: listAudit in audit.ts
 * binds its numbered parameters in a way better-sqlite3 rejects.) */
export function factAudit(ctx: PartitionContext, factId: string, limit = DETAIL_AUDIT_LIMIT): AuditEntry[] {
  return stmt<[number, string, number], Parameters<typeof auditRowToEntry>[0]>(
    ctx.db,
    `SELECT * FROM audit_log WHERE partition_id = ? AND EXISTS (SELECT 1 FROM json_each(target_ids) WHERE value = ?)
     ORDER BY id DESC LIMIT ?`,
  )
    .all(ctx.partitionId, factId, limit)
    .map(auditRowToEntry);
}

/** The turn behind the latest turn-raised review flag of a fact (recorded in the audit log). */
function turnCauseOf(ctx: PartitionContext, factId: string): TurnCause | null {
  const details = stmt<[number, string], string>(
    ctx.db,
    `SELECT details FROM audit_log WHERE partition_id = ? AND action = 'flag_review' AND EXISTS (SELECT 1 FROM json_each(target_ids) WHERE value = ?)
     ORDER BY id DESC LIMIT 1`,
  )
    .pluck()
    .get(ctx.partitionId, factId);
  if (details === undefined) return null;
  const d = JSON.parse(details) as { workingItemId?: unknown; sessionId?: unknown; turnIndex?: unknown; cue?: unknown };
  if (typeof d.workingItemId !== 'string') return null;
  const turn = stmt<[string, number], { speaker: string | null; value: string }>(
    ctx.db,
    'SELECT speaker, value FROM working_items WHERE id = ? AND partition_id = ?',
  ).get(d.workingItemId, ctx.partitionId);
  return {
    workingItemId: d.workingItemId,
    sessionId: typeof d.sessionId === 'string' ? d.sessionId : null,
    turnIndex: typeof d.turnIndex === 'number' ? d.turnIndex : null,
    speaker: turn?.speaker ?? null,
    text: turn?.value ?? null,
    cue: typeof d.cue === 'string' ? d.cue : '',
  };
}

export function reviewCauseOf(ctx: PartitionContext, fact: Pick<Fact, 'id' | 'needsReview' | 'reviewCause' | 'reviewCauseFact'>): ReviewCause | null {
  if (!fact.needsReview) return null;
  const cause = fact.reviewCauseFact ? briefOf(ctx, fact.reviewCauseFact) : null;
  const supersededBy = fact.reviewCauseFact
    ? stmt<[string, number], string | null>(ctx.db, 'SELECT superseded_by FROM facts WHERE id = ? AND partition_id = ?')
        .pluck()
        .get(fact.reviewCauseFact, ctx.partitionId)
    : null;
  return {
    ...splitReviewCauses(fact.reviewCause),
    causeFactId: fact.reviewCauseFact,
    turn: fact.reviewCauseFact ? null : turnCauseOf(ctx, fact.id),
    cause,
    replacement: supersededBy ? briefOf(ctx, supersededBy) : null,
    deleted: fact.reviewCauseFact && !cause ? deletionOf(ctx, fact.reviewCauseFact) : null,
  };
}

/** The audit log's record of a fact's deletion: who, when, why (never its text, which the
 * delete scrubbed); null when the log has none. */
export function deletionOf(ctx: PartitionContext, factId: string): ReviewCause['deleted'] {
  const row = stmt<[number, string], { id: number; at: string; actor: string; reason: string | null }>(
    ctx.db,
    `SELECT id, at, actor, reason FROM audit_log WHERE partition_id = ? AND action = 'delete' AND EXISTS (SELECT 1 FROM json_each(target_ids) WHERE value = ?)
     ORDER BY id DESC LIMIT 1`,
  ).get(ctx.partitionId, factId);
  return row ? { factId, deletedBy: row.actor, deletedAt: row.at, auditId: row.id, reason: row.reason } : null;
}

/** With `asOf`: also how the fact stood then, and its edges as they stood then. */
export function factDetail(ctx: PartitionContext, id: string, asOf?: string): FactDetail {
  if (typeof id !== 'string' || id.length === 0 || id.length > 200) throw new StatelensError('INVALID_INPUT', 'A fact id is a string of 1 to 200 characters');
  const fact = getFact(ctx, id);
  if (!fact) throw new StatelensError('NOT_FOUND', `No fact ${id} in this partition`, { factId: id });
  // A proposal has no chain of its own: show the chain it was made against.
  const chain = chainFor(ctx, fact.status === 'proposal' && fact.proposalFor ? fact.proposalFor : id);
  const edges = {
    dependsOn: briefsOf(ctx, fact.dependsOn.slice(0, DETAIL_EDGE_LIMIT)),
    derivedFacts: briefsOf(ctx, fact.derivedFacts.slice(0, DETAIL_EDGE_LIMIT)),
  };
  const past = asOf === undefined ? null : detailAsOf(ctx, fact, chain, edges, requireTimestamp(asOf, 'as-of time'));
  return {
    fact,
    chain,
    dependsOn: past?.dependsOn ?? edges.dependsOn,
    derivedFacts: past?.derivedFacts ?? edges.derivedFacts,
    edgesTruncated: fact.dependsOn.length > DETAIL_EDGE_LIMIT || fact.derivedFacts.length > DETAIL_EDGE_LIMIT,
    reviewCause: reviewCauseOf(ctx, fact),
    audit: factAudit(ctx, id),
    asOf: past?.asOf ?? null,
    sourceDeletion: sourceDeletionOf(ctx, fact.source.type),
  };
}

/** Facts imported from an MCP memory file reach it when deleted once a watcher keeps the
 * partition in step with the file (it writes back deletions made while it was not running too). */
function sourceDeletionOf(ctx: PartitionContext, sourceType: string): SourceDeletion | null {
  if (sourceType !== 'mcp-memory') return null;
  const file = watchedFile(ctx, ctx.partitionId);
  return file === null ? null : { system: 'mcp-memory', file };
}
