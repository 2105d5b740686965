// "How would the assembled context change if these facts were deleted?": assemble now, then
// simulate the deletion inside a savepoint (dependents flagged as a delete flags them, the facts
// removed), assemble again and roll everything back. Nothing is written; no change is announced.
import type { AssemblyRequestInput, AssemblyResult } from '../../../shared/assembly';
import type { ContextChange } from '../../../shared/contract';
import { StatelensError } from '../../../shared/errors';
import type { DeletionSelection } from '../../../shared/query';
import { assembleContext } from '../assembly/assemble';
import type { PartitionContext } from '../context';
import { selectionSql } from './plan';
import { deleteFactsById } from '../db/pg/delete-functions';
import { guardSearch } from '../query/fts';
import { whereOf } from '../query/filter-sql';

const SAVEPOINT = 'statelens_context_probe';

function selectedIds(ctx: PartitionContext, selection: DeletionSelection): string[] {
  if ('ids' in selection) {
    return ctx.db
      .prepare('SELECT f.id FROM json_each(?) j JOIN facts f ON f.id = j.value WHERE f.partition_id = ?')
      .pluck()
      .all(JSON.stringify([...new Set(selection.ids)]), ctx.partitionId) as string[];
  }
  const sql = selectionSql(ctx.db, ctx.partitionId, selection);
  // Only fixed fragments chosen by filterSql are spliced in; every value is bound.
  return guardSearch(
    'filter' in selection ? selection.filter.search : undefined,
    () =>
      ctx.db
        .prepare(`SELECT f.id FROM facts f WHERE ${whereOf(sql).join(' AND ')}`)
        .pluck()
        .all(sql.params) as string[],
  );
}

const FLAG_DEPENDENTS = `
  WITH RECURSIVE dep(id) AS (
    SELECT e.dependent FROM fact_edges e JOIN json_each(@ids) d ON e.depends_on = d.value WHERE e.partition_id = @partition
    UNION SELECT e.dependent FROM fact_edges e JOIN dep ON e.depends_on = dep.id WHERE e.partition_id = @partition)
  UPDATE facts SET needs_review = 1, review_cause = 'rests on a fact this deletion removes'
  WHERE partition_id = @partition AND id IN (SELECT id FROM dep)`;

function refs(result: AssemblyResult): Map<string, { kind: AssemblyResult['provenance'][number]['kind']; id: string; label: string }> {
  const out = new Map<string, { kind: AssemblyResult['provenance'][number]['kind']; id: string; label: string }>();
  for (const p of result.provenance) if (p.status === 'included') out.set(`${p.kind}:${p.id}`, { kind: p.kind, id: p.id, label: p.label });
  return out;
}

export function contextChangeOfDeletion(ctx: PartitionContext, selection: DeletionSelection, probe: AssemblyRequestInput): ContextChange {
  const request: AssemblyRequestInput = { ...probe, provenance: 'included' };
  const before = assembleContext(ctx, request);
  const { db } = ctx;
  if (db.inTransaction) throw new StatelensError('BUSY', 'Another operation is in progress on this connection');
  db.exec(`SAVEPOINT ${SAVEPOINT}`);
  let after: AssemblyResult;
  try {
    const selected = selectedIds(ctx, selection);
    const ids = JSON.stringify(selected);
    db.prepare(FLAG_DEPENDENTS).run({ ids, partition: ctx.partitionId });
    deleteFactsById(db, ctx.partitionId, selected);
    after = assembleContext(ctx, request);
  } finally {
    db.exec(`ROLLBACK TO ${SAVEPOINT}; RELEASE ${SAVEPOINT}`);
  }
  const was = refs(before);
  const now = refs(after);
  return {
    before,
    after,
    removed: [...was].filter(([k]) => !now.has(k)).map(([, v]) => v),
    added: [...now].filter(([k]) => !was.has(k)).map(([, v]) => v),
  };
}
