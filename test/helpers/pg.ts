// PostgreSQL for tests: PGlite (in process, always) and, when STATELENS_TEST_PG_URL is set, the
// real server, each test file in its own scratch schema that is dropped afterwards.
import { SyncPg, quoteIdent } from '../../electron/engine/db/pg/sync-client';
import type { PgTarget } from '../../electron/engine/db/pg/target';

/** The real server's URL, or undefined when the server tests are not to run. */
export const SERVER_URL = process.env.STATELENS_TEST_PG_URL || undefined;

export const SERVER_SKIP_REASON = 'STATELENS_TEST_PG_URL is not set: the tests against a real PostgreSQL server do not run';

/** A schema name unique to this process and call, prefixed by the branch that owns it. */
export function scratchSchemaName(label: string): string {
  return `s7_${label}_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
}

export function serverTarget(): PgTarget {
  if (!SERVER_URL) throw new Error(SERVER_SKIP_REASON);
  return { kind: 'server', url: SERVER_URL };
}

/** Drops a scratch schema on the server (through a connection of its own). */
export function dropServerSchema(schema: string): void {
  const admin = SyncPg.open(serverTarget());
  try {
    admin.exec(`DROP SCHEMA IF EXISTS ${quoteIdent(schema)} CASCADE`);
  } finally {
    admin.close();
  }
}
