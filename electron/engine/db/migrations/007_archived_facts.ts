// Migration 7: a fact can be archived (kept for audit, out of assembly, search and listings of
// current memory); consolidation archives stale superseded events.
import type { Migration } from './types';

export const migration007: Migration = {
  version: 7,
  name: 'archived facts',
  up: `
    ALTER TABLE facts ADD COLUMN archived_at TEXT;
  `,
};
