// A per-connection cache of prepared statements: preparing is costly and every query path
// here is a fixed, named SQL string (never SQL built from user input).
import type { EngineDb, EngineStatement } from './connection';

const caches = new WeakMap<EngineDb, Map<string, EngineStatement>>();

export function stmt<P extends unknown[] = unknown[], R = unknown>(db: EngineDb, sql: string): EngineStatement<P, R> {
  let cache = caches.get(db);
  if (!cache) {
    cache = new Map();
    caches.set(db, cache);
  }
  let s = cache.get(sql);
  if (!s) {
    s = db.prepare(sql);
    cache.set(sql, s);
  }
  // The cache holds statements of every shape; the caller names this one's parameters and rows.
  return s as EngineStatement<P, R>;
}
