// What differs between the two stores' SQL, and only that. The engine's statements are written
// once, in SQLite's SQL; a dialect says how a store runs them: SQLite runs them as written,
// PostgreSQL compiles each one (placeholders, null-safe comparison, JSON arrays, conflict
// targets, NULL ordering…) and refuses, by name, a construct it cannot translate yet.

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
   * SQLite's PRAGMA data_version; on PostgreSQL, until LISTEN/NOTIFY replaces polling, the
   * transaction-id horizon (it also moves for other databases' writes: a spare refresh, never a
   * missed one). */
  readonly changeCounterSql: string;
  /** Tables whose keys lead with the org (every table but the reference ones). */
  isOrgScoped(table: string): boolean;
}

/** Tables shared by every org of a store: settings and the schema's own version. */
export const REFERENCE_TABLES: ReadonlySet<string> = new Set(['statelens_meta', 'statelens_schema_version']);

export const sqliteDialect: Dialect = {
  name: 'sqlite',
  compile: (sql) => ({ text: sql, binds: [] }),
  changeCounterSql: 'PRAGMA data_version',
  isOrgScoped: (table) => !REFERENCE_TABLES.has(table),
};

/** The dialect of an open connection: a PostgreSQL one carries it, better-sqlite3's does not. */
export function dialectOf(db: object): Dialect {
  return (db as { dialect?: Dialect }).dialect ?? sqliteDialect;
}
