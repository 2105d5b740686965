import type Database from 'better-sqlite3';

/** One schema step, run inside the migration transaction: SQL, or a function of the database
 * for a data transform SQL alone cannot express (it must not open its own transaction). */
export interface Migration {
  readonly version: number;
  readonly name: string;
  readonly up: string | ((db: Database.Database) => void);
}
