// PostgreSQL migration 4, as SQLite migration 6: a fact's archive time (archived facts are kept
// for audit, out of assembly, search and listings of current memory).
import type { PgMigration } from './types';

export const pgMigration004: PgMigration = {
  version: 4,
  name: 'archived facts',
  up: `
    ALTER TABLE facts ADD COLUMN archived_at text COLLATE "C";
  `,
};
