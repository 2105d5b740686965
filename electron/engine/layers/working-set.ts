// Layer 3, the working set: session-scoped items (recent turns, drafts, scratch values) with an
// optional expiry. No supersession tracking: a key holds one item per session (writing it again
// replaces it), expired items are excluded from reads by default, and ending a session clears
// its items.
import { z } from 'zod';
import type { WorkingItem } from '../../../shared/domain';
import type { PartitionContext } from '../context';
import { stmt } from '../db/statements';
import { clearSessionRows } from '../db/pg/delete-functions';
import { parseInput } from '../query/validate';
import { Timestamp } from '../../../shared/timestamp';

export const WorkingItemInput = z.strictObject({
  sessionId: z.string().min(1).max(200).default('default'),
  key: z.string().min(1).max(500),
  value: z.string().max(100_000),
  itemType: z.string().min(1).max(100).default('context'),
  speaker: z.string().max(200).nullable().optional(),
  turnIndex: z.number().int().nonnegative().nullable().optional(),
  createdAt: Timestamp.optional(),
  expiresAt: Timestamp.nullable().optional(),
  priority: z.number().min(-1000).max(1000).optional(),
});
export type WorkingItemInput = z.input<typeof WorkingItemInput>;

/** A `working_items` row as SQLite returns it. */
export interface WorkingRow {
  id: string;
  session_id: string;
  key: string;
  value: string;
  item_type: string;
  speaker: string | null;
  turn_index: number | null;
  created_at: string;
  expires_at: string | null;
  priority: number;
}

export function workingItemFromRow(r: WorkingRow): WorkingItem {
  return {
    id: r.id,
    sessionId: r.session_id,
    key: r.key,
    value: r.value,
    itemType: r.item_type,
    speaker: r.speaker,
    turnIndex: r.turn_index,
    createdAt: r.created_at,
    expiresAt: r.expires_at,
    priority: r.priority,
  };
}

/** Writes an item: a key already in the session is updated in place (same id, new value, type,
 * time and expiry); otherwise a new item is added. Returns the item's id. */
export function addWorkingItem(ctx: PartitionContext, raw: WorkingItemInput): string {
  const item = parseInput(WorkingItemInput, raw, 'working-set item');
  const fields = [
    item.value,
    item.itemType,
    item.speaker ?? null,
    item.turnIndex ?? null,
    item.createdAt ?? ctx.clock.now(),
    item.expiresAt ?? null,
    item.priority ?? 0,
  ] as const;
  // Newest first, so a session holding duplicates from before keys were unique updates its latest.
  const existing = stmt<[number, string, string], { id: string }>(
    ctx.db,
    'SELECT id FROM working_items WHERE partition_id = ? AND session_id = ? AND key = ? ORDER BY rid DESC LIMIT 1',
  ).get(ctx.partitionId, item.sessionId, item.key);
  if (existing) {
    stmt(
      ctx.db,
      'UPDATE working_items SET value = ?, item_type = ?, speaker = ?, turn_index = ?, created_at = ?, expires_at = ?, priority = ? WHERE id = ?',
    ).run(...fields, existing.id);
    return existing.id;
  }
  const id = ctx.newId('w');
  stmt(
    ctx.db,
    `INSERT INTO working_items (id, partition_id, session_id, key, value, item_type, speaker, turn_index, created_at, expires_at, priority)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(id, ctx.partitionId, item.sessionId, item.key, ...fields);
  return id;
}

/** Clears a session's working set (the session ended). Returns how many items were removed. */
export function clearSession(ctx: PartitionContext, sessionId: string): number {
  return clearSessionRows(ctx.db, 'working_items', ctx.partitionId, sessionId);
}

/** Items of a session (all sessions when omitted), oldest first; expired ones only on request. */
export function listWorkingItems(ctx: PartitionContext, options: { sessionId?: string; at?: string; includeExpired?: boolean } = {}): WorkingItem[] {
  const at = options.at ?? ctx.clock.now();
  // better-sqlite3 binds numbered parameters (?1) by name, so they take an object.
  return stmt<[Record<number, number | string | null>], WorkingRow>(
    ctx.db,
    `SELECT * FROM working_items WHERE partition_id = ?1 AND (?2 IS NULL OR session_id = ?2)
       AND (?3 = 1 OR expires_at IS NULL OR expires_at > ?4) ORDER BY created_at, rid`,
  )
    .all({ 1: ctx.partitionId, 2: options.sessionId ?? null, 3: options.includeExpired ? 1 : 0, 4: at })
    .map(workingItemFromRow);
}
