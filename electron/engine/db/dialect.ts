// What differs between the two stores' SQL, and only that. The engine's statements are written
// once, in SQLite's SQL; a dialect says how a store runs them: SQLite runs them as written,
// PostgreSQL compiles each one (placeholders, null-safe comparison, JSON arrays, conflict
// targets, NULL ordering…) and refuses, by name, a construct it cannot translate yet.
import { StatelensError } from '../../../shared/errors';

/** How one `$n` of a compiled statement takes its value: the n-th positional argument or a named one. */
export type Bind = { readonly index: number } | { readonly name: string };

export interface CompiledSql {
  /** The statement in the store's own SQL. */
  readonly text: string;
  /** For PostgreSQL, the value of `$1`, `$2`… in order; empty for SQLite (it binds natively). */
  readonly binds: readonly Bind[];
}

export interface Dialect {
  readonly name: 'sqlite' | 'postgres';
  /** An engine statement (SQLite SQL, `?`/`?NNN`/`@name` placeholders) as this store runs it. */
  compile(sql: string): CompiledSql;
  /** One number that changes whenever another connection commits a write (change polling):
   * SQLite's PRAGMA data_version; on PostgreSQL the transaction-id horizon (it also moves for
   * other databases' writes: a spare refresh, never a missed one), used only where nothing else
   * can be heard (PGlite): a server connection LISTENs for the schema's change notifications. */
  readonly changeCounterSql: string;
  /** Tables whose keys lead with the org (every table but the reference ones). */
  isOrgScoped(table: string): boolean;
  /** Full-text search. The engine builds its queries in FTS5's syntax (quoted phrases, `*`,
   * OR, parentheses) from one word splitter; this is the value to bind for one, as the store
   * reads it. */
  ftsQuery(fts5: string): string;
  /** Facts `f` matching the query bound to `param`: what to read them FROM (joined as `join`
   * says: CROSS JOIN keeps SQLite's join order), the condition, and the row id to order by. */
  ftsFacts(param: string, join?: 'JOIN' | 'CROSS JOIN'): { readonly from: string; readonly match: string; readonly rid: string };
  /** A subquery of the row ids of facts matching the query bound to `param`. */
  ftsRids(param: string): string;
  /** The relevance of a matched fact `f`, lower first, with the key weighing half the value:
   * FTS5's BM25 on SQLite; on PostgreSQL -ts_rank (other numbers, so ties and order can differ). */
  ftsRank(param: string): string;
  /** Whether the store marks matches in the text (FTS5 highlight()); on PostgreSQL the listing
   * marks them in JS with the same splitter. */
  readonly ftsHighlight: boolean;
  /** The store's own statement (not compiled) taking a transaction-scoped lock on each name of
   * its one parameter, a text array, in array order: writers of one fact key serialise on it
   * inside the database. Null where writers never overlap (SQLite: one write lock per file). */
  readonly nameLockSql: string | null;
  /** The store's own statement taking the store-wide write lock that a write of more names than
   * one transaction may lock one by one takes instead (it excludes every writer of the store,
   * whose name locks come with a shared hold on it). Null where nameLockSql is. */
  readonly storeLockSql: string | null;
}

/** Tables shared by every org of a store: settings and the schema's own version. */
export const REFERENCE_TABLES: ReadonlySet<string> = new Set(['statelens_meta', 'statelens_schema_version']);

export const sqliteDialect: Dialect = {
  name: 'sqlite',
  compile: (sql) => ({ text: sql, binds: [] }),
  changeCounterSql: 'PRAGMA data_version',
  isOrgScoped: (table) => !REFERENCE_TABLES.has(table),
  ftsQuery: (fts5) => fts5,
  ftsFacts: (param, join = 'JOIN') => ({
    from: `facts_fts ${join} facts f ON f.rid = facts_fts.rowid`,
    match: `facts_fts MATCH ${param}`,
    rid: 'facts_fts.rowid',
  }),
  ftsRids: (param) => `SELECT rowid FROM facts_fts WHERE facts_fts MATCH ${param}`,
  ftsRank: () => 'bm25(facts_fts, 0.5, 1.0)',
  ftsHighlight: true,
  nameLockSql: null,
  storeLockSql: null,
};

/** The dialect of an open database: PostgreSQL's connection carries its own; better-sqlite3's is SQLite. */
export function dialectOf(db: object): Dialect {
  return (db as { dialect?: Dialect }).dialect ?? sqliteDialect;
}

/** Which integrity rule a failed statement broke, read from either store's error: a unique or
 * primary key, a CHECK, another constraint (NOT NULL, a foreign key), or null when the failure
 * is not a broken constraint. SQLite's driver names it in its error code; a PostgreSQL failure
 * arrives as a StatelensError carrying the SQLSTATE (class 23: integrity constraint violation). */
export function brokenConstraint(e: unknown): 'unique' | 'check' | 'other' | null {
  if (e instanceof StatelensError) {
    const state = e.details?.sqlstate;
    if (typeof state !== 'string' || !state.startsWith('23')) return null;
    return state === '23505' ? 'unique' : state === '23514' ? 'check' : 'other';
  }
  const code = (e as { code?: unknown } | null)?.code;
  if (typeof code !== 'string' || !code.startsWith('SQLITE_CONSTRAINT')) return null;
  if (code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY') return 'unique';
  return code === 'SQLITE_CONSTRAINT_CHECK' ? 'check' : 'other';
}
