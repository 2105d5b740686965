// Saved queries for the context preview (the StateBench queries of an imported timeline).
import type { SavedQuery } from '../../../shared/domain';
import type { PartitionContext } from '../context';
import { stmt } from '../db/statements';

export function saveQuery(
  ctx: PartitionContext,
  q: { label: string; prompt: string; ts?: string | null; groundTruth?: Record<string, unknown> | null },
): number {
  const info = stmt(ctx.db, 'INSERT INTO saved_queries (partition_id, label, prompt, ts, ground_truth) VALUES (?, ?, ?, ?, ?)').run(
    ctx.partitionId,
    q.label,
    q.prompt,
    q.ts ?? null,
    q.groundTruth ? JSON.stringify(q.groundTruth) : null,
  );
  return Number(info.lastInsertRowid);
}

/** In the order they were saved; at most `limit` (-1: all). */
export function listSavedQueries(ctx: PartitionContext, limit = -1): SavedQuery[] {
  return stmt<[number, number], { id: number; label: string; prompt: string; ts: string | null; ground_truth: string | null }>(
    ctx.db,
    'SELECT id, label, prompt, ts, ground_truth FROM saved_queries WHERE partition_id = ? ORDER BY id LIMIT ?',
  )
    .all(ctx.partitionId, limit)
    .map((r) => ({
      id: r.id,
      label: r.label,
      prompt: r.prompt,
      ts: r.ts,
      groundTruth: r.ground_truth ? (JSON.parse(r.ground_truth) as Record<string, unknown>) : null,
    }));
}
