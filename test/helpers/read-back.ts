// A connection whose every COMMIT proves itself: the store helpers install it on each PostgreSQL
// connection they hand a store, so an acknowledged write the server did not keep fails the test
// that made it, wherever that is.
import type { SyncPg } from '../../electron/engine/db/pg/sync-client';

/**
 * Makes every commit on `conn` prove itself: the transaction's id is read before COMMIT and its
 * fate after, so a write the store acknowledged but the server rolled back (an error swallowed
 * inside the transaction turns COMMIT into a rollback) fails the test where it happens.
 */
export function readBackCommits(conn: SyncPg): void {
  const commit = conn.commit;
  conn.commit = function (this: SyncPg) {
    let xid: string | null = null;
    let unreadable: unknown;
    try {
      xid = this.query<{ x: string | null }>('SELECT pg_current_xact_id_if_assigned()::text AS x').rows[0]?.x ?? null;
    } catch (e) {
      // An aborted transaction answers nothing; it must still end (and its commit say so).
      unreadable = e;
    }
    commit.call(this);
    if (unreadable !== undefined) throw new Error(`An acknowledged write was not stored: its transaction had failed (${String(unreadable)})`);
    if (xid === null) return;
    const fate = this.query<{ s: string }>('SELECT pg_xact_status($1::xid8) AS s', [xid]).rows[0]?.s;
    if (fate !== 'committed') throw new Error(`An acknowledged write was not stored: transaction ${xid} is ${String(fate)} after COMMIT`);
  };
}
