// PostgreSQL for tests: PGlite (in process, always) and, when STATELENS_TEST_PG_URL is set, the
// real server, where each test file works in a scratch database of its own, dropped afterwards
// (extensions are per database, so nothing is left behind in the shared one).
import type { TestContext } from 'vitest';
import { sleep } from '../../electron/bench/child-process';
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

/** How long a test waits for transactions other clients of the shared server already have open. */
const QUIET_MS = 90_000;

/**
 * Waits until every transaction open on the server when called has ended: while one is open
 * (another test run's, a benchmark's) a delete's scrub rightly reports incomplete, so a test that
 * expects a complete scrub waits for it first. Skips the test, saying why, when one is still open
 * after QUIET_MS. Without `given` it opens a connection of its own.
 */
export async function awaitQuietServer(ctx: TestContext, given?: SyncPg): Promise<void> {
  const conn = given ?? SyncPg.open(adminTarget());
  try {
    await waitQuiet(ctx, conn);
  } finally {
    if (!given) conn.close();
  }
}

async function waitQuiet(ctx: TestContext, conn: SyncPg): Promise<void> {
  const start = conn.query<{ x: string }>('SELECT pg_snapshot_xmax(pg_current_snapshot())::text AS x').rows[0]?.x;
  const until = Date.now() + QUIET_MS;
  for (;;) {
    const quiet = conn.query<{ quiet: boolean }>('SELECT pg_snapshot_xmin(pg_current_snapshot()) >= $1::xid8 AS quiet', [start]).rows[0]?.quiet;
    if (quiet) return;
    if (Date.now() >= until) break;
    await sleep(200);
  }
  const held = conn.query<{ pid: number; datname: string }>('SELECT pid, datname FROM pg_stat_activity WHERE age(backend_xid) >= age($1::xid8::xid)', [
    start,
  ]).rows;
  const reason = `skipped: other clients of the server kept transactions open for ${QUIET_MS / 1000} s (${held.map((h) => `pid ${h.pid} on ${h.datname}`).join(', ')})`;
  console.log(reason);
  ctx.skip();
}
