// Database verification: the store's own checks (SQLite's integrity and foreign-key checks and
// the full-text index; PostgreSQL's schema version, constraints and foreign keys) and every
// invariant of the engine's model (validity, chains, edges, review flags), as one structured
// report, on either store. Reads only: whatever it needs to compute lives in temp tables that are rolled back.
import { canonicalTimestamp } from '../../../shared/timestamp';
import { sqliteOf, type EngineDb } from '../db/connection';
import type { Sqlite } from '../db/open';
import { foreignObjects } from '../db/schema-check';
import { pgForeignObjects } from '../db/pg/foreign-objects';
import { postgresOf, type PgDatabase } from '../db/pg/database';
import { PG_SCHEMA_VERSION } from '../db/pg/migrations';
import { VERSION_TABLE } from '../db/pg/schema';
import { PG_AUDIT_ACTIONS, pgSetupRoles } from '../db/pg/server-setup';
import { quoteIdent } from '../db/pg/sync-client';
import type { Store } from '../store';

export interface VerifyCheck {
  readonly name: string;
  readonly ok: boolean;
  /** Offending rows (or, for informational checks, the rows counted). */
  readonly count: number;
  readonly detail: string;
}

export interface VerifyReport {
  readonly ok: boolean;
  readonly path: string;
  readonly checks: VerifyCheck[];
}

const SAMPLE = 5;
const MAX_JUMPS = 64;

function ids(db: EngineDb, sql: string): { count: number; sample: string[] } {
  const all = db.prepare(sql).pluck().all() as unknown[];
  return { count: all.length, sample: all.slice(0, SAMPLE).map(String) };
}

function violations(name: string, what: string, found: { count: number; sample: string[] }): VerifyCheck {
  return {
    name,
    ok: found.count === 0,
    count: found.count,
    detail: found.count === 0 ? what : `${found.count} violating: ${found.sample.join(', ')}${found.count > found.sample.length ? ', …' : ''}`,
  };
}

function integrity(db: Sqlite): VerifyCheck {
  // FTS5 caches its index structure per connection and PRAGMA integrity_check reuses that
  // cache without asking whether another process has merged segments since; on a long-lived
  // connection (the app's, while an agent writes) that reports corruption the file does not
  // have. An ordinary full-text read first revalidates the cache, in the same read snapshot.
  const rows = db
    .transaction(() => {
      db.prepare("SELECT rowid FROM facts_fts WHERE facts_fts MATCH 'statelensrefresh' LIMIT 1").all();
      return db.pragma('integrity_check') as Array<{ integrity_check: string }>;
    })
    .deferred();
  const messages = rows.map((r) => r.integrity_check);
  const ok = messages.length === 1 && messages[0] === 'ok';
  return { name: 'integrity_check', ok, count: ok ? 0 : messages.length, detail: ok ? 'SQLite integrity check: ok' : messages.slice(0, SAMPLE).join('; ') };
}

function foreignKeys(db: Sqlite): VerifyCheck {
  const rows = db.pragma('foreign_key_check') as Array<{ table: string; rowid: number | null; parent: string }>;
  return {
    name: 'foreign_key_check',
    ok: rows.length === 0,
    count: rows.length,
    detail:
      rows.length === 0
        ? 'every foreign key resolves'
        : rows
            .slice(0, SAMPLE)
            .map((r) => `${r.table} row ${r.rowid} -> ${r.parent}`)
            .join('; '),
  };
}

function ftsIndex(db: EngineDb, readonly: boolean): VerifyCheck {
  const name = 'fts_index';
  if (!readonly) {
    try {
      // FTS5's own check compares the index with the content table (rank 1: external content).
      db.prepare("INSERT INTO facts_fts (facts_fts, rank) VALUES ('integrity-check', 1)").run();
      return { name, ok: true, count: 0, detail: 'full-text index matches the facts (FTS5 integrity-check)' };
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      if (!/readonly|read-only|busy|locked/i.test(message)) return { name, ok: false, count: 1, detail: `FTS5 integrity-check failed: ${message}` };
    }
  }
  // Read-only connection: compare the indexed documents with the facts instead.
  const missing = ids(db, 'SELECT f.rid FROM facts f WHERE NOT EXISTS (SELECT 1 FROM facts_fts_docsize d WHERE d.id = f.rid)');
  const extra = ids(db, 'SELECT d.id FROM facts_fts_docsize d WHERE NOT EXISTS (SELECT 1 FROM facts f WHERE f.rid = d.id)');
  const count = missing.count + extra.count;
  return {
    name,
    ok: count === 0,
    count,
    detail:
      count === 0
        ? 'every fact is indexed once and nothing else is (read-only comparison)'
        : `${missing.count} facts not indexed, ${extra.count} index entries without a fact`,
  };
}

/** Follows `pointer` from every fact that has one, doubling the stride; what still points into
 * the set after 64 rounds (2^64 steps) is on or leads into a cycle. */
function cycles(db: EngineDb, pointer: 'superseded_by' | 'supersedes'): { count: number; sample: string[] } {
  db.exec('CREATE TEMP TABLE IF NOT EXISTS sl_verify_walk (id TEXT PRIMARY KEY, next TEXT) WITHOUT ROWID; DELETE FROM temp.sl_verify_walk;');
  db.prepare(`INSERT INTO temp.sl_verify_walk (id, next) SELECT id, ${pointer} FROM facts WHERE ${pointer} IS NOT NULL`).run();
  const jump = db.prepare(
    `UPDATE temp.sl_verify_walk AS o SET next = (SELECT w.next FROM temp.sl_verify_walk w WHERE w.id = o.next)
     WHERE o.next IN (SELECT id FROM temp.sl_verify_walk)`,
  );
  const remaining = db.prepare('SELECT count(*) FROM temp.sl_verify_walk WHERE next IN (SELECT id FROM temp.sl_verify_walk)').pluck();
  try {
    let left = remaining.get() as number;
    for (let i = 0; i < MAX_JUMPS && left > 0; i++) {
      jump.run();
      left = remaining.get() as number;
    }
    return ids(db, 'SELECT id FROM temp.sl_verify_walk WHERE next IN (SELECT id FROM temp.sl_verify_walk) ORDER BY id');
  } finally {
    // Dropped, not kept for the next run: a connection shared by several roles (PGlite switching
    // roles) must not leave one role a temporary table another cannot write.
    db.exec('DROP TABLE IF EXISTS temp.sl_verify_walk');
  }
}

function pointerInPartition(db: EngineDb, column: 'superseded_by' | 'supersedes' | 'proposal_for'): VerifyCheck {
  return violations(
    `${column}_resolves_in_partition`,
    `every ${column} names a fact of the same partition`,
    ids(
      db,
      `SELECT f.id FROM facts f WHERE f.${column} IS NOT NULL AND NOT EXISTS (SELECT 1 FROM facts g WHERE g.id = f.${column} AND g.partition_id = f.partition_id) ORDER BY f.rid`,
    ),
  );
}

/** The chain checks a snapshot import also runs before it commits: following either pointer
 * always ends, and a fact that supersedes another is that fact's successor. */
export function chainChecks(db: EngineDb): VerifyCheck[] {
  return [
    violations('superseded_by_acyclic', 'following superseded_by always ends', cycles(db, 'superseded_by')),
    violations('supersedes_acyclic', 'following supersedes always ends', cycles(db, 'supersedes')),
    violations(
      'supersedes_mirrored',
      'a fact that supersedes another is that fact’s superseded_by',
      ids(db, 'SELECT f.id FROM facts f JOIN facts g ON g.id = f.supersedes WHERE g.superseded_by IS NOT f.id ORDER BY f.rid'),
    ),
  ];
}

function modelChecks(db: EngineDb): VerifyCheck[] {
  const orphaned = db.prepare("SELECT count(*) FROM facts WHERE status = 'superseded' AND superseded_by IS NULL").pluck().get() as number;
  const deletedCause = db
    .prepare('SELECT count(*) FROM facts f WHERE f.review_cause_fact IS NOT NULL AND NOT EXISTS (SELECT 1 FROM facts g WHERE g.id = f.review_cause_fact)')
    .pluck()
    .get() as number;
  return [
    violations(
      'valid_has_no_superseded_by',
      'no valid fact has superseded_by',
      ids(db, 'SELECT id FROM facts WHERE is_valid = 1 AND superseded_by IS NOT NULL ORDER BY rid'),
    ),
    violations(
      'status_matches_validity',
      "is_valid = 1 exactly when status = 'active'",
      // A CASE, not a comparison's value: PostgreSQL's is boolean, is_valid an integer.
      ids(db, "SELECT id FROM facts WHERE is_valid <> CASE WHEN status = 'active' THEN 1 ELSE 0 END ORDER BY rid"),
    ),
    ...chainChecks(db),
    pointerInPartition(db, 'superseded_by'),
    pointerInPartition(db, 'supersedes'),
    pointerInPartition(db, 'proposal_for'),
    violations(
      'review_cause_in_partition',
      'every review cause that still exists is in the flagged fact’s partition',
      ids(db, 'SELECT f.id FROM facts f JOIN facts g ON g.id = f.review_cause_fact WHERE g.partition_id <> f.partition_id ORDER BY f.rid'),
    ),
    violations(
      'edges_in_partition',
      'every dependency edge joins two facts of its own partition',
      ids(
        db,
        `SELECT e.dependent || ' -> ' || e.depends_on FROM fact_edges e JOIN facts a ON a.id = e.dependent JOIN facts b ON b.id = e.depends_on
         WHERE a.partition_id <> e.partition_id OR b.partition_id <> e.partition_id`,
      ),
    ),
    violations(
      'org_matches_partition',
      "every fact's org_id is its partition's org",
      ids(db, 'SELECT f.id FROM facts f JOIN partitions p ON p.id = f.partition_id WHERE f.org_id <> p.org_id ORDER BY f.rid'),
    ),
    violations(
      'level_only_in_capability_memory',
      'capability levels appear only in capability partitions',
      ids(db, "SELECT f.id FROM facts f JOIN partitions p ON p.id = f.partition_id WHERE f.level IS NOT NULL AND p.kind <> 'capability' ORDER BY f.rid"),
    ),
    {
      name: 'superseded_without_successor',
      ok: true,
      count: orphaned,
      detail: `${orphaned} superseded facts whose successor was deleted (allowed: they stay superseded)`,
    },
    {
      name: 'review_cause_deleted',
      ok: true,
      count: deletedCause,
      detail: `${deletedCause} facts flagged by a fact since deleted (allowed: review_cause_fact is a record, not a link)`,
    },
  ];
}

/** Fact timestamps and working-set times are compared as text, which is time order only for
 * date-times in the one canonical UTC form: anything else (a word, "9999-pinned") fails; a
 * date-time in another form (an offset, no milliseconds) is counted, as it may sort wrongly. */
function timestampChecks(db: EngineDb): VerifyCheck[] {
  const checks: VerifyCheck[] = [];
  for (const [table, column, label] of [
    ['facts', 'ts', 'fact'],
    ['working_items', 'created_at', 'working_item'],
  ] as const) {
    const bad: string[] = [];
    let badCount = 0;
    let otherForm = 0;
    for (const [id, value] of db.prepare(`SELECT id, ${column} FROM ${table} ORDER BY rid`).raw().iterate() as IterableIterator<[string, unknown]>) {
      const canonical = typeof value === 'string' ? canonicalTimestamp(value) : undefined;
      if (canonical === undefined) {
        badCount += 1;
        if (bad.length < SAMPLE) bad.push(`${id} (${JSON.stringify(value)})`);
      } else if (canonical !== value) otherForm += 1;
    }
    checks.push(violations(`${label}_${column}_is_date_time`, `every ${label} ${column} is an ISO-8601 date-time`, { count: badCount, sample: bad }));
    checks.push({
      name: `${label}_${column}_canonical`,
      ok: true,
      count: otherForm,
      detail: `${otherForm} ${label} ${column} values are date-times not in the canonical UTC form (YYYY-MM-DDTHH:MM:SS.sssZ); they compare as text, so an export and re-import normalises them`,
    });
  }
  return checks;
}

/** A check that SQLite aborts (SQLITE_CORRUPT on a damaged page) is a failed check, not a crash. */
function guarded(name: string, run: () => VerifyCheck | VerifyCheck[]): VerifyCheck[] {
  try {
    const result = run();
    return Array.isArray(result) ? result : [result];
  } catch (e) {
    const message = (e instanceof Error ? e.message : String(e)).replace(/\s*\n\s*/g, ' ');
    return [{ name, ok: false, count: 1, detail: `could not complete: ${message}` }];
  }
}

/** A PostgreSQL store's schema is at this build's version (opening it refuses others, but a
 * migration may have run meanwhile). */
function pgSchemaVersion(db: PgDatabase): VerifyCheck {
  const version = db.conn.query<{ version: number }>(`SELECT version FROM ${VERSION_TABLE}`).rows[0]?.version ?? 0;
  const ok = version === PG_SCHEMA_VERSION;
  return {
    name: 'schema_version',
    ok,
    count: ok ? 0 : 1,
    detail: `PostgreSQL schema version ${version}${ok ? '' : `; this build writes ${PG_SCHEMA_VERSION}`}`,
  };
}

/** PostgreSQL enforces keys, foreign keys and checks itself; one added NOT VALID (or left so by
 * an interrupted migration) holds only for new rows, so every constraint must be validated. */
/** Capability memory at a level its partition's tier allows (junior: events; senior: and
 * heuristics; master: and strategies), and no level on other memory. */
function levelWithinTier(db: EngineDb): VerifyCheck {
  return violations(
    'level_within_tier',
    "every fact's level is one its partition's tier allows",
    ids(
      db,
      `SELECT f.id FROM facts f JOIN partitions p ON p.id = f.partition_id
        WHERE f.level IS NOT NULL AND NOT (p.kind = 'capability' AND (f.level = 'event'
          OR (f.level = 'heuristic' AND coalesce(p.maturity, 'junior') IN ('senior', 'master'))
          OR (f.level = 'strategy' AND p.maturity = 'master')))
        ORDER BY f.rid`,
    ),
  );
}

/** Under the server setup: every audit entry whose actor is a role of the server names an action
 * that role performs (administrators: any). The setup's trigger makes agents and reviewers the
 * actors of what they append; an entry that breaks this was written around it. */
function auditAuthorship(db: PgDatabase): VerifyCheck[] {
  const schema = db.conn.query<{ s: string }>('SELECT current_schema() AS s').rows[0]?.s ?? '';
  const roles = pgSetupRoles(db.conn, schema);
  if (!roles) return [];
  const rows = db.conn.query<{ id: string }>(
    `SELECT a.id::text AS id FROM audit_log a JOIN pg_roles r ON r.rolname = a.actor
      WHERE NOT pg_has_role(r.rolname, $1, 'MEMBER')
        AND NOT (pg_has_role(r.rolname, $2, 'MEMBER') AND a.action = ANY ($3::text[]))
        AND NOT (pg_has_role(r.rolname, $4, 'MEMBER') AND a.action = ANY ($5::text[]))
      ORDER BY a.id`,
    [roles.admin, roles.agent, PG_AUDIT_ACTIONS.agent, roles.reviewer, PG_AUDIT_ACTIONS.reviewer],
  ).rows;
  return [
    violations('audit_authorship', "every audit entry's actor is a role allowed its action", {
      count: rows.length,
      sample: rows.slice(0, SAMPLE).map((r) => `audit ${r.id}`),
    }),
  ];
}

function pgConstraints(db: PgDatabase): VerifyCheck {
  const rows = db.conn.query<{ name: string; validated: boolean }>(
    `SELECT c.conrelid::regclass::text || '.' || c.conname AS name, c.convalidated AS validated
       FROM pg_constraint c WHERE c.connamespace = current_schema()::regnamespace ORDER BY 1`,
  ).rows;
  const invalid = rows.filter((r) => !r.validated).map((r) => r.name);
  return violations('constraints', `${rows.length} constraints, every one validated`, { count: invalid.length, sample: invalid.slice(0, SAMPLE) });
}

/** PostgreSQL's counterpart of SQLite's foreign_key_check: the rows whose foreign key names no
 * row (possible only when triggers were off, e.g. under session_replication_role = replica, or a
 * key was added NOT VALID). A key with a NULL column holds, as PostgreSQL's MATCH SIMPLE says. */
function pgForeignKeys(db: PgDatabase): VerifyCheck {
  const keys = db.conn.query<{ child: string; parent: string; cols: string[]; refs: string[] }>(
    `SELECT c.conrelid::regclass::text AS child, c.confrelid::regclass::text AS parent,
            ARRAY(SELECT a.attname::text FROM unnest(c.conkey) WITH ORDINALITY k(n, i)
                  JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.n ORDER BY k.i) AS cols,
            ARRAY(SELECT a.attname::text FROM unnest(c.confkey) WITH ORDINALITY k(n, i)
                  JOIN pg_attribute a ON a.attrelid = c.confrelid AND a.attnum = k.n ORDER BY k.i) AS refs
       FROM pg_constraint c WHERE c.contype = 'f' AND c.connamespace = current_schema()::regnamespace ORDER BY c.conname`,
  ).rows;
  const broken: string[] = [];
  let count = 0;
  for (const { child, parent, cols, refs } of keys) {
    const set = cols.map((c) => `c.${quoteIdent(c)} IS NOT NULL`).join(' AND ');
    const match = cols.map((c, i) => `p.${quoteIdent(refs[i] as string)} = c.${quoteIdent(c)}`).join(' AND ');
    const n = Number(
      db.conn.query<{ n: string }>(`SELECT count(*) AS n FROM ${child} c WHERE ${set} AND NOT EXISTS (SELECT 1 FROM ${parent} p WHERE ${match})`).rows[0]?.n ??
        0,
    );
    if (n === 0) continue;
    count += n;
    broken.push(`${child} (${cols.join(', ')}): ${n} row${n === 1 ? '' : 's'} -> ${parent}`);
  }
  return {
    name: 'foreign_key_check',
    ok: count === 0,
    count,
    detail: count === 0 ? `every foreign key resolves (${keys.length} keys)` : broken.slice(0, SAMPLE).join('; '),
  };
}

/** Tables, indexes, triggers and views Statelens did not create: any of them could act on what
 * Statelens writes or deletes (a trigger copying deleted text into a table of its own). */
function foreignObjectCheck(db: Sqlite): VerifyCheck {
  const found = foreignObjects(db, db.pragma('user_version', { simple: true }) as number);
  return violations('foreign_objects', 'every table, index, trigger and view is one Statelens created', {
    count: found.length,
    sample: found.slice(0, SAMPLE),
  });
}

/** The same on PostgreSQL, within the store's schema. */
function pgForeignObjectCheck(db: PgDatabase): VerifyCheck {
  const found = pgForeignObjects(db.conn);
  return violations('foreign_objects', 'every table, index, trigger and view of the schema is one Statelens created', {
    count: found.length,
    sample: found.slice(0, SAMPLE),
  });
}

/** Runs every check; `ok` only when all pass. Changes nothing in the database. On PostgreSQL the
 * file-level checks (SQLite's integrity check, the FTS index, which there is an expression the
 * server keeps) give way to the schema version and the server's constraints; the foreign-key
 * check and the model's invariants are the same on both stores. */
export function verifyDatabase(store: Store): VerifyReport {
  const db = store.db;
  const pg = postgresOf(db);
  const checks: VerifyCheck[] = pg
    ? [
        ...guarded('schema_version', () => pgSchemaVersion(pg)),
        ...guarded('constraints', () => pgConstraints(pg)),
        ...guarded('foreign_objects', () => pgForeignObjectCheck(pg)),
      ]
    : [
        ...guarded('integrity_check', () => integrity(sqliteOf(db, 'PRAGMA integrity_check'))),
        ...guarded('foreign_key_check', () => foreignKeys(sqliteOf(db, 'PRAGMA foreign_key_check'))),
        ...guarded('fts_index', () => ftsIndex(db, store.readonly)),
        ...guarded('foreign_objects', () => foreignObjectCheck(sqliteOf(db, 'Listing the schema objects'))),
      ];
  // Each group in a savepoint of its own: a statement PostgreSQL refuses aborts the transaction
  // it runs in, which would fail every later check too.
  const group = (name: string, run: () => VerifyCheck | VerifyCheck[]) => guarded(name, () => db.transaction(run)());
  db.exec('SAVEPOINT statelens_verify');
  try {
    // On PostgreSQL inside the transaction, so that a store bound to one org reads as that org.
    if (pg) checks.push(...group('foreign_key_check', () => pgForeignKeys(pg)));
    checks.push(...group('model_invariants', () => modelChecks(db)));
    checks.push(...group('level_within_tier', () => levelWithinTier(db)));
    if (pg) checks.push(...group('audit_authorship', () => auditAuthorship(pg)));
    checks.push(...group('timestamps', () => timestampChecks(db)));
  } finally {
    db.exec('ROLLBACK TO statelens_verify; RELEASE statelens_verify');
  }
  return { ok: checks.every((c) => c.ok), path: store.path, checks };
}

/** The report as lines for a terminal, one per check, then a summary. */
export function formatVerifyReport(report: VerifyReport): string[] {
  const width = Math.max(...report.checks.map((c) => c.name.length));
  const lines = report.checks.map((c) => `${c.ok ? 'ok  ' : 'FAIL'}  ${c.name.padEnd(width)}  ${c.detail}`);
  const failed = report.checks.filter((c) => !c.ok).length;
  lines.push(failed === 0 ? `All ${report.checks.length} checks passed: ${report.path}` : `${failed} of ${report.checks.length} checks FAILED: ${report.path}`);
  return lines;
}
