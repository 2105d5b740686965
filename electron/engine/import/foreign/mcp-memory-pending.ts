// What the audit log says about facts that came from an MCP memory file: which ones a person
// deleted that were never written back to the file (deleted while no watcher ran), and whether
// the partition is kept in step with a file at all (a watcher ran on it: deletions reach the file).
import path from 'node:path';
import type { EngineServices } from '../../context';
import { stmt } from '../../db/statements';
import { contentHash, type MemoryOrigin } from './mcp-memory-file';
import { isRecord } from './plan';

/** Audit actions of the watcher: it started on a file; it wrote deletions back to the file. */
export const WATCH_ACTION = 'watch';
export const WRITE_BACK_ACTION = 'write_back';

/** A deletion waiting to reach the file: what it stands for there and the fact ids deleted. */
export interface PendingRemoval {
  readonly origin: MemoryOrigin;
  readonly factIds: string[];
}

interface AuditRow {
  readonly target_ids: string;
  readonly details: string;
  readonly actor: string;
}

const rows = (db: EngineServices['db'], partitionId: number, action: string): AuditRow[] =>
  stmt<[number, string], AuditRow>(db, 'SELECT target_ids, details, actor FROM audit_log WHERE partition_id = ? AND action = ? ORDER BY id').all(
    partitionId,
    action,
  );

/** The hash an imported observation's provenance keeps instead of its text (the text must be
 * findable in the file after the fact, and its text, are gone from the store). */
export const observationHash = (text: string): string => contentHash(text).slice(0, 32);

/** Deletions of facts imported from an MCP memory file in `partitionId` that no write-back has
 * handled, resolved against the file's current `graph` (an observation is found by its hash).
 * `watcherActor`'s deletions (which mirror the file) are left out; `unmatched` are the deleted
 * observations the file no longer holds. */
export function pendingRemovals(
  ctx: EngineServices,
  partitionId: number,
  graph: ReadonlyMap<string, readonly string[]>,
  watcherActor: string,
): { pending: PendingRemoval[]; unmatched: string[] } {
  const provenance = new Map<string, Record<string, unknown>>();
  for (const row of rows(ctx.db, partitionId, 'import')) {
    const details = JSON.parse(row.details) as unknown;
    if (!isRecord(details) || details.system !== 'mcp-memory' || !isRecord(details.origins)) continue;
    for (const [id, origin] of Object.entries(details.origins)) if (isRecord(origin)) provenance.set(id, origin);
  }
  const handled = new Set(rows(ctx.db, partitionId, WRITE_BACK_ACTION).flatMap((r) => JSON.parse(r.target_ids) as string[]));
  const byKey = new Map<string, PendingRemoval>();
  const unmatched: string[] = [];
  for (const row of rows(ctx.db, partitionId, 'delete')) {
    if (row.actor === watcherActor) continue;
    for (const id of JSON.parse(row.target_ids) as string[]) {
      const p = provenance.get(id);
      if (!p || handled.has(id)) continue;
      const origin = originOfProvenance(p, graph);
      if (!origin) {
        unmatched.push(id);
        continue;
      }
      const key = JSON.stringify(origin);
      const found = byKey.get(key);
      if (found) found.factIds.push(id);
      else byKey.set(key, { origin, factIds: [id] });
    }
  }
  return { pending: [...byKey.values()], unmatched };
}

/** The record an import's provenance names, or undefined when the file no longer holds an
 * observation with its hash (or the provenance predates the hash). */
function originOfProvenance(p: Record<string, unknown>, graph: ReadonlyMap<string, readonly string[]>): MemoryOrigin | undefined {
  const extra = isRecord(p.extra) ? p.extra : {};
  const entity = typeof p.sourceId === 'string' ? p.sourceId : undefined;
  if (extra.kind === 'relation' && typeof extra.from === 'string' && typeof extra.to === 'string' && typeof extra.relationType === 'string')
    return { kind: 'relation', from: extra.from, relationType: extra.relationType, to: extra.to };
  if (!entity) return undefined;
  if (extra.kind === 'entity') return { kind: 'entity', entity };
  if (extra.kind !== 'observation' || typeof extra.textHash !== 'string') return undefined;
  const text = graph.get(entity)?.find((o) => observationHash(o) === extra.textHash);
  return text === undefined ? undefined : { kind: 'observation', entity, text };
}

/** The file a watcher last kept `partitionId` in step with, or null when none ever ran on it. */
export function watchedFile(ctx: EngineServices, partitionId: number): string | null {
  const row = stmt<[number, string], { details: string }>(
    ctx.db,
    'SELECT details FROM audit_log WHERE partition_id = ? AND action = ? ORDER BY id DESC LIMIT 1',
  ).get(partitionId, WATCH_ACTION);
  if (!row) return null;
  const details = JSON.parse(row.details) as unknown;
  return isRecord(details) && typeof details.file === 'string' ? details.file : null;
}

/** The details of a watch entry: the file by its absolute path. */
export const watchDetails = (file: string): Record<string, unknown> => ({ system: 'mcp-memory', file: path.resolve(file) });
