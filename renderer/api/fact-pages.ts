// The paged fact list behind the memories table: keyset pages served by the engine, fetched as
// the user scrolls, and refreshed in place (same rows count, same scroll offset) on data.changed.
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { ChannelInput } from '../../shared/contract';
import type { CappedCount, FactRowView } from '../../shared/inspect';
import { toErrorShape, type ErrorShape } from '../../shared/errors';
import { MAX_PAGE_SIZE, type FactFilterInput, type FactSort } from '../../shared/query';
import { stableKey } from './cache';
import { useApi, useInvalidation } from './hooks';

export const FIRST_PAGE = 200;
export const NEXT_PAGE = MAX_PAGE_SIZE;
/** A refresh re-reads at most this many rows from the top; deeper rows reload on scroll. */
export const MAX_REFRESH_ROWS = 20_000;

interface Page {
  readonly rows: readonly FactRowView[];
  readonly next: string | null;
}

export interface FactPagesState {
  readonly rows: readonly FactRowView[];
  readonly total: CappedCount | null;
  readonly done: boolean;
  /** First page in flight and nothing to show yet. */
  readonly loading: boolean;
  /** The filter or sort changed: the previous rows stay on screen until the new first page lands
   * (and are dropped if it fails). */
  readonly reloading: boolean;
  readonly loadingMore: boolean;
  readonly refreshing: boolean;
  readonly error: ErrorShape | undefined;
  /** Bumped whenever rows change (tests and views watch it). */
  readonly version: number;
  loadMore(): void;
  refresh(): void;
}

interface Internal {
  pages: Page[];
  total: CappedCount | null;
  loading: boolean;
  reloading: boolean;
  loadingMore: boolean;
  refreshing: boolean;
  error: ErrorShape | undefined;
  version: number;
}

const INITIAL: Internal = { pages: [], total: null, loading: true, reloading: false, loadingMore: false, refreshing: false, error: undefined, version: 0 };

export function useFactPages(partitionId: number | null, filter: FactFilterInput, sort: FactSort): FactPagesState {
  const { transport } = useApi();
  const [state, setState] = useState<Internal>(INITIAL);
  const stateRef = useRef(state);
  stateRef.current = state;
  const key = partitionId === null ? null : stableKey({ partitionId, filter, sort });
  // Every reset or refresh starts a new generation; answers of older generations are dropped.
  const generation = useRef(0);
  const args = useRef({ partitionId, filter, sort });
  args.current = { partitionId, filter, sort };

  const fetchPage = useCallback(
    (after: string | null, limit: number) => {
      const { partitionId: pid, filter: f, sort: s } = args.current;
      const input: ChannelInput<'facts.list'> = { partitionId: pid as number, filter: f, sort: s, page: { limit, after } };
      return transport.call('facts.list', input);
    },
    [transport],
  );

  useEffect(() => {
    const gen = ++generation.current;
    if (key === null) {
      setState({ ...INITIAL, loading: false });
      return;
    }
    setState((s) =>
      s.pages.length > 0 ? { ...s, reloading: true, loadingMore: false, refreshing: false, error: undefined } : { ...INITIAL, version: s.version + 1 },
    );
    fetchPage(null, FIRST_PAGE).then(
      (page) => {
        if (gen !== generation.current) return;
        setState((s) => ({
          ...s,
          pages: [{ rows: page.rows, next: page.nextCursor }],
          total: page.total,
          loading: false,
          reloading: false,
          error: undefined,
          version: s.version + 1,
        }));
      },
      (e: unknown) => {
        if (gen !== generation.current) return;
        // The rows on screen belong to the previous filter: keeping them beside this filter's
        // error would pass them off as its result (and offer them for deletion).
        setState((s) => ({ ...s, pages: [], total: null, loading: false, reloading: false, error: toErrorShape(e), version: s.version + 1 }));
      },
    );
  }, [key, fetchPage]);

  const loadMore = useCallback(() => {
    const s = stateRef.current;
    const last = s.pages[s.pages.length - 1];
    if (!last || last.next === null || s.loadingMore || s.loading || s.reloading || s.refreshing) return;
    const gen = generation.current;
    setState((x) => ({ ...x, loadingMore: true }));
    fetchPage(last.next, NEXT_PAGE).then(
      (page) => {
        if (gen !== generation.current) return;
        setState((x) => ({
          ...x,
          pages: [...x.pages, { rows: page.rows, next: page.nextCursor }],
          total: page.total ?? x.total,
          loadingMore: false,
          version: x.version + 1,
        }));
      },
      (e: unknown) => {
        if (gen !== generation.current) return;
        setState((x) => ({ ...x, loadingMore: false, error: toErrorShape(e) }));
      },
    );
  }, [fetchPage]);

  const refresh = useCallback(() => {
    if (args.current.partitionId === null) return;
    const s = stateRef.current;
    const loaded = s.pages.reduce((n, p) => n + p.rows.length, 0);
    const want = Math.min(Math.max(loaded, FIRST_PAGE), MAX_REFRESH_ROWS);
    const gen = ++generation.current;
    setState((x) => ({ ...x, refreshing: true, loadingMore: false }));
    void (async () => {
      const pages: Page[] = [];
      let after: string | null = null;
      let got = 0;
      let total: CappedCount | null = null;
      try {
        // Chained from the top so the new pages are one consistent keyset walk.
        do {
          const page = await fetchPage(after, pages.length === 0 ? Math.min(NEXT_PAGE, Math.max(FIRST_PAGE, want)) : NEXT_PAGE);
          if (gen !== generation.current) return;
          pages.push({ rows: page.rows, next: page.nextCursor });
          got += page.rows.length;
          total = total ?? page.total;
          after = page.nextCursor;
        } while (after !== null && got < want);
        setState((x) => ({ ...x, pages, total, refreshing: false, error: undefined, loading: false, version: x.version + 1 }));
      } catch (e) {
        if (gen !== generation.current) return;
        setState((x) => ({ ...x, refreshing: false, error: toErrorShape(e) }));
      }
    })();
  }, [fetchPage]);

  useInvalidation(refresh);

  const rows = useMemo(() => state.pages.flatMap((p) => p.rows), [state.pages]);
  const lastPage = state.pages[state.pages.length - 1];
  return {
    rows,
    total: state.total,
    done: !state.loading && !state.reloading && (lastPage === undefined || lastPage.next === null),
    loading: state.loading,
    reloading: state.reloading,
    loadingMore: state.loadingMore,
    refreshing: state.refreshing,
    error: state.error,
    version: state.version,
    loadMore,
    refresh,
  };
}
