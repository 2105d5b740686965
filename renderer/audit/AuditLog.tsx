// The audit log as a history: every deletion, supersession and dismissal, newest first, told
// in words with who, when and why (never the deleted text). Pages by id; can be narrowed to this partition or one fact.
import { useState } from 'react';
import type { AuditEntry } from '../../shared/domain';
import { useAppState } from '../app/state';
import { useQuery } from '../api/hooks';
import { Button } from '../ui/Button';
import { SelectField, TextField } from '../ui/fields';
import { useFactBriefs } from '../ui/FactRef';
import { formatTime } from '../ui/format';
import { AuditStory, reasonText, referencedIds } from './history';
import { EmptyState, ErrorState, Loading } from '../ui/states';

const PAGE = 100;

export function AuditTable({ entries }: { entries: readonly AuditEntry[] }) {
  // One read for the page's references when they all live in one partition.
  const partitions = new Set(entries.map((e) => e.partitionId));
  const shared = partitions.size === 1 ? (entries[0]?.partitionId ?? null) : null;
  const { briefFor } = useFactBriefs(shared, shared === null ? [] : entries.flatMap(referencedIds));
  return (
    <table className="audit-table">
      <thead>
        <tr>
          <th scope="col">When</th>
          <th scope="col">Who</th>
          <th scope="col">What happened</th>
          <th scope="col">Why</th>
        </tr>
      </thead>
      <tbody>
        {entries.map((e) => {
          const why = reasonText(e);
          return (
            <tr key={e.id} data-audit-action={e.action}>
              <td className="mono nowrap">{formatTime(e.at)}</td>
              <td className="memory-text">{e.actor}</td>
              {/* The ids stay in the tooltip, for support. */}
              <td className="audit-story" title={e.targetIds.join('\n')}>
                <AuditStory entry={e} briefFor={briefFor} />
              </td>
              <td className="memory-text">{why ?? <span className="faint">—</span>}</td>
            </tr>
          );
        })}
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
