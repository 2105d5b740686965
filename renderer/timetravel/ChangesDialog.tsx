// "What changed between two times": the facts that became valid, were superseded or
// invalidated, or were deleted between two instants, each as a readable reference to the fact.
import { useState } from 'react';
import { MAX_BRIEF_IDS } from '../../shared/contract';
import type { ChangeKind } from '../../shared/inspect';
import { useDispatch } from '../app/state';
import { useQuery } from '../api/hooks';
import { Button } from '../ui/Button';
import { Dialog } from '../ui/Dialog';
import { FactRef, useFactBriefs } from '../ui/FactRef';
import { DateTimeInput } from '../ui/DateTimeInput';
import { formatNumber, formatTime } from '../ui/format';
import { ErrorState, Loading } from '../ui/states';

/** Changes one answer lists: with their successors, at most one `facts.briefs` read. */
const LISTED = 100;
const MINUTE = 60_000;

export const CHANGE_WORDS: Record<ChangeKind, string> = {
  'became-valid': 'became valid',
  superseded: 'superseded',
  invalidated: 'invalidated',
  deleted: 'deleted',
};
const KINDS: readonly ChangeKind[] = ['became-valid', 'superseded', 'invalidated', 'deleted'];

export function ChangesDialog({
  partitionId,
  first,
  last,
  asOf,
  onClose,
}: {
  partitionId: number;
  /** The partition's oldest and newest fact times (ms). */
  first: number;
  last: number;
  asOf: string | null;
  onClose: () => void;
}) {
  const dispatch = useDispatch();
  // Minute inputs: start a minute before the oldest fact and end on the minute after the newest,
  // so that by default every change of the history is between them.
  const [from, setFrom] = useState<string | undefined>(() => asOf ?? new Date(Math.floor(first / MINUTE) * MINUTE - MINUTE).toISOString());
  const [to, setTo] = useState<string | undefined>(() => new Date(Math.ceil((last + 1) / MINUTE) * MINUTE).toISOString());
  const q = useQuery('facts.changes', from && to ? { partitionId, from, to, limit: LISTED } : null, { keepPrevious: true });
  const changes = q.data?.changes ?? [];
  const ids = [...new Set(changes.flatMap((c) => (c.by ? [c.factId, c.by] : [c.factId])))].slice(0, MAX_BRIEF_IDS);
  const { briefFor, loaded } = useFactBriefs(partitionId, ids);
  const open = (factId: string) => {
    dispatch({ type: 'openFact', factId, view: 'memories', tab: 'detail' });
    onClose();
  };
  const ref = (id: string) => (loaded ? <FactRef id={id} brief={briefFor(id)} onOpen={open} /> : <span className="fact-ref faint">…</span>);
  const travel = (at: string) => {
    dispatch({ type: 'asOf', asOf: at });
    onClose();
  };
  const totals = q.data?.totals;
  const total = totals ? KINDS.reduce((n, k) => n + totals[k], 0) : 0;

  return (
    <Dialog
      title="What changed between two times"
      onClose={onClose}
      wide
      footer={
        <>
          <span className="grow" />
          <Button onClick={() => from && travel(from)} disabled={!from}>
            Show the state at the first time
          </Button>
          <Button onClick={() => to && travel(to)} disabled={!to}>
            Show the state at the second time
          </Button>
          <Button variant="primary" onClick={onClose}>
            Done
          </Button>
        </>
      }
    >
      <div className="row wrap changes-times">
        <label className="field">
          <span>From (UTC)</span>
          <DateTimeInput value={from} onChange={setFrom} data-autofocus />
        </label>
        <label className="field">
          <span>To (UTC)</span>
          <DateTimeInput value={to} onChange={setTo} />
        </label>
      </div>
      {!from || !to ? (
        <p className="faint">Pick both times.</p>
      ) : q.error ? (
        <ErrorState error={q.error} onRetry={q.refetch} context="Changes" />
      ) : !q.data ? (
        <Loading label="Comparing the two times" />
      ) : (
        <>
          <p className="changes-summary" role="status" data-testid="changes-summary">
            Between {formatTime(q.data.from)} and {formatTime(q.data.to)}:{' '}
            {KINDS.map((k) => `${formatNumber(q.data?.totals[k] ?? 0)} ${CHANGE_WORDS[k]}`).join(' · ')}
            {q.data.truncated ? ` (the first ${formatNumber(changes.length)} of ${formatNumber(total)} listed)` : ''}
          </p>
          {changes.length === 0 ? (
            <p className="faint">Nothing changed between these times.</p>
          ) : (
            <ul className="list-plain changes-list" aria-label="Changes">
              {changes.map((c) => (
                <li key={`${c.kind}-${c.factId}-${c.at}`} className="change-item" data-kind={c.kind}>
                  <span className="mono faint change-at">{formatTime(c.at)}</span>
                  <span className={`badge change-kind change-${c.kind}`}>{CHANGE_WORDS[c.kind]}</span>
                  {ref(c.factId)}
                  {c.by ? <span className="change-by muted">by {ref(c.by)}</span> : null}
                </li>
              ))}
            </ul>
          )}
        </>
      )}
    </Dialog>
  );
}
