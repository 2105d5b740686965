// Deletes on a store under the server setup: agents and reviewers hold no DELETE privilege (it
// would also let them lock a table whole, holding every org's writers), so the engine deletes
// through the setup's functions there, and with plain DELETE everywhere else.
import type { EngineDb } from '../connection';
import { dialectOf } from '../dialect';
import { stmt } from '../statements';
import { PG_DELETE_FUNCTIONS, type PG_SESSION_TABLES } from './server-setup';

const viaFunctions = new WeakMap<object, boolean>();

/** True on a PostgreSQL store whose schema (the search path's) has the setup's deleting functions. */
function deletesViaFunctions(db: EngineDb): boolean {
  if (dialectOf(db).name !== 'postgres') return false;
  let known = viaFunctions.get(db);
  if (known === undefined) {
    // Booleans arrive as 0/1, SQLite's shape.
    known = stmt<[string], number>(db, 'SELECT to_regprocedure(?) IS NOT NULL').pluck().get(PG_DELETE_FUNCTIONS.facts.signature) === 1;
    viaFunctions.set(db, known);
  }
  return known;
}

/** Deletes the facts of a partition with these ids; how many were deleted. */
export function deleteFactsById(db: EngineDb, partitionId: number, ids: readonly string[]): number {
  if (ids.length === 0) return 0;
  const json = JSON.stringify(ids);
  if (deletesViaFunctions(db)) return Number(stmt<[number, string], number>(db, 'SELECT statelens_delete_facts(?, ?)').pluck().get(partitionId, json) ?? 0);
  return stmt(db, 'DELETE FROM facts WHERE partition_id = ? AND id IN (SELECT value FROM json_each(?))').run(partitionId, json).changes;
}

/** Deletes a session's rows of `table` in a partition (the session ended); how many. */
export function clearSessionRows(db: EngineDb, table: (typeof PG_SESSION_TABLES)[number], partitionId: number, sessionId: string): number {
  if (deletesViaFunctions(db)) {
    return Number(stmt<[string, number, string], number>(db, 'SELECT statelens_clear_session(?, ?, ?)').pluck().get(table, partitionId, sessionId) ?? 0);
  }
  return stmt(db, `DELETE FROM ${table} WHERE partition_id = ? AND session_id = ?`).run(partitionId, sessionId).changes;
}
