// A consistent read snapshot for exports: a dedicated read-only connection holding ONE read
// transaction for the whole export, so an agent writing meanwhile (WAL) changes nothing we see
// and the store's own connection stays free for other work while the export awaits its output.
import { StatelensError } from '../../../shared/errors';
import { dialectOf } from '../db/dialect';
import { mapSqliteError, openReadOnlyConnection, type Sqlite } from '../db/open';
import type { PgDatabase } from '../db/pg/database';
import type { Store } from '../store';

export interface ReaderOptions {
  /** Path of a better-sqlite3 addon built for another ABI (the Electron app passes its own). */
  readonly nativeBinding?: string;
}

export interface SnapshotReader {
  readonly db: Sqlite;
  /** The database schema version (user_version) at the snapshot. */
  readonly schemaVersion: number;
  close(): void;
}

/** The consistent snapshot of a store: on SQLite a connection of its own (see above); on
 * PostgreSQL a REPEATABLE READ READ ONLY transaction, bound to the store's org like every other,
 * on a second connection to a server (on PGlite, which has one, the store's own), ended by close(). */
export function openStoreSnapshotReader(store: Store, options: ReaderOptions = {}): SnapshotReader {
  if (dialectOf(store.db).name === 'sqlite') return openSnapshotReader(store.path, options);
  const own = store.db as unknown as PgDatabase;
  const sibling = own.openSibling();
  const db = (sibling ?? own) as unknown as Sqlite;
  try {
    db.exec('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    db.prepare('SELECT count(*) FROM partitions').pluck().get();
  } catch (e) {
    if (db.inTransaction) db.exec('ROLLBACK');
    sibling?.close();
    throw e;
  }
  return {
    db,
    schemaVersion: store.schemaVersion,
    close() {
      try {
        if (db.open && db.inTransaction) db.exec('COMMIT');
      } finally {
        sibling?.close();
      }
    },
  };
}

/** Opens `path` read-only and starts a read transaction pinned by a first read. */
export function openSnapshotReader(path: string, options: ReaderOptions = {}): SnapshotReader {
  let db: Sqlite;
  try {
    db = openReadOnlyConnection(path, options.nativeBinding);
  } catch (e) {
    throw mapSqliteError(e, path) ?? new StatelensError('NOT_FOUND', `${path} cannot be opened for export: ${e instanceof Error ? e.message : String(e)}`);
  }
  try {
    db.pragma('busy_timeout = 5000');
    db.exec('BEGIN DEFERRED');
    // A deferred transaction takes its snapshot at the first read, so read now.
    const schemaVersion = db.pragma('user_version', { simple: true }) as number;
    db.prepare('SELECT count(*) FROM partitions').pluck().get();
    return {
      db,
      schemaVersion,
      close() {
        if (!db.open) return;
        try {
          if (db.inTransaction) db.exec('COMMIT');
        } finally {
          db.close();
        }
      },
    };
  } catch (e) {
    db.close();
    throw mapSqliteError(e, path) ?? e;
  }
}
