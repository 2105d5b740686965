// The paged fact list behind the memories table: keyset pages served by the engine, fetched as
// the user scrolls (an infinite query), and refreshed in place on data.changed: the loaded pages
// are re-read from the top as one keyset walk, the old rows staying on screen meanwhile.
import { keepPreviousData, useInfiniteQuery, type InfiniteData, type QueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef } from 'react';
import type { ChannelOutput } from '../../shared/contract';
import type { CappedCount, FactRowView } from '../../shared/inspect';
import type { ErrorShape } from '../../shared/errors';
import { MAX_PAGE_SIZE, type FactFilterInput, type FactSort } from '../../shared/query';
import { useApi, useErrorShape } from './hooks';

export const FIRST_PAGE = 200;
export const NEXT_PAGE = MAX_PAGE_SIZE;
/** A refresh re-reads at most this many rows from the top; deeper rows reload on scroll. */
export const MAX_REFRESH_ROWS = 20_000;

type Page = ChannelOutput<'facts.list'>;
interface PageParam {
  readonly after: string | null;
  readonly limit: number;
}
type Pages = InfiniteData<Page, PageParam>;

const FIRST: PageParam = { after: null, limit: FIRST_PAGE };

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

export function factPagesKey(partitionId: number | null, filter: FactFilterInput, sort: FactSort) {
  return ['facts.pages', { partitionId, filter, sort }] as const;
}

/** The first pages holding at most `cap` rows (at least one page): what a refresh re-reads. */
export function pagesWithin(data: Pages, cap: number): Pages {
  let rows = 0;
  let keep = 0;
  while (keep < data.pages.length && (keep === 0 || rows + (data.pages[keep]?.rows.length ?? 0) <= cap)) {
    rows += data.pages[keep]?.rows.length ?? 0;
    keep++;
  }
  return keep === data.pages.length ? data : { pages: data.pages.slice(0, keep), pageParams: data.pageParams.slice(0, keep) };
}

function trimForRefresh(client: QueryClient, key: ReturnType<typeof factPagesKey>): void {
  const data = client.getQueryData<Pages>(key);
  if (!data) return;
  const kept = pagesWithin(data, MAX_REFRESH_ROWS);
  if (kept !== data) client.setQueryData<Pages>(key, kept);
}

export function useFactPages(partitionId: number | null, filter: FactFilterInput, sort: FactSort): FactPagesState {
  const { transport, queryClient, live } = useApi();
  const enabled = partitionId !== null;
  const key = factPagesKey(partitionId, filter, sort);
  const q = useInfiniteQuery({
    queryKey: key,
    queryFn: ({ pageParam }) => transport.call('facts.list', { partitionId: partitionId as number, filter, sort, page: pageParam }),
    initialPageParam: FIRST,
    getNextPageParam: (last): PageParam | undefined => (last.nextCursor === null ? undefined : { after: last.nextCursor, limit: NEXT_PAGE }),
    enabled,
    // A new filter or sort keeps the previous rows until its first page lands; if that fails, the
    // error stands alone: the old rows would pass for this filter's result (and be offered for
    // deletion).
    placeholderData: keepPreviousData,
  });

  // A deep scroll is not re-read whole on every change: the pages past the cap are let go.
  const hash = JSON.stringify(key);
  const keyRef = useRef(key);
  keyRef.current = key;
  useEffect(() => live.beforeRefresh(() => trimForRefresh(queryClient, keyRef.current)), [live, queryClient, hash]);

  const error = useErrorShape(enabled ? q.error : undefined);
  const data = enabled ? q.data : undefined;
  const rows = useMemo(() => data?.pages.flatMap((p) => p.rows) ?? [], [data]);
  const version = useRef({ rows, n: 0 });
  if (version.current.rows !== rows) version.current = { rows, n: version.current.n + 1 };

  // Counted on the first page only.
  const total = data?.pages[0]?.total ?? null;
  const reloading = enabled && q.isPlaceholderData;
  const loading = enabled && q.isPending && !reloading;
  const { hasNextPage, isFetching, fetchNextPage, refetch } = q;
  const loadMore = useCallback(() => {
    if (!enabled || !hasNextPage || isFetching) return;
    void fetchNextPage({ cancelRefetch: false });
  }, [enabled, hasNextPage, isFetching, fetchNextPage]);
  const refresh = useCallback(() => {
    if (enabled) void refetch();
  }, [enabled, refetch]);

  return {
    rows,
    total,
    done: !loading && !reloading && !hasNextPage,
    loading,
    reloading,
    loadingMore: enabled && q.isFetchingNextPage,
    refreshing: enabled && q.isRefetching && !reloading,
    error,
    version: version.current.n,
    loadMore,
    refresh,
  };
}
