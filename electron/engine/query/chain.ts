// A fact's supersession chain (the detail view, the chain channel, PartitionHandle.chain), with
// its two lookups pinned to their indexes (left to itself the planner answers "proposals for X in
// partition P" by walking all of P along a (partition_id, ...) index: seconds at 1M facts), and
// a stale write shown within the chain of the fact that beat it.
import type { Fact } from '../../../shared/domain';
import type { PartitionContext } from '../context';
import { stmt } from '../db/statements';
import { getFactRow } from '../facts/read';
import { FACT_COLUMNS, rowToFact, type FactRow } from '../facts/rows';

export const PROPOSALS_SQL = `SELECT ${FACT_COLUMNS} FROM facts f INDEXED BY facts_proposal_for
  WHERE f.proposal_for = ? AND f.partition_id = ? ORDER BY f.ts, f.rid`;
/** Stale writes (temporal rule) point at the fact that beat it without being linked from it. */
export const STALE_SQL = `SELECT ${FACT_COLUMNS} FROM facts f INDEXED BY facts_superseded_by
  WHERE f.superseded_by = ? AND f.partition_id = ? AND f.id <> coalesce((SELECT supersedes FROM facts WHERE id = ?), '')`;

/** The chain `id` belongs to, oldest version first, plus proposals made against any version. */
export function chainFor(ctx: PartitionContext, id: string): { versions: Fact[]; proposals: Fact[] } {
  let start = getFactRow(ctx, id);
  if (!start) return { versions: [], proposals: [] };
  // A stale write hangs off the fact that beat it: show that fact's chain (it includes the write).
  if (start.superseded_by) {
    const winner = getFactRow(ctx, start.superseded_by);
    if (winner && winner.supersedes !== start.id) start = winner;
  }
  let first = start;
  const seen = new Set<string>([first.id]);
  while (first.supersedes) {
    const prev = getFactRow(ctx, first.supersedes);
    if (!prev || seen.has(prev.id)) break;
    seen.add(prev.id);
    first = prev;
  }
  const versions: FactRow[] = [first];
  const walked = new Set<string>([first.id]);
  for (let cur = first; cur.superseded_by;) {
    const next = getFactRow(ctx, cur.superseded_by);
    if (!next || walked.has(next.id)) break;
    walked.add(next.id);
    versions.push(next);
    cur = next;
  }
  const ids = versions.map((v) => v.id);
  const proposals = ids.flatMap((vid) => stmt<[string, number], FactRow>(ctx.db, PROPOSALS_SQL).all(vid, ctx.partitionId));
  const stale = ids
    .flatMap((vid) => stmt<[string, number, string], FactRow>(ctx.db, STALE_SQL).all(vid, ctx.partitionId, vid))
    .filter((r) => !walked.has(r.id));
  return {
    versions: [...versions, ...stale].sort((a, b) => (a.ts === b.ts ? a.rid - b.rid : a.ts < b.ts ? -1 : 1)).map((r) => rowToFact(r)),
    proposals: proposals.map((r) => rowToFact(r)),
  };
}
