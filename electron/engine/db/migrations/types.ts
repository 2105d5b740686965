import type Database from 'better-sqlite3';

/** One schema step. `up` is SQL run inside the migration transaction; `transform`, when given,
 * then rewrites data the SQL alone cannot compute (same transaction). */
export interface Migration {
  readonly version: number;
  readonly name: string;
  readonly up: string;
  readonly transform?: (db: Database.Database) => void;
}
