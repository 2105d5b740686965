// Roles and row-level security with real roles: on the server (STATELENS_TEST_PG_URL) each role
// logs in as itself; on PGlite, which has one login, the same checks run under SET ROLE (the
// policies follow current_user, so they hold the same way). An agent sees and writes only its
// org whatever it sets or creates, never deletes memory; a reviewer deletes in its org only;
// administrators are restricted until they lift it on purpose.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StatelensError } from '../../../../shared/errors';
import { SERVER_SKIP_REASON, SERVER_URL } from '../../../../test/helpers/pg';
import { PG_MIGRATIONS, PG_SCHEMA_VERSION } from './migrations';
import { WRITE_LOCKS_TABLE } from './row-locks';
import { migratePg } from './schema';
import {
  applyPgServerSetup,
  bindPgTransaction,
  checkPgMembership,
  MEMBERS_TABLE,
  PG_ORG_TABLES,
  pgRoleNames,
  pgGrantTable,
  pgServerSetupScript,
  type PgSessionBinding,
} from './server-setup';
import { quoteIdent, SyncPg } from './sync-client';
import { thrownBy } from '../../../../test/helpers/errors';

if (!SERVER_URL) console.log(SERVER_SKIP_REASON);

const T0 = '2026-01-01T00:00:00.000Z';

/** A name unique to this run, prefixed by the branch that owns it. */
const unique = (label: string): string => `s8_${label}_${process.pid}_${Math.random().toString(36).slice(2, 7)}`;

interface Harness {
  /** The superuser connection that set everything up. */
  readonly root: SyncPg;
  /** Runs `fn` on a connection acting as `role`. */
  as<R>(role: string, fn: (c: SyncPg) => R): R;
  close(): void;
}

function serverHarness(): Harness {
  const database = unique('rls');
  const base = SERVER_URL ?? '';
  const admin = SyncPg.open({ kind: 'server', url: base });
  admin.exec(`CREATE DATABASE ${quoteIdent(database)}`);
  admin.close();
  const urlFor = (user?: string): string => {
    const u = new URL(base);
    u.pathname = `/${database}`;
    if (user) {
      u.username = user;
      u.password = '';
    }
    return u.href;
  };
  const root = SyncPg.open({ kind: 'server', url: urlFor() });
  const logins = new Map<string, SyncPg>();
  return {
    root,
    as(role, fn) {
      let c = logins.get(role);
      if (!c) {
        c = SyncPg.open({ kind: 'server', url: urlFor(role) });
        logins.set(role, c);
      }
      return fn(c);
    },
    close() {
      for (const c of logins.values()) c.close();
      root.close();
      const again = SyncPg.open({ kind: 'server', url: base });
      try {
        again.exec(`DROP DATABASE IF EXISTS ${quoteIdent(database)} WITH (FORCE)`);
        for (const role of createdRoles.splice(0)) again.exec(`DROP ROLE IF EXISTS ${quoteIdent(role)}`);
      } finally {
        again.close();
      }
    },
  };
}

function pgliteHarness(): Harness {
  const root = SyncPg.open({ kind: 'pglite' });
  return {
    root,
    as(role, fn) {
      root.exec(`SET ROLE ${quoteIdent(role)}`);
      try {
        return fn(root);
      } finally {
        root.exec('RESET ROLE');
      }
    },
    close() {
      root.close();
      createdRoles.splice(0);
    },
  };
}

/** Roles are cluster-wide: every one a test creates is dropped afterwards. */
const createdRoles: string[] = [];

it('ships the setup as a psql script equal to the one it applies (vitest -u rewrites it)', async () => {
  const script = pgServerSetupScript();
  await expect(script).toMatchFileSnapshot('./server-setup.sql');
  // It runs as it stands on a freshly initialised store (PGlite: its roles die with it).
  const conn = SyncPg.open({ kind: 'pglite' });
  try {
    migratePg(conn);
    conn.transaction(() => conn.exec(script));
    const forced = conn.query<{ relname: string }>(
      "SELECT relname FROM pg_class WHERE relnamespace = 'statelens'::regnamespace AND relkind = 'r' AND relforcerowsecurity ORDER BY 1",
    ).rows;
    expect(forced.map((r) => r.relname)).toEqual([...Object.keys(PG_ORG_TABLES), MEMBERS_TABLE, WRITE_LOCKS_TABLE].sort());
  } finally {
    conn.close();
  }
});

it("the README's grant table is the one the setup grants", () => {
  const readme = fs.readFileSync(path.join(import.meta.dirname, '../../../../README.md'), 'utf8');
  const shown = /<!-- grant-table:start -->\n([\s\S]*?)\n<!-- grant-table:end -->/.exec(readme)?.[1];
  expect(shown).toBe(pgGrantTable());
});

const stores = [
  { name: 'PGlite', enabled: true, harness: pgliteHarness },
  { name: 'server', enabled: SERVER_URL !== undefined, harness: serverHarness },
];

for (const store of stores) {
  describe.skipIf(!store.enabled)(`PostgreSQL roles and row-level security on ${store.name}`, () => {
    const schema = unique('store');
    const s = quoteIdent(schema);
    const groups = pgRoleNames(schema);
    const login = { alice: `${schema}_alice`, bob: `${schema}_bob`, carol: `${schema}_carol`, rita: `${schema}_rita`, ada: `${schema}_ada` };
    const parts: Record<string, number> = {};
    let h: Harness;

    /** Runs `fn` in one transaction of `role`, bound to `binding` (none: no setting at all). */
    function tx<R>(role: string, binding: PgSessionBinding | null, fn: (c: SyncPg) => R): R {
      return h.as(role, (c) =>
        c.transaction(() => {
          if (binding) bindPgTransaction(c, binding);
          return fn(c);
        }),
      );
    }
    const factIds = (c: SyncPg): string[] => c.query<{ id: string }>(`SELECT id FROM ${s}.facts ORDER BY id`).rows.map((r) => r.id);
    const insertFact = (c: SyncPg, id: string, partition: number, org: string): void => {
      c.query(
        `INSERT INTO ${s}.facts (id, partition_id, org_id, key, value, source_type, ts, created_at, memory_type)
         VALUES ($1, $2, $3, 'k', 'v', 'user', $4, $4, 'user')`,
        [id, partition, org, T0],
      );
    };

    beforeAll(() => {
      h = store.harness();
      const { root } = h;
      migratePg(root, { schema });
      expect(applyPgServerSetup(root, { schema }).roles).toEqual(groups);
      createdRoles.push(groups.agent, groups.reviewer, groups.admin);
      for (const role of Object.values(login)) {
        root.exec(`CREATE ROLE ${quoteIdent(role)} LOGIN`);
        createdRoles.unshift(role);
      }
      root.exec(`GRANT ${quoteIdent(groups.agent)} TO ${quoteIdent(login.alice)}, ${quoteIdent(login.bob)}, ${quoteIdent(login.carol)}`);
      root.exec(`GRANT ${quoteIdent(groups.reviewer)} TO ${quoteIdent(login.rita)}`);
      root.exec(`GRANT ${quoteIdent(groups.admin)} TO ${quoteIdent(login.ada)}`);
      for (const [key, org, subject] of [
        ['u1', 'acme', 'u1'],
        ['u2', 'acme', 'u2'],
        ['g1', 'globex', 'g1'],
      ] as const) {
        parts[key] = root.query<{ id: number }>(`INSERT INTO ${s}.partitions (org_id, kind, subject, created_at) VALUES ($1, 'user', $2, $3) RETURNING id`, [
          org,
          subject,
          T0,
        ]).rows[0]!.id;
      }
      insertFact(root, 'acme-1', parts.u1!, 'acme');
      insertFact(root, 'acme-2', parts.u2!, 'acme');
      insertFact(root, 'acme-3', parts.u2!, 'acme');
      insertFact(root, 'globex-1', parts.g1!, 'globex');
      const member = `INSERT INTO ${s}.${MEMBERS_TABLE} (org_id, role_name, partition_ids) VALUES ($1, $2, $3)`;
      root.query(member, ['acme', login.alice, null]);
      root.query(member, ['globex', login.bob, null]);
      root.query(member, ['acme', login.carol, [parts.u1]]);
      root.query(member, ['acme', login.rita, null]);
      // Statistics hold sampled values of every org: they must not be a way round the policies.
      root.exec(`ANALYZE ${s}.facts`);
    });
    afterAll(() => h?.close());

    it('applies twice with the same result, every org-scoped table under forced row-level security', () => {
      const state = (): unknown =>
        h.root.query(
          `SELECT c.relname, c.relrowsecurity, c.relforcerowsecurity, c.relacl::text, pg_get_userbyid(c.relowner) AS owner,
                  ARRAY(SELECT polname || ':' || pg_get_expr(polqual, polrelid) FROM pg_policy WHERE polrelid = c.oid ORDER BY polname)::text AS policies
             FROM pg_class c WHERE c.relnamespace = $1::regnamespace AND c.relkind = 'r' ORDER BY c.relname`,
          [schema],
        ).rows;
      const before = state();
      applyPgServerSetup(h.root, { schema });
      expect(state()).toEqual(before);
      const scoped = h.root.query<{ relname: string; relrowsecurity: boolean; relforcerowsecurity: boolean; owner: string; policies: number }>(
        `SELECT c.relname, c.relrowsecurity, c.relforcerowsecurity, pg_get_userbyid(c.relowner) AS owner,
                (SELECT count(*)::int FROM pg_policy p WHERE p.polrelid = c.oid) AS policies
           FROM pg_class c WHERE c.relnamespace = $1::regnamespace AND c.relkind = 'r'
            AND EXISTS (SELECT 1 FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attname = 'org_id' AND NOT a.attisdropped)
            AND c.relname <> $2
          ORDER BY 1`,
        [schema, MEMBERS_TABLE],
      ).rows;
      expect(scoped.map((t) => t.relname)).toEqual([...Object.keys(PG_ORG_TABLES), WRITE_LOCKS_TABLE].sort());
      for (const t of scoped) expect(t, t.relname).toMatchObject({ relrowsecurity: true, relforcerowsecurity: true, owner: groups.admin });
      for (const t of scoped) expect(t.policies, t.relname).toBeGreaterThanOrEqual(2);
    });

    it("an agent reads only its own org's rows, whatever it sets or creates", () => {
      expect(tx(login.alice, { org: 'acme' }, factIds)).toEqual(['acme-1', 'acme-2', 'acme-3']);
      expect(tx(login.alice, { org: 'acme' }, (c) => c.query(`SELECT DISTINCT org_id FROM ${s}.partitions`).rows)).toEqual([{ org_id: 'acme' }]);
      // Naming an org it is not a member of, or none at all, shows nothing.
      expect(tx(login.alice, { org: 'globex' }, factIds)).toEqual([]);
      expect(tx(login.alice, null, factIds)).toEqual([]);
      const setBySession = tx(login.alice, null, (c) => {
        c.exec("SET statelens.org = 'globex'");
        return factIds(c);
      });
      expect(setBySession).toEqual([]);
      h.as(login.alice, (c) => c.exec('RESET statelens.org'));
      // Nor does a membership table of its own, placed first on the search path.
      const forged = tx(login.alice, { org: 'globex' }, (c) => {
        c.exec(`CREATE TEMP TABLE ${MEMBERS_TABLE} (org_id text, role_name text, partition_ids bigint[]);
                INSERT INTO pg_temp.${MEMBERS_TABLE} VALUES ('globex', current_user, NULL);
                SET LOCAL search_path TO pg_temp, ${s}`);
        const ids = factIds(c);
        c.exec(`DROP TABLE pg_temp.${MEMBERS_TABLE}`);
        return ids;
      });
      expect(forged).toEqual([]);
      // The membership table shows the role's own rows only, and cannot be written.
      expect(tx(login.alice, null, (c) => c.query(`SELECT org_id, role_name FROM ${s}.${MEMBERS_TABLE}`).rows)).toEqual([
        { org_id: 'acme', role_name: login.alice },
      ]);
      expect(thrownBy(() => tx(login.alice, null, (c) => c.query(`INSERT INTO ${s}.${MEMBERS_TABLE} VALUES ('globex', current_user, NULL)`))).code).toBe(
        'PERMISSION_DENIED',
      );
      // Planner statistics of a table under row-level security are hidden from it.
      expect(tx(login.alice, { org: 'acme' }, (c) => c.query('SELECT * FROM pg_stats WHERE schemaname = $1', [schema]).rowCount)).toBe(0);
      expect(h.root.query('SELECT 1 FROM pg_stats WHERE schemaname = $1', [schema]).rowCount).toBeGreaterThan(0);
      // Another agent of another org sees exactly its own.
      expect(tx(login.bob, { org: 'globex' }, factIds)).toEqual(['globex-1']);
      expect(tx(login.bob, { org: 'acme' }, factIds)).toEqual([]);
    });

    it('an agent writes memory in its own org only', () => {
      tx(login.alice, { org: 'acme' }, (c) => {
        insertFact(c, 'acme-new', parts.u1!, 'acme');
        c.query(`UPDATE ${s}.facts SET access_count = access_count + 1 WHERE id = 'acme-new'`);
        // An audit entry is the agent's own: its login is the actor, whatever the row claims.
        c.query(`INSERT INTO ${s}.audit_log (at, actor, action, partition_id) VALUES ($1, 'alice', 'supersede', $2)`, [T0, parts.u1]);
        expect(c.query(`SELECT actor, details::jsonb->>'via' AS via FROM ${s}.audit_log WHERE at = $1`, [T0]).rows).toEqual([
          { actor: login.alice, via: 'alice' },
        ]);
        // The org of a row written without one is filled from its (visible) partition.
        c.query(`INSERT INTO ${s}.working_items (id, partition_id, session_id, key, value, created_at) VALUES ('w-acme', $1, 's1', 'turn', 'hi', $2)`, [
          parts.u1,
          T0,
        ]);
        // Ending a session clears its scratch through the setup's function (no DELETE privilege).
        expect(c.query(`SELECT ${s}.statelens_clear_session('working_items', $1, 's1') AS n`, [parts.u1]).rows).toEqual([{ n: 1 }]);
      });
      expect(thrownBy(() => tx(login.alice, { org: 'acme' }, (c) => c.query(`DELETE FROM ${s}.working_items`))).code).toBe('PERMISSION_DENIED');
      expect(thrownBy(() => tx(login.alice, { org: 'acme' }, (c) => c.query(`SELECT ${s}.statelens_clear_session('facts', $1, 's1')`, [parts.u1]))).code).toBe(
        'PERMISSION_DENIED',
      );
      const denied = (fn: (c: SyncPg) => unknown): StatelensError => thrownBy(() => tx(login.alice, { org: 'acme' }, fn));
      expect(denied((c) => insertFact(c, 'sneaky', parts.g1!, 'globex'))).toMatchObject({ code: 'PERMISSION_DENIED', details: { sqlstate: '42501' } });
      // The partition of another org is invisible, so its org cannot be filled in either.
      expect(
        denied((c) => c.query(`INSERT INTO ${s}.working_items (id, partition_id, key, value, created_at) VALUES ('w-x', $1, 'turn', 'hi', $2)`, [parts.g1, T0]))
          .code,
      ).toBe('PERMISSION_DENIED');
      expect(denied((c) => c.query(`UPDATE ${s}.facts SET org_id = 'globex', partition_id = $1 WHERE id = 'acme-new'`, [parts.g1])).code).toMatch(
        /PERMISSION_DENIED|CONFLICT/,
      );
      // Updating another org's rows changes nothing: they are not there for it.
      expect(tx(login.alice, { org: 'acme' }, (c) => c.query(`UPDATE ${s}.facts SET value = 'x' WHERE id = 'globex-1'`).rowCount)).toBe(0);
      expect(h.root.query(`SELECT value FROM ${s}.facts WHERE id = 'globex-1'`).rows).toEqual([{ value: 'v' }]);
    });

    it("an agent's role never deletes memory nor changes a tier, whoever logs in with it", () => {
      for (const table of Object.keys(PG_ORG_TABLES)) {
        const e = thrownBy(() => tx(login.alice, { org: 'acme' }, (c) => c.query(`DELETE FROM ${s}.${table}`)));
        expect(e, table).toMatchObject({ code: 'PERMISSION_DENIED', details: { sqlstate: '42501' } });
        expect(thrownBy(() => tx(login.alice, { org: 'acme' }, (c) => c.exec(`TRUNCATE ${s}.${table} CASCADE`))).code, table).toBe('PERMISSION_DENIED');
      }
      expect(thrownBy(() => tx(login.alice, { org: 'acme' }, (c) => c.query(`UPDATE ${s}.partitions SET maturity = 'master'`))).code).toBe('PERMISSION_DENIED');
      const newPartition = (maturity: string) => (c: SyncPg) =>
        c.query(`INSERT INTO ${s}.partitions (org_id, kind, subject, maturity, created_at) VALUES ('acme', 'capability', $1, $2, $3)`, [
          `tool-${maturity}`,
          maturity,
          T0,
        ]);
      expect(thrownBy(() => tx(login.alice, { org: 'acme' }, newPartition('master'))).code).toBe('PERMISSION_DENIED');
      expect(tx(login.alice, { org: 'acme' }, newPartition('junior')).rowCount).toBe(1);
      expect(h.root.query(`SELECT 1 FROM ${s}.facts`).rowCount).toBeGreaterThanOrEqual(5);
    });

    it('a reviewer deletes in its own org only, records audit, and writes no memory', () => {
      const deleted = tx(login.rita, { org: 'acme' }, (c) => {
        // Through the setup's function: another org's fact stays, whichever partition is named.
        const del = (partition: number | undefined, ids: string[]): number =>
          Number(c.query<{ n: number }>(`SELECT ${s}.statelens_delete_facts($1, $2) AS n`, [partition, JSON.stringify(ids)]).rows[0]?.n);
        const n = del(parts.u2, ['acme-3', 'globex-1']) + del(parts.g1, ['globex-1']);
        c.query(`INSERT INTO ${s}.audit_log (at, actor, action, partition_id, reason) VALUES ($1, 'rita', 'delete', $2, 'quoted acme-3 text')`, [T0, parts.u2]);
        c.query(`UPDATE ${s}.audit_log SET reason = '[redacted]' WHERE actor = 'rita'`);
        return n;
      });
      expect(deleted).toBe(1);
      expect(h.root.query(`SELECT id FROM ${s}.facts WHERE id IN ('acme-3', 'globex-1')`).rows).toEqual([{ id: 'globex-1' }]);
      expect(thrownBy(() => tx(login.rita, { org: 'acme' }, (c) => insertFact(c, 'by-reviewer', parts.u1!, 'acme'))).code).toBe('PERMISSION_DENIED');
      expect(thrownBy(() => tx(login.rita, { org: 'acme' }, (c) => c.query(`UPDATE ${s}.audit_log SET actor = 'someone else'`))).code).toBe(
        'PERMISSION_DENIED',
      );
      expect(thrownBy(() => tx(login.rita, { org: 'acme' }, (c) => c.query(`DELETE FROM ${s}.audit_log`))).code).toBe('PERMISSION_DENIED');
      expect(thrownBy(() => tx(login.rita, { org: 'acme' }, (c) => c.query(`DELETE FROM ${s}.facts`))).code).toBe('PERMISSION_DENIED');
      // Asking for an org it is not a member of: nothing to delete.
      expect(tx(login.rita, { org: 'globex' }, (c) => c.query(`SELECT ${s}.statelens_delete_facts($1, '["globex-1"]') AS n`, [parts.g1]).rows)).toEqual([
        { n: 0 },
      ]);
      // An agent may not call it at all.
      expect(thrownBy(() => tx(login.alice, { org: 'acme' }, (c) => c.query(`SELECT ${s}.statelens_delete_facts($1, '["acme-1"]')`, [parts.u1]))).code).toBe(
        'PERMISSION_DENIED',
      );
      expect(h.root.query(`SELECT id FROM ${s}.facts WHERE id = 'globex-1'`).rowCount).toBe(1);
    });

    it('a session narrowed to partitions sees only those, and may not widen itself', () => {
      expect(tx(login.alice, { org: 'acme', partitionId: parts.u2 }, factIds)).toEqual(['acme-2']);
      // carol is a member of one partition of acme only.
      expect(tx(login.carol, { org: 'acme' }, factIds)).toEqual(['acme-1', 'acme-new'].sort());
      expect(tx(login.carol, { org: 'acme', partitionId: parts.u2 }, factIds)).toEqual([]);
      expect(thrownBy(() => tx(login.carol, { org: 'acme', partitionId: parts.u2 }, (c) => insertFact(c, 'carol-2', parts.u2!, 'acme'))).code).toBe(
        'PERMISSION_DENIED',
      );
      h.as(login.carol, (c) => checkPgMembership(c, { org: 'acme', partitionId: parts.u1 }, { schema }));
      const e = thrownBy(() => h.as(login.carol, (c) => checkPgMembership(c, { org: 'acme', partitionId: parts.u2 }, { schema })));
      expect(e.code).toBe('PERMISSION_DENIED');
      expect(thrownBy(() => h.as(login.alice, (c) => checkPgMembership(c, { org: 'globex' }, { schema }))).code).toBe('PERMISSION_DENIED');
      h.as(login.ada, (c) => checkPgMembership(c, { org: 'globex' }, { schema }));
    });

    it('administrators are restricted too until they lift it on purpose; agents cannot lift it', () => {
      expect(tx(login.ada, null, factIds)).toEqual([]);
      expect(tx(login.ada, { org: 'globex' }, factIds)).toEqual(['globex-1']);
      const all = tx(login.ada, null, (c) => {
        c.query("SELECT set_config('statelens.all_orgs', 'on', true)");
        c.query(`UPDATE ${s}.partitions SET maturity = 'senior' WHERE kind = 'capability'`);
        return factIds(c);
      });
      expect(all).toEqual(['acme-1', 'acme-2', 'acme-new', 'globex-1']);
      expect(h.root.query(`SELECT maturity FROM ${s}.partitions WHERE kind = 'capability'`).rows).toEqual([{ maturity: 'senior' }]);
      const agentLifts = tx(login.alice, null, (c) => {
        c.query("SELECT set_config('statelens.all_orgs', 'on', true)");
        return factIds(c);
      });
      expect(agentLifts).toEqual([]);
    });

    it('a binding lasts one transaction: the next one on the same connection starts unbound', () => {
      h.as(login.alice, (c) => {
        const bound = c.transaction(() => {
          bindPgTransaction(c, { org: 'acme' });
          return factIds(c);
        });
        expect(bound.length).toBeGreaterThan(0);
        expect(c.transaction(() => factIds(c))).toEqual([]);
        expect(thrownBy(() => bindPgTransaction(c, { org: 'acme' })).code).toBe('INTERNAL');
      });
    });

    it('a migration run by an administrator rewrites the rows of every org', () => {
      const next = { version: PG_SCHEMA_VERSION + 1, name: 'test step', up: 'UPDATE facts SET importance = 0.9' };
      h.as(login.ada, (c) => migratePg(c, { schema, migrations: [...PG_MIGRATIONS, next] }));
      expect(h.root.query(`SELECT DISTINCT importance FROM ${s}.facts`).rows).toEqual([{ importance: 0.9 }]);
      expect(h.root.query(`SELECT count(DISTINCT org_id)::int AS n FROM ${s}.facts`).rows).toEqual([{ n: 2 }]);
    });

    it('refuses a schema it does not cover or that is not migrated, changing nothing', () => {
      const extra = unique('extra');
      migratePg(h.root, { schema: extra });
      h.root.exec(`CREATE TABLE ${quoteIdent(extra)}.notes (org_id text PRIMARY KEY)`);
      const e = thrownBy(() => applyPgServerSetup(h.root, { schema: extra }));
      expect(e.details).toEqual({ tables: ['notes'] });
      expect(h.root.query('SELECT 1 FROM pg_roles WHERE rolname = $1', [`${extra}_agent`]).rowCount).toBe(0);
      expect(thrownBy(() => applyPgServerSetup(h.root, { schema: unique('empty') })).code).toBe('INVALID_INPUT');
    });
  });
}

describe.skipIf(!SERVER_URL)('PostgreSQL server setup by a role that is not a superuser', () => {
  it('a role with CREATEROLE that owns the database creates the store and applies the setup, becoming an administrator', () => {
    const base = SERVER_URL ?? '';
    const owner = unique('owner');
    const database = unique('owned');
    const schema = unique('store');
    const groups = pgRoleNames(schema);
    const root = SyncPg.open({ kind: 'server', url: base });
    const urlAs = (user: string): string => {
      const u = new URL(base);
      u.pathname = `/${database}`;
      u.username = user;
      u.password = '';
      return u.href;
    };
    try {
      root.exec(`CREATE ROLE ${quoteIdent(owner)} LOGIN CREATEROLE`);
      root.exec(`CREATE DATABASE ${quoteIdent(database)} OWNER ${quoteIdent(owner)}`);
      const conn = SyncPg.open({ kind: 'server', url: urlAs(owner) });
      try {
        expect(conn.query<{ rolsuper: boolean }>('SELECT rolsuper FROM pg_roles WHERE rolname = current_user').rows).toEqual([{ rolsuper: false }]);
        migratePg(conn, { schema });
        applyPgServerSetup(conn, { schema });
        expect(conn.query('SELECT pg_has_role(current_user, $1, $2) AS admin', [groups.admin, 'MEMBER']).rows).toEqual([{ admin: true }]);
        // It is bound by the policies like every administrator, until it lifts them on purpose.
        conn.query(`INSERT INTO ${quoteIdent(schema)}.statelens_meta (key, value) VALUES ('k', 'v')`);
        const visible = conn.transaction(() => {
          conn.query("SELECT set_config('statelens.all_orgs', 'on', true)");
          conn.query(`INSERT INTO ${quoteIdent(schema)}.partitions (org_id, kind, subject, created_at) VALUES ('acme', 'user', 'u', $1)`, [T0]);
          return conn.query(`SELECT org_id FROM ${quoteIdent(schema)}.partitions`).rows;
        });
        expect(visible).toEqual([{ org_id: 'acme' }]);
        expect(conn.query(`SELECT org_id FROM ${quoteIdent(schema)}.partitions`).rowCount).toBe(0);
      } finally {
        conn.close();
      }
    } finally {
      root.exec(`DROP DATABASE IF EXISTS ${quoteIdent(database)} WITH (FORCE)`);
      for (const role of [owner, groups.agent, groups.reviewer, groups.admin]) root.exec(`DROP ROLE IF EXISTS ${quoteIdent(role)}`);
      root.close();
    }
  });
});
