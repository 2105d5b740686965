// React bindings of the contract: the provider (transport + cache, `data.changed` turned into
// cache invalidation), typed query / mutation hooks, event subscriptions and progress.
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, useSyncExternalStore, type ReactNode } from 'react';
import type { CallChannel, ChannelInput, ChannelOutput, DataChanged, EventChannel, EventPayload, Progress } from '../../shared/contract';
import { toErrorShape, type ErrorShape } from '../../shared/errors';
import { QueryCache, type QueryState } from './cache';
import type { ConnectionState, Transport } from './transport';

interface ApiValue {
  readonly transport: Transport;
  readonly cache: QueryCache;
}

const ApiContext = createContext<ApiValue | null>(null);

/** Engine change bursts (an agent writing many facts) are folded into one refresh per window. */
export const INVALIDATION_COALESCE_MS = 60;

export function ApiProvider({ transport, children }: { transport: Transport; children: ReactNode }) {
  const value = useMemo<ApiValue>(() => ({ transport, cache: new QueryCache(transport) }), [transport]);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const off = transport.on('data.changed', () => {
      if (timer) return;
      timer = setTimeout(() => {
        timer = undefined;
        value.cache.invalidateAll();
      }, INVALIDATION_COALESCE_MS);
    });
    // Changes made while the stream was down were never announced: refresh once it is back.
    let dropped = false;
    const offConnection = transport.connection?.subscribe(() => {
      const state = transport.connection?.current();
      if (state === 'reconnecting' || state === 'offline') dropped = true;
      else if (state === 'live' && dropped) {
        dropped = false;
        value.cache.invalidateAll();
      }
    });
    return () => {
      off();
      offConnection?.();
      if (timer) clearTimeout(timer);
      value.cache.clear();
    };
  }, [transport, value]);
  return <ApiContext.Provider value={value}>{children}</ApiContext.Provider>;
}

export function useApi(): ApiValue {
  const v = useContext(ApiContext);
  if (!v) throw new Error('useApi outside <ApiProvider>');
  return v;
}

export interface QueryResult<T> extends QueryState<T> {
  /** No data yet and a request in flight. */
  readonly loading: boolean;
  refetch(): void;
}

const DISABLED: QueryState<never> = { data: undefined, error: undefined, fetching: false, version: 0 };

/**
 * Subscribes to one call. `input` null disables the query. With `keepPrevious`, the data of the
 * previous input stays on screen while the new one loads (filters, time travel).
 */
export function useQuery<C extends CallChannel>(
  channel: C,
  input: ChannelInput<C> | null,
  options: { keepPrevious?: boolean } = {},
): QueryResult<ChannelOutput<C>> {
  const { cache } = useApi();
  const key = input === null ? null : cache.keyOf(channel, input);
  // The input object may be rebuilt every render; the key decides identity.
  const inputRef = useRef(input);
  inputRef.current = input;
  const subscribe = useCallback(
    (onChange: () => void) => {
      const current = inputRef.current;
      if (key === null || current === null) return () => {};
      return cache.subscribe(channel, current, onChange);
    },
    [cache, channel, key],
  );
  const getSnapshot = useCallback(() => {
    const current = inputRef.current;
    return key === null || current === null ? DISABLED : cache.peek(channel, current);
  }, [cache, channel, key]);
  const state = useSyncExternalStore(subscribe, getSnapshot, getSnapshot);
  const previous = useRef<ChannelOutput<C> | undefined>(undefined);
  if (state.data !== undefined) previous.current = state.data;
  const data = state.data ?? (options.keepPrevious ? previous.current : undefined);
  const refetch = useCallback(() => {
    const current = inputRef.current;
    if (current !== null) cache.refetch(channel, current);
  }, [cache, channel]);
  return { ...state, data, loading: data === undefined && state.error === undefined && key !== null, refetch };
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
 * can close first instead of asking for it again.
 */
export function useMutation<C extends CallChannel>(channel: C, options: { onSuccess?: (data: ChannelOutput<C>) => void } = {}): MutationResult<C> {
  const { transport, cache } = useApi();
  const onSuccess = useRef(options.onSuccess);
  onSuccess.current = options.onSuccess;
  const [state, setState] = useState<{ pending: boolean; error: ErrorShape | undefined; data: ChannelOutput<C> | undefined }>({
    pending: false,
    error: undefined,
    data: undefined,
  });
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);
  const mutate = useCallback(
    async (input: ChannelInput<C>) => {
      setState({ pending: true, error: undefined, data: undefined });
      const release = cache.hold();
      try {
        const data = await transport.call(channel, input);
        if (mounted.current) setState({ pending: false, error: undefined, data });
        try {
          onSuccess.current?.(data);
        } finally {
          cache.invalidateAll();
        }
        return data;
      } catch (e) {
        if (mounted.current) setState({ pending: false, error: toErrorShape(e), data: undefined });
        throw e;
      } finally {
        release();
      }
    },
    [transport, cache, channel],
  );
  const reset = useCallback(() => setState({ pending: false, error: undefined, data: undefined }), []);
  return { mutate, reset, ...state };
}

/** Listens to one contract event for the component's lifetime. */
export function useEvent<E extends EventChannel>(event: E, listener: (payload: EventPayload<E>) => void): void {
  const { transport } = useApi();
  const ref = useRef(listener);
  ref.current = listener;
  useEffect(() => transport.on(event, (p) => ref.current(p)), [transport, event]);
}

/** Calls `listener` after every refresh the cache performs (coalesced data.changed). */
export function useInvalidation(listener: () => void): void {
  const { cache } = useApi();
  const ref = useRef(listener);
  ref.current = listener;
  useEffect(() => cache.onInvalidate(() => ref.current()), [cache]);
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
