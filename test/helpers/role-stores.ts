// A store under the server setup, the way a team deploys it: a fresh schema with the roles and
// row-level security applied, and one login per role (agent, reviewer, administrator) that is a
// member of the group role and of the org. On the server each login connects as itself; on
// PGlite, which has one connection, the file's connection switches to the login (SET ROLE) before
// each store's statements, and the policies follow current_user the same way.
import { afterAll } from 'vitest';
import { migratePg } from '../../electron/engine/db/pg/schema';
import { applyPgServerSetup, bindPgTransaction, pgRoleNames, type PgRoles } from '../../electron/engine/db/pg/server-setup';
import { quoteIdent, SyncPg, type PgResult } from '../../electron/engine/db/pg/sync-client';
import { Store, type StoreOptions } from '../../electron/engine/store';
import { SERVER_URL, serverScratchDatabase } from './pg';
import { readBackCommits } from './read-back';

export type PgRole = 'agent' | 'reviewer' | 'admin';
export const PG_ROLES: readonly PgRole[] = ['agent', 'reviewer', 'admin'];
export type RoleStoreKind = 'pglite' | 'server';
export const ROLE_STORE_KINDS: readonly RoleStoreKind[] = SERVER_URL ? ['pglite', 'server'] : ['pglite'];

/** The org every login of a role store is a member of. */
export const ROLE_ORG = 'acme';

export interface RoleStores {
  readonly kind: RoleStoreKind;
  readonly schema: string;
  /** The group roles and, per role, the login that is a member of it. */
  readonly groups: PgRoles;
  readonly logins: Readonly<Record<PgRole, string>>;
  /** A store acting for ROLE_ORG as `role`'s login (an administrator's, with `allOrgs`, for
   * every org); `owner` is the superuser that set it up. */
  open(role: PgRole | 'owner', options?: StoreOptions, binding?: { allOrgs?: boolean }): Store;
  /** One transaction of hand-written SQL as `role`'s login, bound to ROLE_ORG. */
  sql<R = Record<string, unknown>>(role: PgRole, text: string, params?: readonly unknown[]): PgResult<R>;
  /** A statement as the superuser, outside row-level security (to read back what is stored). */
  root<R = Record<string, unknown>>(text: string, params?: readonly unknown[]): PgResult<R>;
  /** The URL a child process connects with as `role`'s login (server only). */
  url(role: PgRole): string;
  /** A further login in `role`'s group, a member of `org` (another org's agent, say); its name. */
  addLogin(role: Exclude<PgRole, 'admin'>, org: string, name: string): string;
  /** A server connection as a login of `addLogin` (or of `logins`), search_path on the schema. */
  connectAs(login: string): SyncPg;
}

interface Shared {
  readonly root: SyncPg;
  active?: object;
  activeSql?: string;
  drop?: () => void;
  readonly roles: string[];
  readonly opened: SyncPg[];
  readonly url?: string;
}
const shared = new Map<RoleStoreKind, Shared>();
let counter = 0;

afterAll(() => {
  for (const entry of shared.values()) {
    for (const c of entry.opened) c.close();
    entry.root.close();
    entry.drop?.();
    if (entry.url) {
      // Roles are cluster-wide: dropped once the database holding their grants is gone.
      const admin = SyncPg.open({ kind: 'server', url: SERVER_URL ?? '' });
      try {
        for (const role of entry.roles.reverse()) admin.exec(`DROP ROLE IF EXISTS ${quoteIdent(role)}`);
      } finally {
        admin.close();
      }
    }
  }
  shared.clear();
});

/** Starts the file's connection for `kind` (PGlite takes many seconds on a loaded machine): call
 * it in a beforeAll so that no test's time goes to it. */
export function startRoleStores(kind: RoleStoreKind): void {
  sharedFor(kind);
}

function sharedFor(kind: RoleStoreKind): Shared {
  let entry = shared.get(kind);
  if (!entry) {
    if (kind === 'pglite') entry = { root: SyncPg.open({ kind: 'pglite' }), roles: [], opened: [] };
    else {
      const scratch = serverScratchDatabase('roles');
      entry = { root: SyncPg.open(scratch.target), drop: scratch.drop, roles: [], opened: [], url: scratch.url };
    }
    shared.set(kind, entry);
  }
  return entry;
}

/** A connection of the file's PGlite instance that acts as `role` in `schema` (the switch is made
 * before each of its statements when another lease spoke last). */
function lease(entry: Shared, schema: string, role: string | null): SyncPg {
  const conn = entry.root;
  const setup = `SET search_path TO ${quoteIdent(schema)}; ${role ? `SET ROLE ${quoteIdent(role)}` : 'RESET ROLE'}`;
  const leased = Object.create(conn) as SyncPg;
  type Call = (this: SyncPg, req: { op: string }, timeoutMs?: number) => unknown;
  const call = (conn as unknown as { call: Call }).call;
  (leased as unknown as { call: Call }).call = function (req, timeoutMs) {
    if (entry.active !== leased && req.op !== 'close') {
      call.call(conn, { op: 'exec', sql: setup } as { op: string });
      entry.active = leased;
    }
    return call.call(this, req, timeoutMs);
  };
  Object.defineProperty(leased, 'options', { value: { ...conn.options, searchPath: quoteIdent(schema) } });
  leased.close = () => {
    if (leased.inTransaction) leased.rollback();
    if (entry.active === leased) {
      conn.exec('RESET ROLE; RESET search_path');
      entry.active = undefined;
    }
  };
  return leased;
}

/** A fresh schema under the server setup on `kind`, with a login per role in ROLE_ORG. */
export function openRoleStores(kind: RoleStoreKind): RoleStores {
  const entry = sharedFor(kind);
  const schema = `roles_${process.pid}_${++counter}_${Math.random().toString(36).slice(2, 6)}`;
  const groups = pgRoleNames(schema);
  const logins = { agent: `${schema}_ann`, reviewer: `${schema}_rey`, admin: `${schema}_ada` } as const;
  const root = kind === 'pglite' ? lease(entry, schema, null) : entry.root;
  migratePg(root, { schema });
  applyPgServerSetup(root, { schema });
  entry.roles.push(groups.agent, groups.reviewer, groups.admin, ...Object.values(logins));
  for (const role of PG_ROLES) {
    root.exec(`CREATE ROLE ${quoteIdent(logins[role])} LOGIN; GRANT ${quoteIdent(groups[role])} TO ${quoteIdent(logins[role])}`);
    if (role !== 'admin') root.query(`INSERT INTO ${quoteIdent(schema)}.statelens_org_members VALUES ($1, $2, NULL)`, [ROLE_ORG, logins[role]]);
  }
  const urlOf = (user: string): string => {
    const u = new URL(entry.url ?? '');
    u.username = user;
    u.password = '';
    return u.href;
  };
  const connectionOf = (role: PgRole | 'owner'): SyncPg => {
    if (kind === 'pglite') return lease(entry, schema, role === 'owner' ? null : logins[role]);
    const c = SyncPg.open({ kind: 'server', url: role === 'owner' ? (entry.url ?? '') : urlOf(logins[role]) }, { searchPath: quoteIdent(schema) });
    entry.opened.push(c);
    return c;
  };
  const sqlConnections = new Map<PgRole, SyncPg>();
  return {
    kind,
    schema,
    groups,
    logins,
    open(role, options = {}, binding = {}) {
      const conn = connectionOf(role);
      readBackCommits(conn);
      const everyOrg = role === 'owner' || (role === 'admin' && binding.allOrgs === true);
      return Store.onPostgresConnection(conn, { ...options, schema, ...(everyOrg ? { allOrgs: true } : { org: ROLE_ORG }) });
    },
    sql(role, text, params = []) {
      let c = sqlConnections.get(role);
      if (!c) {
        c = connectionOf(role);
        sqlConnections.set(role, c);
      }
      const conn = c;
      return conn.transaction(() => {
        bindPgTransaction(conn, { org: ROLE_ORG });
        return conn.query(text, params);
      });
    },
    root(text, params = []) {
      return root.query(text, params);
    },
    addLogin(role, org, name) {
      const login = `${schema}_${name}`;
      root.exec(`CREATE ROLE ${quoteIdent(login)} LOGIN; GRANT ${quoteIdent(groups[role])} TO ${quoteIdent(login)}`);
      entry.roles.push(login);
      root.query(`INSERT INTO ${quoteIdent(schema)}.statelens_org_members VALUES ($1, $2, NULL)`, [org, login]);
      return login;
    },
    connectAs(login) {
      if (kind !== 'server') throw new Error('A second session at once needs the server (PGlite has one connection)');
      const c = SyncPg.open({ kind: 'server', url: urlOf(login) }, { searchPath: quoteIdent(schema) });
      entry.opened.push(c);
      return c;
    },
    url(role) {
      const u = new URL(urlOf(logins[role]));
      u.searchParams.set('schema', schema);
      u.searchParams.set('org', ROLE_ORG);
      return u.href;
    },
  };
}
