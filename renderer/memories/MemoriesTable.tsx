// The memories grid: @tanstack/react-table for columns, sorting state and visibility;
// @tanstack/react-virtual so only the rows on screen exist in the DOM (a million facts scroll
// like a hundred). Rows arrive in keyset pages; nearing the end asks for the next one.
import { getCoreRowModel, useReactTable, type Row, type SortingState, type VisibilityState } from '@tanstack/react-table';
import { observeElementRect, useVirtualizer, type Virtualizer } from '@tanstack/react-virtual';
import { forwardRef, memo, useCallback, useEffect, useImperativeHandle, useMemo, useRef, useState, type CSSProperties } from 'react';
import type { CappedCount, FactRowView } from '../../shared/inspect';
import type { FactSort, SortColumn } from '../../shared/query';
import { setLayoutSize, useLayoutSizesUnder } from '../app/layout-sizes';
import { useShortcut } from '../shortcuts/shortcuts';
import { Splitter } from '../ui/Splitter';
import { factColumns } from './columns';

export const ROW_HEIGHT = 30;
const LOAD_AHEAD = 60;
/** jsdom and zero-height first layouts measure 0: assume a window-sized grid until measured. */
const FALLBACK_RECT = { width: 1200, height: 720 };

export type SelectMode = 'toggle' | 'add' | 'replace' | 'remove';

export interface MemoriesTableProps {
  readonly rows: readonly FactRowView[];
  readonly total: CappedCount | null;
  readonly done: boolean;
  readonly loadingMore: boolean;
  /** The rows shown belong to the previous filter or sort; new ones are on their way. */
  readonly reloading?: boolean;
  /** Time travel: rows are the facts valid at this instant. */
  readonly asOf?: string | null;
  readonly sort: FactSort;
  onSort(sort: FactSort): void;
  readonly hiddenColumns: ReadonlySet<string>;
  readonly selection: ReadonlySet<string>;
  onSelect(ids: readonly string[], mode: SelectMode): void;
  readonly activeId: string | null;
  onActivate(id: string): void;
  onLoadMore(): void;
  onDelete(ids: readonly string[]): void;
  onCopyId(id: string): void;
}

export interface MemoriesTableHandle {
  focus(): void;
  scrollToIndex(i: number): void;
  readonly virtualizer: Virtualizer<HTMLDivElement, Element> | null;
}

const DESC_FIRST: ReadonlySet<SortColumn> = new Set(['ts', 'importance', 'accessCount', 'lastAccessedAt', 'createdAt']);

/** Stored column widths are layout sizes named `column.<id>`. */
const COLUMN_SIZE = 'column.';
const COLUMN_MIN = 48;
const COLUMN_MAX = 900;

export function nextSort(current: FactSort, column: SortColumn): FactSort {
  if (current.column === column) return { column, direction: current.direction === 'asc' ? 'desc' : 'asc' };
  return { column, direction: DESC_FIRST.has(column) ? 'desc' : 'asc' };
}

interface GridRowProps {
  readonly row: Row<FactRowView>;
  readonly index: number;
  readonly start: number;
  readonly selected: boolean;
  readonly active: boolean;
  /** Changes when the set of visible columns does (the row re-renders its cells then). */
  readonly columnsKey: string;
  onRowClick(e: React.MouseEvent, index: number, id: string): void;
  /** A checkbox click; with Shift it selects the range from the last row clicked. */
  onToggle(e: React.MouseEvent, index: number, id: string): void;
}

/** One fact row; memoised so scrolling renders only the rows that come into view. */
const GridRow = memo(function GridRow({ row, index, start, selected, active, onRowClick, onToggle }: GridRowProps) {
  const fact = row.original;
  return (
    <div
      id={`fact-row-${index}`}
      role="row"
      aria-rowindex={index + 2}
      aria-selected={selected}
      data-fact-id={fact.id}
      className={`grid-row ${active ? 'active' : ''} ${selected ? 'selected' : ''} ${fact.isValid ? '' : 'invalid'}`}
      style={{ transform: `translateY(${start}px)` }}
      onClick={(e) => onRowClick(e, index, fact.id)}
    >
      {row.getVisibleCells().map((cell) => {
        if (cell.column.id === 'select') {
          return (
            <div key={cell.id} role="gridcell" className="grid-cell grid-select" data-col="select" onClick={(e) => e.stopPropagation()}>
              <input type="checkbox" aria-label={`Select ${fact.key}`} checked={selected} onChange={() => {}} onClick={(e) => onToggle(e, index, fact.id)} />
            </div>
          );
        }
        const meta = cell.column.columnDef.meta;
        const render = cell.column.columnDef.cell;
        return (
          <div key={cell.id} role="gridcell" className={`grid-cell ${meta?.numeric ? 'num' : ''}`} data-col={cell.column.id}>
            {typeof render === 'function' ? render(cell.getContext()) : String(cell.getValue() ?? '')}
          </div>
        );
      })}
    </div>
  );
});

export const MemoriesTable = forwardRef<MemoriesTableHandle, MemoriesTableProps>(function MemoriesTable(props, ref) {
  const {
    rows,
    total,
    done,
    loadingMore,
    reloading,
    asOf = null,
    sort,
    onSort,
    hiddenColumns,
    selection,
    onSelect,
    activeId,
    onActivate,
    onLoadMore,
    onDelete,
    onCopyId,
  } = props;
  const scrollRef = useRef<HTMLDivElement>(null);
  const anchor = useRef<number | null>(null);

  const columns = useMemo(() => factColumns(asOf), [asOf]);
  const sorting = useMemo<SortingState>(() => [{ id: sort.column, desc: sort.direction === 'desc' }], [sort]);
  const columnVisibility = useMemo<VisibilityState>(() => Object.fromEntries([...hiddenColumns].map((c) => [c, false])), [hiddenColumns]);
  const data = rows as FactRowView[];
  const table = useReactTable({
    data,
    columns,
    state: { sorting, columnVisibility },
    manualSorting: true,
    getCoreRowModel: getCoreRowModel(),
    getRowId: (f) => f.id,
  });
  const visible = table.getVisibleLeafColumns();
  const storedWidths = useLayoutSizesUnder(COLUMN_SIZE);
  const widths = visible.map((c) => storedWidths[c.id] ?? c.columnDef.meta?.width ?? 120);
  // The flexible column takes the room left until the user gives it a width; then an empty
  // track at the end does, so every column stays exactly as wide as it was dragged.
  const flexes = visible.map((c) => c.columnDef.meta?.flex === true && storedWidths[c.id] === undefined);
  const tracks = visible.map((_, i) => (flexes[i] ? `minmax(${widths[i]}px, 1fr)` : `${widths[i]}px`));
  const template = flexes.some(Boolean) ? tracks.join(' ') : `${tracks.join(' ')} minmax(0, 1fr)`;
  // Columns keep their widths: a narrower pane scrolls sideways instead of squeezing cells.
  const minWidth = widths.reduce((sum, w) => sum + (w ?? 0), 0);
  // The widths as laid out, for the flexible column's grip (it is wider than its minimum); a
  // fixed column's grip shows its own width at once, not a frame later.
  const headerRef = useRef<HTMLDivElement>(null);
  const [laidOut, setLaidOut] = useState<readonly number[]>([]);
  useEffect(() => {
    const header = headerRef.current;
    if (!header || typeof ResizeObserver === 'undefined') return;
    const measure = () => {
      const next = [...header.children].map((c) => Math.round(c.getBoundingClientRect().width));
      setLaidOut((prev) => (prev.length === next.length && prev.every((w, i) => w === next[i]) ? prev : next));
    };
    const observer = new ResizeObserver(measure);
    for (const c of header.children) observer.observe(c);
    measure();
    return () => observer.disconnect();
  }, [template]);

  const virtualizer = useVirtualizer({
    count: rows.length + (done ? 0 : 1),
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12,
    initialRect: FALLBACK_RECT,
    observeElementRect: (instance, cb) => observeElementRect(instance, (rect) => cb(rect.height === 0 ? FALLBACK_RECT : rect)),
  });
  const items = virtualizer.getVirtualItems();
  const lastItem = items[items.length - 1];

  useEffect(() => {
    if (!done && !loadingMore && lastItem && lastItem.index >= rows.length - LOAD_AHEAD) onLoadMore();
  }, [done, loadingMore, lastItem, rows.length, onLoadMore]);

  const activeIndex = useMemo(() => (activeId === null ? -1 : rows.findIndex((r) => r.id === activeId)), [rows, activeId]);

  // A fact opened from elsewhere (a link, the review queue, the address) comes into view, also
  // when its row arrives only later (a link to a fact beyond the first page).
  const activeLoaded = activeIndex >= 0;
  useEffect(() => {
    if (activeIndex >= 0) virtualizer.scrollToIndex(activeIndex, { align: 'center' });
    // Only when the open fact changes or its row first arrives, not on every refresh of the rows.
  }, [activeId, activeLoaded]);

  useImperativeHandle(ref, () => ({
    focus: () => scrollRef.current?.focus(),
    scrollToIndex: (i: number) => virtualizer.scrollToIndex(i, { align: 'auto' }),
    virtualizer,
  }));

  const moveTo = useCallback(
    (i: number, extend: boolean) => {
      if (rows.length === 0) return;
      const idx = Math.max(0, Math.min(rows.length - 1, i));
      const row = rows[idx];
      if (!row) return;
      if (extend) {
        const from = anchor.current ?? (activeIndex >= 0 ? activeIndex : idx);
        anchor.current = from;
        const [a, b] = from < idx ? [from, idx] : [idx, from];
        onSelect(
          rows.slice(a, b + 1).map((r) => r.id),
          'add',
        );
      } else {
        anchor.current = idx;
      }
      onActivate(row.id);
      virtualizer.scrollToIndex(idx, { align: 'auto' });
    },
    [rows, activeIndex, onActivate, onSelect, virtualizer],
  );

  const pageRows = Math.max(1, Math.floor((scrollRef.current?.clientHeight || FALLBACK_RECT.height) / ROW_HEIGHT) - 1);
  useShortcut('row.down', () => moveTo(activeIndex + 1, false));
  useShortcut('row.up', () => moveTo(activeIndex - 1, false));
  useShortcut('row.extendDown', () => moveTo(activeIndex + 1, true));
  useShortcut('row.extendUp', () => moveTo(activeIndex - 1, true));
  useShortcut('row.page', (e) => moveTo(activeIndex + (e.key === 'PageUp' ? -pageRows : pageRows), false));
  useShortcut('row.ends', (e) => moveTo(e.key === 'Home' ? 0 : rows.length - 1, false));
  useShortcut('row.toggle', () => {
    const row = rows[activeIndex];
    if (row) onSelect([row.id], 'toggle');
  });
  useShortcut('row.all', () =>
    onSelect(
      rows.map((r) => r.id),
      'add',
    ),
  );
  useShortcut('row.delete', () => {
    const ids = selection.size > 0 ? [...selection] : activeId ? [activeId] : [];
    if (ids.length > 0) onDelete(ids);
  });
  useShortcut('row.copy', () => {
    if (activeId) onCopyId(activeId);
  });

  /** Checkboxes follow the desktop convention: Shift-click selects the range from the last one clicked. */
  const onCheckboxClick = (e: React.MouseEvent, index: number, id: string) => {
    if (e.shiftKey && anchor.current !== null) {
      const [a, b] = anchor.current < index ? [anchor.current, index] : [index, anchor.current];
      onSelect(
        rows.slice(a, b + 1).map((r) => r.id),
        selection.has(rows[anchor.current]?.id ?? '') || anchor.current === index ? 'add' : 'remove',
      );
    } else onSelect([id], 'toggle');
    anchor.current = index;
  };
  const onRowClick = (e: React.MouseEvent, index: number, id: string) => {
    if (e.shiftKey) {
      const from = anchor.current ?? (activeIndex >= 0 ? activeIndex : index);
      const [a, b] = from < index ? [from, index] : [index, from];
      onSelect(
        rows.slice(a, b + 1).map((r) => r.id),
        'add',
      );
    } else if (e.metaKey || e.ctrlKey) {
      onSelect([id], 'toggle');
      anchor.current = index;
    } else {
      anchor.current = index;
    }
    onActivate(id);
  };
  // Stable handlers for the memoised rows; they read the latest state through refs.
  const clickRef = useRef(onRowClick);
  clickRef.current = onRowClick;
  const onRowClickRef = useCallback((e: React.MouseEvent, index: number, id: string) => clickRef.current(e, index, id), []);
  const checkboxRef = useRef(onCheckboxClick);
  checkboxRef.current = onCheckboxClick;
  const onToggle = useCallback((e: React.MouseEvent, index: number, id: string) => checkboxRef.current(e, index, id), []);
  const columnsKey = `${visible.map((c) => c.id).join(',')}|${asOf ?? ''}`;

  const allLoadedSelected = rows.length > 0 && rows.every((r) => selection.has(r.id));
  const someSelected = selection.size > 0 && !allLoadedSelected;
  const tableRows = table.getRowModel().rows;

  return (
    <div
      ref={scrollRef}
      className="grid-scroll"
      role="grid"
      aria-label="Memories"
      aria-rowcount={total !== null && !total.capped ? total.count + 1 : -1}
      aria-colcount={visible.length}
      aria-multiselectable="true"
      aria-busy={reloading ? 'true' : undefined}
      aria-activedescendant={activeIndex >= 0 ? `fact-row-${activeIndex}` : undefined}
      tabIndex={0}
      data-shortcuts="grid"
      data-testid="memories-grid"
      // Rows read the column template from here: resizing a column re-renders no row.
      style={{ '--grid-columns': template } as CSSProperties}
    >
      <div ref={headerRef} className="grid-header" role="row" aria-rowindex={1} style={{ minWidth }}>
        {visible.map((c, i) => {
          const meta = c.columnDef.meta;
          if (c.id === 'select') {
            return (
              <div key={c.id} role="columnheader" className="grid-cell grid-select" data-col="select">
                <input
                  type="checkbox"
                  aria-label="Select all loaded facts"
                  checked={allLoadedSelected}
                  ref={(el) => {
                    if (el) el.indeterminate = someSelected;
                  }}
                  onChange={(e) =>
                    onSelect(
                      rows.map((r) => r.id),
                      e.target.checked ? 'add' : 'remove',
                    )
                  }
                />
              </div>
            );
          }
          const sortCol = meta?.sort ?? null;
          const active = sortCol !== null && sort.column === sortCol;
          const label = meta?.label ?? c.id;
          return (
            <div
              key={c.id}
              role="columnheader"
              // Named by its label alone: the sort button and the width grip inside are controls of their own.
              aria-label={label}
              className={`grid-cell grid-header-cell ${meta?.numeric ? 'num' : ''}`}
              data-col={c.id}
              aria-sort={active ? (sort.direction === 'asc' ? 'ascending' : 'descending') : 'none'}
            >
              {sortCol ? (
                <button
                  type="button"
                  className="sort-button"
                  // A mouse click must not focus (and so scroll sideways to) a far-right header.
                  onMouseDown={(e) => e.preventDefault()}
                  onClick={() => onSort(nextSort(sort, sortCol))}
                  aria-label={`Sort by ${meta?.label ?? c.id}`}
                >
                  <span className="grow truncate">{label}</span>
                  <span aria-hidden="true" className={active ? '' : 'faint'}>
                    {active ? (sort.direction === 'asc' ? '▲' : '▼') : '↕'}
                  </span>
                </button>
              ) : (
                <span className="truncate">{label}</span>
              )}
              <Splitter
                className="column-splitter"
                label={`${label} column width`}
                value={(flexes[i] && laidOut[i]) || (widths[i] ?? 120)}
                min={Math.min(meta?.minWidth ?? COLUMN_MIN, meta?.width ?? COLUMN_MIN)}
                max={COLUMN_MAX}
                onChange={(px) => setLayoutSize(`${COLUMN_SIZE}${c.id}`, px)}
                onReset={() => setLayoutSize(`${COLUMN_SIZE}${c.id}`, null)}
                measure={(divider) => divider.parentElement?.getBoundingClientRect().width ?? widths[i] ?? 120}
              />
            </div>
          );
        })}
      </div>
      <div className={`grid-body ${reloading ? 'stale' : ''}`} style={{ height: virtualizer.getTotalSize(), minWidth }}>
        {items.map((v) => {
          const row = tableRows[v.index];
          if (!row) {
            return (
              <div key="loader" className="grid-row grid-loader" role="row" aria-rowindex={v.index + 2} style={{ transform: `translateY(${v.start}px)` }}>
                <div role="gridcell" className="grid-cell muted">
                  {loadingMore ? 'Loading more facts…' : ''}
                </div>
              </div>
            );
          }
          const id = row.original.id;
          return (
            <GridRow
              key={id}
              row={row}
              index={v.index}
              start={v.start}
              selected={selection.has(id)}
              active={v.index === activeIndex}
              columnsKey={columnsKey}
              onRowClick={onRowClickRef}
              onToggle={onToggle}
            />
          );
        })}
      </div>
    </div>
  );
});
