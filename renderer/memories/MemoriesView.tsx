// The memories view: filters, the virtualised table with bulk actions and column choice, and
// the open fact's panel. Filters, sort and selection live in the app state, so they survive
// switching views; rows refresh in place when the engine announces a change.
import { useCallback, useEffect, useMemo, useRef, useState, type CSSProperties } from 'react';
import { clamp, useElementWidth, useLayoutSize } from '../app/layout-sizes';
import { useAppState, useDispatch } from '../app/state';
import { useFactPages } from '../api/fact-pages';
import { FactPanel } from '../fact-detail/FactPanel';
import { Button } from '../ui/Button';
import { Checkbox } from '../ui/fields';
import { formatNumber, formatTime } from '../ui/format';
import { Popover } from '../ui/Popover';
import { Splitter } from '../ui/Splitter';
import { EmptyState, ErrorState, Loading } from '../ui/states';
import { useToast } from '../ui/Toast';
import { copyText } from '../ui/clipboard';
import { factColumns, TOGGLEABLE_COLUMNS } from './columns';
import { activeFilterCount, cleanFilter, FilterBar } from './FilterBar';
import { MatchesElsewhere } from './MatchesElsewhere';
import { MemoriesTable, type MemoriesTableHandle } from './MemoriesTable';

/** How many rows are loaded, at most, to bring a linked fact into the table. */
const REVEAL_MAX_ROWS = 5000;
/** The table keeps at least this width beside the fact panel, however wide the panel is dragged. */
const MIN_TABLE = 520;
/** The fact panel's default share of the view and its narrowest: the detail tab, and the chain
 * and graph tabs (which want more room; each keeps its own width). */
const PANEL = {
  detail: { share: 0.32, min: 300, initial: 340 },
  wide: { share: 0.5, min: 380, initial: 420 },
} as const;

/** The fact panel's width in a view `viewWidth` wide: the stored one or the default, within bounds. */
export function panelWidth(viewWidth: number, wide: boolean, stored: number | null): { width: number; min: number; max: number } {
  const p = wide ? PANEL.wide : PANEL.detail;
  const max = Math.max(p.min, viewWidth - MIN_TABLE);
  return { width: clamp(stored ?? Math.max(p.initial, viewWidth * p.share), p.min, max), min: p.min, max };
}

export function MemoriesView() {
  const { partitionId, filter, sort, selection, factId, hiddenColumns, asOf, detailTab } = useAppState();
  const dispatch = useDispatch();
  const toast = useToast();
  const tableRef = useRef<MemoriesTableHandle>(null);
  const viewRef = useRef<HTMLDivElement>(null);
  const viewWidth = useElementWidth(viewRef, 1180);
  const widePanel = detailTab !== 'detail';
  const [panelStored, setPanel, resetPanel] = useLayoutSize(widePanel ? 'detailWide' : 'detail');
  const panel = panelWidth(viewWidth, widePanel, panelStored);
  const effectiveFilter = useMemo(() => cleanFilter({ ...filter, asOf: asOf ?? undefined }), [filter, asOf]);
  const pages = useFactPages(partitionId, effectiveFilter, sort);
  const labels = useMemo(() => new Map(factColumns().map((c) => [c.id ?? '', c.meta?.label ?? c.id ?? ''])), []);

  const onSelect = useCallback((ids: readonly string[], mode: 'toggle' | 'add' | 'replace' | 'remove') => dispatch({ type: 'select', ids, mode }), [dispatch]);
  const onActivate = useCallback((id: string) => dispatch({ type: 'openFact', factId: id }), [dispatch]);
  const onDelete = useCallback((ids: readonly string[]) => dispatch({ type: 'delete', request: { kind: 'ids', ids } }), [dispatch]);
  const onCopyId = useCallback(
    (id: string) => void copyText(id).then((ok) => toast(ok ? `Copied ${id}` : 'Could not reach the clipboard', ok ? 'info' : 'error')),
    [toast],
  );

  // ↓ from the search: into the rows, on the open fact or else the first one, once the rows are
  // those of the search just committed (never a row of the list from before it).
  const [entering, setEntering] = useState(false);
  const enterResults = useCallback(() => {
    tableRef.current?.focus();
    setEntering(true);
  }, []);
  useEffect(() => {
    if (!entering || pages.loading || pages.reloading) return;
    setEntering(false);
    tableRef.current?.focus();
    const first = pages.rows[0];
    if (first && !pages.rows.some((r) => r.id === factId)) dispatch({ type: 'openFact', factId: first.id });
  }, [entering, pages.loading, pages.reloading, pages.rows, factId, dispatch]);

  // A linked fact beyond the loaded rows: load on (a bounded number of rows) until it appears,
  // so the table can scroll to it.
  const linkedMissing = factId !== null && !pages.loading && !pages.rows.some((r) => r.id === factId);
  useEffect(() => {
    if (linkedMissing && !pages.done && !pages.loadingMore && !pages.error && pages.rows.length < REVEAL_MAX_ROWS) pages.loadMore();
  }, [linkedMissing, pages.done, pages.loadingMore, pages.error, pages.rows.length, pages.loadMore]);

  // A new filter or sort starts at the top; a live refresh keeps the scroll position.
  const firstRowId = pages.rows[0]?.id;
  const lastQuery = useRef('');
  useEffect(() => {
    const q = JSON.stringify([effectiveFilter, sort]);
    if (q !== lastQuery.current && !pages.reloading) {
      lastQuery.current = q;
      tableRef.current?.scrollToIndex(0);
    }
  }, [effectiveFilter, sort, pages.reloading, firstRowId]);

  // "Select all N matching": the selection stands for every fact of this filter, loaded or not,
  // for as long as the filter is the same and every loaded row stays selected.
  const queryKey = JSON.stringify([partitionId, effectiveFilter]);
  const [allMatchingKey, setAllMatchingKey] = useState<string | null>(null);
  const allLoadedSelected = pages.rows.length > 0 && pages.rows.every((r) => selection.has(r.id));
  const matchingCount = pages.total && !pages.total.capped ? pages.total.count : null;
  const allMatching = allMatchingKey === queryKey && allLoadedSelected && matchingCount !== null;

  if (partitionId === null) return null;
  const filtered = activeFilterCount(filter) > 0;
  const deleteSelected = () =>
    allMatching ? dispatch({ type: 'delete', request: { kind: 'filter', filter: effectiveFilter, count: matchingCount } }) : onDelete([...selection]);

  // A failed query shows its error where the rows were; no rows of another query stand in for it.
  const refused = pages.error?.code === 'INVALID_INPUT';
  let content;
  if (pages.error && pages.rows.length === 0)
    content = <ErrorState error={pages.error} onRetry={refused ? undefined : pages.refresh} context={refused ? 'Filter not applied' : 'Memories'} />;
  else if (pages.loading) content = <Loading label="Loading memories" />;
  else if (pages.rows.length === 0)
    content = filtered ? (
      <EmptyState
        title="No fact matches these filters"
        action={<Button onClick={() => dispatch({ type: 'filter', filter: { validity: 'all' } })}>Clear filters</Button>}
      >
        Loosen a filter or search for fewer words.
      </EmptyState>
    ) : asOf ? (
      <EmptyState title="Nothing was known yet" action={<Button onClick={() => dispatch({ type: 'asOf', asOf: null })}>Back to now</Button>}>
        No fact of this partition was valid at {formatTime(asOf)}. Pick a later time.
      </EmptyState>
    ) : (
      <EmptyState title="This partition holds no facts yet">
        Agents write facts through the library, the CLI (`statelens ingest`) or the MCP server; they appear here as they arrive.
      </EmptyState>
    );
  else
    content = (
      <MemoriesTable
        reloading={pages.reloading}
        asOf={asOf}
        ref={tableRef}
        rows={pages.rows}
        total={pages.total}
        done={pages.done}
        loadingMore={pages.loadingMore}
        sort={sort}
        onSort={(s) => dispatch({ type: 'sort', sort: s })}
        hiddenColumns={hiddenColumns}
        selection={selection}
        onSelect={onSelect}
        activeId={factId}
        onActivate={onActivate}
        onLoadMore={pages.loadMore}
        onDelete={onDelete}
        onCopyId={onCopyId}
      />
    );

  return (
    <div
      ref={viewRef}
      className={`memories-view ${factId === null ? 'no-panel' : widePanel ? 'wide-panel' : ''}`}
      style={{ '--detail-w': `${panel.width}px` } as CSSProperties}
    >
      <div className="memories-main">
        <FilterBar filter={filter} onChange={(f) => dispatch({ type: 'filter', filter: f })} onArrowDown={enterResults} />
        {filter.search ? <MatchesElsewhere search={filter.search} /> : null}
        <div className="table-toolbar row" role="toolbar" aria-label="Table actions">
          <span className="muted" data-testid="fact-count" aria-live="polite">
            {pages.error && pages.rows.length === 0
              ? 'No result'
              : pages.total !== null
                ? `${formatNumber(pages.total.count)}${pages.total.capped ? '+' : ''} fact${pages.total.count === 1 && !pages.total.capped ? '' : 's'}`
                : `${formatNumber(pages.rows.length)}${pages.done ? '' : '+'} facts`}
            {pages.rows.length > 0 && !pages.done ? ` · ${formatNumber(pages.rows.length)} loaded` : ''}
            {pages.refreshing || pages.reloading ? ' · refreshing' : ''}
          </span>
          {selection.size > 0 ? (
            <>
              <span className="badge badge-accent" data-testid="selection-count">
                {allMatching ? `all ${formatNumber(matchingCount)} matching selected` : `${formatNumber(selection.size)} selected`}
              </span>
              {allLoadedSelected && !allMatching && matchingCount !== null && matchingCount > pages.rows.length ? (
                <Button small onClick={() => setAllMatchingKey(queryKey)} data-testid="select-all-matching">
                  Select all {formatNumber(matchingCount)} matching
                </Button>
              ) : null}
              <Button small variant="danger" onClick={deleteSelected}>
                {allMatching ? `Delete all ${formatNumber(matchingCount)}…` : 'Delete selected…'}
              </Button>
              <Button
                small
                onClick={() => {
                  setAllMatchingKey(null);
                  dispatch({ type: 'clearSelection' });
                }}
              >
                Clear selection
              </Button>
            </>
          ) : null}
          <span className="grow" />
          {/* Only a result that is this filter's, complete and current is offered for deletion. */}
          {filtered && pages.rows.length > 0 && !pages.error && !pages.reloading ? (
            <Button
              small
              variant="danger"
              onClick={() =>
                dispatch({
                  type: 'delete',
                  request: { kind: 'filter', filter: effectiveFilter, count: pages.total?.capped ? null : (pages.total?.count ?? null) },
                })
              }
            >
              Delete all matching…
            </Button>
          ) : null}
          <Popover label="Choose columns" buttonText="Columns">
            {TOGGLEABLE_COLUMNS.map((c) => (
              <Checkbox key={c} label={labels.get(c) ?? c} checked={!hiddenColumns.has(c)} onChange={() => dispatch({ type: 'toggleColumn', column: c })} />
            ))}
          </Popover>
        </div>
        {pages.error && pages.rows.length > 0 ? (
          <p className="state-error" role="alert" data-testid="memories-error">
            Could not load more rows: {pages.error.message}{' '}
            <Button small onClick={pages.refresh}>
              Try again
            </Button>
          </p>
        ) : null}
        <div className="table-area">{content}</div>
      </div>
      {factId !== null ? (
        <>
          <Splitter
            className="detail-splitter"
            label="Fact panel width"
            direction={-1}
            value={panel.width}
            min={panel.min}
            max={panel.max}
            onChange={setPanel}
            onReset={resetPanel}
          />
          <FactPanel />
        </>
      ) : null}
    </div>
  );
}
