// The scrub on PostgreSQL. A DELETE (or an UPDATE) only marks the old row versions dead: their
// bytes stay in the table's pages, and in its indexes' pages, until those pages are rewritten.
// Plain VACUUM frees the space but leaves the bytes in place; VACUUM (FULL) writes every table
// it names, and each of their indexes, into new files and unlinks the old ones. So the scrub is
// VACUUM (FULL) of every table a delete writes. But VACUUM (FULL) copies every dead row version
// some open transaction may still read, and any transaction that began before the delete
// committed may: one holding a transaction id in any database of the cluster (its id lowers every
// later snapshot's horizon), a session of this database reading an older snapshot, a prepared
// transaction, a replication slot. So the scrub first waits a bounded time for those to end, and
// reports incomplete, naming them, when they do not. The server's WAL (and its archives, replicas
// and backups) keeps the text until recycled: no client can scrub that.
import type { ScrubReport } from '../../../shared/deletion';
import type { PgDatabase } from '../db/pg/database';
import { quoteIdent, type SyncPg } from '../db/pg/sync-client';
import { SCRUB_WAIT_MS } from './scrub';

/** What a delete writes: the facts (and their redacted neighbours), the dependency edges
 * (cascade) and the audit log (redacted reasons). */
export const PG_SCRUBBED_TABLES = ['facts', 'fact_edges', 'audit_log'] as const;

const RETRY_MS = 50;

/** The current transaction's id (assigning one), as text: what scrubPostgres is given. */
export function currentTransactionId(conn: SyncPg): string {
  return conn.query<{ xid: string }>('SELECT pg_current_xact_id()::text AS xid').rows[0]?.xid ?? '';
}

// $1 is the deleting transaction's id (xid8). A 32-bit xid is older than or equal to it when its
// age is at least the delete's (both aged from the same point in one statement).
const OLDER = 'age(%s) >= age($1::xid8::xid)';
const older = (column: string): string => OLDER.replace('%s', column);
// A session's snapshot horizon (backend_xmin) matters to this database's tables only, except a
// WAL sender's (a replica's feedback holds every database back). The server ignores autovacuum's.
const SESSION_XMIN_HOLDS = `backend_xmin IS NOT NULL AND ${older('backend_xmin')} AND backend_type <> 'autovacuum worker' AND (datname = current_database() OR backend_type = 'walsender')`;

/** True while something may still read row versions the delete `xid` removed. The running
 * transactions come from a snapshot (it covers every database and every role, even sessions
 * this role may not inspect); then older snapshots of this database, and replication slots. */
const HELD_SQL = `SELECT pg_snapshot_xmin(pg_current_snapshot()) <= $1::xid8
  OR EXISTS (SELECT 1 FROM pg_stat_activity WHERE pid <> pg_backend_pid() AND ${SESSION_XMIN_HOLDS})
  OR EXISTS (SELECT 1 FROM pg_replication_slots WHERE xmin IS NOT NULL AND ${older('xmin')}) AS held`;

const HOLDERS_SQL = `
  SELECT 'session' AS kind, pid::text AS id, datname AS database, usename AS role, state,
         date_trunc('second', xact_start)::text AS since
    FROM pg_stat_activity
   WHERE pid <> pg_backend_pid() AND ((backend_xid IS NOT NULL AND ${older('backend_xid')}) OR (${SESSION_XMIN_HOLDS}))
  UNION ALL
  SELECT 'prepared', gid, database, owner::text, NULL, date_trunc('second', prepared)::text
    FROM pg_prepared_xacts WHERE ${older('transaction')}
  UNION ALL
  SELECT 'slot', slot_name::text, database, NULL, CASE WHEN active THEN 'active' ELSE 'inactive' END, NULL
    FROM pg_replication_slots WHERE xmin IS NOT NULL AND ${older('xmin')}`;

export interface HorizonHolder {
  readonly kind: 'session' | 'prepared' | 'slot';
  /** The session's pid, the prepared transaction's gid or the slot's name. */
  readonly id: string;
  readonly database: string | null;
  readonly role: string | null;
  readonly state: string | null;
  readonly since: string | null;
}

/** Whether anything on the server may still read the row versions transaction `xid` deleted. */
export function horizonHeld(conn: SyncPg, xid: string): boolean {
  return conn.query<{ held: boolean }>(HELD_SQL, [xid]).rows[0]?.held ?? true;
}

/** What keeps the row versions `xid` deleted readable, as far as this role can see. */
export function horizonHolders(conn: SyncPg, xid: string): HorizonHolder[] {
  return conn.query<HorizonHolder>(HOLDERS_SQL, [xid]).rows;
}

/** Waits up to `waitMs` for the horizon to pass `xid`; true when it did. */
function waitForHorizon(conn: SyncPg, xid: string, waitMs: number): boolean {
  const until = Date.now() + waitMs;
  for (;;) {
    if (!horizonHeld(conn, xid)) return true;
    if (Date.now() >= until) return false;
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, RETRY_MS); // a synchronous sleep
  }
}

function describeHolder(h: HorizonHolder): string {
  const where = h.database ? ` on database "${h.database}"` : '';
  if (h.kind === 'prepared') return `prepared transaction "${h.id}"${where}${h.since ? `, prepared ${h.since}` : ''}`;
  if (h.kind === 'slot') return `replication slot "${h.id}"${where} (${h.state ?? 'unknown'})`;
  const who = h.role ? `, role ${h.role}` : '';
  const state = h.state ? `, ${h.state}` : '';
  const since = h.since ? `, in a transaction since ${h.since}` : '';
  return `session pid ${h.id}${where}${who}${state}${since}`;
}

/** Why the copies remain, naming what holds them. */
export function heldDetail(holders: readonly HorizonHolder[], waitMs: number): string {
  const named = holders.length > 0 ? holders.map(describeHolder).join('; ') : 'a transaction on the server, in a session this role cannot inspect';
  return (
    `A transaction that began before the delete committed was still open after ${waitMs / 1000} s (${named}). ` +
    'PostgreSQL keeps every row version an open transaction may still read, so VACUUM (FULL) copied the deleted rows into the new table and index files. ' +
    'They are removed by the next scrub once that transaction ends: the next delete runs one.'
  );
}

/**
 * VACUUM (FULL) of the tables a delete writes, after waiting (up to `waitMs`) for every
 * transaction that could still read the row versions delete transaction `xid` removed. Runs
 * outside any transaction and reports instead of failing: the delete itself has committed.
 */
export function scrubPostgres(db: PgDatabase, xid: string, waitMs = SCRUB_WAIT_MS): ScrubReport {
  const conn = db.conn;
  const base = { checkpoint: { busy: false, walFrames: 0, checkpointedFrames: 0 }, remnantsFound: 0, remnantsAfter: 0 };
  const failed = (why: string, e: unknown): ScrubReport => ({
    ...base,
    remedy: 'none',
    rebuilt: [],
    complete: false,
    detail: `${why}: ${e instanceof Error ? e.message : String(e)}`,
  });
  let clear: boolean;
  let holders: HorizonHolder[] = [];
  try {
    clear = waitForHorizon(conn, xid, waitMs);
    // Read before the rewrite, so the report names what held the copies into the new files.
    if (!clear) holders = horizonHolders(conn, xid);
  } catch (e) {
    return failed("Could not learn whether an open transaction still holds the deleted rows' old versions, so they were not rewritten", e);
  }
  try {
    // One statement, outside any transaction (VACUUM refuses to run in one). Also when held: it
    // still removes every other dead version, and the earlier ones of these rows.
    conn.exec(`VACUUM (FULL) ${PG_SCRUBBED_TABLES.map(quoteIdent).join(', ')}`);
  } catch (e) {
    return failed("The deleted rows' old versions stay in the table files until VACUUM (FULL) rewrites them, and it failed (it needs the tables' owner)", e);
  }
  return {
    ...base,
    checkpoint: { ...base.checkpoint, busy: !clear },
    remedy: 'vacuum',
    rebuilt: [...PG_SCRUBBED_TABLES],
    complete: clear,
    detail: clear
      ? `VACUUM (FULL) rewrote ${PG_SCRUBBED_TABLES.join(', ')} and their indexes: no table or index file holds the deleted text. The server's WAL, archives and backups keep it until they are recycled.`
      : heldDetail(holders, waitMs),
  };
}
