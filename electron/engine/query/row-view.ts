// The light row shapes the inspector lists: table rows (value as a preview, with search match
// ranges) and fact briefs (links to other facts). One mapping each, so every list agrees.
import { VALUE_PREVIEW_CHARS, type FactBrief, type FactRowView, type SearchMatch, type TextRange } from '../../../shared/inspect';
import type { PartitionContext } from '../context';
import type { FactRow } from '../facts/rows';
import { stmt } from '../db/statements';
import { parseHighlighted } from './fts';

export const BRIEF_VALUE_CHARS = 200;

/** The columns ROW_VIEW_COLUMNS selects: a `facts` row without the full value and the fields
 * only the detail view shows, plus the value's preview and length. */
export type RowViewRow = Pick<
  FactRow,
  | 'rid'
  | 'id'
  | 'label'
  | 'key'
  | 'source_type'
  | 'source_identity'
  | 'source_authority'
  | 'ts'
  | 'created_at'
  | 'last_accessed_at'
  | 'access_count'
  | 'importance'
  | 'memory_type'
  | 'level'
  | 'scope'
  | 'scope_id'
  | 'status'
  | 'is_valid'
  | 'superseded_by'
  | 'supersedes'
  | 'supersession_rule'
  | 'proposal_for'
  | 'needs_review'
  | 'is_constraint'
  | 'constraint_type'
> & { value_preview: string; value_length: number };

export const ROW_VIEW_COLUMNS = `f.rid, f.id, f.label, f.key, substr(f.value, 1, ${VALUE_PREVIEW_CHARS}) AS value_preview,
  length(f.value) AS value_length, f.source_type, f.source_identity, f.source_authority, f.ts, f.created_at,
  f.last_accessed_at, f.access_count, f.importance, f.memory_type, f.level, f.scope, f.scope_id, f.status,
  f.is_valid, f.superseded_by, f.supersedes, f.supersession_rule, f.proposal_for, f.needs_review,
  f.is_constraint, f.constraint_type`;

/** highlight() output for one row: key and value with private markers around each match. */
export interface MarkedText {
  readonly key: string | null;
  readonly value: string | null;
}

/** Cuts a window of `size` code units starting near `from`, never splitting a surrogate pair. */
function windowAround(text: string, from: number, size: number): { start: number; end: number } {
  let start = Math.max(0, Math.min(from, text.length - size));
  if (start > 0 && /[\uDC00-\uDFFF]/u.test(text.charAt(start))) start -= 1;
  let end = Math.min(text.length, start + size);
  if (end < text.length && /[\uD800-\uDBFF]/u.test(text.charAt(end - 1))) end -= 1;
  return { start, end };
}

function shift(ranges: readonly TextRange[], start: number, end: number): TextRange[] {
  const out: TextRange[] = [];
  for (const [a, b] of ranges) {
    const s = Math.max(a, start);
    const e = Math.min(b, end);
    if (e > s) out.push([s - start, e - start]);
  }
  return out;
}

export function toRowView(r: RowViewRow, marked: MarkedText | null): FactRowView {
  let value = r.value_preview;
  let valueOffset = 0;
  let clippedEnd = r.value_length > [...r.value_preview].length;
  let match: SearchMatch | null = null;
  if (marked) {
    const key = marked.key === null ? { ranges: [] as TextRange[] } : parseHighlighted(marked.key);
    let valueRanges: TextRange[] = [];
    if (marked.value !== null) {
      const full = parseHighlighted(marked.value);
      const first = full.ranges[0];
      // Keep the first match visible: move the window when it would fall past the preview.
      const from = first && first[1] > VALUE_PREVIEW_CHARS ? first[0] - 60 : 0;
      const { start, end } = windowAround(full.text, from, VALUE_PREVIEW_CHARS);
      value = full.text.slice(start, end);
      valueOffset = start;
      clippedEnd = end < full.text.length;
      valueRanges = shift(full.ranges, start, end);
    }
    match = { key: key.ranges, value: valueRanges };
  }
  return {
    id: r.id,
    label: r.label,
    key: r.key,
    value,
    valueOffset,
    valueLength: r.value_length,
    valueClippedStart: valueOffset > 0,
    valueClippedEnd: clippedEnd,
    source: { type: r.source_type, identity: r.source_identity, authority: r.source_authority },
    ts: r.ts,
    createdAt: r.created_at,
    lastAccessedAt: r.last_accessed_at,
    accessCount: r.access_count,
    importance: r.importance,
    memoryType: r.memory_type,
    level: r.level,
    scope: r.scope,
    scopeId: r.scope_id,
    status: r.status,
    isValid: r.is_valid === 1,
    supersededBy: r.superseded_by,
    supersedes: r.supersedes,
    supersessionRule: r.supersession_rule,
    proposalFor: r.proposal_for,
    needsReview: r.needs_review === 1,
    isConstraint: r.is_constraint === 1,
    constraintType: r.constraint_type,
    match,
  };
}

type BriefRow = Pick<FactRow, 'id' | 'key' | 'value' | 'status' | 'is_valid' | 'needs_review' | 'memory_type' | 'ts' | 'supersession_rule'>;

const BRIEF_COLUMNS = `f.id, f.key, substr(f.value, 1, ${BRIEF_VALUE_CHARS}) AS value, f.status, f.is_valid, f.needs_review,
  f.memory_type, f.ts, f.supersession_rule`;

function toBrief(r: BriefRow): FactBrief {
  return {
    id: r.id,
    key: r.key,
    value: r.value,
    status: r.status,
    isValid: r.is_valid === 1,
    needsReview: r.needs_review === 1,
    memoryType: r.memory_type,
    ts: r.ts,
    supersessionRule: r.supersession_rule,
  };
}

export function briefOf(ctx: PartitionContext, id: string): FactBrief | null {
  const row = stmt<[string, number], BriefRow>(ctx.db, `SELECT ${BRIEF_COLUMNS} FROM facts f WHERE f.id = ? AND f.partition_id = ?`).get(id, ctx.partitionId);
  return row ? toBrief(row) : null;
}

export const BRIEFS_SQL = `SELECT ${BRIEF_COLUMNS} FROM json_each(?) j CROSS JOIN facts f ON f.id = j.value WHERE f.partition_id = ?`;

/** Briefs of many facts of this partition, in the order of `ids` (missing ones left out).
 * CROSS JOIN keeps the id list as the outer loop: left to itself the planner may walk the
 * whole partition by a (partition_id, ...) index instead (see inspect-plans.test.ts). */
export function briefsOf(ctx: PartitionContext, ids: readonly string[]): FactBrief[] {
  if (ids.length === 0) return [];
  const rows = stmt<[string, number], BriefRow>(ctx.db, BRIEFS_SQL).all(JSON.stringify(ids), ctx.partitionId);
  const byId = new Map(rows.map((r) => [r.id, toBrief(r)]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}
