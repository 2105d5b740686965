// Every fixed statement of a deletion, named, so the query-plan test can hold each one to an
// index-driven plan. Joins from the small temp tables into `facts` are CROSS JOINs (SQLite keeps
// their order) and partition terms are unary-plus'd, because without statistics the planner
// would otherwise walk the whole partition and probe the temp table per row.
import { IMPACT_VALUE_SNIPPET } from '../../../shared/deletion';

export const TEMP_TABLES = `
  CREATE TEMP TABLE IF NOT EXISTS sl_del (n INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, rid INTEGER NOT NULL);
  CREATE TEMP TABLE IF NOT EXISTS sl_succ (id TEXT PRIMARY KEY, next TEXT) WITHOUT ROWID;
  CREATE TEMP TABLE IF NOT EXISTS sl_pred (id TEXT PRIMARY KEY, next TEXT) WITHOUT ROWID;
  CREATE TEMP TABLE IF NOT EXISTS sl_dep (id TEXT PRIMARY KEY, root TEXT NOT NULL, depth INTEGER NOT NULL) WITHOUT ROWID;
  CREATE INDEX IF NOT EXISTS temp.sl_dep_depth ON sl_dep (depth, id);
  CREATE TEMP TABLE IF NOT EXISTS sl_relink (n INTEGER PRIMARY KEY, id TEXT NOT NULL, field TEXT NOT NULL, old TEXT NOT NULL, new TEXT);
`;

export const CLEAR_TEMP_TABLES = `
  DELETE FROM temp.sl_del; DELETE FROM temp.sl_succ; DELETE FROM temp.sl_pred;
  DELETE FROM temp.sl_dep; DELETE FROM temp.sl_relink;
`;

export const SELECT_IDS = `INSERT OR IGNORE INTO temp.sl_del (id, rid)
  SELECT f.id, f.rid FROM json_each(@ids) j CROSS JOIN facts f ON f.id = j.value WHERE +f.partition_id = @partition_id ORDER BY f.rid`;
export const MISSING_IDS = 'SELECT DISTINCT j.value FROM json_each(@ids) j WHERE NOT EXISTS (SELECT 1 FROM temp.sl_del d WHERE d.id = j.value)';
/** `where`: the listing's filter terms (the partition's among them), see query/filter-sql. */
export const selectByFilter = (where: readonly string[]): string =>
  `INSERT INTO temp.sl_del (id, rid) SELECT f.id, f.rid FROM facts f WHERE ${where.join(' AND ')} ORDER BY f.rid`;
export const COUNT_SELECTED = 'SELECT count(*) FROM temp.sl_del';

/** The walk tables: successors follow superseded_by, predecessors follow supersedes. */
export type Walk = { readonly table: 'sl_succ' | 'sl_pred'; readonly pointer: 'superseded_by' | 'supersedes' };
export const SUCCESSORS: Walk = { table: 'sl_succ', pointer: 'superseded_by' };
export const PREDECESSORS: Walk = { table: 'sl_pred', pointer: 'supersedes' };

export const walkSeed = (w: Walk): string =>
  `INSERT INTO temp.${w.table} (id, next) SELECT d.id, f.${w.pointer} FROM temp.sl_del d CROSS JOIN facts f ON f.rid = d.rid`;
export const walkJump = (w: Walk): string =>
  `UPDATE temp.${w.table} AS o SET next = (SELECT s.next FROM temp.${w.table} s WHERE s.id = o.next) WHERE o.next IN (SELECT id FROM temp.sl_del)`;
export const walkDeadEnds = (w: Walk): string => `UPDATE temp.${w.table} SET next = NULL WHERE next IN (SELECT id FROM temp.sl_del)`;
export const walkOutside = (w: Walk): string =>
  `UPDATE temp.${w.table} SET next = NULL WHERE next IS NOT NULL AND NOT EXISTS (SELECT 1 FROM facts g WHERE g.id = temp.${w.table}.next AND g.partition_id = @partition_id)`;

export const DEPENDENTS_SEED = 'INSERT INTO temp.sl_dep (id, root, depth) SELECT id, id, 0 FROM temp.sl_del';
export const DEPENDENTS_LEVEL = `INSERT OR IGNORE INTO temp.sl_dep (id, root, depth)
  SELECT e.dependent, min(d.root), @depth + 1 FROM temp.sl_dep d CROSS JOIN fact_edges e ON e.depends_on = d.id
  WHERE d.depth = @depth AND +e.partition_id = @partition_id GROUP BY e.dependent`;

const relink = (field: string, column: string, walk: Walk): string => `INSERT INTO temp.sl_relink (id, field, old, new)
  SELECT f.id, '${field}', f.${column}, w.next FROM temp.${walk.table} w CROSS JOIN facts f ON f.${column} = w.id
  WHERE +f.partition_id = @partition_id AND NOT EXISTS (SELECT 1 FROM temp.sl_del d WHERE d.id = f.id) ORDER BY f.rid`;
export const RELINK_PLANS = [
  relink('supersededBy', 'superseded_by', SUCCESSORS),
  relink('supersedes', 'supersedes', PREDECESSORS),
  // A proposal follows its target forward, to whatever replaced it.
  relink('proposalFor', 'proposal_for', SUCCESSORS),
];

// Reading the plan.
export const PLAN_IDS = 'SELECT id FROM temp.sl_del ORDER BY n LIMIT ?';
/** Enough of each fact (a value snippet, its time) to tell versions of one key apart. */
export const PLAN_FACTS = `SELECT f.id, f.key, f.status, substr(f.value, 1, ${IMPACT_VALUE_SNIPPET}) AS value, f.ts FROM temp.sl_del d CROSS JOIN facts f ON f.rid = d.rid ORDER BY d.n LIMIT ?`;
export const PLAN_VALID = 'SELECT count(*) FROM temp.sl_del d CROSS JOIN facts f ON f.rid = d.rid WHERE f.is_valid = 1';
export const PLAN_FLAGGED_COUNT = 'SELECT count(*) FROM temp.sl_dep WHERE depth > 0';
export const PLAN_FLAGGED = 'SELECT id FROM temp.sl_dep WHERE depth > 0 ORDER BY depth, id LIMIT ?';
export const PLAN_RELINK_COUNT = 'SELECT count(*) FROM temp.sl_relink';
export const PLAN_RELINKS = 'SELECT id, field, old AS "from", new AS "to" FROM temp.sl_relink ORDER BY n LIMIT ?';
export const PLAN_CLEARED = 'SELECT count(*) FROM temp.sl_relink WHERE new IS NULL';
export const PLAN_ORPHANED = "SELECT count(*) FROM temp.sl_relink WHERE field = 'supersededBy' AND new IS NULL";
export const PLAN_PROPOSALS = "SELECT count(*) FROM temp.sl_relink WHERE field = 'proposalFor'";

// Applying the plan.
export const DELETED_TEXTS = 'SELECT f.key, f.value, f.label FROM temp.sl_del d CROSS JOIN facts f ON f.rid = d.rid';
/** An older flag whose cause is now deleted loses the cause's key text (it quoted it). */
export const REWRITE_OLD_CAUSES = `UPDATE facts SET review_cause = 'rested on ' || review_cause_fact || ', since deleted'
  WHERE partition_id = @partition_id AND needs_review = 1 AND review_cause_fact IN (SELECT id FROM temp.sl_del)
    AND NOT EXISTS (SELECT 1 FROM temp.sl_del d WHERE d.id = facts.id)`;
export const FLAG_DEPENDENTS = `UPDATE facts SET needs_review = 1, review_cause = 'rests on ' || d.root || ', deleted by ' || @actor, review_cause_fact = d.root
  FROM temp.sl_dep d WHERE facts.id = d.id AND d.depth > 0 AND +facts.partition_id = @partition_id`;
export const RELINK_SUPERSEDED_BY = `UPDATE facts SET superseded_by = r.new,
    supersession_reason = CASE WHEN r.new IS NULL
      THEN coalesce(facts.supersession_reason || '; ', '') || 'its successor ' || r.old || ' was deleted'
      ELSE facts.supersession_reason END
  FROM temp.sl_relink r WHERE r.id = facts.id AND r.field = 'supersededBy'`;
export const RELINK_SUPERSEDES = "UPDATE facts SET supersedes = r.new FROM temp.sl_relink r WHERE r.id = facts.id AND r.field = 'supersedes'";
export const RELINK_PROPOSAL_FOR = "UPDATE facts SET proposal_for = r.new FROM temp.sl_relink r WHERE r.id = facts.id AND r.field = 'proposalFor'";
export const DELETE_RANGE = 'DELETE FROM facts WHERE rid IN (SELECT rid FROM temp.sl_del WHERE n > ? AND n <= ?)';
export const SELECTED_RANGE = 'SELECT min(n) AS lo, max(n) AS hi FROM temp.sl_del';
export const ALL_SELECTED_IDS = 'SELECT id FROM temp.sl_del ORDER BY n';
export const FTS_SECURE_DELETE_OFF = "INSERT INTO facts_fts (facts_fts, rank) VALUES ('secure-delete', 0)";
export const FTS_SECURE_DELETE_ON = "INSERT INTO facts_fts (facts_fts, rank) VALUES ('secure-delete', 1)";
export const FTS_OPTIMIZE = "INSERT INTO facts_fts (facts_fts) VALUES ('optimize')";
