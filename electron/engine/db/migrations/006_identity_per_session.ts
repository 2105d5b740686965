// Migration 6: identities are keyed by (partition, session), so every running session of a
// partition keeps the identity it set for its whole life; one session setting its identity no
// longer replaces another's. An identity stored bound to no session (before migration 4, or
// imported) was the default session's: it becomes that session's row. Plain SQL, frozen.
import type { Migration } from './types';

export const migration006: Migration = {
  version: 6,
  name: 'identity per session',
  up: `
    CREATE TABLE identities_per_session (
      partition_id        INTEGER NOT NULL REFERENCES partitions(id) ON DELETE CASCADE,
      user_name           TEXT NOT NULL,
      user_id             TEXT NOT NULL,
      authority           TEXT NOT NULL,
      department          TEXT NOT NULL,
      organization        TEXT NOT NULL,
      permissions         TEXT NOT NULL DEFAULT '[]',
      communication_style TEXT,
      session_id          TEXT NOT NULL,
      PRIMARY KEY (partition_id, session_id)
    ) STRICT;
    INSERT INTO identities_per_session (partition_id, user_name, user_id, authority, department, organization, permissions, communication_style, session_id)
      SELECT partition_id, user_name, user_id, authority, department, organization, permissions, communication_style, coalesce(session_id, 'default')
      FROM identities;
    DROP TABLE identities;
    ALTER TABLE identities_per_session RENAME TO identities;
  `,
};
