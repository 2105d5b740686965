// The PostgreSQL schema, checked on the live catalog (PGlite always, the real server when
// STATELENS_TEST_PG_URL is set): created once and then left alone, the tables and columns of the
// SQLite schema, the org leading every key, index and reference of a partition-scoped table, a
// newer schema or a foreign one refused, the org filled in and enforced, search unaccented.
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVER_SKIP_REASON, SERVER_URL, scratchName, serverScratchDatabase } from '../../../../test/helpers/pg';
import { MIGRATIONS, runMigration } from '../migrations';
import { PG_MIGRATIONS, PG_SCHEMA_VERSION } from './migrations';
import { inspectPgSchema, migratePg, VERSION_TABLE } from './schema';
import { quoteIdent, SyncPg } from './sync-client';
import { thrownBy } from '../../../../test/helpers/errors';

/** Tables not scoped by org: database-wide settings and the schema's own version. */
const REFERENCE_TABLES = ['statelens_meta', VERSION_TABLE];
/** Tables that had no org_id in SQLite and carry one here as their last column. */
const ORG_ADDED = [
  'agent_states',
  'audit_log',
  'context_documents',
  'environment_signals',
  'fact_edges',
  'identities',
  'org_documents',
  'saved_queries',
  'working_items',
];
const TYPES: Record<string, string[]> = { INTEGER: ['bigint', 'integer'], TEXT: ['text'], REAL: ['double precision'] };

function sqliteColumns(): Map<string, Array<{ name: string; type: string }>> {
  const db = new Database(':memory:');
  try {
    for (const m of MIGRATIONS) runMigration(db, m);
    const tables = db
      .prepare("SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE 'facts_fts%' ORDER BY name")
      .pluck()
      .all() as string[];
    return new Map(tables.map((t) => [t, db.prepare('SELECT name, type FROM pragma_table_info(?)').all(t) as Array<{ name: string; type: string }>]));
  } finally {
    db.close();
  }
}

if (!SERVER_URL) console.log(SERVER_SKIP_REASON);

let scratch: ReturnType<typeof serverScratchDatabase> | undefined;
afterAll(() => scratch?.drop());

const stores = [
  { name: 'PGlite', enabled: true, open: () => SyncPg.open({ kind: 'pglite' }) },
  {
    name: 'server',
    enabled: SERVER_URL !== undefined,
    open: () => {
      scratch ??= serverScratchDatabase('schema');
      return SyncPg.open(scratch.target);
    },
  },
];

for (const store of stores) {
  describe.skipIf(!store.enabled)(`PostgreSQL schema on ${store.name}`, () => {
    let conn: SyncPg;
    const fresh = (label: string): string => scratchName(label);
    const main = scratchName('schema');
    beforeAll(() => {
      conn = store.open();
      expect(migratePg(conn, { schema: main })).toEqual({ schema: main, from: 0, to: PG_SCHEMA_VERSION, changed: true });
    });
    afterAll(() => {
      conn?.close();
    });

    /** Everything the catalog says about the schema's tables, columns, constraints and indexes. */
    function fingerprint(schema: string): unknown {
      return conn.query(
        `SELECT 'column' AS what, table_name || '.' || column_name || ' ' || data_type || ' ' || is_nullable AS def
           FROM information_schema.columns WHERE table_schema = $1
         UNION ALL SELECT 'constraint', conrelid::regclass::text || ' ' || pg_get_constraintdef(oid) FROM pg_constraint WHERE connamespace = $1::regnamespace
         UNION ALL SELECT 'index', indexdef FROM pg_indexes WHERE schemaname = $1
         ORDER BY 1, 2`,
        [schema],
      ).rows;
    }

    it('a second migration is a no-op that changes nothing', () => {
      const before = fingerprint(main);
      expect(migratePg(conn, { schema: main })).toEqual({ schema: main, from: PG_SCHEMA_VERSION, to: PG_SCHEMA_VERSION, changed: false });
      expect(fingerprint(main)).toEqual(before);
      expect(inspectPgSchema(conn, main).version).toBe(PG_SCHEMA_VERSION);
    });

    it('has the tables and columns of the SQLite schema, in order, with org_id added where it was missing', () => {
      const lite = sqliteColumns();
      const pg = conn.query<{ table_name: string; column_name: string; data_type: string }>(
        'SELECT table_name, column_name, data_type FROM information_schema.columns WHERE table_schema = $1 ORDER BY table_name, ordinal_position',
        [main],
      ).rows;
      // Text compares and sorts bytewise, as in SQLite, whatever the database's locale.
      const localeText = conn.query(
        "SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = $1 AND data_type = 'text' AND collation_name IS DISTINCT FROM 'C'",
        [main],
      ).rows;
      expect(localeText).toEqual([]);
      const pgTables = [...new Set(pg.map((c) => c.table_name))].filter((t) => t !== VERSION_TABLE).sort();
      expect(pgTables).toEqual([...lite.keys()].sort());
      for (const [table, columns] of lite) {
        const have = pg.filter((c) => c.table_name === table);
        const want = ORG_ADDED.includes(table) ? [...columns.map((c) => c.name), 'org_id'] : columns.map((c) => c.name);
        expect(
          have.map((c) => c.column_name),
          table,
        ).toEqual(want);
        for (const c of columns) {
          const type = have.find((h) => h.column_name === c.name)?.data_type;
          expect(TYPES[c.type], `${table}.${c.name} ${c.type} -> ${type}`).toContain(type);
        }
      }
    });

    it('leads every primary key, unique constraint, foreign key and index of a partition-scoped table with org_id', () => {
      const keys = conn.query<{ tbl: string; name: string; first: string | null; cols: string[] }>(
        `SELECT c.conrelid::regclass::text AS tbl, c.conname AS name, a.attname AS first,
                ARRAY(SELECT attname FROM pg_attribute WHERE attrelid = c.conrelid AND attnum = ANY (c.conkey)) AS cols
           FROM pg_constraint c LEFT JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = c.conkey[1]
          WHERE c.connamespace = $1::regnamespace AND c.contype IN ('p', 'u', 'f')
         UNION ALL
         SELECT i.indrelid::regclass::text, x.relname, a.attname, ARRAY[]::text[]
           FROM pg_index i JOIN pg_class x ON x.oid = i.indexrelid
           LEFT JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = i.indkey[0]
          WHERE x.relnamespace = $1::regnamespace`,
        [main],
      ).rows;
      const scoped = keys.filter((k) => !REFERENCE_TABLES.includes(k.tbl.replace(/^.*\./, '')));
      expect(scoped.length).toBeGreaterThan(40);
      const offenders = scoped.filter((k) => k.first !== 'org_id').map((k) => `${k.tbl}: ${k.name} leads with ${k.first ?? 'an expression'}`);
      expect(offenders).toEqual([]);
      // Reference tables are the only ones without the org.
      const orgless = conn.query<{ table_name: string }>(
        `SELECT table_name FROM information_schema.tables t WHERE table_schema = $1
            AND NOT EXISTS (SELECT 1 FROM information_schema.columns c WHERE c.table_schema = t.table_schema AND c.table_name = t.table_name AND c.column_name = 'org_id')
          ORDER BY 1`,
        [main],
      ).rows;
      expect(orgless.map((r) => r.table_name)).toEqual([...REFERENCE_TABLES].sort());
    });

    it('refuses a schema newer than this build with DB_TOO_NEW and leaves it untouched', () => {
      const newer = fresh('newer');
      migratePg(conn, { schema: newer });
      conn.query(`UPDATE ${quoteIdent(newer)}.${VERSION_TABLE} SET version = $1`, [PG_SCHEMA_VERSION + 1]);
      const before = fingerprint(newer);
      const e = thrownBy(() => migratePg(conn, { schema: newer }));
      expect(e.code).toBe('DB_TOO_NEW');
      expect(e.details).toEqual({ schemaVersion: PG_SCHEMA_VERSION + 1, supportedVersion: PG_SCHEMA_VERSION });
      expect(fingerprint(newer)).toEqual(before);
      // An older build's migration list counts as older in the same way.
      const two = { version: PG_SCHEMA_VERSION + 1, name: 'test step', up: 'CREATE TABLE later_step (org_id text PRIMARY KEY)' };
      expect(migratePg(conn, { schema: newer, migrations: [...PG_MIGRATIONS, two] }).changed).toBe(false);
    });

    it('migration 4 upgrades a version-3 schema: an identity bound to no session becomes the default session’s, each session has its own row', () => {
      const older = fresh('identity_v3');
      migratePg(conn, { schema: older, migrations: PG_MIGRATIONS.slice(0, 3) });
      const s = quoteIdent(older);
      const ids = conn
        .query<{ id: number }>(
          `INSERT INTO ${s}.partitions (org_id, kind, subject, created_at) VALUES ('acme', 'user', 'ann', '2026-01-01'), ('acme', 'user', 'bob', '2026-01-01') RETURNING id`,
        )
        .rows.map((r) => r.id);
      const identity = `INSERT INTO ${s}.identities (partition_id, user_name, user_id, authority, department, organization, session_id) VALUES ($1, 'Ann', 'ann', $2, 'Finance', 'Acme', $3)`;
      conn.query(identity, [ids[0], 'analyst', 'analyst']);
      conn.query(identity, [ids[1], 'intern', null]);
      expect(migratePg(conn, { schema: older })).toMatchObject({ from: 3, to: PG_SCHEMA_VERSION, changed: true });
      const rows = (): unknown => conn.query(`SELECT partition_id, session_id, authority FROM ${s}.identities ORDER BY partition_id, session_id`).rows;
      expect(rows()).toEqual([
        { partition_id: ids[0], session_id: 'analyst', authority: 'analyst' },
        { partition_id: ids[1], session_id: 'default', authority: 'intern' },
      ]);
      // A second session of the partition adds its own row; the same session twice is refused.
      conn.query(identity, [ids[0], 'VP Finance', 'vp']);
      expect(thrownBy(() => conn.query(identity, [ids[0], 'VP Finance', 'vp'])).details).toMatchObject({ sqlstate: '23505' });
      expect(thrownBy(() => conn.query(identity, [ids[0], 'VP Finance', null])).details).toMatchObject({ sqlstate: '23502' });
      expect(conn.query(`SELECT session_id FROM ${s}.identities WHERE partition_id = $1 ORDER BY session_id`, [ids[0]]).rows).toEqual([
        { session_id: 'analyst' },
        { session_id: 'vp' },
      ]);
      // The upgraded schema is the one a new store gets.
      const unnamed = (schema: string): string => JSON.stringify(fingerprint(schema)).split(schema).join('S');
      expect(unnamed(older)).toBe(unnamed(main));
    });

    it('refuses a schema that holds tables of another application, creating nothing in it', () => {
      const other = fresh('other');
      conn.exec(`CREATE SCHEMA ${quoteIdent(other)}; CREATE TABLE ${quoteIdent(other)}.invoices (id int)`);
      expect(thrownBy(() => migratePg(conn, { schema: other })).code).toBe('NOT_A_STATELENS_DB');
      expect(inspectPgSchema(conn, other).tables).toEqual(['invoices']);
    });

    it('fills the org of rows written without one and refuses a row whose org is not its partition’s', () => {
      const s = quoteIdent(main);
      const [p] = conn.query<{ id: number }>(
        `INSERT INTO ${s}.partitions (org_id, kind, subject, created_at) VALUES ('acme', 'user', 'u1', '2026-01-01T00:00:00.000Z') RETURNING id`,
      ).rows;
      conn.query(`INSERT INTO ${s}.working_items (id, partition_id, key, value, created_at) VALUES ('w1', $1, 'turn', 'hello', '2026-01-01T00:00:00.000Z')`, [
        p?.id,
      ]);
      expect(conn.query(`SELECT org_id FROM ${s}.working_items WHERE id = 'w1'`).rows).toEqual([{ org_id: 'acme' }]);
      conn.query(`INSERT INTO ${s}.audit_log (at, actor, action) VALUES ('2026-01-01T00:00:00.000Z', 'test', 'import')`);
      expect(conn.query(`SELECT org_id FROM ${s}.audit_log`).rows).toEqual([{ org_id: '' }]);
      const insertFact = `INSERT INTO ${s}.facts (id, partition_id, org_id, key, value, source_type, ts, created_at, memory_type)
        VALUES ($1, $2, $3, $4, $5, 'user', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z', 'user')`;
      const crossOrg = thrownBy(() => conn.query(insertFact, ['f0', p?.id, 'globex', 'k', 'v']));
      expect(crossOrg).toMatchObject({ code: 'CONFLICT', details: { sqlstate: '23503' } });
      conn.query(insertFact, ['f1', p?.id, 'acme', 'dessert', 'Crème brûlée on Friday']);
      const search = conn.query<{ id: string }>(
        `SELECT id FROM ${s}.facts WHERE org_id = $1 AND partition_id = $2
            AND to_tsvector($4::regconfig, key || ' ' || value) @@ plainto_tsquery($4::regconfig, $3)`,
        ['acme', p?.id, 'creme brulee', `${s}.statelens_search`],
      );
      expect(search.rows).toEqual([{ id: 'f1' }]);
    });
  });
}
