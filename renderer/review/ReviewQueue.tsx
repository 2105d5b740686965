// The review queue: every fact flagged needs_review, grouped by the upstream change that caused
// it (one delete that flagged 72 facts is one group: dismiss, select or delete them at once), or
// as a flat list. Selection (Shift ranges, select all) and keyboard triage work in both; every
// dismissal can be undone from its notice. The engine records each action in the audit log.
import { useCallback, useMemo, useRef, useState } from 'react';
import type { ReviewGroup } from '../../shared/inspect';
import { useAddressState, useAppState, useDispatch } from '../app/state';
import { useApi, useMutation, useQuery } from '../api/hooks';
import { useShortcut } from '../shortcuts/shortcuts';
import { Button } from '../ui/Button';
import { plural } from '../ui/format';
import { EmptyState, ErrorState, Loading } from '../ui/states';
import { useToast } from '../ui/Toast';
import { dismissInBatches } from './bulk-dismiss';
import { CauseGroup, causeName, type GroupHandlers } from './CauseGroup';
import { ReviewCard } from './ReviewCard';
import { gatherReviewIds, useReviewPages } from './review-pages';
import { factRange, groupRowKey, rowKeysIn, stepKey, TriageContext, type TriageRegistry } from './triage';
import { useUndoDismiss } from './undo-dismiss';
import './review.css';

const REASON = 'dismissed in the review queue';
/** Groups this small show their facts at once; larger ones (one delete's 72 flags) start folded. */
const OPEN_GROUP_MAX = 10;
const NONE: string[] = [];

const message = (e: unknown): string => (e instanceof Error ? e.message : String(e));

export function ReviewQueue() {
  const { partitionId } = useAppState();
  if (partitionId === null) return null;
  return <Queue key={partitionId} partitionId={partitionId} />;
}

function Queue({ partitionId }: { partitionId: number }) {
  const dispatch = useDispatch();
  const toast = useToast();
  const { transport } = useApi();
  // The arrangement and the selection live in the address: Back, Forward and a copied link bring them back.
  const [mode, setMode] = useAddressState('queue', 'grouped');
  const [picked, setPicked] = useAddressState('picked', NONE);
  const selected = useMemo<ReadonlySet<string>>(() => new Set(picked), [picked]);
  const setSelected = useCallback(
    (next: ReadonlySet<string> | ((s: ReadonlySet<string>) => ReadonlySet<string>)) =>
      setPicked((p) => [...(typeof next === 'function' ? next(new Set(p)) : next)]),
    [setPicked],
  );
  const [active, setActive] = useState<string | null>(null);
  // Only what the reviewer toggled; the rest follows OPEN_GROUP_MAX.
  const [expanded, setExpanded] = useState<ReadonlyMap<string, boolean>>(new Map());
  const anchor = useRef<string | null>(null);
  // Where the cursor was: when its row goes (dismissed), the row taking its place is next.
  const lastIndex = useRef<number | null>(null);
  const listRef = useRef<HTMLDivElement>(null);
  const registry = useMemo<TriageRegistry>(() => new Map(), []);
  const groups = useQuery('review.groups', { partitionId }, { keepPrevious: true });
  const dismiss = useMutation('review.dismiss');
  const dismissCause = useMutation('review.dismissCause');
  const undoAction = useUndoDismiss(partitionId);
  const [busy, setBusy] = useState(false);

  const select = useCallback(
    (ids: readonly string[], on: boolean) => {
      setSelected((s) => {
        const n = new Set(s);
        for (const id of ids) {
          if (on) n.add(id);
          else n.delete(id);
        }
        return n;
      });
    },
    [setSelected],
  );

  const openFact = (factId: string) => dispatch({ type: 'openFact', factId, view: 'memories', tab: 'graph' });
  const deleteIds = (ids: readonly string[]) => {
    if (ids.length > 0) dispatch({ type: 'delete', request: { kind: 'ids', ids: [...ids] } });
  };
  const dismissOne = (factId: string, key: string) =>
    void dismiss.mutate({ partitionId, factIds: [factId], reason: REASON }).then(
      (r) => {
        select([factId], false);
        toast(`Dismissed the flag on ${key}`, 'info', undoAction(r.auditId));
      },
      (e: unknown) => toast(`Could not dismiss: ${message(e)}`, 'error'),
    );

  /** Every selected flag, in requests of at most the contract's cap; what failed stays selected. */
  const dismissSelected = async () => {
    setBusy(true);
    const r = await dismissInBatches([...selected], (factIds) => dismiss.mutate({ partitionId, factIds, reason: REASON }));
    setBusy(false);
    select(r.done, false);
    const how = r.batches > 1 ? ` in ${r.batches} requests` : '';
    // One request can be undone as a whole; several cannot (only the last is still the latest change).
    if (r.error === undefined) toast(`Dismissed ${plural(r.dismissed, 'flag')}${how}`, 'info', r.batches === 1 ? undoAction(r.lastAuditId) : undefined);
    else
      toast(
        `Dismissed ${plural(r.dismissed, 'flag')}${how}; ${plural(r.remaining.length, 'selected fact')} could not be (still selected): ${message(r.error)}`,
        'error',
      );
  };

  const groupIds = (g: ReviewGroup) => gatherReviewIds(transport, partitionId, g.causeFactId);
  const handlers: GroupHandlers = {
    groupIds,
    onOpenCause: (g) => {
      if (g.cause) openFact(g.cause.id);
      else if (g.deleted) dispatch({ type: 'view', view: 'audit' });
    },
    onDismissAll: (g) =>
      void dismissCause.mutate({ partitionId, causeFactId: g.causeFactId, reason: REASON }).then(
        (r) => {
          select(r.dismissed, false);
          const more = r.remaining > 0 ? `; ${plural(r.remaining, 'flag')} of the group remain (dismiss again)` : '';
          toast(`Dismissed ${plural(r.dismissed.length, 'flag')} resting on ${causeName(g)}${more}`, 'info', undoAction(r.auditId));
        },
        (e: unknown) => toast(`Could not dismiss the group: ${message(e)}`, 'error'),
      ),
    onDeleteAll: (g) => void groupIds(g).then(deleteIds, (e: unknown) => toast(`Could not list the group: ${message(e)}`, 'error')),
    onSelectAll: (g) =>
      void groupIds(g).then(
        (ids) => select(ids, !ids.every((id) => selected.has(id))),
        (e: unknown) => toast(`Could not list the group: ${message(e)}`, 'error'),
      ),
  };

  const onCheck = (factId: string, on: boolean, range: boolean) => {
    const ids = range && anchor.current !== null ? factRange(rowKeysIn(listRef.current), anchor.current, factId) : [factId];
    select(ids, on);
    anchor.current = factId;
    setActive(`f:${factId}`);
  };
  const factProps = (id: string, key: string) => ({
    checked: selected.has(id),
    onCheck: (on: boolean, range: boolean) => onCheck(id, on, range),
    onOpen: () => openFact(id),
    onDismiss: () => dismissOne(id, key),
    onDelete: () => deleteIds(selected.has(id) && selected.size > 1 ? [...selected] : [id]),
  });

  // --- Keyboard triage ------------------------------------------------------------------------
  const focusRow = (key: string | null) => {
    if (key === null) return;
    setActive(key);
    lastIndex.current = rowKeysIn(listRef.current).indexOf(key);
    const el = [...(listRef.current?.querySelectorAll<HTMLElement>('[data-triage-row]') ?? [])].find((e) => e.dataset.triageRow === key);
    el?.focus();
  };
  const current = () => (active !== null && registry.has(active) ? registry.get(active) : undefined);
  const move = (delta: number, extend: boolean) => {
    const keys = rowKeysIn(listRef.current);
    const gone = active !== null && !keys.includes(active) && lastIndex.current !== null && keys.length > 0;
    const next = gone
      ? (keys[Math.min(keys.length - 1, Math.max(0, (lastIndex.current ?? 0) + (delta > 0 ? 0 : delta)))] ?? null)
      : stepKey(keys, active !== null && keys.includes(active) ? active : null, delta);
    if (extend && next?.startsWith('f:')) {
      const from = active?.startsWith('f:') ? active.slice(2) : next.slice(2);
      anchor.current ??= from;
      select(factRange(keys, anchor.current, next.slice(2)), true);
    } else if (!extend && next?.startsWith('f:')) anchor.current = next.slice(2);
    focusRow(next);
  };
  const toggleCurrent = async () => {
    const row = current();
    if (!row) return;
    const ids = await row.factIds();
    select(ids, !ids.every((id) => selected.has(id)));
  };
  useShortcut('row.down', () => move(1, false));
  useShortcut('row.up', () => move(-1, false));
  useShortcut('row.extendDown', () => move(1, true));
  useShortcut('row.extendUp', () => move(-1, true));
  useShortcut('row.page', (e) => move(e.key === 'PageUp' ? -10 : 10, false));
  useShortcut('row.ends', (e) => move(e.key === 'Home' ? -1e9 : 1e9, false));
  useShortcut('row.toggle', () => void toggleCurrent());
  useShortcut('row.all', () => void gatherReviewIds(transport, partitionId).then((ids) => select(ids, true)));
  useShortcut('row.delete', () => {
    if (selected.size > 0) deleteIds([...selected]);
    else current()?.remove();
  });
  useShortcut('review.dismiss', () => {
    if (selected.size > 0) void dismissSelected();
    else current()?.dismiss();
  });
  useShortcut('review.open', () => current()?.open());
  useShortcut('review.expand', (e) => current()?.expand?.(e.key === 'ArrowRight'));
  useShortcut('review.mode', () => setMode((m) => (m === 'grouped' ? 'flat' : 'grouped')));
  useShortcut('escape', () => setSelected(new Set()));

  const total = groups.data?.total ?? null;
  const setGroupExpanded = (cause: string | null, on: boolean) => setExpanded((s) => new Map(s).set(groupRowKey(cause), on));

  return (
    <section className="review-view col" aria-label="Review queue">
      <header className="row wrap view-header">
        <h2 className="grow">Review queue</h2>
        <span className="muted" data-testid="review-total">
          {total === null ? '' : `${plural(total, 'fact')} need review`}
        </span>
        <div className="segmented" role="group" aria-label="Arrange the queue">
          <Button small aria-pressed={mode === 'grouped'} onClick={() => setMode('grouped')}>
            By cause
          </Button>
          <Button small aria-pressed={mode === 'flat'} onClick={() => setMode('flat')}>
            Flat list
          </Button>
        </div>
        <Button small onClick={() => void gatherReviewIds(transport, partitionId).then((ids) => select(ids, true))}>
          Select all
        </Button>
        {selected.size > 0 ? (
          <>
            <span className="muted" data-testid="review-selected">
              {plural(selected.size, 'fact')} selected
            </span>
            <Button small disabled={busy} onClick={() => void dismissSelected()}>
              Dismiss {selected.size} selected
            </Button>
            <Button small variant="danger" onClick={() => deleteIds([...selected])}>
              Delete {selected.size} selected…
            </Button>
            <Button small variant="ghost" onClick={() => setSelected(new Set())}>
              Clear selection
            </Button>
          </>
        ) : null}
      </header>
      <TriageContext.Provider value={registry}>
        <div className="review-scroll scroll" ref={listRef}>
          {mode === 'flat' ? (
            <FlatQueue partitionId={partitionId} active={active} factProps={factProps} />
          ) : groups.error && !groups.data ? (
            <ErrorState error={groups.error} onRetry={groups.refetch} context="Review queue" />
          ) : !groups.data ? (
            <Loading label="Loading the review queue" />
          ) : groups.data.total === 0 ? (
            <NothingToReview />
          ) : (
            <ul className="list-plain review-list col" aria-label="Causes">
              {groups.data.groups.map((g) => (
                <CauseGroup
                  key={groupRowKey(g.causeFactId)}
                  partitionId={partitionId}
                  group={g}
                  expanded={expanded.get(groupRowKey(g.causeFactId)) ?? g.count <= OPEN_GROUP_MAX}
                  onExpand={(on) => setGroupExpanded(g.causeFactId, on)}
                  handlers={handlers}
                  active={active}
                  factProps={factProps}
                />
              ))}
              {groups.data.truncated ? <li className="faint">The {groups.data.groups.length} largest groups; the flat list has every flag.</li> : null}
            </ul>
          )}
        </div>
      </TriageContext.Provider>
    </section>
  );
}

function NothingToReview() {
  return (
    <EmptyState title="Nothing needs review">
      When a fact is corrected or deleted, the facts that rest on it are flagged and appear here with the change that caused it.
    </EmptyState>
  );
}

function FlatQueue({
  partitionId,
  active,
  factProps,
}: {
  partitionId: number;
  active: string | null;
  factProps: (id: string, key: string) => Omit<Parameters<typeof ReviewCard>[0], 'item' | 'active'>;
}) {
  const pages = useReviewPages(partitionId);
  if (pages.error) return <ErrorState error={pages.error} onRetry={pages.refetch} context="Review queue" />;
  if (pages.loading) return <Loading label="Loading the review queue" />;
  if (pages.total === 0) return <NothingToReview />;
  return (
    <ul className="list-plain review-list col" aria-label="Flagged facts">
      {pages.entries.map((item) => (
        <ReviewCard key={item.fact.id} item={item} active={active} {...factProps(item.fact.id, item.fact.key)} />
      ))}
      {pages.hasMore ? (
        <li>
          <Button onClick={pages.loadMore} disabled={pages.loadingMore}>
            Load more
          </Button>
        </li>
      ) : null}
    </ul>
  );
}
