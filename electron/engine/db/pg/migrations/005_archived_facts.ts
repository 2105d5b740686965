// PostgreSQL migration 5, as SQLite migration 7: a fact's archive time (archived facts are kept
// for audit, out of assembly, search and listings of current memory).
import type { PgMigration } from './types';

export const pgMigration005: PgMigration = {
  version: 5,
  name: 'archived facts',
  up: `
    ALTER TABLE facts ADD COLUMN archived_at text COLLATE "C";
  `,
};
