// Dependency edges (depends_on and derived_facts are two views of one table) and the
// needs_review propagation, which walks transitive dependents with UNION so cycles terminate.
import type { PartitionContext } from '../context';
import { EARLIER_CAUSE_SEPARATOR, MAX_REVIEW_CAUSE_CHARS } from '../../../shared/inspect';
import { stmt } from '../db/statements';

/** Adds "dependent depends on dependsOn"; self-edges are ignored, duplicates are no-ops. */
export function addEdge(ctx: PartitionContext, dependent: string, dependsOn: string): void {
  if (dependent === dependsOn) return;
  stmt(ctx.db, 'INSERT OR IGNORE INTO fact_edges (partition_id, dependent, depends_on) VALUES (?, ?, ?)').run(ctx.partitionId, dependent, dependsOn);
}

/** The source type of what consolidation writes: an edge whose dependent has it is a
 * derived_from edge (the abstraction rests on the memories it was consolidated from). */
export const CONSOLIDATION_SOURCE = 'consolidation';

/** A fact's derived_from edges in both directions: what it was consolidated from, and the
 * abstractions consolidated from it. */
export function derivedFromEdges(ctx: PartitionContext, id: string): { consolidatedFrom: string[]; consolidatedInto: string[] } {
  const q = (sql: string) => stmt<[string, number, string], string>(ctx.db, sql).pluck().all(id, ctx.partitionId, CONSOLIDATION_SOURCE);
  return {
    consolidatedFrom: q(
      'SELECT e.depends_on FROM fact_edges e JOIN facts d ON d.id = e.dependent WHERE e.dependent = ? AND e.partition_id = ? AND d.source_type = ? ORDER BY e.depends_on',
    ),
    consolidatedInto: q(
      'SELECT e.dependent FROM fact_edges e JOIN facts d ON d.id = e.dependent WHERE e.depends_on = ? AND e.partition_id = ? AND d.source_type = ? ORDER BY e.dependent',
    ),
  };
}

const TRANSITIVE_DEPENDENTS = `WITH RECURSIVE dependents(id) AS (
    SELECT dependent FROM fact_edges WHERE depends_on = @root AND partition_id = @partition_id
    UNION
    SELECT e.dependent FROM fact_edges e JOIN dependents d ON e.depends_on = d.id
    WHERE e.partition_id = @partition_id
  )
  SELECT id FROM dependents WHERE id <> @root`;

const HAS_DEPENDENTS = 'SELECT 1 FROM fact_edges WHERE depends_on = ? AND partition_id = ? LIMIT 1';

/** Whether any fact rests directly on `root`: one index probe (fact_edges_depends_on). */
export function hasDependents(ctx: PartitionContext, root: string): boolean {
  return stmt<[string, number], number>(ctx.db, HAS_DEPENDENTS).pluck().get(root, ctx.partitionId) !== undefined;
}

/** Every fact that rests, directly or transitively, on `root`. Most facts have no dependents:
 * a probe answers those without setting up the recursive walk (the write path asks this for
 * every supersession). */
export function transitiveDependents(ctx: PartitionContext, root: string): string[] {
  if (!hasDependents(ctx, root)) return [];
  return stmt<[{ root: string; partition_id: number }], string>(ctx.db, TRANSITIVE_DEPENDENTS).pluck().all({ root, partition_id: ctx.partitionId });
}

/** A fact flagged again while still awaiting review keeps its earlier causes after the new one,
 * newest first, joined by EARLIER_CAUSE_SEPARATOR (readable as it is in any text output); the same
 * cause arriving twice is recorded once, and the history is capped at MAX_REVIEW_CAUSE_CHARS. */
const FLAG = `UPDATE facts SET needs_review = 1,
  review_cause = CASE
    WHEN needs_review = 1 AND review_cause IS NOT NULL AND review_cause <> '' THEN
      CASE WHEN review_cause = @cause OR substr(review_cause, 1, length(@cause) + length(@sep)) = @cause || @sep THEN review_cause
           ELSE substr(@cause || @sep || review_cause, 1, @max) END
    ELSE @cause END,
  review_cause_fact = @root
  WHERE id = @id AND partition_id = @pid`;

/** The cause text a flag leaves, as FLAG computes it in SQL: for rows held in memory by a batch. */
export function nextReviewCause(flagged: boolean, current: string | null, cause: string): string {
  if (!flagged || current === null || current === '') return cause;
  if (current === cause || current.startsWith(cause + EARLIER_CAUSE_SEPARATOR)) return current;
  return (cause + EARLIER_CAUSE_SEPARATOR + current).slice(0, MAX_REVIEW_CAUSE_CHARS);
}

/** Marks one fact needs_review because of `root` (null: the cause is not a fact, e.g. a turn). */
export function flagFact(ctx: PartitionContext, id: string, cause: string, root: string | null): void {
  stmt<[Record<string, unknown>]>(ctx.db, FLAG).run({ cause, sep: EARLIER_CAUSE_SEPARATOR, max: MAX_REVIEW_CAUSE_CHARS, root, id, pid: ctx.partitionId });
}

/** Marks every transitive dependent of `root` needs_review with `cause`; returns their ids. */
export function flagDependents(ctx: PartitionContext, root: string, cause: string): string[] {
  const ids = transitiveDependents(ctx, root);
  for (const id of ids) flagFact(ctx, id, cause, root);
  return ids;
}

export function dependsOnOf(ctx: PartitionContext, id: string): string[] {
  return stmt<[string, number], string>(ctx.db, 'SELECT depends_on FROM fact_edges WHERE dependent = ? AND partition_id = ? ORDER BY depends_on')
    .pluck()
    .all(id, ctx.partitionId);
}

export function derivedFactsOf(ctx: PartitionContext, id: string): string[] {
  return stmt<[string, number], string>(ctx.db, 'SELECT dependent FROM fact_edges WHERE depends_on = ? AND partition_id = ? ORDER BY dependent')
    .pluck()
    .all(id, ctx.partitionId);
}
