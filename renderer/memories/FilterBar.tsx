// Filters of the memories table: full-text search, validity, memory type, scope, review flag,
// constraint, source and authority, and a date range. Every control is labelled.
import { useEffect, useRef, useState } from 'react';
import { MEMORY_TYPES, SCOPES, type MemoryType, type Scope } from '../../shared/domain';
import type { FactFilterInput, Validity } from '../../shared/query';
import { Button } from '../ui/Button';
import { ChipGroup, SelectField, TextField, TriSelect } from '../ui/fields';
import { DateTimeField } from '../ui/DateTimeInput';
import { useShortcut } from '../shortcuts/shortcuts';

const SEARCH_DEBOUNCE_MS = 250;

function splitList(v: string): string[] | undefined {
  const items = v
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  return items.length > 0 ? items : undefined;
}

/** Drops undefined and empty values so equal filters compare (and cache) equal. */
export function cleanFilter(f: FactFilterInput): FactFilterInput {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(f)) {
    if (v === undefined || v === '' || (Array.isArray(v) && v.length === 0)) continue;
    out[k] = v;
  }
  return out as FactFilterInput;
}

export function activeFilterCount(f: FactFilterInput): number {
  const c = cleanFilter(f);
  return Object.keys(c).filter((k) => k !== 'asOf' && !(k === 'validity' && c.validity === 'all')).length;
}

export function FilterBar({
  filter,
  onChange,
  onArrowDown,
}: {
  filter: FactFilterInput;
  onChange: (f: FactFilterInput) => void;
  /** ↓ in the search field: move into the results. */
  onArrowDown?: () => void;
}) {
  const [search, setSearch] = useState(filter.search ?? '');
  const [sources, setSources] = useState((filter.sourceTypes ?? []).join(', '));
  const [authorities, setAuthorities] = useState((filter.authorities ?? []).join(', '));
  const searchRef = useRef<HTMLInputElement>(null);
  const advancedCount = ['memoryTypes', 'scopes', 'sourceTypes', 'authorities', 'from', 'to'].filter((k) => {
    const v = (filter as Record<string, unknown>)[k];
    return v !== undefined && !(Array.isArray(v) && v.length === 0);
  }).length;
  const [more, setMore] = useState(advancedCount > 0);
  const filterRef = useRef(filter);
  filterRef.current = filter;

  // Only typing restarts the debounce: re-renders (live refreshes) must not keep deferring it. The
  // timer is restarted in the input's own handler, so a debounce that fires right after an edit
  // can never commit the text from before it.
  const onChangeRef = useRef(onChange);
  onChangeRef.current = onChange;
  const pendingSearch = useRef<string | null>(null);
  const debounce = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  // Searches handed to onChange whose echo (filter.search) has not come back yet.
  const sent = useRef<string[]>([]);
  const commitSearch = () => {
    clearTimeout(debounce.current);
    const text = pendingSearch.current;
    pendingSearch.current = null;
    if (text === null) return;
    const next = text.trim();
    const expected = sent.current[sent.current.length - 1] ?? filterRef.current.search ?? '';
    if (expected === next) return;
    sent.current.push(next);
    onChangeRef.current(cleanFilter({ ...filterRef.current, search: next || undefined }));
  };
  const editSearch = (text: string) => {
    setSearch(text);
    pendingSearch.current = text;
    clearTimeout(debounce.current);
    debounce.current = setTimeout(commitSearch, SEARCH_DEBOUNCE_MS);
  };
  // A search arriving from outside (navigation, Back, Clear filters) replaces the field and any
  // edit waiting for its debounce. The echo of a search this bar committed does not: the field
  // already holds that text or a newer edit, which a late echo must never undo.
  useEffect(() => {
    const incoming = filter.search ?? '';
    const echo = sent.current.indexOf(incoming);
    if (echo >= 0) {
      sent.current.splice(0, echo + 1);
      return;
    }
    sent.current = [];
    pendingSearch.current = null;
    clearTimeout(debounce.current);
    setSearch(incoming);
  }, [filter.search]);
  // An edit still waiting for its debounce is committed when the bar goes away (a view switch),
  // so the filter the user left behind is the one they typed, never the one before it.
  useEffect(() => () => commitSearch(), []);

  useShortcut('search', () => {
    searchRef.current?.focus();
    searchRef.current?.select();
  });

  const set = (patch: Partial<FactFilterInput>) => onChange(cleanFilter({ ...filter, ...patch }));

  return (
    <form
      className="filter-bar"
      aria-label="Filters"
      role="search"
      onSubmit={(e) => {
        e.preventDefault();
        set({ search: search.trim() || undefined, sourceTypes: splitList(sources), authorities: splitList(authorities) });
      }}
    >
      <label className="field search-field">
        <span className="sr-only">Search memories</span>
        <input
          ref={searchRef}
          className="input"
          type="search"
          placeholder="Search key and value  ( / )"
          value={search}
          onChange={(e) => editSearch(e.target.value)}
          onKeyDown={(e) => {
            // Down from the search goes into the results (Escape is the shortcut system's: it
            // leaves the field keeping the text, and a second Escape clears it).
            if (e.key === 'ArrowDown' && onArrowDown) {
              e.preventDefault();
              commitSearch();
              onArrowDown();
            }
          }}
        />
      </label>
      <SelectField<Validity>
        label="Validity"
        value={filter.validity ?? 'all'}
        onChange={(v) => set({ validity: v })}
        options={[
          { value: 'all', label: 'all' },
          { value: 'valid', label: 'valid' },
          { value: 'superseded', label: 'superseded' },
          { value: 'proposal', label: 'proposals' },
        ]}
      />
      <TriSelect label="Needs review" value={filter.needsReview} onChange={(v) => set({ needsReview: v })} />
      <TriSelect label="Constraint" value={filter.isConstraint} onChange={(v) => set({ isConstraint: v })} />
      <Button small aria-expanded={more} aria-controls="more-filters" onClick={() => setMore((m) => !m)} className="more-filters-toggle">
        {more ? 'Fewer filters' : 'More filters'}
        {advancedCount > 0 ? ` (${advancedCount})` : ''}
      </Button>
      <div className="filter-actions">
        <Button
          small
          onClick={() => {
            setSearch('');
            setSources('');
            setAuthorities('');
            onChange(cleanFilter({ validity: 'all', asOf: filter.asOf }));
          }}
          disabled={activeFilterCount(filter) === 0}
        >
          Clear filters
        </Button>
      </div>
      {more ? (
        <div className="filter-more" id="more-filters" role="group" aria-label="More filters">
          <ChipGroup<MemoryType>
            legend="Memory type"
            options={MEMORY_TYPES.map((m) => ({ value: m, label: m }))}
            value={filter.memoryTypes ?? []}
            onChange={(v) => set({ memoryTypes: v })}
          />
          <ChipGroup<Scope>
            legend="Scope"
            options={SCOPES.map((sc) => ({ value: sc, label: sc }))}
            value={filter.scopes ?? []}
            onChange={(v) => set({ scopes: v })}
          />
          <TextField
            label="Source types"
            placeholder="user, agent"
            value={sources}
            onChange={(e) => setSources(e.target.value)}
            onBlur={() => set({ sourceTypes: splitList(sources) })}
            size={10}
          />
          <TextField
            label="Authorities"
            placeholder="manager"
            value={authorities}
            onChange={(e) => setAuthorities(e.target.value)}
            onBlur={() => set({ authorities: splitList(authorities) })}
            size={10}
          />
          <DateTimeField label="From (UTC)" value={filter.from} onChange={(from) => set({ from })} />
          <DateTimeField label="To (UTC)" value={filter.to} onChange={(to) => set({ to })} />
        </div>
      ) : null}
    </form>
  );
}
