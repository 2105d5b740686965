// Organisational knowledge documents with an ACL, enforced at read time against an identity
// (permission mirroring): an empty ACL is readable by everyone in the org; otherwise the
// identity needs one of the listed permissions, its department or its authority.
import type { Identity, OrgDocument } from '../../../shared/domain';
import { StatelensError } from '../../../shared/errors';
import type { PartitionContext } from '../context';
import { stmt } from '../db/statements';

export interface DocumentInput {
  readonly title: string;
  readonly body: string;
  readonly acl?: readonly string[];
}

interface DocumentRow {
  id: string;
  title: string;
  body: string;
  acl: string;
  created_at: string;
}

function toDocument(r: DocumentRow): OrgDocument {
  return { id: r.id, title: r.title, body: r.body, acl: JSON.parse(r.acl) as string[], createdAt: r.created_at };
}

export function putDocument(ctx: PartitionContext, doc: DocumentInput): string {
  if (ctx.kind !== 'organizational') throw new StatelensError('PARTITION_MISMATCH', 'Documents belong to organisational knowledge partitions');
  if (!doc.title || doc.title.length > 1000 || doc.body.length > 1_000_000)
    throw new StatelensError('INVALID_INPUT', 'A document needs a title (at most 1,000 characters) and a body of at most 1,000,000');
  const id = ctx.newId('d');
  stmt(ctx.db, 'INSERT INTO org_documents (id, partition_id, title, body, acl, created_at) VALUES (?, ?, ?, ?, ?, ?)').run(
    id,
    ctx.partitionId,
    doc.title,
    doc.body,
    JSON.stringify(doc.acl ?? []),
    ctx.clock.now(),
  );
  return id;
}

export function canRead(acl: readonly string[], identity: Identity): boolean {
  if (acl.length === 0) return true;
  const grants = new Set([...identity.permissions, identity.department, identity.authority].map((g) => g.toLowerCase()));
  return acl.some((a) => grants.has(a.toLowerCase()));
}

/** Every document, for the inspector (who reviews, not an identity acting). */
export function listDocuments(ctx: PartitionContext): OrgDocument[] {
  return stmt<[number], DocumentRow>(ctx.db, 'SELECT id, title, body, acl, created_at FROM org_documents WHERE partition_id = ? ORDER BY rid')
    .all(ctx.partitionId)
    .map(toDocument);
}

/** Split of the documents an identity may and may not read. */
export function documentsFor(ctx: PartitionContext, identity: Identity): { allowed: OrgDocument[]; denied: OrgDocument[] } {
  const all = listDocuments(ctx);
  return { allowed: all.filter((d) => canRead(d.acl, identity)), denied: all.filter((d) => !canRead(d.acl, identity)) };
}
