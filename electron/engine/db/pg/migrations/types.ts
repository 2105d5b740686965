/** One PostgreSQL schema step, run inside the migration transaction with search_path set to the
 * Statelens schema. SQL only: a data transform is written in SQL or PL/pgSQL. */
export interface PgMigration {
  readonly version: number;
  readonly name: string;
  readonly up: string;
}
