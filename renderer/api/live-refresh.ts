// The query client of one window and the live refresh over it: every query is cached by
// (channel, input) and fresh until the engine announces a change; then the queries on screen
// refetch in place (old data kept meanwhile), never while this window's own change is in flight.
import { QueryClient, type Query } from '@tanstack/react-query';

/** Unused entries are dropped after a minute. */
const GC_AFTER_MS = 60_000;

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      // Data is fresh until the engine says otherwise; the transport is local (IPC or the
      // window's own server), so focus, reconnection and offline detection mean nothing here,
      // and a failed call is shown rather than retried.
      queries: {
        staleTime: Infinity,
        gcTime: GC_AFTER_MS,
        retry: false,
        refetchOnWindowFocus: false,
        refetchOnReconnect: false,
        networkMode: 'always',
      },
      mutations: { retry: false, networkMode: 'always' },
    },
  });
}

export type RefreshListener = () => void;

export class LiveRefresh {
  /** A refresh was asked for while a mutation was pending: run it when the last one lands. */
  private held = false;
  /** Queries that were fetching when a change came: their answer may predate it, so they are
   * refreshed again once it lands (rather than cancelled, which a steady stream of changes
   * would repeat forever). */
  private readonly again = new Set<Query>();
  private readonly before = new Set<RefreshListener>();
  private readonly after = new Set<RefreshListener>();

  constructor(readonly client: QueryClient) {}

  /** Follows the client's mutations and fetches (for holds and repeats); returns the stop. */
  start(): () => void {
    const offs = [
      this.client.getMutationCache().subscribe(() => {
        if (this.held && !this.mutating()) {
          this.held = false;
          this.refreshNow();
        }
      }),
      this.client.getQueryCache().subscribe((e) => {
        if (e.type === 'removed') this.again.delete(e.query);
        else if (e.type === 'updated' && ((e.action.type === 'success' && !e.action.manual) || e.action.type === 'error') && this.again.delete(e.query)) {
          const query = e.query;
          // After the cache has finished telling everyone about the landing.
          queueMicrotask(() => this.refreshOne(query));
        }
      }),
    ];
    return () => {
      for (const off of offs) off();
      this.again.clear();
      this.held = false;
    };
  }

  private mutating(): boolean {
    return this.client.isMutating() > 0;
  }

  /**
   * Marks every query stale; those on screen refetch now, keeping their old data meanwhile.
   * While a state-changing call of this window is in flight (a mutation), the refresh waits for
   * it to land (the engine announces its change before the call answers): the caller first takes
   * away what the call removed (a deleted fact's panel), then one refresh runs.
   */
  refresh(): void {
    if (this.mutating()) this.held = true;
    else this.refreshNow();
  }

  private refreshNow(): void {
    for (const l of [...this.before]) l();
    for (const q of this.client.getQueryCache().findAll({ fetchStatus: 'fetching' })) this.again.add(q);
    void this.client.invalidateQueries({ predicate: (q) => !this.again.has(q) });
    for (const l of [...this.after]) l();
  }

  private refreshOne(query: Query): void {
    if (this.mutating()) {
      this.held = true;
      return;
    }
    for (const l of [...this.before]) l();
    void this.client.invalidateQueries({ queryKey: query.queryKey, exact: true });
  }

  /** Runs before each refresh (the fact table trims what it will re-read). */
  beforeRefresh(listener: RefreshListener): () => void {
    this.before.add(listener);
    return () => this.before.delete(listener);
  }

  /** For work kept outside the cache (a re-run assembly): told after every refresh. */
  onRefresh(listener: RefreshListener): () => void {
    this.after.add(listener);
    return () => this.after.delete(listener);
  }
}
