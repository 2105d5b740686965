// The audit log: every deletion, supersession and dismissal, newest first, with who, when and
// why (never the deleted text). Pages by id; can be narrowed to this partition or one fact.
import { useState } from 'react';
import type { AuditEntry } from '../../shared/domain';
import { useAppState } from '../app/state';
import { useQuery } from '../api/hooks';
import { Button } from '../ui/Button';
import { SelectField, TextField } from '../ui/fields';
import type { FactBrief } from '../../shared/inspect';
import { FactRef, useFactBriefs } from '../ui/FactRef';
import { formatNumber, formatTime } from '../ui/format';
import { EmptyState, ErrorState, Loading } from '../ui/states';

const PAGE = 100;

const DETAIL_LABELS: Record<string, string> = {
  count: 'facts',
  selection: 'selected by',
  filterFields: 'filter fields',
  flagged: 'flagged for review',
  relinked: 'chain pointers relinked',
  cleared: 'chain pointers cleared',
  proposalsAffected: 'proposals re-pointed',
  causeFacts: 'upstream facts',
  rule: 'rule',
  from: 'from',
  to: 'to',
};

/** A details key as words: the known ones by name, others split at camelCase and underscores. */
export function detailLabel(key: string): string {
  return (
    DETAIL_LABELS[key] ??
    key
      .replace(/_/g, ' ')
      .replace(/([a-z])([A-Z])/g, '$1 $2')
      .toLowerCase()
  );
}

/** A details value as text: lists joined, nested objects as "name: value" pairs, no JSON. */
export function detailText(value: unknown): string {
  if (value === null || value === undefined) return '—';
  if (Array.isArray(value)) return value.length === 0 ? 'none' : value.map(detailText).join(', ');
  if (typeof value === 'object')
    return Object.entries(value as Record<string, unknown>)
      .map(([k, v]) => `${detailLabel(k)}: ${detailText(v)}`)
      .join('; ');
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (typeof value === 'number') return value.toLocaleString('en-US');
  return String(value);
}

/** Details keys whose values are fact ids: shown as references, not ids. */
const FACT_ID_DETAILS = new Set(['causeFacts']);

type BriefFor = (id: string) => FactBrief | null | undefined;

function AuditDetails({ details, partitionId, briefFor }: { details: Record<string, unknown>; partitionId: number | null; briefFor: BriefFor }) {
  const entries = Object.entries(details).filter(([, v]) => v !== undefined);
  if (entries.length === 0) return null;
  return (
    <dl className="audit-details-list">
      {entries.map(([k, v]) => (
        <div key={k} className="audit-detail">
          <dt>{detailLabel(k)}</dt>
          <dd>
            {FACT_ID_DETAILS.has(k) && Array.isArray(v) ? (
              <AuditTargets ids={v.filter((x): x is string => typeof x === 'string')} partitionId={partitionId} briefFor={briefFor} />
            ) : (
              detailText(v)
            )}
          </dd>
        </div>
      ))}
    </dl>
  );
}

const SHOWN_TARGETS = 3;

function AuditTargets({ ids, partitionId, briefFor }: { ids: readonly string[]; partitionId: number | null; briefFor: BriefFor }) {
  return (
    <ul className="list-plain audit-targets">
      {ids.slice(0, SHOWN_TARGETS).map((t) => (
        <li key={t}>
          <FactRef id={t} partitionId={partitionId} {...(briefFor(t) !== undefined ? { brief: briefFor(t) } : {})} />
        </li>
      ))}
      {ids.length > SHOWN_TARGETS ? <li className="faint">and {formatNumber(ids.length - SHOWN_TARGETS)} more</li> : null}
    </ul>
  );
}

/** Fact ids an entry shows as references. */
function shownIds(e: AuditEntry): string[] {
  const causes = Array.isArray(e.details.causeFacts) ? e.details.causeFacts.filter((x): x is string => typeof x === 'string') : [];
  return [...e.targetIds.slice(0, SHOWN_TARGETS), ...causes.slice(0, SHOWN_TARGETS)];
}

export function AuditTable({ entries }: { entries: readonly AuditEntry[] }) {
  // One read for the page's references when they all live in one partition.
  const partitions = new Set(entries.map((e) => e.partitionId));
  const shared = partitions.size === 1 ? (entries[0]?.partitionId ?? null) : null;
  const { briefFor } = useFactBriefs(shared, shared === null ? [] : entries.flatMap(shownIds));
  return (
    <table className="audit-table">
      <thead>
        <tr>
          <th scope="col">When</th>
          <th scope="col">Action</th>
          <th scope="col">Who</th>
          <th scope="col">Facts</th>
          <th scope="col">Why</th>
          <th scope="col">Details</th>
        </tr>
      </thead>
      <tbody>
        {entries.map((e) => (
          <tr key={e.id} data-audit-action={e.action}>
            <td className="mono nowrap">{formatTime(e.at)}</td>
            <td>
              <span className="badge">{e.action}</span>
            </td>
            <td className="memory-text">{e.actor}</td>
            <td title={e.targetIds.join('\n')}>
              {e.targetIds.length > 0 ? <AuditTargets ids={e.targetIds} partitionId={e.partitionId} briefFor={briefFor} /> : <span className="faint">—</span>}
            </td>
            <td className="memory-text">{e.reason ?? <span className="faint">—</span>}</td>
            <td className="audit-details">
              <AuditDetails details={e.details} partitionId={e.partitionId} briefFor={briefFor} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function AuditPage({
  partitionId,
  factId,
  beforeId,
  onMore,
  isLast,
}: {
  partitionId: number | null;
  factId: string;
  beforeId: number | undefined;
  onMore: (id: number) => void;
  isLast: boolean;
}) {
  const q = useQuery(
    'audit.list',
    { partitionId, limit: PAGE, ...(factId ? { factId } : {}), ...(beforeId !== undefined ? { beforeId } : {}) },
    { keepPrevious: true },
  );
  if (q.error && !q.data) return <ErrorState error={q.error} onRetry={q.refetch} context="Audit log" />;
  if (!q.data) return <Loading label="Loading the audit log" />;
  if (q.data.entries.length === 0 && beforeId === undefined)
    return <EmptyState title="The audit log is empty">Deletions, supersessions and dismissed review flags are recorded here.</EmptyState>;
  const next = q.data.nextBeforeId;
  return (
    <>
      <AuditTable entries={q.data.entries} />
      {isLast && next !== null ? (
        <Button onClick={() => onMore(next)} className="audit-more">
          Older entries
        </Button>
      ) : null}
    </>
  );
}

export function AuditLog() {
  const { partitionId } = useAppState();
  const [scope, setScope] = useState<'partition' | 'all'>('partition');
  const [factId, setFactId] = useState('');
  const [pages, setPages] = useState<Array<number | undefined>>([undefined]);
  const pid = scope === 'partition' ? partitionId : null;
  const key = `${pid}|${factId}`;
  return (
    <section className="audit-view col" aria-label="Audit log">
      <header className="row wrap view-header">
        <h2 className="grow">Audit log</h2>
        <SelectField<'partition' | 'all'>
          label="Entries of"
          value={scope}
          onChange={(v) => {
            setScope(v);
            setPages([undefined]);
          }}
          options={[
            { value: 'partition', label: 'this partition' },
            { value: 'all', label: 'every partition' },
          ]}
        />
        <TextField
          label="Fact id"
          value={factId}
          onChange={(e) => {
            setFactId(e.target.value.trim());
            setPages([undefined]);
          }}
          placeholder="any"
        />
      </header>
      <div className="scroll audit-scroll">
        {pages.map((b, i) => (
          <AuditPage
            key={`${key}|${b ?? 'top'}`}
            partitionId={pid}
            factId={factId}
            beforeId={b}
            isLast={i === pages.length - 1}
            onMore={(id) => setPages((p) => [...p, id])}
          />
        ))}
      </div>
    </section>
  );
}
