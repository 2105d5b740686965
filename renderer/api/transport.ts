// How the renderer reaches the engine: through the preload's `window.statelens` bridge inside
// Electron (IPC), or over HTTP + server-sent events in browser mode (`statelens serve`), with the
// session token taken from the page URL. Both speak the contract in shared/contract.ts and both
// turn a failed call into a thrown StatelensError.
import {
  HTTP_API_PREFIX,
  HTTP_EVENTS_PATH,
  TOKEN_HEADER,
  TOKEN_QUERY,
  bridgeLayout,
  splitChannel,
  type CallChannel,
  type CallResult,
  type ChannelInput,
  type ChannelOutput,
  type EventChannel,
  type EventPayload,
  type StatelensBridge,
} from '../../shared/contract';
import { ErrorShape, StatelensError } from '../../shared/errors';

export interface Transport {
  readonly kind: 'ipc' | 'http';
  call<C extends CallChannel>(channel: C, input?: ChannelInput<C>): Promise<ChannelOutput<C>>;
  on<E extends EventChannel>(event: E, listener: (payload: EventPayload<E>) => void): () => void;
  /** The state of the change stream; absent where it cannot drop (IPC within one process). */
  readonly connection?: ConnectionMonitor;
}

/** connecting: first attempt; live: events arrive; reconnecting: the stream dropped and is being
 * re-opened; offline: several attempts in a row failed (still retrying, less often). */
export type ConnectionState = 'connecting' | 'live' | 'reconnecting' | 'offline';

export interface ConnectionMonitor {
  current(): ConnectionState;
  subscribe(listener: () => void): () => void;
}

/** Re-opening a dropped event stream: the wait doubles from `firstDelayMs` up to `maxDelayMs`;
 * after `offlineAfter` failures in a row the state reads offline. */
export const RECONNECT = { firstDelayMs: 500, maxDelayMs: 10_000, offlineAfter: 3 } as const;

export function reconnectDelay(failures: number): number {
  return Math.min(RECONNECT.maxDelayMs, RECONNECT.firstDelayMs * 2 ** Math.max(0, failures - 1));
}

function connectionStore(initial: ConnectionState): ConnectionMonitor & { set(state: ConnectionState): void } {
  let state = initial;
  const listeners = new Set<() => void>();
  return {
    current: () => state,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    set(next) {
      if (next === state) return;
      state = next;
      for (const l of [...listeners]) l();
    },
  };
}

declare global {
  interface Window {
    readonly statelens?: StatelensBridge;
  }
}

function unwrap<T>(result: CallResult<T>): T {
  if (result.ok) return result.value;
  throw new StatelensError(result.error.code, result.error.message, result.error.details);
}

type AnyCall = (input?: unknown) => Promise<CallResult<unknown>>;

export function ipcTransport(bridge: StatelensBridge): Transport {
  const lookup = bridge as unknown as Record<string, Record<string, AnyCall>>;
  return {
    kind: 'ipc',
    async call(channel, input) {
      const [ns, method] = splitChannel(channel);
      const fn = lookup[ns]?.[method];
      if (!fn) throw new StatelensError('UNKNOWN_CHANNEL', `The bridge has no ${channel}`);
      return unwrap((await fn(input ?? {})) as CallResult<ChannelOutput<typeof channel>>);
    },
    on: (event, listener) => bridge.on(event, listener),
  };
}

const TOKEN_STORAGE_KEY = 'statelens.token';

/** Takes the session token from `?token=` (then removes it from the address bar, so it does not
 * linger in history) or, after a reload, from this tab's session storage. A tab opened from a link
 * (middle-click on a fact) has a session storage of its own: it finds the token this origin's
 * other tabs keep in local storage, so it does not ask for it again. The origin is the server's
 * own (its port), and a token from an earlier run of the server is refused like any wrong one. */
export function sessionToken(win: Window): string | undefined {
  const url = new URL(win.location.href);
  const fromUrl = url.searchParams.get(TOKEN_QUERY);
  if (fromUrl) {
    try {
      win.sessionStorage.setItem(TOKEN_STORAGE_KEY, fromUrl);
      win.localStorage?.setItem(TOKEN_STORAGE_KEY, fromUrl);
      url.searchParams.delete(TOKEN_QUERY);
      win.history.replaceState(win.history.state, '', url.pathname + url.search + url.hash);
    } catch {
      // Storage may be disabled; the token still works for this page's lifetime.
    }
    return fromUrl;
  }
  try {
    const kept = win.sessionStorage.getItem(TOKEN_STORAGE_KEY) ?? win.localStorage?.getItem(TOKEN_STORAGE_KEY) ?? undefined;
    if (kept) win.sessionStorage.setItem(TOKEN_STORAGE_KEY, kept);
    return kept;
  } catch {
    return undefined;
  }
}

const NO_TOKEN = 'This page needs the session token: open the exact URL that `statelens serve` printed (it ends with ?token=...).';

export function httpTransport(options: { token: string | undefined; origin?: string; fetchImpl?: typeof fetch; eventSource?: typeof EventSource }): Transport {
  const origin = options.origin ?? '';
  const doFetch = options.fetchImpl ?? ((...args: Parameters<typeof fetch>) => fetch(...args));
  const listeners = new Map<EventChannel, Set<(payload: never) => void>>();
  const connection = connectionStore(options.token ? 'connecting' : 'offline');
  let source: EventSource | undefined;
  let attached = new Set<EventChannel>();
  let failures = 0;
  let retry: ReturnType<typeof setTimeout> | undefined;

  // The browser's own EventSource retry has no backoff and gives up for good on some failures
  // (a non-stream answer); a dropped stream is closed here and re-opened on a doubling delay.
  function openStream(): void {
    retry = undefined;
    if (!options.token) return;
    const ES = options.eventSource ?? EventSource;
    const es = new ES(`${origin}${HTTP_EVENTS_PATH}?${TOKEN_QUERY}=${encodeURIComponent(options.token)}`);
    source = es;
    attached = new Set();
    for (const name of listeners.keys()) attach(name);
    es.addEventListener('open', () => {
      if (source !== es) return;
      failures = 0;
      connection.set('live');
    });
    es.addEventListener('error', () => {
      if (source !== es) return;
      es.close();
      source = undefined;
      failures += 1;
      connection.set(failures >= RECONNECT.offlineAfter ? 'offline' : 'reconnecting');
      retry = setTimeout(openStream, reconnectDelay(failures));
    });
  }
  function connectEvents(): void {
    if (source || retry || !options.token) return;
    openStream();
  }
  function attach(name: EventChannel): void {
    if (!source || attached.has(name)) return;
    attached.add(name);
    source.addEventListener(name, (e) => {
      let payload: unknown;
      try {
        payload = JSON.parse((e as MessageEvent<string>).data);
      } catch {
        return;
      }
      for (const l of listeners.get(name) ?? []) l(payload as never);
    });
  }

  return {
    kind: 'http',
    connection,
    async call(channel, input) {
      if (!options.token) throw new StatelensError('UNAUTHORIZED', NO_TOKEN);
      let response: Response;
      try {
        response = await doFetch(`${origin}${HTTP_API_PREFIX}${channel}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', [TOKEN_HEADER]: options.token },
          body: JSON.stringify(input ?? {}),
          credentials: 'same-origin',
        });
      } catch (e) {
        throw new StatelensError(
          'INTERNAL',
          `The statelens server did not answer (${e instanceof Error ? e.message : String(e)}); is \`statelens serve\` still running?`,
        );
      }
      let body: unknown;
      try {
        body = await response.json();
      } catch {
        throw new StatelensError('INTERNAL', `The statelens server answered ${response.status} without JSON`);
      }
      if (typeof body === 'object' && body !== null && 'ok' in body) return unwrap(body as CallResult<ChannelOutput<typeof channel>>);
      const err = ErrorShape.safeParse(body);
      if (err.success) throw new StatelensError(err.data.code, err.data.message, err.data.details);
      throw new StatelensError('INTERNAL', `Unexpected answer from the statelens server (${response.status})`);
    },
    on(event, listener) {
      let set = listeners.get(event);
      if (!set) listeners.set(event, (set = new Set()));
      set.add(listener as (payload: never) => void);
      connectEvents();
      attach(event);
      return () => {
        set.delete(listener as (payload: never) => void);
      };
    },
  };
}

/** IPC when the preload put a bridge on `window`, otherwise HTTP against the page's own origin. */
export function pickTransport(win: Window = window): Transport {
  if (win.statelens) return ipcTransport(win.statelens);
  return httpTransport({ token: sessionToken(win), origin: win.location.origin });
}

/** The contract as nested async functions that throw StatelensError: `client.facts.list({...})`. */
export type StatelensClient = {
  readonly [N in keyof Omit<StatelensBridge, 'on'>]: {
    readonly [M in keyof StatelensBridge[N]]: StatelensBridge[N][M] extends (...args: infer A) => Promise<CallResult<infer O>>
      ? (...args: A) => Promise<O>
      : never;
  };
} & { readonly on: Transport['on']; readonly transport: Transport };

export function createClient(transport: Transport): StatelensClient {
  const client: Record<string, unknown> = { on: transport.on.bind(transport), transport };
  for (const [ns, methods] of Object.entries(bridgeLayout())) {
    const group: Record<string, (input?: unknown) => Promise<unknown>> = {};
    for (const [method, channel] of methods) group[method] = (input) => transport.call(channel, input as never);
    client[ns] = Object.freeze(group);
  }
  return Object.freeze(client) as unknown as StatelensClient;
}
