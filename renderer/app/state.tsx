// The inspector's navigation state: which partition, which view, which fact is open, the
// time-travel instant, the table's filter, sort, selection and visible columns, and dialogs.
// One reducer so every view reads and changes it the same way.
import { createContext, useCallback, useContext, useMemo, useReducer, useRef, type Dispatch, type ReactNode, type SetStateAction } from 'react';
import type { AssemblyStrategy } from '../../shared/assembly';
import type { FactFilterInput, FactSort } from '../../shared/query';

export const VIEWS = ['memories', 'review', 'context', 'sessions', 'audit', 'graph'] as const;
export type View = (typeof VIEWS)[number];
export const VIEW_LABELS: Record<View, string> = {
  memories: 'Memories',
  review: 'Review queue',
  context: 'Context preview',
  sessions: 'Sessions',
  audit: 'Audit log',
  graph: 'Dependency graph',
};

export const DETAIL_TABS = ['detail', 'chain', 'graph'] as const;
export type DetailTab = (typeof DETAIL_TABS)[number];

/** Inputs of single views that belong in the address: the context preview's query, strategies
 * and token budget, and the graph's hops. Absent means the view's own default. */
export interface ViewParams {
  readonly query?: string;
  readonly strategies?: AssemblyStrategy[];
  readonly budget?: string;
  readonly hops?: string;
  /** The review queue's arrangement: grouped by cause (the default) or one flat list. */
  readonly queue?: 'grouped' | 'flat';
  /** The review queue's selected facts. */
  readonly picked?: string[];
}

/** What a delete dialog acts on. */
export type DeleteRequest =
  { readonly kind: 'ids'; readonly ids: readonly string[] } | { readonly kind: 'filter'; readonly filter: FactFilterInput; readonly count: number | null };

export interface AppState {
  readonly partitionId: number | null;
  readonly view: View;
  readonly factId: string | null;
  readonly detailTab: DetailTab;
  /** Time travel: show the state as of this ISO time; null is now. */
  readonly asOf: string | null;
  readonly filter: FactFilterInput;
  readonly sort: FactSort;
  readonly params: ViewParams;
  readonly selection: ReadonlySet<string>;
  readonly hiddenColumns: ReadonlySet<string>;
  readonly deleteRequest: DeleteRequest | null;
  readonly exportOpen: boolean;
  readonly shortcutsOpen: boolean;
  /** The "Connect to server" dialog (PostgreSQL URL, password, schema, organisation). */
  readonly connectOpen: boolean;
  /** What the dialog starts with: a recent server whose password was not kept. */
  readonly connectPrefill: ConnectPrefill | null;
  /** Why the inspector is not showing what a link or the last navigation asked for (a damaged
   * link, an unknown view or partition); null when there is nothing to say. */
  readonly notice: string | null;
}

export type Action =
  | { type: 'partition'; partitionId: number | null; notice?: string }
  | { type: 'view'; view: View }
  /** Go where an address points: the view and partition it names (the current ones when it names
   * none), and exactly the fact, tab, filters, sort, time and view inputs it names (defaults for
   * those it leaves out). */
  | {
      type: 'place';
      place: Partial<Pick<AppState, 'view' | 'partitionId' | 'factId' | 'detailTab' | 'filter' | 'sort' | 'asOf' | 'params' | 'hiddenColumns'>>;
      notice: string | null;
    }
  | { type: 'param'; params: ViewParams }
  | { type: 'notice'; notice: string | null }
  /** Open a fact (null closes it); with `partitionId`, in that partition (a find-everywhere match). */
  | { type: 'openFact'; factId: string | null; tab?: DetailTab; view?: View; partitionId?: number }
  | { type: 'detailTab'; tab: DetailTab }
  | { type: 'asOf'; asOf: string | null }
  | { type: 'filter'; filter: FactFilterInput }
  | { type: 'sort'; sort: FactSort }
  | { type: 'select'; ids: readonly string[]; mode: 'toggle' | 'add' | 'replace' | 'remove' }
  | { type: 'clearSelection' }
  | { type: 'toggleColumn'; column: string }
  | { type: 'delete'; request: DeleteRequest | null }
  | { type: 'export'; open: boolean }
  | { type: 'shortcuts'; open: boolean }
  | { type: 'connect'; open: boolean; prefill?: ConnectPrefill };

export interface ConnectPrefill {
  readonly url: string;
  readonly schema: string;
  readonly org: string;
}

export const DEFAULT_FILTER: FactFilterInput = { validity: 'all' };
export const DEFAULT_SORT: FactSort = { column: 'ts', direction: 'desc' };
export const DEFAULT_HIDDEN = ['createdAt', 'lastAccessedAt', 'accessCount', 'importance', 'authority'];

/** Column ids of the memories table whose visibility the user may change (the select column always shows). */
export const TOGGLEABLE_COLUMNS = [
  'key',
  'value',
  'status',
  'memoryType',
  'scope',
  'sourceType',
  'authority',
  'importance',
  'accessCount',
  'lastAccessedAt',
  'ts',
  'createdAt',
] as const;

export function initialState(partial: Partial<AppState> = {}): AppState {
  return {
    partitionId: null,
    view: 'memories',
    factId: null,
    detailTab: 'detail',
    asOf: null,
    filter: DEFAULT_FILTER,
    sort: DEFAULT_SORT,
    params: {},
    selection: new Set(),
    hiddenColumns: new Set(DEFAULT_HIDDEN),
    deleteRequest: null,
    exportOpen: false,
    shortcutsOpen: false,
    connectOpen: false,
    connectPrefill: null,
    notice: null,
    ...partial,
  };
}

export function reducer(s: AppState, a: Action): AppState {
  switch (a.type) {
    case 'partition': {
      const notice = a.notice ?? null;
      if (a.partitionId === s.partitionId) return notice === s.notice ? s : { ...s, notice };
      // Another partition starts with its own (empty) filter and view inputs.
      return { ...s, partitionId: a.partitionId, factId: null, selection: new Set(), filter: DEFAULT_FILTER, params: {}, notice };
    }
    case 'view':
      return { ...s, view: a.view, notice: null };
    case 'place': {
      const moved = a.place.partitionId !== undefined && a.place.partitionId !== s.partitionId;
      const base = moved ? { ...s, partitionId: a.place.partitionId ?? null, selection: new Set<string>() } : s;
      return {
        ...base,
        view: a.place.view ?? s.view,
        factId: a.place.factId ?? null,
        detailTab: a.place.detailTab ?? 'detail',
        filter: a.place.filter ?? DEFAULT_FILTER,
        sort: a.place.sort ?? DEFAULT_SORT,
        asOf: a.place.asOf ?? null,
        params: a.place.params ?? {},
        // The table's columns are in the addresses of the table; elsewhere they stay as they were.
        hiddenColumns: a.place.hiddenColumns ?? ((a.place.view ?? s.view) === 'memories' ? new Set(DEFAULT_HIDDEN) : s.hiddenColumns),
        notice: a.notice,
      };
    }
    case 'param':
      return { ...s, params: { ...s.params, ...a.params } };
    case 'notice':
      return { ...s, notice: a.notice };
    case 'openFact': {
      if (a.partitionId !== undefined && a.partitionId !== s.partitionId) {
        const moved = reducer(s, { type: 'partition', partitionId: a.partitionId });
        return { ...moved, factId: a.factId, detailTab: a.tab ?? s.detailTab, view: a.view ?? s.view, notice: null };
      }
      return { ...s, factId: a.factId, detailTab: a.tab ?? s.detailTab, view: a.view ?? s.view, notice: a.factId === null ? s.notice : null };
    }
    case 'detailTab':
      return { ...s, detailTab: a.tab };
    case 'asOf':
      return { ...s, asOf: a.asOf };
    case 'filter':
      return { ...s, filter: a.filter };
    case 'sort':
      return { ...s, sort: a.sort };
    case 'select': {
      const next = new Set(a.mode === 'replace' ? [] : s.selection);
      for (const id of a.ids) {
        if (a.mode === 'remove') next.delete(id);
        else if (a.mode === 'toggle' && next.has(id)) next.delete(id);
        else next.add(id);
      }
      return { ...s, selection: next };
    }
    case 'clearSelection':
      return s.selection.size === 0 ? s : { ...s, selection: new Set() };
    case 'toggleColumn': {
      const hidden = new Set(s.hiddenColumns);
      if (hidden.has(a.column)) hidden.delete(a.column);
      else hidden.add(a.column);
      return { ...s, hiddenColumns: hidden };
    }
    case 'delete':
      return { ...s, deleteRequest: a.request };
    case 'export':
      return { ...s, exportOpen: a.open };
    case 'shortcuts':
      return { ...s, shortcutsOpen: a.open };
    case 'connect':
      return { ...s, connectOpen: a.open, connectPrefill: a.open ? (a.prefill ?? null) : null };
  }
}

const StateContext = createContext<AppState | null>(null);
const DispatchContext = createContext<Dispatch<Action> | null>(null);

export function AppStateProvider({ initial, children }: { initial?: Partial<AppState>; children: ReactNode }) {
  const [state, dispatch] = useReducer(reducer, initial, (p) => initialState(p));
  const s = useMemo(() => state, [state]);
  return (
    <DispatchContext.Provider value={dispatch}>
      <StateContext.Provider value={s}>{children}</StateContext.Provider>
    </DispatchContext.Provider>
  );
}

export function useAppState(): AppState {
  const s = useContext(StateContext);
  if (!s) throw new Error('useAppState outside <AppStateProvider>');
  return s;
}

export function useDispatch(): Dispatch<Action> {
  const d = useContext(DispatchContext);
  if (!d) throw new Error('useDispatch outside <AppStateProvider>');
  return d;
}

/** Like useState for a view input that lives in the address (see ViewParams): Back, Forward and
 * a shared link bring it back. `initial` is what the view shows while the address names none. */
export function useAddressState<K extends keyof ViewParams>(
  name: K,
  initial: NonNullable<ViewParams[K]>,
): [NonNullable<ViewParams[K]>, Dispatch<SetStateAction<NonNullable<ViewParams[K]>>>] {
  const { params } = useAppState();
  const dispatch = useDispatch();
  const value = (params[name] ?? initial) as NonNullable<ViewParams[K]>;
  const valueRef = useRef(value);
  valueRef.current = value;
  const set = useCallback<Dispatch<SetStateAction<NonNullable<ViewParams[K]>>>>(
    (next) => {
      const v = typeof next === 'function' ? (next as (p: NonNullable<ViewParams[K]>) => NonNullable<ViewParams[K]>)(valueRef.current) : next;
      valueRef.current = v;
      dispatch({ type: 'param', params: { [name]: v } as ViewParams });
    },
    [dispatch, name, valueRef],
  );
  return [value, set];
}
