// The review queue's flags as keyset pages (the whole queue, or one cause group's), fetched as
// the reviewer asks for more and refreshed with every other view on data.changed; and every id
// of such a list, for selecting or deleting a whole group at once.
import { useInfiniteQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { ChannelOutput } from '../../shared/contract';
import { MAX_PAGE_SIZE } from '../../shared/query';
import type { ErrorShape } from '../../shared/errors';
import type { Transport } from '../api/transport';
import { useApi, useErrorShape } from '../api/hooks';

export const REVIEW_PAGE = 100;
/** Most ids "select all" gathers (a selection is dismissed or deleted in batches anyway). */
export const MAX_GATHERED_IDS = 50_000;

type Page = ChannelOutput<'review.queue'>;
export type ReviewEntry = Page['entries'][number];

/** `causeFactId` undefined: the whole queue; a string or null: that cause group only. */
export function useReviewPages(partitionId: number | null, causeFactId?: string | null) {
  const { transport } = useApi();
  const enabled = partitionId !== null;
  const q = useInfiniteQuery({
    queryKey: ['review.queue.pages', partitionId, causeFactId === undefined ? 'all' : { causeFactId }],
    queryFn: ({ pageParam }) =>
      transport.call('review.queue', {
        partitionId: partitionId as number,
        page: { limit: REVIEW_PAGE, after: pageParam },
        ...(causeFactId !== undefined ? { causeFactId } : {}),
      }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    enabled,
  });
  const entries = useMemo(() => q.data?.pages.flatMap((p) => p.entries) ?? [], [q.data]);
  const error: ErrorShape | undefined = useErrorShape(enabled ? q.error : undefined);
  return {
    entries,
    total: q.data?.pages[0]?.total ?? null,
    loading: enabled && q.isPending,
    error,
    hasMore: q.hasNextPage,
    loadingMore: q.isFetchingNextPage,
    loadMore: () => void q.fetchNextPage({ cancelRefetch: false }),
    refetch: () => void q.refetch(),
  };
}

/** Every flagged fact id of the queue (or of one cause group), newest first, up to `cap`. */
export async function gatherReviewIds(transport: Transport, partitionId: number, causeFactId?: string | null, cap = MAX_GATHERED_IDS): Promise<string[]> {
  const ids: string[] = [];
  let after: string | null = null;
  do {
    const page: Page = await transport.call('review.queue', {
      partitionId,
      page: { limit: MAX_PAGE_SIZE, after },
      ...(causeFactId !== undefined ? { causeFactId } : {}),
    });
    ids.push(...page.entries.map((e) => e.fact.id));
    after = page.nextCursor;
  } while (after !== null && ids.length < cap);
  return ids.slice(0, cap);
}
