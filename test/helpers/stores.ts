// One engine suite, every store: `describeStores` runs a describe block on SQLite, on PGlite and,
// when STATELENS_TEST_PG_URL is set, on the real server. A PostgreSQL store is one connection per
// test file (PGlite takes seconds to start) with a fresh schema per test, so tests stay independent.
import { afterAll, describe, it } from 'vitest';
import { migratePg } from '../../electron/engine/db/pg/schema';
import { quoteIdent, SyncPg } from '../../electron/engine/db/pg/sync-client';
import { Store, type StoreOptions } from '../../electron/engine/store';
import { SERVER_SKIP_REASON, SERVER_URL, serverScratchDatabase } from './pg';
import { openTmpStore } from './tmp';

export type StoreKind = 'sqlite' | 'pglite' | 'server';

export type OpenStore = (options?: StoreOptions & { start?: string }) => Store;

export const STORE_KINDS: readonly StoreKind[] = SERVER_URL ? ['sqlite', 'pglite', 'server'] : ['sqlite', 'pglite'];

let serverNoticePrinted = false;

/** The file's shared connection per PostgreSQL kind, opened on first use, closed after the file;
 * `active` is the store whose schema its search_path is on. */
interface Shared {
  conn: SyncPg;
  drop?: () => void;
  active?: SyncPg;
}
const shared = new Map<StoreKind, Shared>();

/** SyncPg's one way to the worker, which every statement of a store takes. */
type Call = (this: SyncPg, req: { op: string; sql?: string }, timeoutMs?: number) => unknown;
let schemaCounter = 0;

afterAll(() => {
  for (const { conn, drop } of shared.values()) {
    conn.close();
    drop?.();
  }
  shared.clear();
});

function connectionFor(kind: 'pglite' | 'server'): Shared {
  let entry = shared.get(kind);
  if (!entry) {
    if (kind === 'pglite') entry = { conn: SyncPg.open({ kind: 'pglite' }) };
    else {
      const scratch = serverScratchDatabase('suite');
      entry = { conn: SyncPg.open(scratch.target), drop: scratch.drop };
    }
    shared.set(kind, entry);
  }
  return entry;
}

/**
 * Makes every commit on `conn` prove itself: the transaction's id is read before COMMIT and its
 * fate after, so a write the store acknowledged but the server rolled back (an error swallowed
 * inside the transaction turns COMMIT into a rollback) fails the test where it happens.
 */
export function readBackCommits(conn: SyncPg): void {
  const commit = conn.commit;
  conn.commit = function (this: SyncPg) {
    let xid: string | null = null;
    let unreadable: unknown;
    try {
      xid = this.query<{ x: string | null }>('SELECT pg_current_xact_id_if_assigned()::text AS x').rows[0]?.x ?? null;
    } catch (e) {
      // An aborted transaction answers nothing; it must still end (and its commit say so).
      unreadable = e;
    }
    commit.call(this);
    if (unreadable !== undefined) throw new Error(`An acknowledged write was not stored: its transaction had failed (${String(unreadable)})`);
    if (xid === null) return;
    const fate = this.query<{ s: string }>('SELECT pg_xact_status($1::xid8) AS s', [xid]).rows[0]?.s;
    if (fate !== 'committed') throw new Error(`An acknowledged write was not stored: transaction ${xid} is ${String(fate)} after COMMIT`);
  };
}

/** The same deterministic clock and ids as openTmpStore. */
function deterministic(options: StoreOptions & { start?: string }): StoreOptions {
  let counter = 0;
  let t = Date.parse(options.start ?? '2026-01-01T00:00:00.000Z');
  return { clock: { now: () => new Date((t += 1000)).toISOString() }, idSource: () => String(++counter).padStart(8, '0'), ...options };
}

/** A fresh store of `kind`: a SQLite file, or a new schema on the file's PostgreSQL connection. */
export function openStoreOf(kind: StoreKind, options: StoreOptions & { start?: string } = {}): Store {
  if (kind === 'sqlite') return openTmpStore(options);
  const entry = connectionFor(kind);
  const conn = entry.conn;
  const schema = `suite_${process.pid}_${++schemaCounter}`;
  migratePg(conn, { schema });
  const setPath = `SET search_path TO ${quoteIdent(schema)}`;
  conn.exec(setPath);
  // The store closes its connection when it closes; this one is the file's, so it only
  // forgets the schema (an open transaction is rolled back first).
  const lease = Object.create(conn) as SyncPg;
  entry.active = lease;
  // Stores open at once in one test (a store and its imported copy) share the connection: each
  // puts the search_path back on its own schema before a statement of its own.
  const call = (conn as unknown as { call: Call }).call;
  (lease as unknown as { call: Call }).call = function (req, timeoutMs) {
    if (entry.active !== lease && req.op !== 'close') {
      call.call(conn, { op: 'exec', sql: setPath });
      entry.active = lease;
    }
    return call.call(this, req, timeoutMs);
  };
  readBackCommits(lease);
  // A second connection the store opens (an export's snapshot on a server) must see the same schema.
  Object.defineProperty(lease, 'options', { value: { ...conn.options, searchPath: quoteIdent(schema) } });
  lease.close = () => {
    if (lease.inTransaction) lease.rollback();
    if (entry.active === lease) {
      conn.exec('RESET search_path');
      entry.active = undefined;
    }
  };
  return Store.onPostgresConnection(lease, { ...deterministic(options), schema });
}

/** `body` as one describe block per store kind, named after the store; `only` keeps it to some
 * stores, printing why the others skip it. */
export function describeStores(
  title: string,
  body: (open: OpenStore, kind: StoreKind) => void,
  only?: { readonly stores: readonly StoreKind[]; readonly reason: string },
): void {
  if (!SERVER_URL && !serverNoticePrinted) {
    serverNoticePrinted = true;
    console.log(`${SERVER_SKIP_REASON} (the suite runs on SQLite and PGlite only)`);
  }
  for (const kind of STORE_KINDS) {
    const skipped = only !== undefined && !only.stores.includes(kind);
    if (skipped) console.log(`[${kind}] "${title}" is skipped: ${only.reason}`);
    (skipped ? describe.skip : describe)(`${title} [${kind}]`, () => body((options) => openStoreOf(kind, options), kind));
  }
}

/** How many runs a property test makes on `kind`: `runs` on SQLite, a tenth of it (at least 5)
 * on PostgreSQL, where every run migrates a fresh schema and each statement crosses to a worker.
 * The properties are the same on every store. */
export function propertyRuns(kind: StoreKind, runs: number): number {
  return kind === 'sqlite' ? runs : Math.max(5, Math.ceil(runs / 10));
}

/** `it` on the stores that support what a test needs; elsewhere a skip that prints why. */
export function itWhere(kind: StoreKind, supported: readonly StoreKind[], reason: string): ReturnType<typeof it.skipIf> {
  const skipped = !supported.includes(kind);
  if (skipped) console.log(`[${kind}] a test is skipped: ${reason}`);
  return it.skipIf(skipped);
}
