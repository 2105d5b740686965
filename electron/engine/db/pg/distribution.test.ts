// The shipped distribution script against the live schema (PGlite always, the real server when
// STATELENS_TEST_PG_URL is set): every table named, as distributed by org or as reference, and
// every key, unique index and foreign key of a distributed table carrying org_id; and the check
// itself catches each way a schema or script can break the rule.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVER_SKIP_REASON, SERVER_URL } from '../../../../test/helpers/pg';
import { distributionViolations, parseDistributionScript } from './distribution';
import { WRITE_LOCKS_TABLE } from './row-locks';
import { DEFAULT_PG_SCHEMA, migratePg } from './schema';
import { applyPgServerSetup, PG_ORG_TABLES, PG_SHARED_TABLES, pgRoleNames } from './server-setup';
import { quoteIdent, SyncPg } from './sync-client';

if (!SERVER_URL) console.log(SERVER_SKIP_REASON);

const SCRIPT = readFileSync(new URL('./distribute.sql', import.meta.url), 'utf8');
const unique = (label: string): string => `s8_${label}_${process.pid}_${Math.random().toString(36).slice(2, 7)}`;

interface Store {
  conn: SyncPg;
  /** Drops whatever the tests left on a shared server. */
  cleanup(): void;
}

const stores = [
  { name: 'PGlite', enabled: true, open: (): Store => ({ conn: SyncPg.open({ kind: 'pglite' }), cleanup: () => undefined }) },
  {
    name: 'server',
    enabled: SERVER_URL !== undefined,
    open: (): Store => {
      const base = SERVER_URL ?? '';
      const database = unique('dist');
      const admin = SyncPg.open({ kind: 'server', url: base });
      admin.exec(`CREATE DATABASE ${quoteIdent(database)}`);
      admin.close();
      const url = new URL(base);
      url.pathname = `/${database}`;
      const conn = SyncPg.open({ kind: 'server', url: url.href });
      return {
        conn,
        cleanup() {
          const again = SyncPg.open({ kind: 'server', url: base });
          try {
            again.exec(`DROP DATABASE IF EXISTS ${quoteIdent(database)} WITH (FORCE)`);
            for (const role of roles.splice(0)) again.exec(`DROP ROLE IF EXISTS ${quoteIdent(role)}`);
          } finally {
            again.close();
          }
        },
      };
    },
  },
];

/** Group roles the server setup created (cluster-wide, so dropped afterwards). */
const roles: string[] = [];

for (const store of stores) {
  describe.skipIf(!store.enabled)(`Distribution by org on ${store.name}`, () => {
    let s: Store;
    const schema = unique('store');
    beforeAll(() => {
      s = store.open();
      migratePg(s.conn, { schema });
      applyPgServerSetup(s.conn, { schema });
      roles.push(...Object.values(pgRoleNames(schema)));
    });
    afterAll(() => {
      s?.conn.close();
      s?.cleanup();
    });

    it('the shipped script names every table of the live schema, and every key of a distributed table carries org_id', () => {
      const plan = parseDistributionScript(SCRIPT);
      expect(plan.distributed.map((d) => d.column)).toEqual(plan.distributed.map(() => 'org_id'));
      // The same split as the server setup's: tables scoped by org (its write locks too) are
      // distributed, the rest copied.
      expect(plan.distributed.map((d) => d.table).sort()).toEqual([...Object.keys(PG_ORG_TABLES), WRITE_LOCKS_TABLE].sort());
      expect([...plan.reference].sort()).toEqual([...PG_SHARED_TABLES].sort());
      expect(SCRIPT).toContain(`SET search_path TO ${DEFAULT_PG_SCHEMA};`);
      expect(distributionViolations(s.conn, schema, plan)).toEqual([]);
    });

    it('fails for a table added without being named, and for a table named that is not there', () => {
      const grown = unique('grown');
      migratePg(s.conn, { schema: grown });
      s.conn.exec(`CREATE TABLE ${quoteIdent(grown)}.notes (org_id text, id bigint, PRIMARY KEY (org_id, id))`);
      const plan = parseDistributionScript(SCRIPT);
      expect(distributionViolations(s.conn, grown, plan)).toEqual([
        // The server setup was not applied to this one: its membership and lock tables are missing too.
        'statelens_org_members is named in the script but is not a table of the schema',
        'statelens_write_locks is named in the script but is not a table of the schema',
        'notes is neither distributed nor a reference table in the script',
      ]);
    });

    it('fails for keys, unique indexes and references without the distribution column, and for a wrong order', () => {
      const bad = quoteIdent(unique('bad'));
      s.conn.exec(`CREATE SCHEMA ${bad}; SET search_path TO ${bad};
        CREATE TABLE p (org_id text, id int, PRIMARY KEY (org_id, id));
        CREATE TABLE bad_pk (org_id text, id int PRIMARY KEY);
        CREATE TABLE bad_fk (org_id text, id int, other_org text, p_id int, PRIMARY KEY (org_id, id), FOREIGN KEY (other_org, p_id) REFERENCES p (org_id, id));
        CREATE UNIQUE INDEX bad_fk_id ON bad_fk (id);
        CREATE TABLE r (k text PRIMARY KEY, p_org text, p_id int, FOREIGN KEY (p_org, p_id) REFERENCES p (org_id, id));
        CREATE TABLE lonely (org_id text, n int);
        RESET search_path;`);
      const plan = parseDistributionScript(`
        SELECT create_reference_table('r');
        -- SELECT create_distributed_table('lonely', 'org_id');
        SELECT create_distributed_table('bad_fk', 'org_id', colocate_with => 'p');
        SELECT create_distributed_table('p', 'org_id');
        SELECT create_distributed_table('bad_pk', 'org_id');`);
      expect(distributionViolations(s.conn, bad.slice(1, -1), plan).sort()).toEqual(
        [
          'lonely is neither distributed nor a reference table in the script',
          'distributed tables are not all co-located: {"bad_fk":"p","p":"p","bad_pk":"bad_pk"}',
          'bad_pk: key bad_pk_pkey (id) does not include org_id',
          'bad_fk: unique index bad_fk_id (id) does not include org_id',
          'bad_fk: bad_fk_other_org_p_id_fkey does not pair org_id with p.org_id',
          'bad_fk is named before p, which its bad_fk_other_org_p_id_fkey refers to',
          'r: r_p_org_p_id_fkey makes a reference table refer to distributed p',
          'r is named before p, which its r_p_org_p_id_fkey refers to',
        ].sort(),
      );
    });
  });
}
