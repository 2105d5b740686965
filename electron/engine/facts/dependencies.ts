// Dependency edges (depends_on and derived_facts are two views of one table) and the
// needs_review propagation, which walks transitive dependents with UNION so cycles terminate.
import type { PartitionContext } from '../context';
import { stmt } from '../db/statements';

/** Adds "dependent depends on dependsOn"; self-edges are ignored, duplicates are no-ops. */
export function addEdge(ctx: PartitionContext, dependent: string, dependsOn: string): void {
  if (dependent === dependsOn) return;
  stmt(ctx.db, 'INSERT OR IGNORE INTO fact_edges (partition_id, dependent, depends_on) VALUES (?, ?, ?)').run(ctx.partitionId, dependent, dependsOn);
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
  return stmt<[{ root: string; partition_id: number }], string>(ctx.db, TRANSITIVE_DEPENDENTS)
    .pluck()
    .all({ root, partition_id: ctx.partitionId });
}

const FLAG = 'UPDATE facts SET needs_review = 1, review_cause = ?, review_cause_fact = ? WHERE id = ? AND partition_id = ?';

/** Marks one fact needs_review because of `root` (null: the cause is not a fact, e.g. a turn). */
export function flagFact(ctx: PartitionContext, id: string, cause: string, root: string | null): void {
  stmt(ctx.db, FLAG).run(cause, root, id, ctx.partitionId);
}

/** Marks every transitive dependent of `root` needs_review with `cause`; returns their ids. */
export function flagDependents(ctx: PartitionContext, root: string, cause: string): string[] {
  const ids = transitiveDependents(ctx, root);
  for (const id of ids) flagFact(ctx, id, cause, root);
  return ids;
}

export function dependsOnOf(ctx: PartitionContext, id: string): string[] {
  return stmt<[string, number], string>(ctx.db, 'SELECT depends_on FROM fact_edges WHERE dependent = ? AND partition_id = ? ORDER BY depends_on').pluck().all(id, ctx.partitionId);
}

export function derivedFactsOf(ctx: PartitionContext, id: string): string[] {
  return stmt<[string, number], string>(ctx.db, 'SELECT dependent FROM fact_edges WHERE depends_on = ? AND partition_id = ? ORDER BY dependent').pluck().all(id, ctx.partitionId);
}
