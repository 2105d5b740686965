// The PostgreSQL side of the foreign-object check: the tables, views, indexes and triggers of the
// store's schema that neither its migrations nor its server setup create. Any of them could act
// on what Statelens writes or deletes (a trigger copying deleted rows into a table of its own).
import { PG_MIGRATIONS } from './migrations';
import { DEFAULT_PG_SCHEMA, VERSION_TABLE } from './schema';
import { pgRoleNames, pgServerSetupSql } from './server-setup';
import type { SyncPg } from './sync-client';

const CREATED =
  /\bCREATE\s+(?:OR\s+REPLACE\s+)?(?:UNIQUE\s+)?(TABLE|INDEX|TRIGGER|VIEW|MATERIALIZED\s+VIEW)\s+(?:IF\s+NOT\s+EXISTS\s+)?(?:"?\w+"?\.)?"?(\w+)"?/gi;

let expected: ReadonlySet<string> | undefined;

/** "kind name" of every object the migrations and the server setup create (names do not depend
 * on the schema or role names they are created for). */
function expectedObjects(): ReadonlySet<string> {
  if (expected) return expected;
  const sql = [...PG_MIGRATIONS.map((m) => m.up), pgServerSetupSql(DEFAULT_PG_SCHEMA, pgRoleNames(DEFAULT_PG_SCHEMA))].join('\n');
  const out = new Set<string>([`table ${VERSION_TABLE}`]);
  for (const m of sql.matchAll(CREATED)) out.add(`${(m[1] ?? '').toLowerCase().replace(/^materialized\s+/, '')} ${(m[2] ?? '').toLowerCase()}`);
  return (expected = out);
}

/** Objects of the connection's current schema that Statelens did not create, as "trigger name"
 * (sorted; empty when there are none). Indexes backing a key or unique constraint and the
 * server's internal triggers (foreign keys) come with what they belong to. */
export function pgForeignObjects(conn: SyncPg): string[] {
  const rows = conn.query<{ kind: string; name: string }>(
    `SELECT CASE WHEN c.relkind IN ('v', 'm') THEN 'view' WHEN c.relkind IN ('i', 'I') THEN 'index' ELSE 'table' END AS kind, c.relname AS name
       FROM pg_class c
      WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind IN ('r', 'p', 'f', 'v', 'm', 'i', 'I')
        AND NOT EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conindid = c.oid AND k.contype IN ('p', 'u', 'x'))
     UNION ALL
     SELECT 'trigger', t.tgname FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
      WHERE c.relnamespace = current_schema()::regnamespace AND NOT t.tgisinternal`,
  ).rows;
  const want = expectedObjects();
  return rows
    .map((r) => `${r.kind} ${r.name}`)
    .filter((n) => !want.has(n.toLowerCase()))
    .sort();
}
