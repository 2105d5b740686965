// A database holding an MCP memory server's graph imported from a file, optionally kept in step
// by a watcher (as `statelens import mcp-memory --watch` records on start), for inspector tests.
import { recordAudit } from '../../../electron/engine/audit/audit';
import { applyForeignPlan } from '../../../electron/engine/import/foreign/apply';
import { readMcpMemory } from '../../../electron/engine/import/foreign/mcp-memory';
import { watchDetails, WATCH_ACTION } from '../../../electron/engine/import/foreign/mcp-memory-pending';
import { WATCH_ACTOR } from '../../../electron/engine/import/foreign/mcp-memory-watch';
import type { Store } from '../../../electron/engine/store';

/** Imports `graph` (the file's JSONL) as from `file`; returns the partition and the fact ids by value. */
export function seedMemoryFile(store: Store, graph: string, file: string, watched: boolean): { partitionId: number; idOf: Record<string, string> } {
  const summary = applyForeignPlan(store, readMcpMemory(graph, file, { kind: 'user', org: 'local', user: 'mcp-memory' }));
  const partitionId = summary.partitions[0]?.partitionId as number;
  const handle = store.scopeById(partitionId);
  if (watched)
    store.write([partitionId], 'audit', () =>
      recordAudit(handle.ctx, { actor: WATCH_ACTOR, action: WATCH_ACTION, targetIds: [], details: watchDetails(file) }),
    );
  return { partitionId, idOf: Object.fromEntries(handle.allFacts().map((f) => [String(f.value), f.id])) };
}
