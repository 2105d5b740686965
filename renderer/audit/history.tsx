// An audit entry told as a line of history: who did what to which facts, in words ("Ana
// replaced home_city: Ana lives in Lyon with …"), facts named by key and value, never by id or
// by the engine's action names. A delete keeps no text of what it removed: the line says so.
import type { ReactNode } from 'react';
import type { AuditEntry } from '../../shared/domain';
import type { FactBrief } from '../../shared/inspect';
import { FactRef } from '../ui/FactRef';
import { formatNumber, plural } from '../ui/format';

type BriefFor = (id: string) => FactBrief | null | undefined;

const SHOWN_REFS = 3;

const RULE_WORDS: Record<string, string> = {
  explicit: 'an explicit correction',
  implicit: 'a newer statement about the same thing',
  authority: 'a source of higher authority',
  temporal: 'a later time',
};

const FIELD_WORDS: Record<string, string> = {
  search: 'search text',
  validity: 'validity',
  memoryType: 'memory type',
  needsReview: 'review flag',
  asOf: 'as-of time',
  scope: 'scope',
  source: 'source',
  isConstraint: 'constraint',
  key: 'key',
};

/** The engine's action name in words, for actions no sentence below knows ("maturity.set"). */
export function actionWords(action: string): string {
  const known: Record<string, string> = {
    delete: 'deleted',
    supersede: 'replaced',
    dismiss_review: 'dismissed review flags',
    restore_review: 'restored review flags',
    flag_review: 'flagged for review',
    'maturity.set': 'changed the maturity',
  };
  return (
    known[action] ??
    action
      .replace(/[._]/g, ' ')
      .replace(/([a-z])([A-Z])/g, '$1 $2')
      .toLowerCase()
  );
}

/** A filter field's name in words ("memoryType" → "memory type"). */
export function fieldWords(field: string): string {
  return FIELD_WORDS[field] ?? actionWords(field);
}

/** The reason as kept, without the rule prefix a supersession puts first ("explicit: …"). */
export function reasonText(entry: AuditEntry): string | null {
  if (entry.reason === null) return null;
  const rule = typeof entry.details.rule === 'string' ? entry.details.rule : null;
  const text = rule && entry.reason.startsWith(`${rule}:`) ? entry.reason.slice(rule.length + 1).trim() : entry.reason.trim();
  return text === '' ? null : text;
}

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

function Refs({ ids, partitionId, briefFor }: { ids: readonly string[]; partitionId: number | null; briefFor: BriefFor }) {
  const shown = ids.slice(0, SHOWN_REFS);
  return (
    <span className="audit-refs">
      {shown.map((id, i) => (
        <span key={id}>
          {i > 0 ? (i === shown.length - 1 && ids.length <= SHOWN_REFS ? ' and ' : ', ') : null}
          <FactRef id={id} partitionId={partitionId} {...(briefFor(id) !== undefined ? { brief: briefFor(id) } : {})} />
        </span>
      ))}
      {ids.length > SHOWN_REFS ? <span className="faint"> and {formatNumber(ids.length - SHOWN_REFS)} more</span> : null}
    </span>
  );
}

/** The fact ids a line shows as references (for one read of briefs per page). */
export function referencedIds(entry: AuditEntry): string[] {
  if (entry.action === 'delete') return [];
  return [...entry.targetIds.slice(0, SHOWN_REFS + 1), ...strings(entry.details.causeFacts).slice(0, SHOWN_REFS)];
}

/** What happened, as a sentence (the actor is its own column). */
export function AuditStory({ entry, briefFor }: { entry: AuditEntry; briefFor: BriefFor }): ReactNode {
  const d = entry.details;
  const pid = entry.partitionId;
  const refs = (ids: readonly string[]) => <Refs ids={ids} partitionId={pid} briefFor={briefFor} />;
  switch (entry.action) {
    case 'delete': {
      const count = num(d.count) ?? entry.targetIds.length;
      const fields = strings(d.filterFields).map(fieldWords);
      const how =
        d.selection === 'all'
          ? ' (every fact of the partition)'
          : d.selection === 'filter' && fields.length > 0
            ? ` matching a filter on ${fields.join(', ')}`
            : '';
      const after = [
        num(d.flagged) ? `${plural(num(d.flagged) ?? 0, 'dependent')} flagged for review` : null,
        num(d.relinked) ? `${plural(num(d.relinked) ?? 0, 'chain pointer')} relinked` : null,
      ].filter(Boolean);
      return (
        <>
          Deleted <strong>{plural(count, 'fact')}</strong>
          {how}
          {after.length > 0 ? `; ${after.join(', ')}` : ''}.{' '}
          <span className="faint audit-erased">Key and text erased with {count === 1 ? 'it' : 'them'}: the log keeps who, when and why.</span>
        </>
      );
    }
    case 'supersede': {
      const [oldId, newId] = entry.targetIds;
      const rule = typeof d.rule === 'string' ? (RULE_WORDS[d.rule] ?? d.rule) : null;
      const flagged = num(d.flagged);
      return (
        <>
          Replaced {oldId ? refs([oldId]) : 'a fact'}
          {newId ? <> with {refs([newId])}</> : null}
          {rule ? <span className="muted">, by {rule}</span> : null}
          {flagged ? <span className="muted">; {plural(flagged, 'dependent')} flagged for review</span> : null}.
        </>
      );
    }
    case 'dismiss_review': {
      const causes = strings(d.causeFacts);
      return (
        <>
          Dismissed the review {entry.targetIds.length === 1 ? 'flag' : 'flags'} of{' '}
          {entry.targetIds.length === 1 ? null : <strong>{plural(entry.targetIds.length, 'fact')}: </strong>}
          {refs(entry.targetIds)}
          {causes.length > 0 ? <span className="muted"> (raised by a change to {refs(causes)})</span> : null}.
        </>
      );
    }
    case 'restore_review':
      return (
        <>
          Undid a dismissal: the review {entry.targetIds.length === 1 ? 'flag is' : 'flags are'} back on {refs(entry.targetIds)}.
        </>
      );
    case 'flag_review':
      return (
        <>
          Flagged {entry.targetIds[0] ? refs([entry.targetIds[0]]) : 'a fact'} for review: a conversation turn contradicted it
          {entry.targetIds[1] ? <> ({refs([entry.targetIds[1]])})</> : null}, not sure enough to replace it.
        </>
      );
    case 'maturity.set':
      return (
        <>
          Changed the partition&apos;s maturity from <strong>{String(d.from ?? 'none')}</strong> to <strong>{String(d.to ?? 'none')}</strong>.
        </>
      );
    default:
      return (
        <>
          {actionWords(entry.action).replace(/^./, (c) => c.toUpperCase())}
          {entry.targetIds.length > 0 ? <> {refs(entry.targetIds)}</> : null}.
        </>
      );
  }
}
