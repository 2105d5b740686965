// The scrub on PostgreSQL. A DELETE (or an UPDATE) only marks the old row versions dead: their
// bytes stay in the table's pages, and in its indexes' pages, until those pages are rewritten.
// Plain VACUUM frees the space but leaves the bytes in place; VACUUM (FULL) writes every table
// it names, and each of their indexes, into new files and unlinks the old ones. So the scrub is
// VACUUM (FULL) of every table a delete writes. The server's WAL (and its archives, replicas and
// backups) keeps the text until recycled: no client can scrub that.
import type { ScrubReport } from '../../../shared/deletion';
import type { PgDatabase } from '../db/pg/database';
import { quoteIdent } from '../db/pg/sync-client';

/** What a delete writes: the facts (and their redacted neighbours), the dependency edges
 * (cascade) and the audit log (redacted reasons). */
export const PG_SCRUBBED_TABLES = ['facts', 'fact_edges', 'audit_log'] as const;

export function scrubPostgres(db: PgDatabase): ScrubReport {
  const conn = db.conn;
  const base = { checkpoint: { busy: false, walFrames: 0, checkpointedFrames: 0 }, remnantsFound: 0, remnantsAfter: 0 };
  try {
    // One statement, outside any transaction (VACUUM refuses to run in one).
    conn.exec(`VACUUM (FULL) ${PG_SCRUBBED_TABLES.map(quoteIdent).join(', ')}`);
  } catch (e) {
    return {
      ...base,
      remedy: 'none',
      rebuilt: [],
      complete: false,
      detail: `The deleted rows' old versions stay in the table files until VACUUM (FULL) rewrites them, and it failed (it needs the tables' owner): ${e instanceof Error ? e.message : String(e)}`,
    };
  }
  return {
    ...base,
    remedy: 'vacuum',
    rebuilt: [...PG_SCRUBBED_TABLES],
    complete: true,
    detail: `VACUUM (FULL) rewrote ${PG_SCRUBBED_TABLES.join(', ')} and their indexes: no table or index file holds the deleted text. The server's WAL, archives and backups keep it until they are recycled.`,
  };
}
