// Keeps a store in step with the MCP memory server's JSONL file, both ways. On start, deletions
// made while no watcher ran are queued (from the audit log). Each poll: deletions the audit log
// records of facts that came from the file are queued; records the file gained are imported
// (never one whose fact was deleted here) and records it lost are deleted here too; the queued
// deletions are then removed from the file (mcp-memory-file.ts), only over the version this poll read.
import fs from 'node:fs';
import type { PartitionRef } from '../../../../shared/domain';
import { isStatelensError } from '../../../../shared/errors';
import { stmt } from '../../db/statements';
import { SCRUB_WAIT_MS } from '../../deletion/scrub';
import type { PartitionHandle } from '../../partition-handle';
import type { Store } from '../../store';
import { applyForeignPlan } from './apply';
import { contentHash, originKey, removeFromGraph, replaceMemoryFile, type MemoryOrigin } from './mcp-memory-file';
import { entityRef, observationRef, readMcpMemory } from './mcp-memory';
import { pendingRemovals, watchDetails, WATCH_ACTION, WRITE_BACK_ACTION, type PendingRemoval } from './mcp-memory-pending';
import { recordAudit } from '../../audit/audit';
import type { ForeignFact } from './plan';

export type WatchEvent =
  | { readonly kind: 'synced'; readonly facts: number }
  | { readonly kind: 'written-back'; readonly removed: number; readonly origins: readonly MemoryOrigin[] }
  | { readonly kind: 'refused'; readonly reason: string }
  | { readonly kind: 'resumed'; readonly pending: number; readonly unmatched: number }
  | { readonly kind: 'mirrored'; readonly deleted: number }
  | { readonly kind: 'error'; readonly reason: string };

/** How long a record written out of the file stays out: the memory server rewrites the whole
 * file from what it read a moment earlier, so a write of its that began before the removal
 * brings the record back; within this time it is removed again, never imported again. */
export const REMOVAL_HOLD_MS = 5000;

/** Who the watcher's own writes name in the audit log. */
export const WATCH_ACTOR = 'mcp-memory watch';

/** What a stored fact stands for in the file, read from its label (the import's ref) and
 * value; undefined when the label is none of the import's. */
export function originOfFact(label: string | null, value: unknown): MemoryOrigin | undefined {
  if (!label) return undefined;
  if (label.startsWith('relation:')) {
    const parts = label.slice('relation:'.length).split('|');
    if (parts.length !== 3) return undefined;
    const [from, relationType, to] = parts as [string, string, string];
    return { kind: 'relation', from, relationType, to };
  }
  if (!label.startsWith('entity:')) return undefined;
  const rest = label.slice('entity:'.length);
  const obs = /^(.*)#(\d+)$/s.exec(rest);
  if (obs && typeof value === 'string' && !value.startsWith(`${rest} is a `)) return { kind: 'observation', entity: obs[1] as string, text: value };
  return { kind: 'entity', entity: rest };
}

export class McpMemoryWatch {
  /** Fact id → what it stands for in the file (kept after the fact is deleted here). */
  private readonly origins = new Map<string, MemoryOrigin>();
  /** Deleted here, not yet removed from the file (with the fact ids deleted); by originKey. */
  private readonly pending = new Map<string, PendingRemoval>();
  /** Deletions written back whose audit entry is due (later: see deleteDependents), and when. */
  private handledDue: Array<{ factIds: string[]; removed: number; at: number }> = [];
  private started = false;
  /** The last version read, and the last one whose removals were mirrored here. */
  private lastReadHash: string | undefined;
  private mirroredHash: string | undefined;
  /** Written out of the file lately (see REMOVAL_HOLD_MS): origin and when, by originKey. */
  private readonly removed = new Map<string, { origin: MemoryOrigin; at: number }>();
  /** Entities written out of the file whose remaining facts here are due for deletion, and when. */
  private dependentsDue: Array<{ entities: Set<string>; at: number }> = [];
  private lastHash: string | undefined;
  private lastAuditId: number;

  constructor(
    private readonly store: Store,
    private readonly file: string,
    private readonly partition: PartitionRef,
    private readonly report: (event: WatchEvent) => void,
  ) {
    this.lastAuditId = stmt<[], number>(store.db, 'SELECT coalesce(max(id), 0) FROM audit_log').pluck().get() ?? 0;
  }

  /** Deletions not yet written to the file. */
  get pendingCount(): number {
    return this.pending.size;
  }

  /** Records the write-backs whose audit entries were still due (the watcher is stopping). */
  close(): void {
    if (this.handledDue.length > 0) this.recordHandled(this.handledDue);
    this.handledDue = [];
  }

  poll(): void {
    let content: string;
    try {
      content = fs.readFileSync(this.file, 'utf8');
    } catch (e) {
      this.report({ kind: 'error', reason: `${this.file} cannot be read (${e instanceof Error ? e.message : String(e)})` });
      return;
    }
    const hash = contentHash(content);
    // A version seen twice in a row is not a half-written one: only then are its losses mirrored.
    const stable = hash === this.lastReadHash;
    this.lastReadHash = hash;
    if (!this.started) {
      try {
        this.resume(content);
      } catch (e) {
        this.report({ kind: 'error', reason: e instanceof Error ? e.message : String(e) });
        return;
      }
      this.started = true;
    }
    this.queueDeletions();
    if (hash !== this.lastHash) {
      try {
        this.sync(content);
        this.lastHash = hash;
      } catch (e) {
        this.report({ kind: 'error', reason: e instanceof Error ? e.message : String(e) });
        return;
      }
    }
    if (stable && hash !== this.mirroredHash && hash === this.lastHash) {
      this.mirroredHash = hash;
      try {
        this.mirrorRemovals(content);
      } catch (e) {
        this.report({ kind: 'error', reason: e instanceof Error ? e.message : String(e) });
      }
    }
    const now = Date.now();
    for (const [key, r] of this.removed) if (now - r.at > REMOVAL_HOLD_MS) this.removed.delete(key);
    if (this.pending.size > 0 || this.removed.size > 0) this.writeBack(content, hash);
    const due = this.dependentsDue.filter((d) => d.at <= now);
    if (due.length > 0) {
      this.dependentsDue = this.dependentsDue.filter((d) => d.at > now);
      this.deleteDependents(new Set(due.flatMap((d) => [...d.entities])));
    }
    const handled = this.handledDue.filter((d) => d.at <= now);
    if (handled.length > 0) {
      this.handledDue = this.handledDue.filter((d) => d.at > now);
      this.recordHandled(handled);
    }
  }

  /** Records the start (so the inspector can say deletions reach the file) and queues the
   * deletions of facts from the file that no watcher wrote back. */
  private resume(content: string): void {
    const handle = this.handle();
    if (!handle) return;
    const graph = new Map<string, string[]>();
    for (const f of readMcpMemory(content, this.file, this.partition).partitions.flatMap((p) => p.facts)) {
      const origin = originOfFact(f.ref, f.value);
      if (origin?.kind === 'observation') graph.set(origin.entity, [...(graph.get(origin.entity) ?? []), origin.text]);
    }
    const { pending, unmatched } = pendingRemovals(handle.ctx, handle.id, graph, WATCH_ACTOR);
    for (const p of pending) this.pending.set(originKey(p.origin), p);
    this.store.write([handle.id], 'audit', () =>
      recordAudit(handle.ctx, {
        actor: WATCH_ACTOR,
        action: WATCH_ACTION,
        targetIds: [],
        reason: `kept in step with ${this.file}`,
        details: watchDetails(this.file),
      }),
    );
    // Nothing left to remove for these: settled now, so they are not looked for again.
    if (unmatched.length > 0) this.recordHandled([{ factIds: unmatched, removed: 0 }]);
    if (pending.length > 0 || unmatched.length > 0) this.report({ kind: 'resumed', pending: pending.length, unmatched: unmatched.length });
  }

  /** The audit entries of deletions that reached the file (or found it without the record). */
  private recordHandled(handled: ReadonlyArray<{ factIds: string[]; removed: number }>): void {
    const handle = this.handle();
    if (!handle) return;
    this.store.write([handle.id], 'audit', () => {
      for (const h of handled)
        recordAudit(handle.ctx, {
          actor: WATCH_ACTOR,
          action: WRITE_BACK_ACTION,
          targetIds: h.factIds,
          reason: h.removed > 0 ? `removed from ${this.file}` : `${this.file} no longer held it`,
          details: { ...watchDetails(this.file), removed: h.removed },
        });
    });
  }

  /** Records the file lost (the memory server deleted them) are deleted here too, through the
   * engine's delete, audited as the watcher's with the file named. */
  private mirrorRemovals(content: string): void {
    const handle = this.handle();
    if (!handle) return;
    const inFile = new Set<string>();
    for (const f of readMcpMemory(content, this.file, this.partition).partitions.flatMap((p) => p.facts)) {
      const origin = originOfFact(f.ref, f.value);
      if (origin) inFile.add(originKey(origin));
    }
    const ids = [...this.currentFacts(handle).entries()].filter(([key]) => !inFile.has(key)).map(([, f]) => f.id);
    if (ids.length === 0) return;
    const result = handle.deleteFacts({ ids }, { actor: WATCH_ACTOR, reason: `removed from ${this.file} by its memory server` });
    this.report({ kind: 'mirrored', deleted: result.deleted });
  }

  private handle(): PartitionHandle | undefined {
    try {
      return this.store.scope(this.partition);
    } catch (e) {
      if (isStatelensError(e) && e.code === 'NOT_FOUND') return undefined;
      throw e;
    }
  }

  /** The current facts that came from the file, registered in `origins`, by originKey. */
  private currentFacts(handle: PartitionHandle | undefined): Map<string, { id: string; label: string }> {
    const byOrigin = new Map<string, { id: string; label: string }>();
    for (const f of handle?.allFacts() ?? []) {
      if (f.source.type !== 'mcp-memory') continue;
      const origin = originOfFact(f.label, f.value);
      if (!origin || !f.label) continue;
      this.origins.set(f.id, origin);
      byOrigin.set(originKey(origin), { id: f.id, label: f.label });
    }
    return byOrigin;
  }

  private queueDeletions(): void {
    const rows = stmt<[number], { id: number; target_ids: string; actor: string }>(
      this.store.db,
      "SELECT id, target_ids, actor FROM audit_log WHERE id > ? AND action = 'delete' ORDER BY id",
    ).all(this.lastAuditId);
    for (const row of rows) {
      this.lastAuditId = row.id;
      for (const id of JSON.parse(row.target_ids) as string[]) {
        const origin = this.origins.get(id);
        if (!origin) continue;
        this.origins.delete(id);
        // The watcher's own deletions follow the file: there is nothing to write back.
        if (row.actor === WATCH_ACTOR) continue;
        const key = originKey(origin);
        const queued = this.pending.get(key);
        if (queued) queued.factIds.push(id);
        else this.pending.set(key, { origin, factIds: [id] });
      }
    }
  }

  /** Imports the records of `content` the store does not hold yet. */
  private sync(content: string): void {
    const plan = readMcpMemory(content, this.file, this.partition);
    const held = this.currentFacts(this.handle());
    const resume = new Map<string, string>();
    const nextIndex = new Map<string, number>();
    for (const { id, label } of held.values()) {
      const origin = this.origins.get(id);
      if (origin?.kind === 'entity') resume.set(entityRef(origin.entity), id);
      if (origin?.kind === 'observation') {
        const n = Number(/#(\d+)$/.exec(label)?.[1] ?? -1);
        nextIndex.set(origin.entity, Math.max(nextIndex.get(origin.entity) ?? 0, n + 1));
      }
    }
    const fresh: ForeignFact[] = [];
    for (const f of plan.partitions.flatMap((p) => p.facts)) {
      const origin = originOfFact(f.ref, f.value);
      const key = origin ? originKey(origin) : '';
      if (!origin || held.has(key) || this.pending.has(key) || this.removed.has(key)) continue;
      if (origin.kind !== 'observation') {
        fresh.push(f);
        continue;
      }
      // Observation numbers are never reused while an earlier one is held: keys stay distinct.
      const n = nextIndex.get(origin.entity) ?? 0;
      nextIndex.set(origin.entity, n + 1);
      fresh.push({
        ...f,
        ref: observationRef(origin.entity, n),
        key: `${origin.entity} · observation ${n + 1}`,
        provenance: { ...f.provenance, extra: { ...f.provenance.extra, observation: n } },
      });
    }
    if (fresh.length === 0) return;
    const summary = applyForeignPlan(
      this.store,
      { ...plan, partitions: [{ partition: this.partition, facts: fresh, deletions: [], turns: [] }], skipped: [], notes: [] },
      { resume },
    );
    this.currentFacts(this.handle());
    this.report({ kind: 'synced', facts: summary.facts });
  }

  private writeBack(content: string, hash: string): void {
    const queued = [...this.pending.values()];
    const origins = queued.map((p) => p.origin);
    const { content: next, removed } = removeFromGraph(content, [...origins, ...[...this.removed.values()].map((r) => r.origin)]);
    if (removed > 0) {
      try {
        replaceMemoryFile(this.file, hash, next);
      } catch (e) {
        // Kept queued: the next poll reads the new version, imports what it gained, and retries.
        this.report({ kind: 'refused', reason: e instanceof Error ? e.message : String(e) });
        return;
      }
      this.lastHash = contentHash(next);
      // Our own version: what it lost was deleted here already (dependents follow below).
      this.mirroredHash = this.lastHash;
    }
    for (const origin of origins) this.removed.set(originKey(origin), { origin, at: Date.now() });
    this.pending.clear();
    if (removed > 0) this.report({ kind: 'written-back', removed, origins });
    const entities = new Set(origins.flatMap((o) => (o.kind === 'entity' ? [o.entity] : [])));
    // Not at once: the delete that asked for this may still be scrubbing its text, and a write
    // of ours in the meantime would leave it a WAL it cannot empty.
    if (entities.size > 0) this.dependentsDue.push({ entities, at: Date.now() + SCRUB_WAIT_MS + 500 });
    const factIds = queued.flatMap((p) => p.factIds);
    if (factIds.length > 0) this.handledDue.push({ factIds, removed, at: Date.now() + SCRUB_WAIT_MS + 500 });
  }

  /** An entity removed from the file took its observations and relations with it: their facts
   * here go too (audited as the watcher's), so the store stays in step with the file. */
  private deleteDependents(entities: ReadonlySet<string>): void {
    const handle = this.handle();
    if (!handle) return;
    const ids = [...this.currentFacts(handle).values()]
      .map(({ id }) => ({ id, origin: this.origins.get(id) }))
      .filter(
        ({ origin }) =>
          (origin?.kind === 'observation' && entities.has(origin.entity)) ||
          (origin?.kind === 'relation' && (entities.has(origin.from) || entities.has(origin.to))),
      )
      .map(({ id }) => id);
    if (ids.length === 0) return;
    handle.deleteFacts({ ids }, { actor: WATCH_ACTOR, reason: 'its entity was deleted, and removed from the memory file' });
  }
}
