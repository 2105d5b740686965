// A hostile session of one org against another org's writers, on a store under the server setup:
// it holds every lock its grants let it take (the advisory numbers the engine would use, the
// strongest table lock each table allows, every row it may lock) while a writer of the other org
// commits. The bench prints how long that writer takes; the role tests bound it.
import { StatelensError } from '../../shared/errors';
import { NAME_LOCK_SPACE, STORE_LOCK_SPACE } from '../engine/db/pg/compile';
import { migratePg } from '../engine/db/pg/schema';
import { applyPgServerSetup } from '../engine/db/pg/server-setup';
import { PG_ORG_SETTING } from '../engine/db/pg/session-settings';
import { quoteIdent, SyncPg } from '../engine/db/pg/sync-client';
import { Store } from '../engine/store';
import { round, type BenchRow } from './section';

/** Strongest first: the first a table's grants allow is the one held. */
const TABLE_LOCK_MODES = [
  'ACCESS EXCLUSIVE',
  'EXCLUSIVE',
  'SHARE ROW EXCLUSIVE',
  'SHARE',
  'SHARE UPDATE EXCLUSIVE',
  'ROW EXCLUSIVE',
  'ROW SHARE',
  'ACCESS SHARE',
];

export interface HostileTarget {
  /** The org the hostile session acts for (it is a member). */
  readonly ownOrg: string;
  /** The org whose writers it tries to hold up. */
  readonly victimOrg: string;
  /** The write-lock names the victim's writer will take (engine names: JSON of org, partition, key). */
  readonly victimNames: readonly string[];
}

/**
 * Opens a transaction on `conn` (a login of `ownOrg`, search_path on the store's schema) and takes
 * every lock it can: the advisory locks of each org's store and of the victim's names, on every
 * table the strongest mode its grants allow (NOWAIT), every row it may lock, and the victim's
 * write-lock rows if it could make them. Returns what it holds; the caller ends the transaction.
 */
export function holdEveryLock(conn: SyncPg, target: HostileTarget): string[] {
  const held: string[] = [];
  conn.query('BEGIN');
  conn.query('SELECT set_config($1, $2, true)', [PG_ORG_SETTING, target.ownOrg]);
  const attempt = (what: string, sql: string, params: readonly unknown[] = []): boolean => {
    conn.query('SAVEPOINT hostile');
    try {
      conn.query(sql, params);
      conn.query('RELEASE SAVEPOINT hostile');
      held.push(what);
      return true;
    } catch {
      conn.query('ROLLBACK TO SAVEPOINT hostile');
      return false;
    }
  };
  for (const org of [target.victimOrg, target.ownOrg, '']) {
    attempt(`advisory store lock of "${org}"`, `SELECT pg_advisory_xact_lock(${STORE_LOCK_SPACE}, hashtext(current_schema() || '/' || $1))`, [org]);
  }
  attempt(
    `advisory locks of the victim's ${target.victimNames.length} names`,
    `SELECT count(pg_advisory_xact_lock(${NAME_LOCK_SPACE}, hashtext(n))) FROM unnest($1::text[]) AS t(n)`,
    [target.victimNames],
  );
  attempt("the victim's write-lock rows", 'INSERT INTO statelens_write_locks (org_id, slot) SELECT $1, s FROM generate_series(0, 4096) s', [target.victimOrg]);
  attempt('its own write-lock rows', 'INSERT INTO statelens_write_locks (org_id, slot) SELECT $1, s FROM generate_series(0, 4096) s ON CONFLICT DO NOTHING', [
    target.ownOrg,
  ]);
  const tables = conn.query<{ t: string }>(
    "SELECT relname AS t FROM pg_class WHERE relnamespace = current_schema()::regnamespace AND relkind = 'r' ORDER BY 1",
  ).rows;
  for (const { t } of tables) {
    for (const mode of TABLE_LOCK_MODES) if (attempt(`${t} in ${mode} mode`, `LOCK TABLE ${quoteIdent(t)} IN ${mode} MODE NOWAIT`)) break;
    attempt(`every row of ${t} it may lock`, `SELECT count(*) FROM (SELECT 1 FROM ${quoteIdent(t)} FOR UPDATE NOWAIT) AS r`);
  }
  return held;
}

/** The victim's name locks for `keys` of a partition, as the engine spells them. */
export function keyLockNames(org: string, partitionId: number, keys: readonly string[]): string[] {
  return keys.map((k) => JSON.stringify([org, partitionId, 'key', k]));
}

const ms = (t0: number): number => performance.now() - t0;

/**
 * Bench rows: how long a writer of one org takes to commit a few facts (name locks) and a bulk
 * write (its org's store lock) while an agent, then a reviewer, of another org holds every lock
 * it can take; beside the same writes with nothing held. Needs a server (`url`: a scratch
 * database of its own, where this creates a schema and roles and drops the roles after).
 */
export function crossOrgLockRows(url: string, log: (line: string) => void): BenchRow[] {
  const schema = 'crossorg';
  const prefix = `statelens_bench_${process.pid}_${Math.random().toString(36).slice(2, 6)}`;
  const root = SyncPg.open({ kind: 'server', url });
  const logins = { victim: `${prefix}_victim`, agent: `${prefix}_hostile_agent`, reviewer: `${prefix}_hostile_reviewer` };
  const loginUrl = (login: string): string => {
    const u = new URL(url);
    u.username = login;
    u.password = '';
    return u.href;
  };
  try {
    migratePg(root, { schema });
    const { roles } = applyPgServerSetup(root, { schema, rolePrefix: prefix });
    const members = `${quoteIdent(schema)}.statelens_org_members`;
    for (const [login, group, org] of [
      [logins.victim, roles.agent, 'victim'],
      [logins.agent, roles.agent, 'hostile'],
      [logins.reviewer, roles.reviewer, 'hostile'],
    ] as const) {
      // Password-less logins: the bench's server trusts local connections, as the test server does.
      root.exec(`CREATE ROLE ${quoteIdent(login)} LOGIN; GRANT ${quoteIdent(group)} TO ${quoteIdent(login)}`);
      root.query(`INSERT INTO ${members} VALUES ($1, $2, NULL)`, [org, login]);
    }
    const store = Store.openPostgres({ kind: 'server', url: loginUrl(logins.victim) }, { schema, org: 'victim' });
    const rows: BenchRow[] = [];
    try {
      const writer = store.scope({ kind: 'user', org: 'victim', user: 'u1' }, { create: true });
      let round_ = 0;
      const write = (n: number): number => {
        const batch = Array.from({ length: n }, (_, i) => ({ key: `k${i}`, value: `v${++round_}` }));
        const t0 = performance.now();
        writer.writeFacts(batch);
        return ms(t0);
      };
      const names = keyLockNames('victim', writer.id, ['k0', 'k1', 'k2', 'k3', 'k4']);
      const quiet = { few: write(5), bulk: write(80) };
      const runs = [
        { hostile: 'agent', label: "another org's agent" },
        { hostile: 'reviewer', label: "another org's reviewer" },
      ] as const;
      for (const { hostile, label } of runs) {
        const conn = SyncPg.open({ kind: 'server', url: loginUrl(logins[hostile]) }, { searchPath: quoteIdent(schema) });
        try {
          const held = holdEveryLock(conn, { ownOrg: 'hostile', victimOrg: 'victim', victimNames: names });
          log(
            `  another org's ${hostile} holds ${held.length} locks: ${held.filter((h) => / mode$/.test(h) && !/ACCESS SHARE|ROW (SHARE|EXCLUSIVE)/.test(h)).join(', ') || 'no table lock above ROW EXCLUSIVE'}`,
          );
          for (const [what, n, base] of [
            ['5 facts (name locks)', 5, quiet.few],
            ['80 facts (the org store lock)', 80, quiet.bulk],
          ] as const) {
            let value: number;
            let outcome = 'committed';
            const t0 = performance.now();
            try {
              write(n);
              value = ms(t0);
            } catch (e) {
              value = ms(t0);
              outcome = e instanceof StatelensError ? e.code : String(e);
            }
            rows.push({
              metric: `writer of ${what} while ${label} holds every lock it can take`,
              value: round(value),
              unit: 'ms',
              target: '≤ 2,000 ms',
              baseline: `${outcome}; with nothing held ${round(base)} ms`,
            });
            log(`  ${what} with ${label} holding its locks: ${outcome} in ${round(value)} ms (nothing held: ${round(base)} ms)`);
          }
        } finally {
          conn.close();
        }
      }
    } finally {
      store.close();
    }
    return rows;
  } finally {
    try {
      root.exec(`DROP SCHEMA IF EXISTS ${quoteIdent(schema)} CASCADE`);
      for (const login of Object.values(logins)) root.exec(`DROP ROLE IF EXISTS ${quoteIdent(login)}`);
      for (const group of ['agent', 'reviewer', 'admin'])
        root.exec(`DROP OWNED BY ${quoteIdent(`${prefix}_${group}`)}; DROP ROLE IF EXISTS ${quoteIdent(`${prefix}_${group}`)}`);
    } finally {
      root.close();
    }
  }
}
