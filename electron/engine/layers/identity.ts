// Layer 1, identity: who the user is, their authority and explicit permissions. Set by the
// agent at session start, read-only for the inspector.
import type { Identity } from '../../../shared/domain';
import type { PartitionContext } from '../context';
import { stmt } from '../db/statements';

/** An `identities` row as SQLite returns it. */
export interface IdentityRow {
  user_name: string;
  user_id: string;
  authority: string;
  department: string;
  organization: string;
  permissions: string;
  communication_style: string | null;
}

export function setIdentity(ctx: PartitionContext, identity: Identity): void {
  stmt(
    ctx.db,
    `INSERT INTO identities (partition_id, user_name, user_id, authority, department, organization, permissions, communication_style)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (partition_id) DO UPDATE SET user_name = excluded.user_name, user_id = excluded.user_id,
       authority = excluded.authority, department = excluded.department, organization = excluded.organization,
       permissions = excluded.permissions, communication_style = excluded.communication_style`,
  ).run(
    ctx.partitionId,
    identity.userName,
    identity.userId,
    identity.authority,
    identity.department,
    identity.organization,
    JSON.stringify(identity.permissions),
    identity.communicationStyle ?? null,
  );
}

export function getIdentity(ctx: PartitionContext): Identity | undefined {
  const row = stmt<[number], IdentityRow>(ctx.db, 'SELECT * FROM identities WHERE partition_id = ?').get(ctx.partitionId);
  return row ? identityFromRow(row) : undefined;
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
