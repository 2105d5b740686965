// A small query cache over the contract: one entry per (channel, input), shared by every view
// that asks the same thing, refetched in place (old data kept on screen) when the engine
// announces `data.changed`, so open views refresh without flicker or lost scroll position.
import type { CallChannel, ChannelInput, ChannelOutput } from '../../shared/contract';
import { toErrorShape, type ErrorShape } from '../../shared/errors';
import type { Transport } from './transport';

export interface QueryState<T> {
  readonly data: T | undefined;
  readonly error: ErrorShape | undefined;
  /** True while a request for this entry is in flight (first load or refresh). */
  readonly fetching: boolean;
  /** Bumped every time fresh data lands; lets views notice a refresh. */
  readonly version: number;
}

interface Entry {
  state: QueryState<unknown>;
  readonly run: () => Promise<unknown>;
  readonly listeners: Set<() => void>;
  stale: boolean;
  inflight: Promise<void> | undefined;
  /** A refresh was requested while a request was in flight: run again when it lands. */
  again: boolean;
  gcTimer: ReturnType<typeof setTimeout> | undefined;
}

const EMPTY: QueryState<never> = { data: undefined, error: undefined, fetching: false, version: 0 };
const GC_AFTER_MS = 60_000;

/** Deterministic JSON (sorted keys) so equal inputs share an entry whatever their key order. */
export function stableKey(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}

export type InvalidationListener = () => void;

export class QueryCache {
  private readonly entries = new Map<string, Entry>();
  private readonly invalidationListeners = new Set<InvalidationListener>();

  constructor(readonly transport: Transport) {}

  keyOf<C extends CallChannel>(channel: C, input: ChannelInput<C>): string {
    return `${channel} ${stableKey(input)}`;
  }

  private entry<C extends CallChannel>(channel: C, input: ChannelInput<C>): Entry {
    const key = this.keyOf(channel, input);
    let e = this.entries.get(key);
    if (!e) {
      e = {
        state: EMPTY,
        run: () => this.transport.call(channel, input),
        listeners: new Set(),
        stale: true,
        inflight: undefined,
        again: false,
        gcTimer: undefined,
      };
      this.entries.set(key, e);
    }
    return e;
  }

  peek<C extends CallChannel>(channel: C, input: ChannelInput<C>): QueryState<ChannelOutput<C>> {
    return (this.entries.get(this.keyOf(channel, input))?.state ?? EMPTY) as QueryState<ChannelOutput<C>>;
  }

  /** Subscribes to an entry; fetches it if it has no fresh data. Returns the unsubscribe. */
  subscribe<C extends CallChannel>(channel: C, input: ChannelInput<C>, listener: () => void): () => void {
    const key = this.keyOf(channel, input);
    const e = this.entry(channel, input);
    if (e.gcTimer) {
      clearTimeout(e.gcTimer);
      e.gcTimer = undefined;
    }
    e.listeners.add(listener);
    if (e.stale && !e.inflight) void this.fetch(e);
    return () => {
      e.listeners.delete(listener);
      if (e.listeners.size === 0) {
        e.gcTimer = setTimeout(() => {
          if (e.listeners.size === 0) this.entries.delete(key);
        }, GC_AFTER_MS);
      }
    };
  }

  refetch<C extends CallChannel>(channel: C, input: ChannelInput<C>): void {
    const e = this.entry(channel, input);
    e.stale = true;
    void this.fetch(e);
  }

  private fetch(e: Entry): Promise<void> {
    if (e.inflight) {
      e.again = true;
      return e.inflight;
    }
    e.stale = false;
    this.set(e, { ...e.state, fetching: true });
    // The request is over before anyone hears of its result, so a listener that refreshes
    // again starts a new request rather than joining the finished one.
    const land = (state: QueryState<unknown>) => {
      e.inflight = undefined;
      const again = e.again;
      e.again = false;
      this.set(e, again && e.listeners.size > 0 ? { ...state, fetching: true } : state);
      if (again) {
        if (e.listeners.size > 0) void this.fetch(e);
        else e.stale = true;
      }
    };
    const p = e.run().then(
      (data) => land({ data, error: undefined, fetching: false, version: e.state.version + 1 }),
      (err: unknown) => land({ data: e.state.data, error: toErrorShape(err), fetching: false, version: e.state.version }),
    );
    e.inflight = p;
    return p;
  }

  private set(e: Entry, state: QueryState<unknown>): void {
    e.state = state;
    for (const l of [...e.listeners]) l();
  }

  private holds = 0;
  private held = false;

  /**
   * While a state-changing call of this window is in flight, refreshes wait for it to land (the
   * engine announces its change before the call answers): the caller first takes away what the
   * call removed (a deleted fact's panel), then one refresh runs. Returns the release.
   */
  hold(): () => void {
    this.holds += 1;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.holds -= 1;
      if (this.holds === 0 && this.held) {
        this.held = false;
        this.invalidateAll();
      }
    };
  }

  /** Marks every entry stale; entries on screen refetch now, keeping their old data meanwhile. */
  invalidateAll(): void {
    if (this.holds > 0) {
      this.held = true;
      return;
    }
    for (const e of this.entries.values()) {
      if (e.listeners.size > 0) void this.fetch(e);
      else e.stale = true;
    }
    for (const l of [...this.invalidationListeners]) l();
  }

  /** For state kept outside the cache (the paged fact table): told on every invalidation. */
  onInvalidate(listener: InvalidationListener): () => void {
    this.invalidationListeners.add(listener);
    return () => this.invalidationListeners.delete(listener);
  }

  clear(): void {
    for (const e of this.entries.values()) if (e.gcTimer) clearTimeout(e.gcTimer);
    this.entries.clear();
  }
}
