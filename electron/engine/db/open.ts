// Opening a Statelens database file safely: inspect read-only first, refuse what is not ours,
// is corrupt or is newer than this build, and only then open read-write, migrate and set pragmas.
import fs from 'node:fs';
import nodePath from 'node:path';
import Database from 'better-sqlite3';
import { StatelensError } from '../../../shared/errors';
import { nativeModuleError } from './native-module';
import { olderFileError } from './upgrade-hint';
import type { EngineDb } from './connection';
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
  if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED'))
    return new StatelensError('BUSY', `${path} is locked by another process`, { sqlite: code });
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

/** Checks an open connection holds a Statelens database this build can read; returns its schema version. */
function checkStatelensDatabase(db: Sqlite, path: string, nativeBinding?: string): number {
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
    throw new StatelensError(
      'DB_TOO_NEW',
      `${path} has schema version ${userVersion}; this Statelens understands up to ${SCHEMA_VERSION}. Update Statelens to open it.`,
      {
        fileVersion: userVersion,
        supportedVersion: SCHEMA_VERSION,
      },
    );
  }
  const check = db.pragma('quick_check(1)', { simple: true }) as string;
  if (check !== 'ok') throw new StatelensError('CORRUPT_DB', `${path} is corrupt: ${check.replace(/\s*\n\s*/g, ' ')}`); // one line for CLI and UI
  const mismatch = userVersion > 0 ? schemaMismatch(db, userVersion, nativeBinding) : null;
  if (mismatch) throw new StatelensError('CORRUPT_DB', `${path} is corrupt: its schema does not match Statelens schema version ${userVersion} (${mismatch})`);
  return userVersion;
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
    return { exists: true, userVersion: checkStatelensDatabase(db, path, nativeBinding) };
  } catch (e) {
    if (e instanceof StatelensError) throw e;
    throw (
      nativeModuleError(e, nativeBinding) ??
      mapSqliteError(e, path) ??
      new StatelensError('CORRUPT_DB', `${path} could not be read: ${e instanceof Error ? e.message : String(e)}`)
    );
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

/**
 * A WAL database is read through its -shm index, which SQLite creates beside the file; in a
 * folder this process cannot write that is impossible, and a plain read-only open fails with
 * "attempt to write a readonly database". When, in addition, no -wal file exists, nothing is
 * uncommitted and no writer can be at work (a writer keeps its -wal beside the file, and could
 * not create one in this folder either), so the file's bytes are the whole database: they are
 * read once and opened as an immutable in-memory copy. With a -wal present the normal open is
 * kept, since a writer may be changing the database under us.
 */
function canOnlyBeReadWhole(path: string): boolean {
  if (!fs.existsSync(path) || fs.existsSync(`${path}-wal`)) return false;
  try {
    fs.accessSync(nodePath.dirname(path), fs.constants.W_OK);
    return false;
  } catch {
    return true;
  }
}

/** The file read once into memory (it holds the whole file: fine for a database its owner
 * locked against writing), marked as a rollback-journal database, since a memory copy has no
 * WAL, and opened read-only. */
function openWholeCopy(path: string, nativeBinding?: string): Sqlite {
  let bytes: Buffer;
  try {
    bytes = fs.readFileSync(path);
  } catch (e) {
    const code = typeof e === 'object' && e !== null && 'code' in e ? String((e as { code: unknown }).code) : '';
    throw new StatelensError(code === 'EACCES' ? 'PERMISSION_DENIED' : 'READ_ONLY', `${path} cannot be read (${code || String(e)})`);
  }
  if (bytes.length < 100 || !bytes.subarray(0, 16).equals(SQLITE_HEADER))
    throw new StatelensError('NOT_A_STATELENS_DB', `${path} is not a SQLite database (bad header)`);
  bytes[18] = 1; // file format write version: legacy (rollback journal)
  bytes[19] = 1; // file format read version
  const db = new Database(bytes, { readonly: true, ...(nativeBinding ? { nativeBinding } : {}) });
  try {
    const userVersion = checkStatelensDatabase(db, path, nativeBinding);
    if (userVersion < SCHEMA_VERSION) throw olderFileError(path, userVersion, SCHEMA_VERSION);
    db.pragma('foreign_keys = ON');
    return db;
  } catch (e) {
    db.close();
    if (e instanceof StatelensError) throw e;
    throw mapSqliteError(e, path) ?? new StatelensError('CORRUPT_DB', `${path} could not be read: ${e instanceof Error ? e.message : String(e)}`);
  }
}

/** Writing needs the file and its folder (for the -wal and -shm files) writable: say so at
 * once, rather than let the first write fail on whatever input it was writing. */
function refuseUnwritable(path: string): void {
  for (const [target, what] of [
    [path, 'the file is read-only'],
    [nodePath.dirname(path), 'its folder is read-only (the -wal and -shm files cannot be created)'],
  ] as const) {
    try {
      fs.accessSync(target, fs.constants.W_OK);
    } catch {
      throw new StatelensError('READ_ONLY', `${path} cannot be written: ${what}; it can still be read (facts, verify, export)`);
    }
  }
}

/** A plain read-only connection to an existing file, without the checks of openDatabase (its
 * caller has its own), readable in a folder this process cannot write (see canOnlyBeReadWhole). */
export function openReadOnlyConnection(path: string, nativeBinding?: string): Sqlite {
  if (canOnlyBeReadWhole(path)) return openWholeCopy(path, nativeBinding);
  return new Database(path, { readonly: true, fileMustExist: true, ...(nativeBinding ? { nativeBinding } : {}) });
}

/**
 * Closes a connection. On SQLite, a read-only connection cannot remove the -wal and -shm files
 * that reading a WAL database creates; SQLite removes them only when the last read-write
 * connection closes. So a reader of a file it could write closes behind a short-lived read-write
 * connection that only reads the schema (so that it joins the WAL): if no other process has the
 * file open, that connection is the last and tidies up; if one has, the files stay, as they must.
 */
export function closeConnection(db: EngineDb, path: string): void {
  if (!(db instanceof Database) || !db.readonly || db.memory || !fs.existsSync(`${path}-wal`) || !canWriteFileAndFolder(path)) {
    db.close();
    return;
  }
  let tidy: Sqlite | undefined;
  try {
    tidy = new Database(path, { fileMustExist: true });
    tidy.prepare('SELECT count(*) FROM sqlite_schema').get();
  } catch {
    // Not openable for writing after all: leave the files, as a plain read-only close would.
  }
  try {
    db.close();
  } finally {
    tidy?.close();
  }
}

function canWriteFileAndFolder(path: string): boolean {
  try {
    fs.accessSync(path, fs.constants.W_OK);
    fs.accessSync(nodePath.dirname(path), fs.constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

/** Opens (and, when new, creates) a Statelens database with WAL, foreign keys, busy timeout
 * and secure_delete, migrated to this build's schema. */
export function openDatabase(path: string, options: OpenOptions = {}): Sqlite {
  if (options.readonly && canOnlyBeReadWhole(path)) return openWholeCopy(path, options.nativeBinding);
  const readonly = options.readonly ?? false;
  const create = options.create ?? !readonly;
  const busy = options.busyTimeoutMs ?? 5000;
  if (!readonly && fs.existsSync(path)) refuseUnwritable(path);
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
    throw (
      nativeModuleError(e, options.nativeBinding) ??
      mapSqliteError(e, path) ??
      new StatelensError('READ_ONLY', `${path} cannot be opened: ${e instanceof Error ? e.message : String(e)}`)
    );
  }
  try {
    applyPragmas(db, busy, readonly);
    if (readonly) {
      if (inspection.userVersion < SCHEMA_VERSION) {
        throw olderFileError(path, inspection.userVersion, SCHEMA_VERSION);
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
