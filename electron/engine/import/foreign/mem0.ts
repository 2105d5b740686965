// Reads Mem0's open-source memory: its history database (SQLite; the Python library's `history`
// table with actor and role, or the JavaScript library's `memory_history`) and its memory export
// (JSON: a list of memories, or {results: [...]}, with user_id / agent_id / run_id and metadata).
// Each memory id becomes a chain of versions: ADD starts it, UPDATE supersedes with the old text
// kept, DELETE drops its text and records the deletion. user_id names a user partition, an
// agent_id alone a capability partition, run_id the session the fact is scoped to.
import fs from 'node:fs';
import Database from 'better-sqlite3';
import type { PartitionRef } from '../../../../shared/domain';
import {
  checkedPartition,
  emptyPlan,
  isRecord,
  malformed,
  noteUnknownFields,
  parseJsonDocument,
  partitionPlan,
  sourceTimestamp,
  text,
  valueProblem,
  type ForeignFact,
  type ForeignPlan,
} from './plan';

export const MEM0_DEFAULT_USER = 'mem0';

/** One history row, whichever library wrote it. */
interface HistoryRow {
  readonly row: number;
  readonly memoryId: string;
  readonly oldText: unknown;
  readonly newText: unknown;
  readonly event: unknown;
  readonly createdAt: unknown;
  readonly updatedAt: unknown;
  readonly actor: string | undefined;
  readonly role: string | undefined;
}

/** One memory of an export. */
interface ExportedMemory {
  readonly where: string;
  readonly id: string;
  readonly text: string;
  readonly userId?: string;
  readonly agentId?: string;
  readonly runId?: string;
  readonly actor?: string;
  readonly role?: string;
  readonly createdAt: unknown;
  readonly updatedAt: unknown;
  readonly metadata?: Record<string, unknown>;
}

/** The two history layouts: table name and the columns that mean each thing. */
const LAYOUTS = [
  { table: 'history', old: 'old_memory', new: 'new_memory', event: 'event', actor: 'actor_id', role: 'role' },
  { table: 'memory_history', old: 'previous_value', new: 'new_value', event: 'action', actor: null, role: null },
] as const;

const SQLITE_MAGIC = 'SQLite format 3\0';

export function isSqliteFile(path: string): boolean {
  const fd = fs.openSync(path, 'r');
  try {
    const head = Buffer.alloc(16);
    const n = fs.readSync(fd, head, 0, 16, 0);
    return n === 16 && head.toString('latin1') === SQLITE_MAGIC;
  } finally {
    fs.closeSync(fd);
  }
}

/** @param nativeBinding better-sqlite3's addon for this runtime (the desktop's engine worker passes Electron's). */
export function readMem0History(path: string, nativeBinding?: string): HistoryRow[] {
  let db: Database.Database;
  try {
    db = new Database(path, { readonly: true, fileMustExist: true, ...(nativeBinding ? { nativeBinding } : {}) });
  } catch (e) {
    throw malformed(path, '', `cannot be opened as SQLite (${e instanceof Error ? e.message : String(e)})`);
  }
  try {
    const tables = new Set((db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all() as string[]).map(String));
    const layout = LAYOUTS.find((l) => tables.has(l.table));
    if (!layout) throw malformed(path, '', 'holds no Mem0 history table (history or memory_history)');
    const columns = new Set((db.prepare(`PRAGMA table_info(${layout.table})`).all() as Array<{ name: string }>).map((c) => c.name));
    const needed = ['memory_id', layout.old, layout.new, layout.event];
    const missing = needed.filter((c) => !columns.has(c));
    if (missing.length > 0) throw malformed(path, `table ${layout.table}`, `has no column ${missing.join(', ')}`);
    const col = (name: string | null, as: string): string => (name && columns.has(name) ? `"${name}" AS ${as}` : `NULL AS ${as}`);
    const rows = db
      .prepare(
        `SELECT rowid AS row_number, memory_id, ${col(layout.old, 'old_text')}, ${col(layout.new, 'new_text')}, ${col(layout.event, 'event')},
                ${col('created_at', 'created_at')}, ${col('updated_at', 'updated_at')}, ${col(layout.actor, 'actor')}, ${col(layout.role, 'role')}
           FROM ${layout.table} ORDER BY rowid`,
      )
      .all() as Array<Record<string, unknown>>;
    return rows.map((r) => ({
      row: Number(r.row_number),
      memoryId: typeof r.memory_id === 'string' || typeof r.memory_id === 'number' ? String(r.memory_id) : '',
      oldText: r.old_text,
      newText: r.new_text,
      event: r.event,
      createdAt: r.created_at,
      updatedAt: r.updated_at,
      actor: text(r.actor),
      role: text(r.role),
    }));
  } finally {
    db.close();
  }
}

const MEMORY_FIELDS = [
  'id',
  'memory',
  'text',
  'hash',
  'metadata',
  'created_at',
  'updated_at',
  'user_id',
  'agent_id',
  'run_id',
  'actor_id',
  'role',
  'categories',
  'score',
];

export function readMem0Export(content: string, sourceName: string, plan: ForeignPlan): ExportedMemory[] {
  const json = parseJsonDocument(content, sourceName);
  const list = Array.isArray(json) ? json : isRecord(json) ? (json.results ?? json.memories) : undefined;
  if (!Array.isArray(list)) throw malformed(sourceName, '', 'is not a Mem0 memory export (a list of memories, or an object with "results")');
  const out: ExportedMemory[] = [];
  list.forEach((m, i) => {
    const where = `memory ${i + 1}`;
    if (!isRecord(m)) throw malformed(sourceName, where, 'is not an object', { index: i });
    noteUnknownFields(plan, m, MEMORY_FIELDS, where);
    const id = typeof m.id === 'number' ? String(m.id) : text(m.id);
    const body = m.memory ?? m.text;
    if (!id) {
      plan.skipped.push({ where, reason: 'a memory needs an id' });
      return;
    }
    const problem = typeof body === 'string' ? valueProblem(body) : 'the memory is not text';
    if (problem) {
      plan.skipped.push({ where: `${where} (${id})`, reason: problem });
      return;
    }
    out.push({
      where,
      id,
      text: body as string,
      ...optional('userId', text(m.user_id)),
      ...optional('agentId', text(m.agent_id)),
      ...optional('runId', text(m.run_id)),
      ...optional('actor', text(m.actor_id)),
      ...optional('role', text(m.role)),
      createdAt: m.created_at,
      updatedAt: m.updated_at,
      ...(isRecord(m.metadata) ? { metadata: m.metadata } : {}),
    });
  });
  return out;
}

function optional<K extends string>(key: K, value: string | undefined): Partial<Record<K, string>> {
  return value === undefined ? {} : ({ [key]: value } as Record<K, string>);
}

export interface Mem0Inputs {
  readonly history?: { readonly path: string; readonly rows: readonly HistoryRow[] };
  readonly export?: { readonly path: string; readonly content: string };
}

/** The plan for a history database, a memory export, or both (the export then says whose each
 * memory is; the history, what became of it). */
export function planMem0(inputs: Mem0Inputs, org: string, fallback: PartitionRef): ForeignPlan {
  const sourceName = [inputs.history?.path, inputs.export?.path].filter(Boolean).join(' + ');
  const plan = emptyPlan('mem0', sourceName);
  const exported = inputs.export ? readMem0Export(inputs.export.content, inputs.export.path, plan) : [];
  const byId = new Map<string, ExportedMemory>();
  for (const m of exported) {
    if (byId.has(m.id)) plan.skipped.push({ where: m.where, reason: `memory ${m.id} repeats ${byId.get(m.id)?.where}` });
    else byId.set(m.id, m);
  }
  const partitionOf = (m: ExportedMemory | undefined, where: string): PartitionRef | undefined => {
    if (m?.userId) return checkedPartition(plan, { kind: 'user', org, user: m.userId }, where);
    if (m?.agentId) return checkedPartition(plan, { kind: 'capability', org, capability: m.agentId }, where);
    return fallback;
  };
  const context = (m: ExportedMemory | undefined): Record<string, unknown> => ({
    ...(m?.userId ? { userId: m.userId } : {}),
    ...(m?.agentId ? { agentId: m.agentId } : {}),
    ...(m?.runId ? { runId: m.runId } : {}),
    ...(m?.metadata ? { metadata: m.metadata } : {}),
  });

  const historyIds = new Set<string>();
  if (inputs.history) {
    const byMemory = new Map<string, HistoryRow[]>();
    for (const r of inputs.history.rows) {
      if (!r.memoryId) {
        plan.skipped.push({ where: `history row ${r.row}`, reason: 'the row names no memory_id' });
        continue;
      }
      byMemory.set(r.memoryId, [...(byMemory.get(r.memoryId) ?? []), r]);
    }
    for (const [memoryId, rows] of byMemory) {
      historyIds.add(memoryId);
      const m = byId.get(memoryId);
      const partition = partitionOf(m, `memory ${memoryId}`);
      if (!partition) continue;
      replayHistory(plan, partition, memoryId, rows, m, context(m));
    }
  }
  for (const m of exported) {
    if (historyIds.has(m.id) || byId.get(m.id) !== m) continue;
    const partition = partitionOf(m, `${m.where} (${m.id})`);
    if (!partition) continue;
    const ts = sourceTimestamp(plan, m.updatedAt ?? m.createdAt, m.where);
    partitionPlan(plan, partition).facts.push({
      ref: `${m.id}@1`,
      key: memoryKey(m.id),
      value: m.text,
      ...(ts ? { ts } : {}),
      identity: m.actor ?? null,
      ...(m.runId ? { session: m.runId } : {}),
      provenance: {
        sourceId: m.id,
        where: `${inputs.export?.path ?? ''} ${m.where}`.trim(),
        actor: m.actor ?? null,
        createdAt: typeof m.createdAt === 'string' ? m.createdAt : null,
        updatedAt: typeof m.updatedAt === 'string' ? m.updatedAt : null,
        extra: { ...context(m), ...(m.role ? { role: m.role } : {}) },
      },
    });
  }
  return plan;
}

/** A memory's key: Mem0 memories have no key of their own, so the versions of one id share one. */
export const memoryKey = (id: string): string => `mem0 memory ${id}`;

function replayHistory(
  plan: ForeignPlan,
  partition: PartitionRef,
  memoryId: string,
  rows: readonly HistoryRow[],
  exported: ExportedMemory | undefined,
  context: Record<string, unknown>,
): void {
  let versions: ForeignFact[] = [];
  let deleted: { row: HistoryRow; versions: number } | undefined;
  const push = (r: HistoryRow, body: string, at: unknown, reason?: string): void => {
    const where = `history row ${r.row}`;
    const ts = sourceTimestamp(plan, at, where);
    const previous = versions[versions.length - 1];
    versions.push({
      ref: `${memoryId}@${versions.length + 1}`,
      key: memoryKey(memoryId),
      value: body,
      ...(ts ? { ts } : {}),
      identity: r.actor ?? exported?.actor ?? null,
      ...(exported?.runId ? { session: exported.runId } : {}),
      ...(previous ? { supersedes: previous.ref, reason: reason ?? `mem0 UPDATE (history row ${r.row})` } : {}),
      provenance: {
        sourceId: memoryId,
        where,
        actor: r.actor ?? null,
        createdAt: typeof r.createdAt === 'string' ? r.createdAt : null,
        updatedAt: typeof r.updatedAt === 'string' ? r.updatedAt : null,
        extra: { ...context, event: String(r.event), ...(r.role ? { role: r.role } : {}) },
      },
    });
  };
  for (const r of rows) {
    const where = `history row ${r.row}`;
    const event = typeof r.event === 'string' ? r.event.trim().toUpperCase() : '';
    if (event === 'DELETE') {
      deleted = { row: r, versions: versions.length };
      versions = [];
      continue;
    }
    if (event !== 'ADD' && event !== 'UPDATE') {
      plan.skipped.push({ where, reason: `unknown event ${JSON.stringify(r.event).slice(0, 40)} (expected ADD, UPDATE or DELETE)` });
      continue;
    }
    const problem = typeof r.newText === 'string' ? valueProblem(r.newText) : 'the new text is empty';
    if (problem) {
      plan.skipped.push({ where, reason: `${event} of memory ${memoryId}: ${problem}` });
      continue;
    }
    deleted = undefined;
    const current = versions[versions.length - 1];
    // A history that starts with UPDATE (it was trimmed, or the ADD was lost) still has the old text.
    if (event === 'UPDATE' && typeof r.oldText === 'string' && valueProblem(r.oldText) === undefined && current?.value !== r.oldText) {
      if (current) plan.notes.push({ where, reason: `UPDATE of memory ${memoryId}: its old text differs from the version before; both are kept` });
      push(r, r.oldText, r.createdAt, `mem0 history: text before row ${r.row}`);
    }
    if (event === 'ADD' && current) plan.notes.push({ where, reason: `memory ${memoryId} is added again: read as an update` });
    push(r, r.newText as string, event === 'ADD' ? (r.createdAt ?? r.updatedAt) : (r.updatedAt ?? r.createdAt));
  }
  const target = partitionPlan(plan, partition);
  if (deleted) {
    if (exported) plan.notes.push({ where: exported.where, reason: `memory ${memoryId} is in the export but its history ends in DELETE: recorded as deleted` });
    target.deletions.push({
      deletedAt: sourceTimestamp(plan, deleted.row.updatedAt ?? deleted.row.createdAt, `history row ${deleted.row.row}`) ?? null,
      versions: deleted.versions,
      provenance: {
        sourceId: memoryId,
        where: `history row ${deleted.row.row}`,
        actor: deleted.row.actor ?? null,
        extra: { ...context, event: 'DELETE', ...(deleted.row.role ? { role: deleted.row.role } : {}) },
      },
    });
  } else target.facts.push(...versions);
}
