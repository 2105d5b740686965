// Stores as an earlier Statelens left them, built by this build's own migration registries cut
// short: a SQLite file at an older schema version and a PostgreSQL schema at an older version.
import Database from 'better-sqlite3';
import { MIGRATIONS } from '../../electron/engine/db/migrations';
import { APPLICATION_ID, migrate } from '../../electron/engine/db/open';
import { PG_MIGRATIONS } from '../../electron/engine/db/pg/migrations';
import { migratePg } from '../../electron/engine/db/pg/schema';
import type { SyncPg } from '../../electron/engine/db/pg/sync-client';
import { tmpDbPath } from './tmp';

/** A real file at schema `version`, filled by `seed` in one transaction, closed. */
export function sqliteFileAt(version: number, seed: (db: Database.Database) => void = () => undefined, file = tmpDbPath()): string {
  const db = new Database(file);
  migrate(db, 0, MIGRATIONS.slice(0, version));
  db.pragma(`application_id = ${APPLICATION_ID}`);
  db.transaction(() => seed(db))();
  db.close();
  return file;
}

/** Creates `schema` at PostgreSQL schema `version` on `conn`. */
export function pgSchemaAt(conn: SyncPg, schema: string, version: number): void {
  migratePg(conn, { schema, migrations: PG_MIGRATIONS.slice(0, version) });
}
