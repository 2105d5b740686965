// The review queue: every fact flagged needs_review, with the upstream change that caused it;
// dismiss the flag or delete the fact (both recorded in the audit log by the engine).
import { useState } from 'react';
import type { ChannelOutput } from '../../shared/contract';
import { useAppState, useDispatch } from '../app/state';
import { useMutation, useQuery } from '../api/hooks';
import { EarlierCauses } from '../ui/EarlierCauses';
import { FactRef } from '../ui/FactRef';
import { Button } from '../ui/Button';
import { FactBadges } from '../ui/FactBadges';
import { TurnCauseText } from '../ui/TurnCause';
import { formatTime, plural } from '../ui/format';
import { EmptyState, ErrorState, Loading } from '../ui/states';
import { useToast } from '../ui/Toast';
import { dismissInBatches } from './bulk-dismiss';
import { useUndoDismiss } from './undo-dismiss';

type ReviewItem = ChannelOutput<'review.queue'>['entries'][number];
const PAGE = 100;

export function ReviewCard({
  item,
  checked,
  onCheck,
  onOpen,
  onDismiss,
  onDelete,
}: {
  item: ReviewItem;
  checked: boolean;
  onCheck: (v: boolean) => void;
  onOpen: () => void;
  onDismiss: () => void;
  onDelete: () => void;
}) {
  const f = item.fact;
  return (
    <li className="review-card card" data-fact-id={f.id} aria-label={`Review ${f.key}`}>
      <div className="row">
        <input type="checkbox" aria-label={`Select ${f.key}`} checked={checked} onChange={(e) => onCheck(e.target.checked)} />
        <button type="button" className="link-button review-key" onClick={onOpen}>
          {f.key}
        </button>
        <FactBadges fact={f} />
        <span className="grow" />
        <span className="faint mono">{formatTime(f.ts)}</span>
      </div>
      <div className="memory-text review-value">
        {f.valueClippedStart ? '…' : ''}
        {f.value}
        {f.valueClippedEnd ? '…' : ''}
      </div>
      <div className="review-cause-line">
        <span className="muted">Why: </span>
        <span className="memory-text">{item.cause.text ?? 'a fact it depends on changed'}</span>
      </div>
      <EarlierCauses causes={item.cause.earlier} />
      <div className="review-cause-line">
        <span className="muted">Upstream change: </span>
        {item.cause.cause ? (
          <span>
            <FactRef id={item.cause.cause.id} brief={item.cause.cause} />
            {item.cause.cause.supersessionRule ? <span className="faint"> ({item.cause.cause.supersessionRule})</span> : null}
          </span>
        ) : item.cause.causeFactId ? (
          <FactRef id={item.cause.causeFactId} brief={null} />
        ) : item.cause.turn ? (
          <TurnCauseText turn={item.cause.turn} />
        ) : (
          <span className="faint">not recorded</span>
        )}
        {item.cause.replacement ? (
          <span>
            {' '}
            → now <FactRef id={item.cause.replacement.id} brief={item.cause.replacement} />
          </span>
        ) : null}
      </div>
      <div className="row review-actions">
        <Button small onClick={onOpen}>
          Open
        </Button>
        <Button small onClick={onDismiss}>
          Dismiss flag
        </Button>
        <Button small variant="danger" onClick={onDelete}>
          Delete…
        </Button>
      </div>
    </li>
  );
}

function ReviewPage({
  partitionId,
  after,
  selected,
  setSelected,
  onNext,
  isLast,
}: {
  partitionId: number;
  after: string | null;
  selected: ReadonlySet<string>;
  setSelected: (id: string, on: boolean) => void;
  onNext: (cursor: string) => void;
  isLast: boolean;
}) {
  const dispatch = useDispatch();
  const toast = useToast();
  const dismiss = useMutation('review.dismiss');
  const undoAction = useUndoDismiss(partitionId);
  const q = useQuery('review.queue', { partitionId, page: { limit: PAGE, after } }, { keepPrevious: true });
  if (q.error && !q.data) return <ErrorState error={q.error} onRetry={q.refetch} context="Review queue" />;
  if (!q.data) return <Loading label="Loading the review queue" />;
  const next = q.data.nextCursor;
  return (
    <>
      {q.data.entries.map((item) => (
        <ReviewCard
          key={item.fact.id}
          item={item}
          checked={selected.has(item.fact.id)}
          onCheck={(v) => setSelected(item.fact.id, v)}
          onOpen={() => dispatch({ type: 'openFact', factId: item.fact.id, view: 'memories', tab: 'graph' })}
          onDismiss={() =>
            void dismiss.mutate({ partitionId, factIds: [item.fact.id], reason: 'dismissed in the review queue' }).then(
              (r) => toast(`Dismissed the flag on ${item.fact.key}`, 'info', undoAction(r.auditId)),
              (e: unknown) => toast(`Could not dismiss: ${e instanceof Error ? e.message : String(e)}`, 'error'),
            )
          }
          onDelete={() => dispatch({ type: 'delete', request: { kind: 'ids', ids: [item.fact.id] } })}
        />
      ))}
      {isLast && next ? (
        <li>
          <Button onClick={() => onNext(next)}>Load more</Button>
        </li>
      ) : null}
    </>
  );
}

export function ReviewQueue() {
  const { partitionId } = useAppState();
  const dispatch = useDispatch();
  const toast = useToast();
  const [cursors, setCursors] = useState<Array<string | null>>([null]);
  const [selected, setSelectedSet] = useState<ReadonlySet<string>>(new Set());
  const first = useQuery('review.queue', partitionId === null ? null : { partitionId, page: { limit: PAGE, after: null } }, { keepPrevious: true });
  const dismiss = useMutation('review.dismiss');
  const undoAction = useUndoDismiss(partitionId);
  const [dismissing, setDismissing] = useState(false);
  if (partitionId === null) return null;

  /** Every selected flag, in requests of at most the contract's cap; what failed stays selected. */
  const dismissSelected = async (pid: number) => {
    setDismissing(true);
    const r = await dismissInBatches([...selected], (factIds) => dismiss.mutate({ partitionId: pid, factIds, reason: 'dismissed in the review queue' }));
    setDismissing(false);
    setSelectedSet((s) => {
      const n = new Set(s);
      for (const id of r.done) n.delete(id);
      return n;
    });
    const how = r.batches > 1 ? ` in ${r.batches} requests` : '';
    // One request can be undone as a whole; several cannot (only the last is still the latest change).
    if (r.error === undefined) toast(`Dismissed ${plural(r.dismissed, 'flag')}${how}`, 'info', r.batches === 1 ? undoAction(r.lastAuditId) : undefined);
    else
      toast(
        `Dismissed ${plural(r.dismissed, 'flag')}${how}; ${plural(r.remaining.length, 'selected fact')} could not be (still selected): ${r.error instanceof Error ? r.error.message : String(r.error)}`,
        'error',
      );
  };

  const setSelected = (id: string, on: boolean) =>
    setSelectedSet((s) => {
      const n = new Set(s);
      if (on) n.add(id);
      else n.delete(id);
      return n;
    });
  const total = first.data?.total ?? null;

  return (
    <section className="review-view col" aria-label="Review queue">
      <header className="row wrap view-header">
        <h2 className="grow">Review queue</h2>
        <span className="muted" data-testid="review-total">
          {total === null ? '' : `${plural(total, 'fact')} need review`}
        </span>
        {selected.size > 0 ? (
          <>
            <Button small disabled={dismissing} onClick={() => void dismissSelected(partitionId)}>
              Dismiss {selected.size} selected
            </Button>
            <Button small variant="danger" onClick={() => dispatch({ type: 'delete', request: { kind: 'ids', ids: [...selected] } })}>
              Delete {selected.size} selected…
            </Button>
          </>
        ) : null}
      </header>
      {total === 0 ? (
        <EmptyState title="Nothing needs review">
          When a fact is corrected or deleted, the facts that rest on it are flagged and appear here with the change that caused it.
        </EmptyState>
      ) : (
        <ul className="list-plain review-list col scroll">
          {cursors.map((c, i) => (
            <ReviewPage
              key={c ?? 'first'}
              partitionId={partitionId}
              after={c}
              selected={selected}
              setSelected={setSelected}
              isLast={i === cursors.length - 1}
              onNext={(cursor) => setCursors((cs) => (cs.includes(cursor) ? cs : [...cs, cursor]))}
            />
          ))}
        </ul>
      )}
    </section>
  );
}
