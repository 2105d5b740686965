// Opening a Statelens database file safely: inspect read-only first, refuse what is not ours,
// is corrupt or is newer than this build, and only then open read-write, migrate and set pragmas.
import fs from 'node:fs';
import Database from 'better-sqlite3';
import { StatelensError } from '../../../shared/errors';
import { MIGRATIONS, runMigration, SCHEMA_VERSION, type Migration } from './migrations';
import { withRawFile } from './raw-file';
import { schemaMismatch } from './schema-check';

export type Sqlite = Database.Database;

/** 'STLN' — marks a file as a Statelens database. */
export const APPLICATION_ID = 0x53544c4e;
const SQLITE_HEADER = Buffer.from('SQLite format 3\0', 'latin1');

export interface OpenOptions {
  /** Open without writing anything: no migration, no journal-mode change. */
  readonly readonly?: boolean;
  /** Create the file when it does not exist (default true for read-write). */
  readonly create?: boolean;
  /** Path of a better-sqlite3 addon built for another ABI (the Electron app passes its own). */
  readonly nativeBinding?: string;
  /** Milliseconds a writer waits on a lock before SQLITE_BUSY (default 5000). */
  readonly busyTimeoutMs?: number;
}

/** Maps a SQLite error to our typed error, or returns undefined when it is not one we know. */
export function mapSqliteError(e: unknown, path: string): StatelensError | undefined {
  const code = typeof e === 'object' && e !== null && 'code' in e ? String((e as { code: unknown }).code) : '';
  // One line, bounded: SQLite's "malformed database schema" quotes whole CREATE statements.
  const raw = (e instanceof Error ? e.message : String(e)).replace(/\s+/g, ' ').trim();
  const message = raw.length > 300 ? `${raw.slice(0, 300)}…` : raw;
  if (code.startsWith('SQLITE_NOTADB')) return new StatelensError('NOT_A_STATELENS_DB', `${path} is not a SQLite database`, { sqlite: code });
  if (code.startsWith('SQLITE_CORRUPT')) return new StatelensError('CORRUPT_DB', `${path} is corrupt: ${message}`, { sqlite: code });
  if (code.startsWith('SQLITE_FULL')) return new StatelensError('DISK_FULL', `The disk holding ${path} is full; nothing was written`, { sqlite: code });
  if (code.startsWith('SQLITE_READONLY') || code === 'SQLITE_CANTOPEN' || code.startsWith('SQLITE_CANTOPEN')) {
    return new StatelensError('READ_ONLY', `${path} cannot be written (${message})`, { sqlite: code });
  }
  if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) return new StatelensError('BUSY', `${path} is locked by another process`, { sqlite: code });
  if (code.startsWith('SQLITE_IOERR')) return new StatelensError('CORRUPT_DB', `I/O error on ${path}: ${message}`, { sqlite: code });
  return undefined;
}

function readHeader(path: string): Buffer | undefined {
  try {
    // Through the held descriptor when this process already has the file open (see raw-file).
    return withRawFile(path, false, (fd) => {
      const buf = Buffer.alloc(100);
      const n = fs.readSync(fd, buf, 0, 100, 0);
      return buf.subarray(0, n);
    });
  } catch {
    return undefined;
  }
}

interface Inspection {
  readonly exists: boolean;
  readonly userVersion: number;
}

/** Looks at an existing file without changing a byte; throws a typed error when we must not open it. */
export function inspectDatabaseFile(path: string, nativeBinding?: string): Inspection {
  if (!fs.existsSync(path)) return { exists: false, userVersion: 0 };
  const stat = fs.statSync(path);
  if (!stat.isFile()) throw new StatelensError('NOT_A_STATELENS_DB', `${path} is not a file`);
  if (stat.size === 0) throw new StatelensError('NOT_A_STATELENS_DB', `${path} is empty (0 bytes): not a Statelens database`);
  const header = readHeader(path);
  if (!header || header.length < 100 || !header.subarray(0, 16).equals(SQLITE_HEADER)) {
    throw new StatelensError('NOT_A_STATELENS_DB', `${path} is not a SQLite database (bad header)`);
  }
  let db: Sqlite | undefined;
  try {
    db = new Database(path, { readonly: true, fileMustExist: true, ...(nativeBinding ? { nativeBinding } : {}) });
    // Read through SQLite, not from the raw header: while another process has the database
    // open, the committed application_id and user_version may still sit in its WAL.
    const appId = db.pragma('application_id', { simple: true }) as number;
    const userVersion = db.pragma('user_version', { simple: true }) as number;
    const tables = db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table'").pluck().all() as string[];
    if (appId !== APPLICATION_ID) {
      if (tables.length > 0 || userVersion !== 0) {
        throw new StatelensError('NOT_A_STATELENS_DB', `${path} is a SQLite database of another application`, { tables: tables.slice(0, 10) });
      }
      throw new StatelensError('NOT_A_STATELENS_DB', `${path} is an empty SQLite database not created by Statelens`);
    }
    if (userVersion > SCHEMA_VERSION) {
      throw new StatelensError('DB_TOO_NEW', `${path} has schema version ${userVersion}; this Statelens understands up to ${SCHEMA_VERSION}. Update Statelens to open it.`, {
        fileVersion: userVersion,
        supportedVersion: SCHEMA_VERSION,
      });
    }
    const check = db.pragma('quick_check(1)', { simple: true }) as string;
    if (check !== 'ok') throw new StatelensError('CORRUPT_DB', `${path} is corrupt: ${check.replace(/\s*\n\s*/g, ' ')}`); // one line for CLI and UI
    const mismatch = userVersion > 0 ? schemaMismatch(db, userVersion, nativeBinding) : null;
    if (mismatch) throw new StatelensError('CORRUPT_DB', `${path} is corrupt: its schema does not match Statelens schema version ${userVersion} (${mismatch})`);
    return { exists: true, userVersion };
  } catch (e) {
    if (e instanceof StatelensError) throw e;
    throw mapSqliteError(e, path) ?? new StatelensError('CORRUPT_DB', `${path} could not be read: ${e instanceof Error ? e.message : String(e)}`);
  } finally {
    db?.close();
  }
}

function applyPragmas(db: Sqlite, busyTimeoutMs: number, readonly: boolean): void {
  db.pragma(`busy_timeout = ${busyTimeoutMs}`);
  db.pragma('foreign_keys = ON');
  if (!readonly) {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('secure_delete = ON');
  }
  db.pragma('temp_store = MEMORY');
  db.pragma('cache_size = -65536');
}

/** Brings a database from version `from` to the last of `migrations` in one transaction: a step
 * that fails leaves the file as it was. */
export function migrate(db: Sqlite, from: number, migrations: readonly Migration[] = MIGRATIONS): void {
  const pending = migrations.filter((m) => m.version > from);
  if (pending.length === 0) return;
  db.transaction(() => {
    for (const m of pending) {
      runMigration(db, m);
      db.pragma(`user_version = ${m.version}`);
    }
    db.pragma(`application_id = ${APPLICATION_ID}`);
  }).immediate();
}

/** Opens (and, when new, creates) a Statelens database with WAL, foreign keys, busy timeout
 * and secure_delete, migrated to this build's schema. */
export function openDatabase(path: string, options: OpenOptions = {}): Sqlite {
  const readonly = options.readonly ?? false;
  const create = options.create ?? !readonly;
  const busy = options.busyTimeoutMs ?? 5000;
  const inspection = inspectDatabaseFile(path, options.nativeBinding);
  if (!inspection.exists && !create) throw new StatelensError('NOT_FOUND', `${path} does not exist`);
  let db: Sqlite;
  try {
    db = new Database(path, {
      readonly,
      fileMustExist: inspection.exists,
      ...(options.nativeBinding ? { nativeBinding: options.nativeBinding } : {}),
    });
  } catch (e) {
    throw mapSqliteError(e, path) ?? new StatelensError('READ_ONLY', `${path} cannot be opened: ${e instanceof Error ? e.message : String(e)}`);
  }
  try {
    applyPragmas(db, busy, readonly);
    if (readonly) {
      if (inspection.userVersion < SCHEMA_VERSION) {
        throw new StatelensError('READ_ONLY', `${path} has schema version ${inspection.userVersion} and needs a migration, which read-only mode cannot do`);
      }
    } else {
      migrate(db, inspection.userVersion);
    }
    return db;
  } catch (e) {
    db.close();
    if (e instanceof StatelensError) throw e;
    throw mapSqliteError(e, path) ?? e;
  }
}
