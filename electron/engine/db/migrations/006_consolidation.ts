// Migration 6: consolidation. A dependency edge says what kind it is (depends_on, or
// derived_from: an abstraction resting on the memories it was consolidated from), and a fact can
// be archived (kept for audit, out of assembly, search and listings of current memory).
import type { Migration } from './types';

export const migration006: Migration = {
  version: 6,
  name: 'consolidation',
  up: `
    ALTER TABLE fact_edges ADD COLUMN kind TEXT NOT NULL DEFAULT 'depends_on' CHECK (kind IN ('depends_on', 'derived_from'));
    ALTER TABLE facts ADD COLUMN archived_at TEXT;
  `,
};
