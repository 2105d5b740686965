// The connection the engine is written against: the part of better-sqlite3's Database it uses,
// which better-sqlite3 satisfies as it is and PgDatabase implements over PostgreSQL. Work on the
// SQLite file itself (pragmas, checkpoints, SQL functions) reaches better-sqlite3 through sqliteOf;
// PostgreSQL-only work reaches PgDatabase through postgresOf (beside it, in pg/database).
import Database from 'better-sqlite3';
import { StatelensError } from '../../../shared/errors';

export interface RunResult {
  readonly changes: number;
  readonly lastInsertRowid: number | bigint;
}

/** A prepared statement; `P` are its parameters (values, or one object of named values), `R` a row. */
export interface EngineStatement<P extends unknown[] = unknown[], R = unknown> {
  readonly source: string;
  run(...params: P): RunResult;
  get(...params: P): R | undefined;
  all(...params: P): R[];
  iterate(...params: P): IterableIterator<R>;
  /** Rows as their first column's value. */
  pluck(toggle?: boolean): this;
  /** Rows as arrays of values. */
  raw(toggle?: boolean): this;
}

/** `fn` run in one transaction (a savepoint when nested); `immediate` takes the write lock first. */
export interface EngineTransaction<A extends unknown[], T> {
  (...args: A): T;
  immediate(...args: A): T;
  deferred(...args: A): T;
}

export interface EngineDb {
  /** Where the database is: a file path or a redacted server address. */
  readonly name: string;
  readonly readonly: boolean;
  readonly open: boolean;
  readonly inTransaction: boolean;
  prepare(source: string): EngineStatement;
  /** Runs statements that return nothing (DDL, transaction control). */
  exec(source: string): this;
  transaction<A extends unknown[], T>(fn: (...args: A) => T): EngineTransaction<A, T>;
  /** The two pragmas every database answers; the others are SQLite's own (see sqliteOf). */
  pragma(source: 'user_version' | 'data_version', options?: { simple?: boolean }): unknown;
  close(): this;
}

/** The SQLite connection behind `db`, for work only SQLite can do (`what` names it in the
 * refusal); NOT_SUPPORTED on any other database. */
export function sqliteOf(db: EngineDb, what: string): Database.Database {
  if (db instanceof Database) return db;
  throw new StatelensError('NOT_SUPPORTED', `${what} needs a SQLite database; ${db.name} is not one`);
}
