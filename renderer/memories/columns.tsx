// The memories table's columns: each shown column sorts server-side on one SortColumn.
import { createColumnHelper, type ColumnDef } from '@tanstack/react-table';
import type { FactRowView } from '../../shared/inspect';
import type { SortColumn } from '../../shared/query';
import { FactBadges, MemoryTypeLabel } from '../ui/FactBadges';
import { RangeText } from '../ui/Highlight';
import { KeyText } from '../ui/KeyText';
import { FactLink } from '../app/FactLink';
import { formatTime } from '../ui/format';

declare module '@tanstack/react-table' {
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  interface ColumnMeta<TData, TValue> {
    readonly sort: SortColumn | null;
    /** Default width in px; the user may drag it wider or narrower (down to `minWidth`). */
    readonly width: number;
    readonly minWidth?: number;
    /** Takes the room the other columns leave (never less than its width). */
    readonly flex?: boolean;
    readonly label: string;
    readonly numeric?: boolean;
  }
}

const col = createColumnHelper<FactRowView>();

export { TOGGLEABLE_COLUMNS } from '../app/state';

/** `asOf`: the table shows the state at that instant, where every row was valid. */
export function factColumns(asOf: string | null = null): ColumnDef<FactRowView, unknown>[] {
  const defs = [
    col.display({ id: 'select', meta: { sort: null, width: 34, label: 'Select' } }),
    col.accessor('key', {
      id: 'key',
      meta: { sort: 'key', width: 240, minWidth: 60, label: 'Key' },
      // A real link (middle-click, "open in new tab", "copy link"); a plain click falls through to
      // the row, which selects and opens as before, and the grid keeps the keyboard (no tab stop).
      cell: (c) => (
        <FactLink factId={c.row.original.id} className="key-link" tabIndex={-1} onOpen={() => {}}>
          <KeyText text={c.getValue()} ranges={c.row.original.match?.key ?? []} />
        </FactLink>
      ),
    }),
    col.accessor('value', {
      id: 'value',
      meta: { sort: 'value', width: 320, minWidth: 100, flex: true, label: 'Value' },
      cell: (c) => {
        const r = c.row.original;
        return <RangeText text={r.value} ranges={r.match?.value ?? []} clippedStart={r.valueClippedStart} clippedEnd={r.valueClippedEnd} />;
      },
    }),
    col.accessor('status', {
      id: 'status',
      meta: { sort: 'status', width: 150, minWidth: 112, label: 'Status' },
      cell: (c) =>
        asOf ? (
          <span className="row" title={`Valid at the as-of instant; now ${c.row.original.isValid ? 'still valid' : c.row.original.status}`}>
            <span className="badge badge-valid">valid then</span>
            {c.row.original.isValid ? null : <span className="faint truncate">now {c.row.original.status}</span>}
          </span>
        ) : (
          <FactBadges fact={c.row.original} />
        ),
    }),
    col.accessor('memoryType', {
      id: 'memoryType',
      meta: { sort: 'memoryType', width: 112, label: 'Memory type' },
      cell: (c) => <MemoryTypeLabel type={c.getValue()} />,
    }),
    col.accessor('scope', {
      id: 'scope',
      meta: { sort: 'scope', width: 80, label: 'Scope' },
      cell: (c) => (
        <span title={c.row.original.scopeId ?? undefined}>
          {c.getValue()}
          {c.row.original.scopeId ? <span className="faint">:{c.row.original.scopeId}</span> : null}
        </span>
      ),
    }),
    col.accessor((f) => f.source.type, {
      id: 'sourceType',
      meta: { sort: 'sourceType', width: 92, label: 'Source' },
      cell: (c) => <span title={c.row.original.source.identity ?? undefined}>{c.getValue()}</span>,
    }),
    col.accessor((f) => f.source.authority ?? '', {
      id: 'authority',
      meta: { sort: 'authority', width: 100, label: 'Authority' },
      cell: (c) => c.getValue() || <span className="faint">—</span>,
    }),
    col.accessor('importance', {
      id: 'importance',
      meta: { sort: 'importance', width: 100, label: 'Importance', numeric: true },
      cell: (c) => c.getValue().toFixed(2),
    }),
    col.accessor('accessCount', {
      id: 'accessCount',
      meta: { sort: 'accessCount', width: 90, label: 'Accesses', numeric: true },
      cell: (c) => c.getValue().toLocaleString('en-US'),
    }),
    col.accessor('lastAccessedAt', {
      id: 'lastAccessedAt',
      meta: { sort: 'lastAccessedAt', width: 196, label: 'Last accessed' },
      cell: (c) => <span className="nowrap">{formatTime(c.getValue())}</span>,
    }),
    col.accessor('ts', {
      id: 'ts',
      meta: { sort: 'ts', width: 196, label: 'Time' },
      cell: (c) => <span className="nowrap">{formatTime(c.getValue())}</span>,
    }),
    col.accessor('createdAt', {
      id: 'createdAt',
      meta: { sort: 'createdAt', width: 196, label: 'Recorded' },
      cell: (c) => <span className="nowrap">{formatTime(c.getValue())}</span>,
    }),
  ];
  return defs as unknown as ColumnDef<FactRowView, unknown>[];
}
