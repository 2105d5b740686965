// PostgreSQL for tests: PGlite (in process, always) and, when STATELENS_TEST_PG_URL is set, the
// real server, where each test file works in a scratch database of its own, dropped afterwards
// (extensions are per database, so nothing is left behind in the shared one).
import { migratePg } from '../../electron/engine/db/pg/schema';
import { quoteIdent, SyncPg } from '../../electron/engine/db/pg/sync-client';
import type { PgTarget } from '../../electron/engine/db/pg/target';

/** The real server's URL, or undefined when the server tests are not to run. */
export const SERVER_URL = process.env.STATELENS_TEST_PG_URL || undefined;

export const SERVER_SKIP_REASON = 'STATELENS_TEST_PG_URL is not set: the tests against a real PostgreSQL server do not run';

/** A name unique to this process and call, marked as a Statelens test's scratch object. */
export function scratchName(label: string): string {
  return `statelens_test_${label}_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
}

function adminTarget(): PgTarget {
  if (!SERVER_URL) throw new Error(SERVER_SKIP_REASON);
  return { kind: 'server', url: SERVER_URL };
}

/** A fresh database on the server; its URL, and a function that drops it (ending its sessions). */
export function serverScratchDatabase(label: string): { url: string; target: PgTarget; drop: () => void } {
  const name = scratchName(label);
  const admin = SyncPg.open(adminTarget());
  try {
    admin.exec(`CREATE DATABASE ${quoteIdent(name)}`);
  } finally {
    admin.close();
  }
  const url = new URL(SERVER_URL ?? '');
  url.pathname = `/${name}`;
  return {
    url: url.href,
    target: { kind: 'server', url: url.href },
    drop() {
      const again = SyncPg.open(adminTarget());
      try {
        again.exec(`DROP DATABASE IF EXISTS ${quoteIdent(name)} WITH (FORCE)`);
      } finally {
        again.close();
      }
    },
  };
}

/** A scratch server database with the Statelens schema migrated in (created on first call, dropped
 * by the returned handle's `drop`). */
export function migratedServerDatabase(label: string): ReturnType<typeof serverScratchDatabase> {
  const scratch = serverScratchDatabase(label);
  const setup = SyncPg.open(scratch.target);
  try {
    migratePg(setup);
  } finally {
    setup.close();
  }
  return scratch;
}
