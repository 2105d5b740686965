// Layer 1, identity: who the user is, their authority and explicit permissions. Each session of a
// partition has its own: set by the agent at the session's start, fixed for that session (a
// different one in the same session is refused: a change of who is speaking needs a new session)
// and read by every permission check of that session only; read-only for the inspector. Stored
// one row per (partition, session), so sessions of one partition running at once never replace
// each other's identity, and ending a session removes its row alone.
import type { Identity } from '../../../shared/domain';
import { StatelensError } from '../../../shared/errors';
import type { PartitionContext } from '../context';
import { stmt } from '../db/statements';
import { clearSessionRows } from '../db/pg/delete-functions';

/** The session of a caller that names none. Its identity is the partition-level identity: the one
 * stored before identities were kept per session, or imported from a snapshot that names no
 * session. Like any session's, it is read by that session alone. */
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
  session_id: string;
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

const SESSION_ROW_SQL = 'SELECT * FROM identities WHERE partition_id = ? AND session_id = ?';

function sessionRow(ctx: PartitionContext, sessionId: string): IdentityRow | undefined {
  return stmt<[number, string], IdentityRow>(ctx.db, SESSION_ROW_SQL).get(ctx.partitionId, sessionId);
}

/** Sets the identity of `sessionId`. The same identity again is a no-op; a different one in a
 * session that has one is refused with CONFLICT; other sessions' identities are left as they are.
 * A plain insert: a set identity is never updated (on PostgreSQL agents may not UPDATE it). */
export function setIdentity(ctx: PartitionContext, identity: Identity, sessionId: string = DEFAULT_SESSION): void {
  const existing = sessionRow(ctx, sessionId);
  if (existing) return keepFixed(existing, identity, sessionId);
  // OR IGNORE: a writer that set this session's identity between the read and the insert wins,
  // and this one is judged against it as if it had come second.
  const inserted = stmt(
    ctx.db,
    `INSERT OR IGNORE INTO identities (partition_id, user_name, user_id, authority, department, organization, permissions, communication_style, session_id)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
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
  ).changes;
  const raced = inserted === 0 ? sessionRow(ctx, sessionId) : undefined;
  if (raced) keepFixed(raced, identity, sessionId);
}

/** Nothing when `identity` is the one the session has; CONFLICT otherwise. */
function keepFixed(row: IdentityRow, identity: Identity, sessionId: string): void {
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

/** Removes the identity of `sessionId` (the session ended); every other session keeps its own. */
export function releaseIdentity(ctx: PartitionContext, sessionId: string): boolean {
  return clearSessionRows(ctx.db, 'identities', ctx.partitionId, sessionId) > 0;
}

/** The identity every check of `sessionId` reads: the one that session set, or none. Another
 * session's identity is never read. */
export function sessionIdentity(ctx: PartitionContext, sessionId: string): Identity | undefined {
  const row = sessionRow(ctx, sessionId);
  return row ? identityFromRow(row) : undefined;
}

export interface SessionIdentity {
  readonly sessionId: string;
  readonly identity: Identity;
}

/** Every session's identity in the partition, by session id (the inspector's view). */
export function listIdentities(ctx: PartitionContext): SessionIdentity[] {
  return stmt<[number], IdentityRow>(ctx.db, 'SELECT * FROM identities WHERE partition_id = ? ORDER BY session_id')
    .all(ctx.partitionId)
    .map((r) => ({ sessionId: r.session_id, identity: identityFromRow(r) }));
}
