// How items read in an assembled context: one line per fact, turn, signal or agent-state entry, with the markers
// that keep hypothetical and draft material from reading as commitments.
import type { FetchedSignal, ItemMark } from '../../../shared/assembly';
import type { AgentState, Identity } from '../../../shared/domain';
import { inferScope } from '../facts/inference';
import { freshSignalLine } from '../environment/providers';
import { environmentAt } from '../layers/environment';
import type { LeanFact, SignalRow, WorkingRow } from './source';

export const HYPOTHETICAL_MARK = '[HYPOTHETICAL — not a commitment]';
export const DRAFT_MARK = '[DRAFT — not a commitment]';
export const HISTORY_MARK = '[SUPERSEDED — history, not current]';

/** Collapses newlines so one item is one line (spans stay one contiguous range). */
export function oneLine(text: string): string {
  return (/[\r\n]/.test(text) ? text.replace(/\s*[\r\n]+\s*/g, ' ') : text).trim();
}

export function factMarks(f: Pick<LeanFact, 'is_constraint' | 'scope'>, needsReview: boolean): ItemMark[] {
  const marks: ItemMark[] = [];
  if (f.is_constraint === 1) marks.push('constraint');
  if (f.scope === 'hypothetical') marks.push('hypothetical');
  if (f.scope === 'draft') marks.push('draft');
  if (f.scope === 'task') marks.push('task');
  if (f.scope === 'session') marks.push('session');
  if (needsReview) marks.push('needs_review');
  return marks;
}

function scopePrefix(marks: readonly ItemMark[], scopeId: string | null): string {
  if (marks.includes('hypothetical')) return `${HYPOTHETICAL_MARK} `;
  if (marks.includes('draft')) return `${DRAFT_MARK} `;
  if (marks.includes('task')) return scopeId ? `[TASK ${scopeId}] ` : '[TASK] ';
  return '';
}

/** "- key: value" with scope, constraint and review markers; `value` may be redacted. */
export function factLine(
  f: Pick<LeanFact, 'key' | 'scope_id' | 'constraint_type'>,
  marks: readonly ItemMark[],
  value: string,
  options: { withKey?: boolean } = {},
): string {
  let prefix = scopePrefix(marks, f.scope_id);
  if (marks.includes('constraint')) prefix += `[${(f.constraint_type ?? 'policy').toUpperCase()} CONSTRAINT] `;
  if (marks.includes('needs_review')) prefix += '[NEEDS REVIEW] ';
  const body = options.withKey === false ? oneLine(value) : `${oneLine(f.key)}: ${oneLine(value)}`;
  return `- ${prefix}${body}`;
}

export function isTurn(w: WorkingRow): boolean {
  return w.speaker !== null || /^(turn|conversation_turn|message|utterance)$/i.test(w.item_type);
}

/** Scope cue of a working item: declared by its type, else inferred from its text. */
export function itemMarks(w: WorkingRow): ItemMark[] {
  const declared = /^(hypothetical|draft)$/i.test(w.item_type) ? (w.item_type.toLowerCase() as 'hypothetical' | 'draft') : undefined;
  const scope = declared ?? inferScope(w.value);
  return scope === 'hypothetical' ? ['hypothetical'] : scope === 'draft' ? ['draft'] : [];
}

function speakerName(s: string | null): string {
  if (!s) return 'Turn';
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** A turn as "Speaker: text"; other items as "key: value". */
export function itemLine(w: WorkingRow, marks: readonly ItemMark[], value: string = w.value): string {
  const prefix =
    (marks.includes('superseded') ? `${HISTORY_MARK} ` : '') +
    (marks.includes('hypothetical') ? `${HYPOTHETICAL_MARK} ` : marks.includes('draft') ? `${DRAFT_MARK} ` : '');
  return isTurn(w) ? `${prefix}${speakerName(w.speaker)}: ${oneLine(value)}` : `- ${prefix}${oneLine(w.key)}: ${oneLine(value)}`;
}

export function identityLines(identity: Identity | undefined): string[] {
  if (!identity) return ['- (no identity recorded for this partition)'];
  const lines = [
    `- User: ${oneLine(identity.userName)}${identity.userId ? ` (${oneLine(identity.userId)})` : ''}`,
    `- Authority: ${oneLine(identity.authority)}`,
  ];
  if (identity.department) lines.push(`- Department: ${oneLine(identity.department)}`);
  if (identity.organization) lines.push(`- Organization: ${oneLine(identity.organization)}`);
  if (identity.permissions.length > 0) lines.push(`- Permissions: ${identity.permissions.map(oneLine).join(', ')}`);
  return lines;
}

/** The environment's fields at `now` (current time, date in its timezone, timezone, location),
 * then every other signal observed by then as external data. */
export function environmentLines(now: string, signals: readonly SignalRow[], fetched: readonly FetchedSignal[] = []): string[] {
  const env = environmentAt(
    now,
    signals.filter((s) => s.observed_at <= now),
  );
  const lines = [`- current_time: ${now}`, `- current_date: ${env.currentDate}`, `- timezone: ${oneLine(env.timezone)}`];
  if (env.location !== null) lines.push(`- location: ${oneLine(env.location)}`);
  // A fetched signal replaces a pushed one of the same key; one that failed says so, never a stale value.
  const fetchedKeys = new Set(fetched.map((f) => f.key));
  for (const [key, value] of Object.entries(env.externalData)) if (!fetchedKeys.has(key)) lines.push(`- ${oneLine(key)}: ${oneLine(value)}`);
  for (const f of fetched) lines.push(`- ${oneLine(freshSignalLine(f))}`);
  return lines;
}

/** The session's agent state as context lines: what the agent assumes (with confidence), what it
 * expects of its actions (with status), its open hypotheses, the active items, then the entities
 * and dependencies it understands. Resolved and discarded items are no longer current. */
export function agentStateLines(state: AgentState): string[] {
  const lines: string[] = [];
  const names = new Map(state.current_understanding.entities.map((e) => [e.id, e.name ?? e.id]));
  const nameOf = (id: string) => oneLine(names.get(id) ?? id);
  for (const a of state.assumptions) {
    const evidence = a.evidence && a.evidence.length > 0 ? ` (evidence: ${a.evidence.map(oneLine).join(', ')})` : '';
    lines.push(`- Assumption (confidence ${a.confidence.toFixed(2)}): ${oneLine(a.hypothesis)}${evidence}`);
  }
  for (const e of state.expectations) {
    const invariant = e.invariant ? `; invariant: ${oneLine(e.invariant)}` : '';
    lines.push(`- Expectation [${e.status ?? 'pending'}]: ${oneLine(e.action)} → ${oneLine(e.expected_outcome)}${invariant}`);
  }
  for (const h of state.tentative_hypotheses) lines.push(`- Tentative hypothesis: ${oneLine(h.hypothesis)}${h.reason ? ` (${oneLine(h.reason)})` : ''}`);
  for (const i of state.items) {
    if (i.status !== 'active') continue;
    lines.push(`- ${i.kind.charAt(0).toUpperCase()}${i.kind.slice(1)}: ${oneLine(i.title)}${i.details ? ` — ${oneLine(i.details)}` : ''}`);
  }
  for (const e of state.current_understanding.entities)
    lines.push(`- Entity: ${oneLine(e.name ?? e.id)} (${oneLine(e.kind)}${e.name ? `, ${oneLine(e.id)}` : ''})`);
  for (const d of state.current_understanding.dependencies)
    lines.push(`- Dependency: ${nameOf(d.from)} → ${nameOf(d.to)}${d.rel ? ` (${oneLine(d.rel)})` : ''}`);
  return lines;
}
