// Migration 4: an identity remembers the session that set it. Within that session the identity
// is fixed (a different one is refused; a change needs a new session); a new session may set
// its own. Identities stored before this migration are bound to no session.
import type { Migration } from './types';

export const migration004: Migration = {
  version: 4,
  name: 'identity session',
  up: `
    ALTER TABLE identities ADD COLUMN session_id TEXT;
  `,
};
