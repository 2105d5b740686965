// The right-hand panel of the memories view: the open fact's detail, chain and graph tabs.
import { useMemo } from 'react';
import { searchTerms } from '../ui/highlight';
import { useAppState, useDispatch, DETAIL_TABS, type DetailTab } from '../app/state';
import { useMutation, useQuery } from '../api/hooks';
import { ChainView } from '../chain/ChainView';
import { GraphView } from '../graph/GraphView';
import { useShortcut } from '../shortcuts/shortcuts';
import { Tabs } from '../ui/Tabs';
import { IconButton } from '../ui/Button';
import { EmptyState, ErrorState, Loading } from '../ui/states';
import { useUndoDismiss } from '../review/undo-dismiss';
import { useToast } from '../ui/Toast';
import { copyText } from '../ui/clipboard';
import { FactDetail } from './FactDetail';

const TAB_LABELS: Record<DetailTab, string> = { detail: 'Detail', chain: 'Chain', graph: 'Graph' };

export function FactPanel() {
  const { partitionId, factId, detailTab, asOf, filter } = useAppState();
  const terms = useMemo(() => searchTerms(filter.search), [filter.search]);
  const dispatch = useDispatch();
  const toast = useToast();
  const dismiss = useMutation('review.dismiss');
  const undoAction = useUndoDismiss(partitionId);
  const open = (id: string) => dispatch({ type: 'openFact', factId: id });

  useShortcut('detail.prev', () =>
    dispatch({ type: 'detailTab', tab: DETAIL_TABS[(DETAIL_TABS.indexOf(detailTab) + DETAIL_TABS.length - 1) % DETAIL_TABS.length] ?? 'detail' }),
  );
  useShortcut('detail.next', () => dispatch({ type: 'detailTab', tab: DETAIL_TABS[(DETAIL_TABS.indexOf(detailTab) + 1) % DETAIL_TABS.length] ?? 'detail' }));

  if (partitionId === null) return null;
  if (factId === null) {
    return (
      <aside className="fact-panel" aria-label="Fact detail">
        <EmptyState title="No fact open">Pick a fact in the table (click, or move with j / k) to see every field, its chain and its dependencies.</EmptyState>
      </aside>
    );
  }
  return (
    <aside className="fact-panel" aria-label="Fact detail">
      <IconButton label="Close the fact panel" className="btn-ghost fact-panel-close" onClick={() => dispatch({ type: 'openFact', factId: null })}>
        ✕
      </IconButton>
      <Tabs
        label="Fact views"
        tabs={DETAIL_TABS.map((t) => ({ id: t, label: TAB_LABELS[t] }))}
        value={detailTab}
        onChange={(t) => dispatch({ type: 'detailTab', tab: t })}
      >
        <div className="fact-panel-body">
          {detailTab === 'detail' ? (
            <DetailTabBody
              partitionId={partitionId}
              factId={factId}
              asOf={asOf}
              terms={terms}
              onOpen={open}
              onCopy={(id) => void copyText(id).then((ok) => toast(ok ? `Copied ${id}` : 'Could not reach the clipboard', ok ? 'info' : 'error'))}
              onDelete={(id) => dispatch({ type: 'delete', request: { kind: 'ids', ids: [id] } })}
              onDismiss={(id) =>
                void dismiss.mutate({ partitionId, factIds: [id], reason: 'dismissed in the inspector' }).then(
                  (r) => toast('Review flag dismissed (recorded in the audit log)', 'info', undoAction(r.auditId)),
                  (e: unknown) => toast(`Could not dismiss: ${e instanceof Error ? e.message : String(e)}`, 'error'),
                )
              }
            />
          ) : detailTab === 'chain' ? (
            <ChainView partitionId={partitionId} factId={factId} asOf={asOf} onSelect={open} />
          ) : (
            <GraphView
              partitionId={partitionId}
              factId={factId}
              asOf={asOf}
              onSelect={open}
              onOpenFull={() => dispatch({ type: 'openFact', factId, view: 'graph' })}
            />
          )}
        </div>
      </Tabs>
    </aside>
  );
}

/** The open fact's detail with its actions (copy, delete, dismiss), as the panel's first tab shows it. */
export function FactDetailFor({ partitionId, factId }: { partitionId: number; factId: string }) {
  const { asOf, filter } = useAppState();
  const terms = useMemo(() => searchTerms(filter.search), [filter.search]);
  const dispatch = useDispatch();
  const toast = useToast();
  const dismiss = useMutation('review.dismiss');
  const undoAction = useUndoDismiss(partitionId);
  return (
    <DetailTabBody
      partitionId={partitionId}
      factId={factId}
      asOf={asOf}
      terms={terms}
      onOpen={(id) => dispatch({ type: 'openFact', factId: id })}
      onCopy={(id) => void copyText(id).then((ok) => toast(ok ? `Copied ${id}` : 'Could not reach the clipboard', ok ? 'info' : 'error'))}
      onDelete={(id) => dispatch({ type: 'delete', request: { kind: 'ids', ids: [id] } })}
      onDismiss={(id) =>
        void dismiss.mutate({ partitionId, factIds: [id], reason: 'dismissed in the inspector' }).then(
          (r) => toast('Review flag dismissed (recorded in the audit log)', 'info', undoAction(r.auditId)),
          (e: unknown) => toast(`Could not dismiss: ${e instanceof Error ? e.message : String(e)}`, 'error'),
        )
      }
    />
  );
}

function DetailTabBody({
  partitionId,
  factId,
  asOf,
  terms,
  onOpen,
  onCopy,
  onDelete,
  onDismiss,
}: {
  partitionId: number;
  factId: string;
  /** Time travel: the detail also says how the fact and its links stood then. */
  asOf: string | null;
  terms: readonly string[];
  onOpen: (id: string) => void;
  onCopy: (id: string) => void;
  onDelete: (id: string) => void;
  onDismiss: (id: string) => void;
}) {
  const q = useQuery('facts.get', asOf ? { partitionId, factId, asOf } : { partitionId, factId }, { keepPrevious: true });
  if (q.error) {
    if (q.error.code === 'NOT_FOUND')
      return <EmptyState title="This fact is gone">It was deleted (here or by another process). Pick another fact in the table.</EmptyState>;
    return <ErrorState error={q.error} onRetry={q.refetch} context="Fact" />;
  }
  // Kept while another instant loads; never another fact's.
  if (!q.data || q.data.fact.id !== factId) return <Loading label="Loading the fact" />;
  return <FactDetail data={q.data} terms={terms} actions={{ onOpen, onCopyId: onCopy, onDelete, onDismiss }} />;
}
