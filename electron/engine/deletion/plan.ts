// The deletion plan, computed set-based in connection-local temp tables so a preview and the
// delete that follows agree by construction: which facts go, the nearest surviving fact along
// each chain (pointer jumping), the retained pointers to relink or clear, and the dependents
// to flag. Building a plan reads the partition and writes only temp tables.
import { DeletionSelection, type DeletionSelectionInput } from '../../../shared/query';
import { DELETION_LIST_LIMIT, type DeletionImpact, type PointerChange, type SelectionEcho } from '../../../shared/deletion';
import { StatelensError } from '../../../shared/errors';
import type { FactStatus } from '../../../shared/domain';
import type { PartitionContext } from '../context';
import { dialectOf } from '../db/dialect';
import type { EngineDb } from '../db/connection';
import { stmt } from '../db/statements';
import { guardSearch } from '../query/fts';
import { conditionsOf, filterSql, restricts, whereOf, type FilterSql } from '../query/filter-sql';
import { parseInput } from '../query/validate';
import {
  CLEAR_TEMP_TABLES,
  COUNT_SELECTED,
  DEPENDENTS_LEVEL,
  DEPENDENTS_SEED,
  MISSING_IDS,
  PLAN_CLEARED,
  PLAN_FACTS,
  PLAN_FLAGGED,
  PLAN_FLAGGED_COUNT,
  PLAN_IDS,
  PLAN_ORPHANED,
  PLAN_PROPOSALS,
  PLAN_RELINK_COUNT,
  PLAN_RELINKS,
  PLAN_VALID,
  PREDECESSORS,
  RELINK_PLANS,
  SELECT_IDS,
  SUCCESSORS,
  PG_TEMP_TABLES,
  TEMP_TABLES,
  selectByFilter,
  walkDeadEnds,
  walkJump,
  walkOutside,
  walkSeed,
  type Walk,
} from './sql';

/** Sample of deleted facts (with their keys) an impact carries. */
export const IMPACT_FACT_SAMPLE = 100;
/** Chains longer than 2^64 do not exist; the cap only stops a pointer cycle. */
const MAX_JUMPS = 64;

export interface PlanStats {
  readonly toDelete: number;
  readonly missingIds: string[];
  readonly echo: SelectionEcho;
}

export function parseSelection(selection: DeletionSelectionInput): DeletionSelection {
  return parseInput(DeletionSelection, selection, 'deletion selection');
}

export function clearPlan(db: EngineDb): void {
  db.exec(dialectOf(db).name === 'postgres' ? PG_TEMP_TABLES : TEMP_TABLES);
  db.exec(CLEAR_TEMP_TABLES);
}

/**
 * The SQL selecting a filter's facts (or, asked for explicitly, the whole partition's): the
 * listing's own translation, so a delete by filter removes exactly what the table lists. A filter
 * that restricts nothing is refused: deleting every fact must be asked for as `{ all: true }`.
 */
export function selectionSql(db: EngineDb, partitionId: number, selection: Exclude<DeletionSelection, { ids: unknown }>): FilterSql {
  if ('all' in selection) return filterSql(partitionId, { validity: 'all' }, dialectOf(db));
  const sql = filterSql(partitionId, selection.filter, dialectOf(db));
  if (!restricts(sql)) {
    throw new StatelensError(
      'INVALID_INPUT',
      'This filter restricts nothing, so it would delete every fact of the partition; to do that, ask for it explicitly (selection { all: true }, or --all on the command line)',
      {
        reason: 'empty-filter',
      },
    );
  }
  return sql;
}

function selectFacts(ctx: PartitionContext, selection: DeletionSelection): { missingIds: string[]; echo: SelectionEcho } {
  const { db, partitionId } = ctx;
  if ('ids' in selection) {
    const ids = JSON.stringify([...new Set(selection.ids)]);
    stmt(db, SELECT_IDS).run({ ids, partition_id: partitionId });
    return { missingIds: stmt<[{ ids: string }], string>(db, MISSING_IDS).pluck().all({ ids }), echo: { kind: 'ids', count: selection.ids.length } };
  }
  const sql = selectionSql(db, partitionId, selection);
  // Dynamic only in which fixed fragments filterSql chose; every value is bound.
  guardSearch('filter' in selection ? selection.filter.search : undefined, () => stmt(db, selectByFilter(whereOf(sql))).run(sql.params));
  const conditions = conditionsOf(sql);
  const [first, ...rest] = conditions;
  return { missingIds: [], echo: first === undefined ? { kind: 'all' } : { kind: 'filter', conditions: [first, ...rest] } };
}

/** Follows the walk's pointer from every deleted fact to the first fact that survives,
 * doubling the stride each round; what never leaves the deleted set ends at null. */
function nearestSurvivors(ctx: PartitionContext, walk: Walk): void {
  const { db } = ctx;
  stmt(db, walkSeed(walk)).run();
  const jump = stmt(db, walkJump(walk));
  for (let i = 0; i < MAX_JUMPS && jump.run().changes > 0; i++);
  // A cycle made only of deleted facts, or a pointer leaving the partition, leads nowhere.
  stmt(db, walkDeadEnds(walk)).run();
  stmt(db, walkOutside(walk)).run({ partition_id: ctx.partitionId });
}

/** Breadth-first over the edge table, one level per statement; the first deleted fact that
 * reaches a dependent (smallest id at the shallowest level) is recorded as its cause. */
function dependents(ctx: PartitionContext): void {
  const { db } = ctx;
  stmt(db, DEPENDENTS_SEED).run();
  const level = stmt(db, DEPENDENTS_LEVEL);
  for (let depth = 0; level.run({ depth, partition_id: ctx.partitionId }).changes > 0; depth++);
}

/** Fills the temp tables with the plan for `selection` in this partition. */
export function buildPlan(ctx: PartitionContext, selection: DeletionSelection): PlanStats {
  clearPlan(ctx.db);
  const { missingIds, echo } = selectFacts(ctx, selection);
  const toDelete = stmt<[], number>(ctx.db, COUNT_SELECTED).pluck().get() ?? 0;
  if (toDelete > 0) {
    nearestSurvivors(ctx, SUCCESSORS);
    nearestSurvivors(ctx, PREDECESSORS);
    dependents(ctx);
    for (const sql of RELINK_PLANS) stmt(ctx.db, sql).run({ partition_id: ctx.partitionId });
  }
  return { toDelete, missingIds, echo };
}

/** Reads the built plan as the shared impact shape. */
export function readImpact(ctx: PartitionContext, stats: PlanStats): DeletionImpact {
  const { db } = ctx;
  const count = (sql: string): number => stmt<[], number>(db, sql).pluck().get() ?? 0;
  const limit = DELETION_LIST_LIMIT;
  const ids = stmt<[number], string>(db, PLAN_IDS).pluck().all(limit);
  const facts = stmt<[number], { id: string; key: string; status: FactStatus; value: string; ts: string }>(db, PLAN_FACTS).all(IMPACT_FACT_SAMPLE);
  const flaggedCount = count(PLAN_FLAGGED_COUNT);
  const flagged = stmt<[number], string>(db, PLAN_FLAGGED).pluck().all(limit);
  const relinkedCount = count(PLAN_RELINK_COUNT);
  const relinked = stmt<[number], PointerChange>(db, PLAN_RELINKS).all(limit);
  const missingIds = stats.missingIds.slice(0, limit);
  return {
    partitionId: ctx.partitionId,
    selection: stats.echo,
    toDelete: stats.toDelete,
    validToDelete: count(PLAN_VALID),
    ids,
    facts,
    missingIds,
    flaggedCount,
    flagged,
    relinkedCount,
    relinked,
    clearedCount: count(PLAN_CLEARED),
    orphanedCount: count(PLAN_ORPHANED),
    proposalsAffected: count(PLAN_PROPOSALS),
    truncated: ids.length < stats.toDelete || flagged.length < flaggedCount || relinked.length < relinkedCount || missingIds.length < stats.missingIds.length,
  };
}
