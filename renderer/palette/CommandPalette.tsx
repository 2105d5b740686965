// The command palette (Ctrl/Cmd+K): one text field to jump to a view, a partition or a fact by its
// key, or run an action, entirely from the keyboard (arrows move, Enter chooses, Escape closes).
import { useEffect, useId, useMemo, useState } from 'react';
import type { PartitionSummary } from '../../shared/domain';
import { isPlainClick, useFactHref } from '../app/FactLink';
import { DETAIL_TABS, useAppState, useDispatch, VIEW_LABELS, VIEWS } from '../app/state';
import { useQuery } from '../api/hooks';
import { useTheme } from '../theme/theme';
import { Dialog } from '../ui/Dialog';
import { formatNumber, statusWord } from '../ui/format';
import { KeyText } from '../ui/KeyText';
import { rankEntries, searchableText, type PaletteEntry } from './items';

const FACT_SEARCH_DELAY_MS = 120;
/** Matches shown per partition: the current partition's first, then the others'. */
const FACTS_PER_PARTITION = 5;

function useDebounced<T>(value: T, ms: number): T {
  const [v, setV] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setV(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return v;
}

export function CommandPalette({ partitions, onClose }: { partitions: readonly PartitionSummary[]; onClose: () => void }) {
  const { partitionId, factId, asOf } = useAppState();
  const factHref = useFactHref();
  const dispatch = useDispatch();
  const theme = useTheme();
  const [text, setText] = useState('');
  const [active, setActive] = useState(0);
  const listId = useId();
  const search = searchableText(useDebounced(text, FACT_SEARCH_DELAY_MS));
  // Find everywhere: every partition of the open store, grouped, the current one first.
  const facts = useQuery(
    'facts.searchAll',
    search ? { search, perPartition: FACTS_PER_PARTITION, ...(partitionId !== null ? { first: partitionId } : {}), ...(asOf ? { asOf } : {}) } : null,
    { keepPrevious: true },
  );

  const entries = useMemo(() => {
    const close = (f: () => void) => () => {
      onClose();
      f();
    };
    const list: PaletteEntry[] = VIEWS.map((v, i) => ({
      id: `view:${v}`,
      section: 'Views',
      label: VIEW_LABELS[v],
      detail: String(i + 1),
      run: close(() => dispatch({ type: 'view', view: v })),
    }));
    list.push(
      { id: 'action:export', section: 'Actions', label: 'Export a snapshot…', detail: 'e', run: close(() => dispatch({ type: 'export', open: true })) },
      {
        id: 'action:theme',
        section: 'Actions',
        label: `Switch to the ${theme.resolved === 'dark' ? 'light' : 'dark'} theme`,
        detail: 'Shift+D',
        run: close(theme.toggle),
      },
      {
        id: 'action:connect',
        section: 'Actions',
        label: 'Connect to server…',
        detail: 'PostgreSQL',
        run: close(() => dispatch({ type: 'connect', open: true })),
      },
      {
        id: 'action:shortcuts',
        section: 'Actions',
        label: 'Show keyboard shortcuts',
        detail: '?',
        run: close(() => dispatch({ type: 'shortcuts', open: true })),
      },
      {
        id: 'action:now',
        section: 'Actions',
        label: 'Back to now (leave time travel)',
        detail: 'Shift+N',
        run: close(() => dispatch({ type: 'asOf', asOf: null })),
      },
    );
    if (factId)
      for (const tab of DETAIL_TABS)
        list.push({
          id: `action:tab:${tab}`,
          section: 'Actions',
          label: `Open fact ${tab === 'detail' ? 'details' : tab}`,
          run: close(() => dispatch({ type: 'openFact', factId, tab, view: 'memories' })),
        });
    for (const p of partitions)
      list.push({
        id: `partition:${p.id}`,
        section: 'Partitions',
        label: p.label,
        detail: `${formatNumber(p.validFacts)} valid of ${formatNumber(p.facts)}`,
        run: close(() => dispatch({ type: 'partition', partitionId: p.id })),
      });
    for (const g of search ? (facts.data?.groups ?? []) : [])
      for (const f of g.rows)
        list.push({
          id: `fact:${g.partitionId}:${f.id}`,
          section: 'Facts',
          label: f.key,
          group: g.label,
          href: factHref(g.partitionId, f.id),
          keyRanges: f.match?.key ?? [],
          detail: `${f.value.slice(0, 80)} · ${statusWord(f.status, f.isValid)}`,
          run: close(() => dispatch({ type: 'openFact', factId: f.id, tab: 'detail', view: 'memories', partitionId: g.partitionId })),
        });
    return rankEntries(text, list);
  }, [text, search, facts.data, partitions, factId, theme, dispatch, onClose, factHref]);

  const current = Math.min(active, Math.max(entries.length - 1, 0));
  const currentLabel = partitions.find((p) => p.id === partitionId)?.label;
  const optionId = (i: number) => `${listId}-${i}`;

  return (
    <Dialog title="Go to…" onClose={onClose} closeLabel="Close the command palette">
      <input
        data-autofocus
        className="input palette-input"
        role="combobox"
        aria-label="Go to a view, partition or fact, or run an action"
        aria-expanded="true"
        aria-controls={listId}
        aria-activedescendant={entries.length > 0 ? optionId(current) : undefined}
        placeholder="Type a view, a partition or a fact's key…"
        value={text}
        onChange={(e) => {
          setText(e.target.value);
          setActive(0);
        }}
        onKeyDown={(e) => {
          if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
            e.preventDefault();
            const n = entries.length;
            if (n > 0) setActive((current + (e.key === 'ArrowDown' ? 1 : n - 1)) % n);
          } else if (e.key === 'Enter') {
            e.preventDefault();
            entries[current]?.run();
          }
        }}
      />
      <ul id={listId} role="listbox" aria-label="Matches" className="list-plain palette-list">
        {entries.map((entry, i) => [
          entry.group && entry.group !== entries[i - 1]?.group ? (
            <li key={`group:${entry.id}`} role="presentation" className="palette-group faint" data-testid="palette-group">
              {entry.group === currentLabel ? `${entry.group} (this partition)` : entry.group}
            </li>
          ) : null,
          <li
            key={entry.id}
            id={optionId(i)}
            role="option"
            aria-selected={i === current}
            className="palette-option"
            // A key drawn in two parts (KeyText) would be read with a space at the cut: the option is named whole.
            aria-label={entry.keyRanges ? `${entry.section} ${entry.label}${entry.detail ? ` ${entry.detail}` : ''}` : undefined}
            data-section={entry.section}
            onMouseDown={(e) => e.preventDefault()}
            onMouseEnter={() => setActive(i)}
            onClick={entry.run}
          >
            <span className="palette-section faint">{entry.section}</span>
            {entry.href ? (
              // A real link for middle-click / new tab; a plain click is the option's own.
              <a className="palette-label palette-link" href={entry.href} tabIndex={-1} onClick={(e) => isPlainClick(e) && e.preventDefault()}>
                {/* A key keeps its distinguishing tail (a middle ellipsis), search marks and all. */}
                {entry.keyRanges ? <KeyText text={entry.label} ranges={entry.keyRanges} /> : entry.label}
              </a>
            ) : (
              <span className="palette-label">{entry.label}</span>
            )}
            {entry.detail ? <span className="palette-detail muted">{entry.detail}</span> : null}
          </li>,
        ])}
        {entries.length === 0 ? <li className="faint">{search && facts.loading ? 'Searching facts…' : 'Nothing matches.'}</li> : null}
      </ul>
    </Dialog>
  );
}
