// `statelens init`: creates an empty Statelens store, or brings an existing one to this build's
// schema: a SQLite file, or the schema on a PostgreSQL server (--db URL or STATELENS_DB_URL).
// Running it again changes nothing; a store newer than this build is refused.
import { SCHEMA_VERSION } from '../../engine/db/migrations';
import { inspectDatabaseFile } from '../../engine/db/open';
import { DEFAULT_PG_SCHEMA, migratePg, requirePgSchemaName } from '../../engine/db/pg/schema';
import { SyncPg } from '../../engine/db/pg/sync-client';
import { describeTarget, parsePgTarget } from '../../engine/db/pg/target';
import { Store } from '../../engine/store';
import { EXIT, requireString, stringOpt, type CliCommand } from '../command';
import { databaseUrl, DB_URL_ENV } from '../db-url';

export const initCommand: CliCommand = {
  name: 'init',
  summary: 'Create a Statelens store (a SQLite file or a PostgreSQL schema), or bring it to this version',
  usage: `statelens init --db FILE|URL [--schema NAME] [--json]

  --db      the store: a SQLite database file, or a PostgreSQL server URL
            (postgres://user@host:5432/db?sslmode=verify-full); default: $${DB_URL_ENV}
  --schema  the PostgreSQL schema the tables live in (default ${DEFAULT_PG_SCHEMA})
  --json    print the result as one JSON object

Creates an empty Statelens store, or migrates an existing one to this build's schema; when it
is already there nothing changes. Initialising one server from several hosts at once is safe. A
store written by a newer Statelens is refused (DB_TOO_NEW).
Exit codes: 0 done (or nothing to do), 1 failed, 2 usage error.`,
  options: {
    db: { type: 'string' },
    schema: { type: 'string' },
    json: { type: 'boolean' },
  },
  async run(args, io) {
    const url = databaseUrl(args);
    let result: { store: string; from: number; to: number; changed: boolean; schema?: string };
    if (url !== undefined) {
      const target = parsePgTarget(url);
      const schema = requirePgSchemaName(stringOpt(args, 'schema') ?? DEFAULT_PG_SCHEMA);
      const conn = SyncPg.open(target);
      try {
        const r = migratePg(conn, { schema });
        result = { store: describeTarget(target), schema: r.schema, from: r.from, to: r.to, changed: r.changed };
      } finally {
        conn.close();
      }
    } else {
      const path = requireString(args, 'db');
      const before = inspectDatabaseFile(path).userVersion;
      Store.open(path, { create: true }).close();
      result = { store: path, from: before, to: SCHEMA_VERSION, changed: before !== SCHEMA_VERSION };
    }
    if (args.values.json) io.out(JSON.stringify(result));
    else {
      const where = result.schema ? `schema "${result.schema}" on ${result.store}` : result.store;
      if (!result.changed) io.out(`${where} is already at schema version ${result.to}: nothing to do`);
      else if (result.from === 0) io.out(`created ${where} (schema version ${result.to})`);
      else io.out(`migrated ${where} from schema version ${result.from} to ${result.to}`);
    }
    return EXIT.ok;
  },
};
