// How a command reaches its database: the --db file (or a JSON/NDJSON snapshot standing in for
// one, read-only), or a PostgreSQL store (--db URL or STATELENS_DB_URL, with the schema and the
// org the session acts for), and the partition --partition names.
import fs from 'node:fs';
import { StatelensError } from '../../shared/errors';
import { parseDesignation } from '../engine/ingest/designation';
import { DEFAULT_PG_SCHEMA, inspectPgSchema, migratePg, requirePgSchemaName } from '../engine/db/pg/schema';
import { SyncPg } from '../engine/db/pg/sync-client';
import { parsePgTarget, redactUrl, type PgTarget } from '../engine/db/pg/target';
import { isTextSnapshot, openSnapshotReadOnly } from '../engine/snapshot/open';
import { Store, type PgStoreOptions } from '../engine/store';
import { requireString, stringOpt, type ParsedCli } from './command';
import { databaseUrl, DB_URL_ENV } from './db-url';

export const ORG_ENV = 'STATELENS_ORG';
/** The org value that asks for every org (administrators only). */
const ALL_ORGS = '*';

/** The options of every command that takes a PostgreSQL store. */
export const PG_OPTIONS = { schema: { type: 'string' }, org: { type: 'string' } } as const;

export const PG_USAGE = `--db also takes a PostgreSQL URL (postgres://user@host:5432/db?sslmode=verify-full; default
$${DB_URL_ENV}) or pglite:DIR. --schema names the schema (default ${DEFAULT_PG_SCHEMA}); on a server under
row-level security --org (or the URL's ?org=, or $${ORG_ENV}) names the org the session acts for
('*': every org, administrators only).`;

/** Our own query parameters: read here, never passed to the PostgreSQL client. */
const OWN_PARAMS = ['schema', 'org'] as const;

/** The store a PostgreSQL URL names, with --schema/--org (or ?schema=/?org= or STATELENS_ORG). */
export function pgStoreOf(args: ParsedCli, url: string, env: NodeJS.ProcessEnv = process.env): { target: PgTarget; options: PgStoreOptions } {
  const target = parsePgTarget(url);
  let fromUrl: Partial<Record<(typeof OWN_PARAMS)[number], string>> = {};
  let clean = target;
  if (target.kind === 'server') {
    const u = new URL(target.url);
    fromUrl = Object.fromEntries(OWN_PARAMS.flatMap((p) => (u.searchParams.has(p) ? [[p, u.searchParams.get(p) ?? '']] : [])));
    for (const p of OWN_PARAMS) u.searchParams.delete(p);
    clean = { kind: 'server', url: u.href };
  }
  const schema = requirePgSchemaName(stringOpt(args, 'schema') ?? fromUrl.schema ?? DEFAULT_PG_SCHEMA);
  const org = stringOpt(args, 'org') ?? fromUrl.org ?? (env[ORG_ENV]?.trim() || undefined);
  return { target: clean, options: { schema, ...(org === ALL_ORGS ? { allOrgs: true } : org !== undefined ? { org } : {}) } };
}

/** Opens the PostgreSQL store `url` names; with `create`, a schema that does not exist yet is
 * created first (as `statelens init` would). */
export function openPgStore(args: ParsedCli, url: string, mode: { readonly?: boolean; create?: boolean } = {}): Store {
  const { target, options } = pgStoreOf(args, url);
  if (mode.create) {
    const conn = SyncPg.open(target);
    try {
      const schema = options.schema ?? DEFAULT_PG_SCHEMA;
      if (!inspectPgSchema(conn, schema).exists) migratePg(conn, { schema });
    } finally {
      conn.close();
    }
  }
  return Store.openPostgres(target, { ...options, readonly: mode.readonly ?? false });
}

/** Opens the --db file: read-only commands never create or migrate it, and also read a JSON or
 * NDJSON snapshot (imported into a temporary database that closing the store removes). A
 * PostgreSQL URL opens that store. */
export function openDb(args: ParsedCli, mode: { readonly?: boolean; create?: boolean }): Store {
  const url = databaseUrl(args);
  if (url !== undefined) return openPgStore(args, url, mode);
  const path = requireString(args, 'db');
  if (!mode.create && !fs.existsSync(path)) throw new StatelensError('NOT_FOUND', `${path} does not exist`);
  if (mode.readonly && isTextSnapshot(path)) return openSnapshotReadOnly(path).store;
  return Store.open(path, { readonly: mode.readonly ?? false, create: mode.create ?? false });
}

/** The store --db (or STATELENS_DB_URL) names, for messages: a URL's password never shows. */
export function dbName(args: ParsedCli): string {
  const url = databaseUrl(args);
  return url !== undefined ? redactUrl(url) : requireString(args, 'db');
}

/** --partition as a numeric id or a designation (user:ORG/USER, capability:ORG/NAME, org:ORG). */
export function partitionIdArg(store: Store, value: string | undefined): number | null {
  if (value === undefined) return null;
  if (/^\d+$/.test(value)) return store.scopeById(Number(value)).id;
  return store.scope(parseDesignation(value)).id;
}
