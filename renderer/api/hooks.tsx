// React bindings of the contract: the provider (transport + react-query client, `data.changed`
// turned into a live refresh), typed query / mutation hooks, event subscriptions and progress.
import { QueryClientProvider, useMutation as useReactMutation, useQuery as useReactQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, useSyncExternalStore, type ReactNode } from 'react';
import type { CallChannel, ChannelInput, ChannelOutput, DataChanged, EventChannel, EventPayload, Progress } from '../../shared/contract';
import { toErrorShape, type ErrorShape } from '../../shared/errors';
import { createQueryClient, LiveRefresh } from './live-refresh';
import type { ConnectionState, Transport } from './transport';

interface ApiValue {
  readonly transport: Transport;
  readonly queryClient: QueryClient;
  readonly live: LiveRefresh;
}

const ApiContext = createContext<ApiValue | null>(null);

/** Engine change bursts (an agent writing many facts) are folded into one refresh per window. */
export const INVALIDATION_COALESCE_MS = 60;

export function ApiProvider({ transport, children }: { transport: Transport; children: ReactNode }) {
  const value = useMemo<ApiValue>(() => {
    const queryClient = createQueryClient();
    return { transport, queryClient, live: new LiveRefresh(queryClient) };
  }, [transport]);
  useEffect(() => {
    const stop = value.live.start();
    let timer: ReturnType<typeof setTimeout> | undefined;
    // Every change is refreshed everywhere: `agentState.changed` always comes with a
    // `data.changed`, so it needs no refresh of its own.
    const off = transport.on('data.changed', () => {
      if (timer) return;
      timer = setTimeout(() => {
        timer = undefined;
        value.live.refresh();
      }, INVALIDATION_COALESCE_MS);
    });
    // Changes made while the stream was down were never announced: refresh once it is back.
    let dropped = false;
    const offConnection = transport.connection?.subscribe(() => {
      const state = transport.connection?.current();
      if (state === 'reconnecting' || state === 'offline') dropped = true;
      else if (state === 'live' && dropped) {
        dropped = false;
        value.live.refresh();
      }
    });
    return () => {
      off();
      offConnection?.();
      if (timer) clearTimeout(timer);
      stop();
    };
  }, [transport, value]);
  return (
    <ApiContext.Provider value={value}>
      <QueryClientProvider client={value.queryClient}>{children}</QueryClientProvider>
    </ApiContext.Provider>
  );
}

export function useApi(): ApiValue {
  const v = useContext(ApiContext);
  if (!v) throw new Error('useApi outside <ApiProvider>');
  return v;
}

export interface QueryState<T> {
  readonly data: T | undefined;
  readonly error: ErrorShape | undefined;
  /** True while a request for this entry is in flight (first load or refresh). */
  readonly fetching: boolean;
  /** Bumped every time fresh data lands; lets views notice a refresh. */
  readonly version: number;
}

export interface QueryResult<T> extends QueryState<T> {
  /** No data yet and a request in flight. */
  readonly loading: boolean;
  refetch(): void;
}

/** The cache key of one call: react-query hashes it with sorted object keys, so equal inputs
 * share an entry whatever their key order. */
export function queryKeyOf<C extends CallChannel>(channel: C, input: ChannelInput<C> | null): readonly [C, ChannelInput<C> | null] {
  return [channel, input];
}

/** The error a hook shows: the contract's shape, kept the same object while the error is. */
export function useErrorShape(error: unknown): ErrorShape | undefined {
  return useMemo(() => (error === null || error === undefined ? undefined : toErrorShape(error)), [error]);
}

/**
 * Subscribes to one call. `input` null disables the query. With `keepPrevious`, the data of the
 * previous input stays on screen while the new one loads (filters, time travel).
 */
export function useQuery<C extends CallChannel>(
  channel: C,
  input: ChannelInput<C> | null,
  options: { keepPrevious?: boolean } = {},
): QueryResult<ChannelOutput<C>> {
  const { transport } = useApi();
  const client = useQueryClient();
  const queryKey = queryKeyOf(channel, input);
  const q = useReactQuery({
    queryKey,
    queryFn: () => transport.call(channel, input as ChannelInput<C>),
    enabled: input !== null,
  });
  const error = useErrorShape(input === null ? undefined : q.error);
  const state = input === null ? undefined : q.data;
  const previous = useRef<ChannelOutput<C> | undefined>(undefined);
  if (state !== undefined) previous.current = state;
  const data = state ?? (options.keepPrevious ? previous.current : undefined);
  const inputRef = useRef(input);
  inputRef.current = input;
  const refetch = q.refetch;
  const refetchNow = useCallback(() => {
    if (inputRef.current !== null) void refetch();
  }, [refetch]);
  return {
    data,
    error,
    fetching: input !== null && q.isFetching,
    version: input === null ? 0 : (client.getQueryState(queryKey)?.dataUpdateCount ?? 0),
    loading: data === undefined && error === undefined && input !== null,
    refetch: refetchNow,
  };
}

export interface MutationResult<C extends CallChannel> {
  mutate(input: ChannelInput<C>): Promise<ChannelOutput<C>>;
  readonly pending: boolean;
  readonly error: ErrorShape | undefined;
  readonly data: ChannelOutput<C> | undefined;
  reset(): void;
}

/**
 * A state-changing call; on success every open view refreshes (the engine also announces it).
 * `onSuccess` runs before that refresh, so a view showing what the call removed (a deleted fact)
 * can close first instead of asking for it again: refreshes wait while any mutation is pending.
 */
export function useMutation<C extends CallChannel>(channel: C, options: { onSuccess?: (data: ChannelOutput<C>) => void } = {}): MutationResult<C> {
  const { transport, live } = useApi();
  const onSuccess = useRef(options.onSuccess);
  onSuccess.current = options.onSuccess;
  const m = useReactMutation<ChannelOutput<C>, unknown, ChannelInput<C>>({
    mutationFn: (input) => transport.call(channel, input),
    onSuccess: (data) => {
      try {
        onSuccess.current?.(data);
      } finally {
        // Held until this mutation has landed (it is still pending here).
        live.refresh();
      }
    },
  });
  const error = useErrorShape(m.error);
  return { mutate: m.mutateAsync, reset: m.reset, pending: m.isPending, error, data: m.data };
}

/** Listens to one contract event for the component's lifetime. */
export function useEvent<E extends EventChannel>(event: E, listener: (payload: EventPayload<E>) => void): void {
  const { transport } = useApi();
  const ref = useRef(listener);
  ref.current = listener;
  useEffect(() => transport.on(event, (p) => ref.current(p)), [transport, event]);
}

/** Calls `listener` after every live refresh (coalesced data.changed, reconnection, a mutation). */
export function useInvalidation(listener: () => void): void {
  const { live } = useApi();
  const ref = useRef(listener);
  ref.current = listener;
  useEffect(() => live.onRefresh(() => ref.current()), [live]);
}

/** The latest progress of one operation (export, deletion, assembly), or undefined. */
export function useProgress(operationId: string | undefined): Progress | undefined {
  const [progress, setProgress] = useState<Progress | undefined>(undefined);
  useEffect(() => setProgress(undefined), [operationId]);
  useEvent('progress', (p) => {
    if (operationId !== undefined && p.operationId === operationId) setProgress(p);
  });
  return progress;
}

const ALWAYS_LIVE = () => 'live' as const;
const NO_SUBSCRIPTION = () => () => {};

/** The change stream's state (always live over IPC). */
export function useConnection(): ConnectionState {
  const { transport } = useApi();
  const monitor = transport.connection;
  const subscribe = useCallback((onChange: () => void) => (monitor ? monitor.subscribe(onChange) : NO_SUBSCRIPTION()), [monitor]);
  const get = monitor ? monitor.current : ALWAYS_LIVE;
  return useSyncExternalStore(subscribe, get, get);
}

/** How often queries that failed because the database server does not answer are asked again. */
export const SERVER_RETRY_MS = 3000;

function lostServerQueries(client: QueryClient) {
  return client
    .getQueryCache()
    .getAll()
    .filter((q) => q.state.status === 'error' && q.getObserversCount() > 0 && toErrorShape(q.state.error).code === 'DB_UNAVAILABLE');
}

/** A shared database server that stopped answering, shown like a dropped change stream:
 * 'reconnecting' at first, 'offline' after several retries in a row; null while it answers.
 * Meanwhile the failed queries are asked again, so the views come back with the server. */
export function useServerConnection(offlineAfter = 3): Exclude<ConnectionState, 'live' | 'connecting'> | null {
  const client = useQueryClient();
  const [lost, setLost] = useState(false);
  const [failures, setFailures] = useState(0);
  useEffect(() => {
    const check = () => setLost(lostServerQueries(client).length > 0);
    check();
    // Only a query's result or its removal changes what is lost; a query added or observed while
    // another component renders must not set this component's state in that render.
    return client.getQueryCache().subscribe((event) => {
      if (event.type === 'updated' || event.type === 'removed') check();
    });
  }, [client]);
  useEffect(() => {
    if (!lost) {
      setFailures(0);
      return;
    }
    const timer = setInterval(() => {
      setFailures((n) => n + 1);
      for (const q of lostServerQueries(client)) void q.fetch().catch(() => {});
    }, SERVER_RETRY_MS);
    return () => clearInterval(timer);
  }, [lost, client]);
  if (!lost) return null;
  return failures >= offlineAfter ? 'offline' : 'reconnecting';
}

/** The last `data.changed` seen (for the status bar's "updated" note). */
export function useLastChange(): { at: number; event: DataChanged } | undefined {
  const [last, setLast] = useState<{ at: number; event: DataChanged } | undefined>(undefined);
  useEvent('data.changed', (event) => setLast({ at: Date.now(), event }));
  return last;
}

/** A random operation id the caller names before starting (progress and cancel refer to it). */
export function newOperationId(prefix = 'op'): string {
  const bytes = new Uint8Array(9);
  crypto.getRandomValues(bytes);
  return `${prefix}-${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`;
}
