// One engine suite, every store: `describeStores` runs a describe block on SQLite, on PGlite and,
// when STATELENS_TEST_PG_URL is set, on the real server. A PostgreSQL store is one connection per
// test file (PGlite takes seconds to start) with a fresh schema per test, so tests stay independent.
import { afterAll, describe, it } from 'vitest';
import { migratePg } from '../../electron/engine/db/pg/schema';
import { quoteIdent, SyncPg } from '../../electron/engine/db/pg/sync-client';
import { Store, type StoreOptions } from '../../electron/engine/store';
import { SERVER_SKIP_REASON, SERVER_URL, serverScratchDatabase } from './pg';
import { readBackCommits } from './read-back';
import { openRoleStores, ROLE_STORE_KINDS, type PgRole } from './role-stores';
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

/** The same deterministic clock and ids as openTmpStore. */
export function deterministic(options: StoreOptions & { start?: string }): StoreOptions {
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

/** A suite's run under the server setup: the session logged in as each role named, a member of
 * the org the suite's partitions belong to (an administrator works across every org). */
export interface AsRoles {
  readonly roles: readonly PgRole[];
}

/** A store on a fresh schema under the server setup, acting as `role` (see role-stores). */
export function openStoreAs(kind: 'pglite' | 'server', role: PgRole, options: StoreOptions & { start?: string } = {}): Store {
  return openRoleStores(kind).open(role, deterministic(options), { allOrgs: role === 'admin' });
}

/** `body` as one describe block per store kind, named after the store; `only` keeps it to some
 * stores, printing why the others skip it. `asRoles` runs it again on PGlite (and the server)
 * under the server setup, logged in as each role it names: for the suites whose every step that
 * role may take (see test/engine/every-role.test.ts for which, and why not all). */
export function describeStores(
  title: string,
  body: (open: OpenStore, kind: StoreKind) => void,
  only?: { readonly stores: readonly StoreKind[]; readonly reason: string },
  asRoles?: AsRoles,
): void {
  for (const role of asRoles?.roles ?? []) {
    for (const kind of ROLE_STORE_KINDS) {
      describe(`${title} [${kind} as ${role}]`, () => body((options) => openStoreAs(kind, role, options), kind));
    }
  }
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
