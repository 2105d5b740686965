// Migration 6: a fact can be archived (kept for audit, out of assembly, search and listings of
// current memory); consolidation archives stale superseded events.
import type { Migration } from './types';

export const migration006: Migration = {
  version: 6,
  name: 'archived facts',
  up: `
    ALTER TABLE facts ADD COLUMN archived_at TEXT;
  `,
};
