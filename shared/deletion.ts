// Deletion, the user's one write: who deletes and why, the impact preview computed before a
// delete, and what a delete did (including whether the text is provably gone from the file).
// Lists are capped at DELETION_LIST_LIMIT entries; the counts beside them are exact.
import { z } from 'zod';
import { FactStatus, UNSAFE_NAME } from './domain';

export const DELETION_LIST_LIMIT = 1000;
/** Characters of each listed fact's value in an impact preview. */
export const IMPACT_VALUE_SNIPPET = 120;

const auditText = (max: number) =>
  z
    .string()
    .max(max)
    .refine((s) => !UNSAFE_NAME.test(s), { message: 'must not contain control characters, line breaks or bidirectional marks' });
/** Who an audit entry names (a user name, 'cli', 'inspector'), from any caller: app, HTTP, CLI. */
export const AuditActor = auditText(200)
  .transform((s) => s.trim())
  .pipe(z.string().min(1, 'an actor is required'));
/** Why, as an audit entry records it. */
export const AuditReason = auditText(2000);

export const DeletionMeta = z.strictObject({
  /** Who deletes; recorded in the audit log. */
  actor: AuditActor,
  /** Why; recorded in the audit log. Never put the deleted text here. */
  reason: AuditReason.nullable().optional(),
});
export type DeletionMeta = z.infer<typeof DeletionMeta>;
export type DeletionMetaInput = z.input<typeof DeletionMeta>;

/** A chain pointer of a fact that stays, which pointed at a fact being deleted. */
export const PointerChange = z.strictObject({
  id: z.string(),
  field: z.enum(['supersededBy', 'supersedes', 'proposalFor']),
  from: z.string(),
  /** The nearest surviving fact along the chain, or null when the pointer is cleared. */
  to: z.string().nullable(),
});
export type PointerChange = z.infer<typeof PointerChange>;

/** What a deletion acts on as the engine read it, shown back before the user confirms: the
 * number of ids, the whole partition, or each condition of the filter in words. */
export const SelectionEcho = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('ids'), count: z.number().int().nonnegative() }),
  z.strictObject({ kind: z.literal('all') }),
  z.strictObject({ kind: z.literal('filter'), conditions: z.array(z.string()).min(1) }),
]);
export type SelectionEcho = z.infer<typeof SelectionEcho>;

export const DeletionImpact = z.strictObject({
  partitionId: z.number().int(),
  /** The selection as the engine applied it. */
  selection: SelectionEcho,
  /** Facts that would be deleted. */
  toDelete: z.number().int().nonnegative(),
  /** Of those, how many are valid now (their keys lose their current value). */
  validToDelete: z.number().int().nonnegative(),
  ids: z.array(z.string()),
  /** A sample of the facts to delete; `value` is cut to IMPACT_VALUE_SNIPPET characters. */
  facts: z.array(z.strictObject({ id: z.string(), key: z.string(), status: FactStatus, value: z.string(), ts: z.string() })),
  /** Requested ids that are not facts of this partition (a delete with any refuses). */
  missingIds: z.array(z.string()),
  /** Surviving facts that rest on a deleted one, directly or transitively: flagged needs_review. */
  flaggedCount: z.number().int().nonnegative(),
  flagged: z.array(z.string()),
  /** Every pointer of a surviving fact that is relinked or cleared. */
  relinkedCount: z.number().int().nonnegative(),
  relinked: z.array(PointerChange),
  /** Of relinkedCount, pointers cleared because nothing along the chain survives. */
  clearedCount: z.number().int().nonnegative(),
  /** Surviving superseded facts whose successor goes: they stay superseded, with no successor. */
  orphanedCount: z.number().int().nonnegative(),
  /** Proposals whose target goes (re-pointed at the target's successor, or cleared). */
  proposalsAffected: z.number().int().nonnegative(),
  /** True when any list above holds fewer entries than its count. */
  truncated: z.boolean(),
});
export type DeletionImpact = z.infer<typeof DeletionImpact>;

/** What happened to the bytes after the transaction committed. */
export const ScrubReport = z.strictObject({
  /** PRAGMA wal_checkpoint(TRUNCATE): busy means a reader held the WAL and old frames remain. On
   * PostgreSQL (no frame counts) busy means a transaction older than the delete was still open,
   * so the rewrite had to keep the deleted row versions. */
  checkpoint: z.strictObject({ busy: z.boolean(), walFrames: z.number().int(), checkpointedFrames: z.number().int() }),
  /** Leftover copies of deleted text found in the file's free space (b-tree page gaps, freelist pages). */
  remnantsFound: z.number().int().nonnegative(),
  /** How they were removed: zeroed where they lay, the indexes holding them rebuilt, or the
   * whole file rebuilt (each tried only when the one before left a copy). */
  remedy: z.enum(['none', 'zero', 'rebuild', 'vacuum']),
  /** Indexes rebuilt (remedy 'rebuild'; 'facts_fts' is the full-text index). */
  rebuilt: z.array(z.string()),
  remnantsAfter: z.number().int().nonnegative(),
  /** The text is gone from the file and the WAL: checkpoint completed and no remnant is left (on
   * PostgreSQL: from the table and index files; the server's own WAL is out of reach). */
  complete: z.boolean(),
  detail: z.string(),
});
export type ScrubReport = z.infer<typeof ScrubReport>;

export const DeletionResult = z.strictObject({
  partitionId: z.number().int(),
  deleted: z.number().int().nonnegative(),
  deletedIds: z.array(z.string()),
  flagged: z.number().int().nonnegative(),
  flaggedIds: z.array(z.string()),
  relinked: z.number().int().nonnegative(),
  cleared: z.number().int().nonnegative(),
  proposalsAffected: z.number().int().nonnegative(),
  auditId: z.number().int().nullable(),
  scrub: ScrubReport.nullable(),
});
export type DeletionResult = z.infer<typeof DeletionResult>;
