// PostgreSQL migration 4 (SQLite version 6): identities are keyed by (org, partition, session),
// so every running session of a partition keeps the identity it set; an identity bound to no
// session was the default session's and becomes that session's row. The key still leads with
// org_id, the distribution column of a Citus cluster. Plain SQL, frozen.
import type { PgMigration } from './types';

export const pgMigration004: PgMigration = {
  version: 4,
  name: 'identity per session (SQLite version 6)',
  up: `
    UPDATE identities SET session_id = 'default' WHERE session_id IS NULL;
    ALTER TABLE identities ALTER COLUMN session_id SET NOT NULL;
    ALTER TABLE identities DROP CONSTRAINT identities_pkey;
    ALTER TABLE identities ADD CONSTRAINT identities_pkey PRIMARY KEY (org_id, partition_id, session_id);
  `,
};
