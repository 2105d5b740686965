// Creating and checking the Statelens schema on PostgreSQL: one named schema per store (default
// "statelens"), its version in statelens_schema_version. Migrations run in one transaction under
// an advisory lock, so several hosts initialising at once leave one schema; a schema newer than
// this build is refused (DB_TOO_NEW) and a schema holding other tables is not ours.
import { PgSchemaName } from '../../../../shared/contract';
import { showUnsafe } from '../../../../shared/domain';
import { createHash } from 'node:crypto';
import { StatelensError } from '../../../../shared/errors';
import { PG_MIGRATIONS, type PgMigration } from './migrations';
import { PG_ALL_ORGS_SETTING } from './session-settings';
import { quoteIdent, type SyncPg } from './sync-client';

export const DEFAULT_PG_SCHEMA = 'statelens';
export const VERSION_TABLE = 'statelens_schema_version';
/** The advisory lock key that serialises schema changes across every client of a server. */
/** The NOTIFY channel a schema's changes are announced on (see PostgreSQL migration 3): a fixed-length name
 * whatever the schema's, as a channel name is cut at 63 bytes. */
export function changeChannel(schema: string): string {
  return `statelens_${createHash('md5').update(schema, 'utf8').digest('hex')}`;
}

export const MIGRATION_LOCK = 0x53544c4e; // 'STLN', the SQLite files' application id

export interface PgSchemaState {
  /** The schema (namespace) exists. */
  readonly exists: boolean;
  /** The recorded version, or null when there is no version table. */
  readonly version: number | null;
  /** Tables and views in the schema. */
  readonly tables: readonly string[];
}

export interface PgMigrateResult {
  readonly schema: string;
  readonly from: number;
  readonly to: number;
  /** False when the schema was already at this build's version (nothing was done). */
  readonly changed: boolean;
}

/** Reads what the schema holds, without changing anything. */
export function inspectPgSchema(conn: SyncPg, schema: string): PgSchemaState {
  const exists = conn.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [schema]).rowCount > 0;
  if (!exists) return { exists, version: null, tables: [] };
  const tables = conn
    .query<{ relname: string }>(
      `SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = $1 AND c.relkind IN ('r', 'p', 'v', 'm', 'f') ORDER BY c.relname`,
      [schema],
    )
    .rows.map((r) => r.relname);
  if (!tables.includes(VERSION_TABLE)) return { exists, version: null, tables };
  const row = conn.query<{ version: number }>(`SELECT version FROM ${quoteIdent(schema)}.${VERSION_TABLE}`).rows[0];
  return { exists, version: row?.version ?? 0, tables };
}

/** Throws the typed error for a schema this build must not use; returns its version (0 when empty or absent). */
export function checkPgSchema(state: PgSchemaState, schema: string, where: string, latest: number): number {
  if (state.version === null) {
    if (state.tables.length > 0) {
      throw new StatelensError('NOT_A_STATELENS_DB', `Schema "${schema}" on ${where} holds tables that are not a Statelens store`, {
        tables: state.tables.slice(0, 10),
      });
    }
    return 0;
  }
  if (state.version > latest) {
    throw new StatelensError(
      'DB_TOO_NEW',
      `Schema "${schema}" on ${where} has schema version ${state.version}; this Statelens understands up to ${latest}. Update Statelens to open it.`,
      { schemaVersion: state.version, supportedVersion: latest },
    );
  }
  return state.version;
}

/** Creates the schema, or brings it to this build's version; a no-op when it is already there. */
/** `schema` when it is a name the contract accepts (PgSchemaName: what the desktop's connect form
 * takes), INVALID_INPUT otherwise: a quoted odd name would be created, and then found by nothing. */
export function requirePgSchemaName(schema: string): string {
  const parsed = PgSchemaName.safeParse(schema);
  if (!parsed.success) {
    throw new StatelensError('INVALID_INPUT', `Schema "${showUnsafe(schema)}": ${parsed.error.issues[0]?.message ?? 'not a schema name'}`, { field: 'schema' });
  }
  return parsed.data;
}

export function migratePg(conn: SyncPg, options: { schema?: string; migrations?: readonly PgMigration[] } = {}): PgMigrateResult {
  const schema = requirePgSchemaName(options.schema ?? DEFAULT_PG_SCHEMA);
  const migrations = options.migrations ?? PG_MIGRATIONS;
  const latest = migrations[migrations.length - 1]?.version ?? 0;
  const q = quoteIdent(schema);
  return conn.transaction(() => {
    conn.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    // Under the server setup's row-level security an administrator sees every org only on
    // purpose; a migration that rewrites rows must see them all.
    conn.query("SELECT set_config($1, 'on', true)", [PG_ALL_ORGS_SETTING]);
    const state = inspectPgSchema(conn, schema);
    const from = checkPgSchema(state, schema, conn.where, latest);
    const pending = migrations.filter((m) => m.version > from);
    if (pending.length === 0) return { schema, from, to: from, changed: false };
    // Only when missing: creating a schema needs CREATE on the database, which an administrator of
    // an existing store need not have.
    if (!state.exists) conn.exec(`CREATE SCHEMA ${q}`);
    conn.exec(`SET LOCAL search_path TO ${q}`);
    if (state.version === null) {
      conn.exec(`CREATE TABLE ${VERSION_TABLE} (
        singleton  boolean PRIMARY KEY DEFAULT true CHECK (singleton),
        version    integer NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now()
      ); INSERT INTO ${VERSION_TABLE} (version) VALUES (0)`);
    }
    for (const m of pending) {
      conn.exec(m.up);
      conn.query(`UPDATE ${VERSION_TABLE} SET version = $1, updated_at = now()`, [m.version]);
    }
    return { schema, from, to: latest, changed: true };
  });
}
