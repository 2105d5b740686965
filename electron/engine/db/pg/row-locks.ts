// Write locks as rows on a store under the server setup: a writer locks (SELECT … FOR UPDATE) rows
// of its org in the write-locks table, which row-level security shows to that org's sessions only,
// so no role of another org can hold them (an advisory lock number, by contrast, any session of
// the server can take). Rows are made on first use and kept; names hash onto a bounded set of slots.
import { PG_ORG_SETTING } from './session-settings';

/** The table the server setup creates for these locks (org, slot). */
export const WRITE_LOCKS_TABLE = 'statelens_write_locks';

/** Slot 0 is the org's store lock (held shared by every writer, exclusively by a bulk write);
 * names take slots 1..NAME_SLOTS. Two names on one slot only make their writers take turns. */
const NAME_SLOTS = 4096;

/** The session's org ('' for an administrator working across every org). */
const SESSION_ORG = `coalesce(current_setting('${PG_ORG_SETTING}', true), '')`;

/** Each name (a JSON array whose first item is the org) as its lock row. */
const WANTED = `SELECT DISTINCT t.n::json->>0 AS org_id, 1 + (hashtext(t.n) & ${NAME_SLOTS - 1}) AS slot FROM unnest($1::text[]) AS t(n)`;

export interface RowLockSql {
  /** Holds the store row shared and each name's row exclusively, in (org, slot) order; answers
   * how many rows it holds against how many it wanted (fewer: the rows are not made yet). */
  readonly names: string;
  /** Holds the store row exclusively; answers 1, or 0 when the row is not made yet. */
  readonly store: string;
  /** Makes the rows `names` ($1) and the store lock need; rows already there are left alone. */
  readonly make: string;
}

export function rowLockSql(table: string): RowLockSql {
  const storeRow = `SELECT 1 FROM ${table} WHERE org_id = ${SESSION_ORG} AND slot = 0`;
  return {
    names: `WITH w AS (${WANTED})
      SELECT (SELECT count(*) FROM (${storeRow} FOR SHARE) s)::int AS store, (SELECT count(*) FROM w)::int AS wanted,
             (SELECT count(*) FROM (SELECT 1 FROM ${table} l WHERE (l.org_id, l.slot) IN (SELECT org_id, slot FROM w) ORDER BY l.org_id, l.slot FOR UPDATE OF l) h)::int AS held`,
    store: `SELECT count(*)::int AS store, 0 AS wanted, 0 AS held FROM (${storeRow} FOR UPDATE) s`,
    make: `INSERT INTO ${table} (org_id, slot) SELECT org_id, slot FROM (SELECT ${SESSION_ORG} AS org_id, 0 AS slot UNION ${WANTED}) r
      ORDER BY org_id, slot ON CONFLICT DO NOTHING`,
  };
}
