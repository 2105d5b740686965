// PostgreSQL migration 4: consolidation, as SQLite migration 6: a dependency edge's kind
// (depends_on or derived_from) and a fact's archive time.
import type { PgMigration } from './types';

export const pgMigration004: PgMigration = {
  version: 4,
  name: 'consolidation',
  up: `
    ALTER TABLE fact_edges ADD COLUMN kind text NOT NULL DEFAULT 'depends_on' CHECK (kind IN ('depends_on', 'derived_from'));
    ALTER TABLE facts ADD COLUMN archived_at text COLLATE "C";
  `,
};
