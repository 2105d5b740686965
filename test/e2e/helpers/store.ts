// The store the end-to-end tests serve. By default the prepared SQLite file itself; with
// STATELENS_E2E_STORE=server, a copy of it (every record, ids kept, through the snapshot import) in
// a scratch database on the PostgreSQL server STATELENS_TEST_PG_URL names, dropped afterwards — so
// the whole suite drives the inspector on a server database too.
import { isDatabaseUrl, parsePgTarget } from '../../../electron/engine/db/pg/target';
import type { OpenRequest } from '../../../electron/engine-host/engine-session';
import { importSnapshotFile } from '../../../electron/engine/snapshot/import';
import { Store, type StoreOptions } from '../../../electron/engine/store';
import { migratedServerDatabase, SERVER_SKIP_REASON, SERVER_URL } from '../../helpers/pg';

export type E2eStoreKind = 'file' | 'server';

let kind: E2eStoreKind | undefined;

/** Which store this run's inspectors serve (read from the environment on first use). */
export function e2eStoreKind(): E2eStoreKind {
  kind ??= storeKindFromEnv();
  return kind;
}

function storeKindFromEnv(): E2eStoreKind {
  const asked = process.env.STATELENS_E2E_STORE?.trim() || 'file';
  if (asked !== 'file' && asked !== 'server') throw new Error(`STATELENS_E2E_STORE is "${asked}": use file or server`);
  // Asked for explicitly, so a missing server fails the run instead of quietly testing files again.
  if (asked === 'server' && !SERVER_URL) throw new Error(`STATELENS_E2E_STORE=server needs a server: ${SERVER_SKIP_REASON}`);
  return asked;
}

/** For tests about files themselves (file dialogs, recent files, sizes only a file makes quick):
 * the reason, for the test to print, why they do not run in the server pass; undefined in the file pass. */
export function fileOnly(why: string): string | undefined {
  return e2eStoreKind() === 'server' ? `not on a server database: ${why} (it runs in the file pass)` : undefined;
}

/** Opens the store a `--db` argument names (a file's path or a database URL) through the engine,
 * as another agent process would. */
export function openStoreAt(db: string, options: StoreOptions = {}): Store {
  return isDatabaseUrl(db) ? Store.openPostgres(parsePgTarget(db), options) : Store.open(db, options);
}

/** The served store: what `--db` takes and how another process opens the same data. */
export interface ServedStore {
  readonly kind: E2eStoreKind;
  /** The `--db` argument: the file's path or the database's URL. */
  readonly db: string;
  /** Opens the store through the engine in this process, as another agent process would. */
  open(options?: StoreOptions): Store;
  /** What the engine host's `db.openPath` takes to open this store. */
  readonly openRequest: OpenRequest;
  /** Drops the scratch server database (nothing for a file: the test owns it). */
  drop(): void;
}

/** A database URL as it is; a prepared SQLite file as itself (file pass) or copied into a fresh
 * scratch server database (server pass). */
export function servedStoreOf(fileOrUrl: string): ServedStore {
  if (isDatabaseUrl(fileOrUrl)) return serverStore(fileOrUrl, () => undefined);
  if (e2eStoreKind() === 'file') {
    return {
      kind: 'file',
      db: fileOrUrl,
      open: (options = {}) => openStoreAt(fileOrUrl, options),
      openRequest: { path: fileOrUrl, create: false, readonly: false },
      drop: () => undefined,
    };
  }
  const scratch = migratedServerDatabase('e2e');
  try {
    const t0 = performance.now();
    const store = Store.openPostgres(scratch.target);
    try {
      const summary = importSnapshotFile(store, fileOrUrl);
      console.log(`e2e: copied ${summary.records} records into a server database in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    } finally {
      store.close();
    }
  } catch (e) {
    scratch.drop();
    throw e;
  }
  return serverStore(scratch.url, scratch.drop);
}

function serverStore(url: string, drop: () => void): ServedStore {
  const target = parsePgTarget(url);
  return {
    kind: 'server',
    db: url,
    open: (options = {}) => openStoreAt(url, options),
    openRequest: { path: url, create: false, readonly: false, postgres: { target, options: {} } },
    drop,
  };
}
