// Writers that decide from what they read (a fact write reads the key's current fact to decide
// what it supersedes) must not interleave on the same names. SQLite holds one write lock per file,
// so its writers never do; on PostgreSQL a writer locks each name it will read, in one fixed
// order, before reading, and holds the locks until its transaction ends.
import { StatelensError } from '../../../shared/errors';
import { dialectOf } from './dialect';
import type { EngineDb } from './connection';
import { postgresOf } from './pg/database';

/** Whether writers of this store need name locks (computing the names costs; SQLite skips it). */
export function locksNames(db: EngineDb): boolean {
  return dialectOf(db).nameLockSql !== null;
}

/** The most names one transaction locks one by one. Each advisory lock takes a slot of the
 * server's shared lock table, which holds about max_locks_per_transaction (64 by default) per
 * connection: a bulk write of thousands of keys would exhaust it ("out of shared memory") for
 * every session of the server. A larger write locks the whole store instead. */
export const MAX_NAME_LOCKS = 64;

/** Locks `names` until the current transaction ends (sorted and deduplicated, so that two writers
 * of overlapping names never wait on each other in a cycle), or the whole store for more than
 * MAX_NAME_LOCKS names. A no-op on SQLite. */
export function lockNames(db: EngineDb, names: Iterable<string>): void {
  if (!locksNames(db)) return;
  if (!db.inTransaction) throw new StatelensError('INTERNAL', 'Write locks are taken inside a transaction');
  const sorted = [...new Set(names)].sort();
  const pg = postgresOf(db);
  if (sorted.length > MAX_NAME_LOCKS) pg?.lockStore();
  else if (sorted.length > 0) pg?.lockNames(sorted);
}

/** SQLSTATEs after which a whole transaction may simply run again: serialisation failure,
 * deadlock, and a lock wait that timed out (see LOCK_WAIT_MS). */
const LOCK_TIMEOUT = '55P03';
const RETRYABLE_SQLSTATES: ReadonlySet<string> = new Set(['40001', '40P01', LOCK_TIMEOUT]);
/** Attempts before a conflict is reported (the back-off sums to a few seconds by then). */
const MAX_ATTEMPTS = 16;
/** Attempts after lock waits that timed out: each waited LOCK_WAIT_MS, so the writer hears BUSY
 * within about half a minute whoever holds the lock. */
export const MAX_LOCK_TIMEOUT_ATTEMPTS = 4;
const MAX_BACKOFF_MS = 250;
const sleeper = new Int32Array(new SharedArrayBuffer(4));

export function isRetryableConflict(e: unknown): boolean {
  return e instanceof StatelensError && e.code === 'BUSY' && RETRYABLE_SQLSTATES.has(String(e.details?.sqlstate));
}

/** Runs `transaction` (one whole transaction, begun and ended inside it) and runs it again, after
 * a short randomised pause, when the database rolled it back for a deadlock or a serialisation
 * failure: the writers that collided then retry out of step. Bounded: a conflict that outlasts
 * every attempt is reported as BUSY. */
export function retryingConflicts<T>(transaction: () => T, attempts = MAX_ATTEMPTS): T {
  let lockTimeouts = 0;
  for (let attempt = 1; ; attempt++) {
    try {
      return transaction();
    } catch (e) {
      if (attempt >= attempts || !isRetryableConflict(e)) throw e;
      if ((e as StatelensError).details?.sqlstate === LOCK_TIMEOUT && ++lockTimeouts >= MAX_LOCK_TIMEOUT_ATTEMPTS) throw e;
      Atomics.wait(sleeper, 0, 0, Math.min(MAX_BACKOFF_MS, 2 ** attempt) * (0.5 + Math.random()));
    }
  }
}
