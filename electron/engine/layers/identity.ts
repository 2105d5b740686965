// Layer 1, identity: who the user is, their authority and explicit permissions. Set by the
// agent at session start and fixed for that session: setting a different identity in the same
// session is refused (a change of who is speaking needs a new session); read-only for the
// inspector.
import type { Identity } from '../../../shared/domain';
import { StatelensError } from '../../../shared/errors';
import type { PartitionContext } from '../context';
import { stmt } from '../db/statements';
import { clearSessionRows } from '../db/pg/delete-functions';

export const DEFAULT_SESSION = 'default';

/** An `identities` row as SQLite returns it. */
export interface IdentityRow {
  user_name: string;
  user_id: string;
  authority: string;
  department: string;
  organization: string;
  permissions: string;
  communication_style: string | null;
  session_id: string | null;
}

export function identityFromRow(row: IdentityRow): Identity {
  return {
    userName: row.user_name,
    userId: row.user_id,
    authority: row.authority,
    department: row.department,
    organization: row.organization,
    permissions: JSON.parse(row.permissions) as string[],
    communicationStyle: row.communication_style,
  };
}

function sameIdentity(a: Identity, b: Identity): boolean {
  return (
    a.userName === b.userName &&
    a.userId === b.userId &&
    a.authority === b.authority &&
    a.department === b.department &&
    a.organization === b.organization &&
    (a.communicationStyle ?? null) === (b.communicationStyle ?? null) &&
    JSON.stringify(a.permissions) === JSON.stringify(b.permissions)
  );
}

/** Sets the identity for `sessionId`. The same identity again is a no-op; a different one in the
 * session that set it is refused with CONFLICT; a new session replaces it and binds it. */
export function setIdentity(ctx: PartitionContext, identity: Identity, sessionId: string = DEFAULT_SESSION): void {
  const row = stmt<[number], IdentityRow>(ctx.db, 'SELECT * FROM identities WHERE partition_id = ?').get(ctx.partitionId);
  if (row && row.session_id === sessionId) {
    if (sameIdentity(identityFromRow(row), identity)) return;
    throw new StatelensError(
      'CONFLICT',
      `The identity of session "${sessionId}" is already set (${row.user_name}, ${row.authority}); it is fixed for the session: start a new session to change it`,
      {
        sessionId,
        current: { userName: row.user_name, authority: row.authority },
      },
    );
  }
  stmt(
    ctx.db,
    `INSERT INTO identities (partition_id, user_name, user_id, authority, department, organization, permissions, communication_style, session_id)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (partition_id) DO UPDATE SET user_name = excluded.user_name, user_id = excluded.user_id,
       authority = excluded.authority, department = excluded.department, organization = excluded.organization,
       permissions = excluded.permissions, communication_style = excluded.communication_style, session_id = excluded.session_id`,
  ).run(
    ctx.partitionId,
    identity.userName,
    identity.userId,
    identity.authority,
    identity.department,
    identity.organization,
    JSON.stringify(identity.permissions),
    identity.communicationStyle ?? null,
    sessionId,
  );
}

/** Ends the identity's binding to `sessionId` (the session ended): it is removed, so no later
 * session reads it (an unbound identity would be the default session's, see sessionIdentity);
 * the next session sets its own. */
export function releaseIdentity(ctx: PartitionContext, sessionId: string): boolean {
  return clearSessionRows(ctx.db, 'identities', ctx.partitionId, sessionId) > 0;
}

/** The identity every check of `sessionId` reads: the one that session set; one bound to no
 * session (recorded before sessions bound identities, or imported) belongs to the default
 * session. Another session's identity is never read: a session without one has none. */
export function sessionIdentity(ctx: PartitionContext, sessionId: string): Identity | undefined {
  const row = stmt<[number], IdentityRow>(ctx.db, 'SELECT * FROM identities WHERE partition_id = ?').get(ctx.partitionId);
  if (!row) return undefined;
  const owner = row.session_id ?? DEFAULT_SESSION;
  return owner === sessionId ? identityFromRow(row) : undefined;
}

/** The partition's recorded identity, whichever session set it (the inspector's view; checks
 * read sessionIdentity). */
export function getIdentity(ctx: PartitionContext): Identity | undefined {
  const row = stmt<[number], IdentityRow>(ctx.db, 'SELECT * FROM identities WHERE partition_id = ?').get(ctx.partitionId);
  return row ? identityFromRow(row) : undefined;
}
