// One page of the audit log for the inspector: newest first, keyset-paged by id, optionally one
// partition and/or the entries naming one fact. (Its own statement: the engine's listAudit binds
// numbered parameters in a way better-sqlite3 rejects.)
import type { AuditEntry } from '../../../shared/domain';
import { auditRowToEntry } from './audit';
import type { EngineDb } from '../db/connection';
import { stmt } from '../db/statements';

export interface AuditPageQuery {
  readonly partitionId: number | null;
  readonly factId: string | null;
  readonly beforeId: number | null;
  readonly limit: number;
}

export function auditPage(db: EngineDb, q: AuditPageQuery): { entries: AuditEntry[]; nextBeforeId: number | null } {
  const rows = stmt<[{ partition: number | null; fact: string | null; before: number; limit: number }], Parameters<typeof auditRowToEntry>[0]>(
    db,
    `SELECT * FROM audit_log
     WHERE (@partition IS NULL OR partition_id = @partition) AND id < @before
       AND (@fact IS NULL OR EXISTS (SELECT 1 FROM json_each(target_ids) WHERE value = @fact))
     ORDER BY id DESC LIMIT @limit`,
  ).all({ partition: q.partitionId, fact: q.factId, before: q.beforeId ?? Number.MAX_SAFE_INTEGER, limit: q.limit + 1 });
  const entries = rows.slice(0, q.limit).map(auditRowToEntry);
  return { entries, nextBeforeId: rows.length > q.limit ? (entries[entries.length - 1]?.id ?? null) : null };
}
