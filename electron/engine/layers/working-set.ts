// Layer 3, the working set: session-scoped items (recent turns, drafts, scratch values) with an
// optional expiry. No supersession tracking; expired items are excluded from reads by default.
import { z } from 'zod';
import type { WorkingItem } from '../../../shared/domain';
import { StatelensError } from '../../../shared/errors';
import type { PartitionContext } from '../context';
import { stmt } from '../db/statements';
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

interface WorkingRow {
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

function toItem(r: WorkingRow): WorkingItem {
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

export function addWorkingItem(ctx: PartitionContext, raw: WorkingItemInput): string {
  const parsed = WorkingItemInput.safeParse(raw);
  if (!parsed.success) throw new StatelensError('INVALID_INPUT', `Invalid working-set item: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  const item = parsed.data;
  const id = ctx.newId('w');
  stmt(
    ctx.db,
    `INSERT INTO working_items (id, partition_id, session_id, key, value, item_type, speaker, turn_index, created_at, expires_at, priority)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(id, ctx.partitionId, item.sessionId, item.key, item.value, item.itemType, item.speaker ?? null, item.turnIndex ?? null, item.createdAt ?? ctx.clock.now(), item.expiresAt ?? null, item.priority ?? 0);
  return id;
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
    .map(toItem);
}
