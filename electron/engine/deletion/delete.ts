// Deletion, the user's one write: one fact, a list, or everything matching a filter, in one
// transaction. The same plan serves the preview (built, read, rolled back) and the delete
// (built, applied, then the deleted text is scrubbed from the file and its WAL).
import {
  DELETION_LIST_LIMIT,
  DeletionMeta,
  type DeletionImpact,
  type DeletionMetaInput,
  type DeletionResult,
  type ScrubReport,
} from '../../../shared/deletion';
import { StatelensError } from '../../../shared/errors';
import { EARLIER_CAUSE_SEPARATOR, MAX_REVIEW_CAUSE_CHARS } from '../../../shared/inspect';
import type { DeletionSelection, DeletionSelectionInput } from '../../../shared/query';
import { recordAudit } from '../audit/audit';
import type { PartitionContext, WritablePartition } from '../context';
import { sqliteOf } from '../db/connection';
import { postgresOf } from '../db/pg/database';
import { dialectOf } from '../db/dialect';
import { stmt } from '../db/statements';
import { buildPlan, clearPlan, parseSelection, readImpact } from './plan';
import { redactDeletedRefs } from './redact';
import { parseInput } from '../query/validate';
import { enforceReferences, withoutForeignKeyEnforcement } from './references';
import { foreignObjects } from '../db/schema-check';
import { pgForeignObjects } from '../db/pg/foreign-objects';
import { needlesFor, scrubDeletedText, type DeletedText } from './scrub';
import { currentTransactionId, scrubPostgres } from './scrub-pg';
import {
  ALL_SELECTED_IDS,
  DELETED_TEXTS,
  DELETE_RANGE,
  FTS_OPTIMIZE,
  FTS_SECURE_DELETE_OFF,
  FTS_SECURE_DELETE_ON,
  FLAG_DEPENDENTS,
  RELINK_PROPOSAL_FOR,
  RELINK_SUPERSEDED_BY,
  RELINK_SUPERSEDES,
  RANGE_IDS,
  SELECTED_RANGE,
} from './sql';
import { deleteFactsById } from '../db/pg/delete-functions';

/** Rows per DELETE statement; progress is reported between batches. */
const BATCH = 500;
/** A delete this large (and at least 1/BULK_SHARE of all facts) removes its words from the
 * full-text index in one merge ('optimize') instead of row by row with secure-delete, which
 * costs about a hundred times more per row. Either way no deleted word stays in the index. */
const BULK_MIN = 200;
const BULK_SHARE = 100;

/** Steps of a delete, in order; all but 'scrub' run inside the transaction. */
export type DeletionPhase = 'plan' | 'delete' | 'index' | 'relink' | 'audit' | 'scrub' | 'done';

export interface DeleteOptions extends DeletionMetaInput {
  /**
   * Called as each phase starts and between delete batches, with facts deleted so far.
   * Throwing before 'scrub' (e.g. a CANCELLED error) rolls the whole delete back; from 'scrub'
   * on the delete has committed and a throw is ignored.
   */
  readonly onProgress?: (done: number, total: number, phase: DeletionPhase) => void;
}

/** The impact of deleting `selection`, changing nothing (the plan is rolled back). */
export function previewDeletion(ctx: PartitionContext, selectionInput: DeletionSelectionInput): DeletionImpact {
  const selection = parseSelection(selectionInput);
  const { db } = ctx;
  db.exec('SAVEPOINT statelens_deletion_preview');
  try {
    return readImpact(ctx, buildPlan(ctx, selection));
  } finally {
    db.exec('ROLLBACK TO statelens_deletion_preview; RELEASE statelens_deletion_preview');
  }
}

function restoreSecureDelete(db: PartitionContext['db']): void {
  try {
    stmt(db, FTS_SECURE_DELETE_ON).run();
  } catch {
    // The transaction is failing anyway; its rollback restores the stored setting.
  }
}

function parseMeta(options: DeleteOptions): DeletionMeta {
  return parseInput(DeletionMeta, { actor: options.actor, reason: options.reason }, 'deletion');
}

interface Applied {
  readonly result: Omit<DeletionResult, 'scrub'>;
  readonly texts: DeletedText[];
  /** On PostgreSQL, the delete transaction's id: the scrub waits until no transaction older
   * than it is left, as only then can VACUUM (FULL) leave the deleted row versions behind. */
  readonly xid: string | null;
}

function apply(ctx: PartitionContext, selection: DeletionSelection, meta: DeletionMeta, onProgress?: DeleteOptions['onProgress']): Applied {
  const { db, partitionId } = ctx;
  onProgress?.(0, 0, 'plan');
  const stats = buildPlan(ctx, selection);
  if (stats.missingIds.length > 0) {
    throw new StatelensError('NOT_FOUND', `${stats.missingIds.length} of the facts to delete are not in this partition; nothing was deleted`, {
      missing: stats.missingIds.slice(0, 20),
    });
  }
  const impact = readImpact(ctx, stats);
  const empty = { partitionId, deleted: 0, deletedIds: [], flagged: 0, flaggedIds: [], relinked: 0, cleared: 0, proposalsAffected: 0, auditId: null };
  if (stats.toDelete === 0) {
    clearPlan(db);
    return { result: empty, texts: [], xid: null };
  }
  const total = stats.toDelete;
  const texts = stmt<[], DeletedText>(db, DELETED_TEXTS).all();
  // Rows go before the survivors are updated: an update that grows a row can rebalance its
  // page and leave stale copies of neighbouring cells in free space, which must not be ours.
  // The pointers at deleted rows are repaired below, and every reference checked, before commit.
  onProgress?.(0, total, 'delete');
  // SQLite's full-text index is a table of its own; PostgreSQL's GIN index follows the rows.
  const bulk =
    dialectOf(db).name === 'sqlite' && total >= BULK_MIN && total * BULK_SHARE >= (stmt<[], number>(db, 'SELECT max(rid) FROM facts').pluck().get() ?? 0);
  if (bulk) stmt(db, FTS_SECURE_DELETE_OFF).run();
  let done = 0;
  try {
    // PostgreSQL: by id, through the server setup's function where it applies (roles there hold no
    // DELETE privilege; the function cannot read this session's temporary tables).
    const batch =
      dialectOf(db).name === 'postgres'
        ? (lo: number, hi: number): number => deleteFactsById(db, partitionId, stmt<[number, number], string>(db, RANGE_IDS).pluck().all(lo, hi))
        : (lo: number, hi: number): number => stmt(db, DELETE_RANGE).run(lo, hi).changes;
    const range = stmt<[], { lo: number; hi: number }>(db, SELECTED_RANGE).get() ?? { lo: 1, hi: 0 };
    for (let n = range.lo - 1; n < range.hi; n += BATCH) {
      done += batch(n, n + BATCH);
      onProgress?.(done, total, 'delete');
    }
    if (done !== total) throw new StatelensError('INTERNAL', `Deleted ${done} facts where the plan had ${total}; nothing was deleted`);
    if (bulk) {
      onProgress?.(done, total, 'index');
      stmt(db, FTS_OPTIMIZE).run();
    }
  } finally {
    // Also on failure: the rollback restores the stored setting, this the connection's copy.
    if (bulk) restoreSecureDelete(db);
  }

  onProgress?.(done, total, 'relink');
  stmt(db, FLAG_DEPENDENTS).run({
    partition_id: partitionId,
    cause: `rests on a fact deleted by ${meta.actor} at ${ctx.clock.now()}`,
    sep: EARLIER_CAUSE_SEPARATOR,
    max: MAX_REVIEW_CAUSE_CHARS,
  });
  stmt(db, RELINK_SUPERSEDED_BY).run();
  stmt(db, RELINK_SUPERSEDES).run();
  stmt(db, RELINK_PROPOSAL_FOR).run();
  enforceReferences(db);

  onProgress?.(done, total, 'audit');
  redactDeletedRefs(ctx, texts);
  const deletedIds = impact.ids;
  const auditIds = stmt<[], string>(db, ALL_SELECTED_IDS).pluck().all();
  const auditId = recordAudit(ctx, {
    actor: meta.actor,
    action: 'delete',
    targetIds: auditIds,
    reason: meta.reason ?? null,
    details: {
      count: total,
      // Which kind of selection, never its search text: that may quote what was deleted.
      selection: 'ids' in selection ? 'ids' : 'all' in selection ? 'all' : 'filter',
      filterFields:
        'filter' in selection ? Object.keys(selection.filter).filter((k) => selection.filter[k as keyof typeof selection.filter] !== undefined) : undefined,
      flagged: impact.flaggedCount,
      relinked: impact.relinkedCount,
      cleared: impact.clearedCount,
      proposalsAffected: impact.proposalsAffected,
    },
  });
  clearPlan(db);
  const pg = postgresOf(db);
  return {
    xid: pg ? currentTransactionId(pg.conn) : null,
    result: {
      partitionId,
      deleted: total,
      deletedIds: deletedIds.slice(0, DELETION_LIST_LIMIT),
      flagged: impact.flaggedCount,
      flaggedIds: impact.flagged,
      relinked: impact.relinkedCount,
      cleared: impact.clearedCount,
      proposalsAffected: impact.proposalsAffected,
      auditId,
    },
    texts,
  };
}

/** Deletes `selection` in one transaction, then scrubs the text from the file and its WAL (on
 * PostgreSQL, from the table and index files: see scrub-pg). */
export function deleteFacts(partition: WritablePartition, selection: DeletionSelectionInput, options: DeleteOptions): DeletionResult {
  const ctx = partition.ctx;
  const parsed = parseSelection(selection);
  const meta = parseMeta(options);
  const applied = withoutForeignKeyEnforcement(ctx.db, () => partition.transact('delete', (c) => apply(c, parsed, meta, options.onProgress)));
  const total = applied.result.deleted;
  const after = (phase: DeletionPhase): void => {
    try {
      options.onProgress?.(total, total, phase);
    } catch {
      // Committed: a cancel now cannot undo the delete, and the scrub must still run.
    }
  };
  if (total === 0) return { ...applied.result, scrub: null };
  after('scrub');
  const pg = postgresOf(ctx.db);
  let scrub: ScrubReport;
  let foreign: string[];
  if (pg && applied.xid) {
    scrub = scrubPostgres(pg, applied.xid);
    foreign = pgForeignObjects(pg.conn);
  } else {
    const file = sqliteOf(ctx.db, 'Scrubbing deleted text from the file');
    scrub = scrubDeletedText(file, partition.path, needlesFor(file, applied.texts));
    foreign = foreignObjects(file, file.pragma('user_version', { simple: true }) as number);
  }
  // An object Statelens did not create (a trigger copying deleted rows away) may hold the text
  // where no scrub looks: the removal is never claimed complete while one exists.
  if (foreign.length > 0) {
    scrub = {
      ...scrub,
      complete: false,
      detail: `${scrub.detail} The database holds objects Statelens did not create (${foreign.slice(0, 5).join(', ')}), which may keep copies of the deleted text.`,
    };
  }
  after('done');
  return { ...applied.result, scrub };
}
