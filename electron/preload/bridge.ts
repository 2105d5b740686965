// Builds `window.statelens` from the contract: one function per call channel (grouped by
// namespace) and `on` for the contract's events. It holds the only reference to ipcRenderer
// and never hands it, its events or a generic invoke to the page.
import {
  bridgeLayout,
  ipcCallChannel,
  ipcEventChannel,
  isEventChannel,
  type CallChannel,
  type CallResult,
  type EventChannel,
  type StatelensBridge,
} from '../../shared/contract';

/** The part of Electron's ipcRenderer the bridge uses. */
export interface IpcRendererLike {
  invoke(channel: string, ...args: unknown[]): Promise<unknown>;
  on(channel: string, listener: (event: unknown, ...args: unknown[]) => void): unknown;
  removeListener(channel: string, listener: (event: unknown, ...args: unknown[]) => void): unknown;
}

const BRIDGE_FAILURE = (channel: string, e: unknown): CallResult<never> => ({
  ok: false,
  error: { code: 'INTERNAL', message: `The call ${channel} did not reach the app: ${e instanceof Error ? e.message : String(e)}` },
});

export function buildBridge(ipc: IpcRendererLike): StatelensBridge {
  const call = (channel: CallChannel) => (input?: unknown) =>
    ipc.invoke(ipcCallChannel(channel), input ?? {}).then(
      (r) => r as CallResult<unknown>,
      (e: unknown) => BRIDGE_FAILURE(channel, e),
    );
  const bridge: Record<string, unknown> = {};
  for (const [ns, methods] of Object.entries(bridgeLayout())) {
    const group: Record<string, (input?: unknown) => Promise<CallResult<unknown>>> = {};
    for (const [method, channel] of methods) group[method] = call(channel);
    bridge[ns] = Object.freeze(group);
  }
  bridge.on = (event: EventChannel, listener: (payload: unknown) => void) => {
    if (!isEventChannel(event)) throw new Error(`statelens.on: there is no event named ${String(event)}`);
    if (typeof listener !== 'function') throw new Error('statelens.on: the listener must be a function');
    const channel = ipcEventChannel(event);
    // The IPC event object (with its sender and ports) never reaches the page: payload only.
    const wrapped = (_event: unknown, payload: unknown) => listener(payload);
    ipc.on(channel, wrapped);
    return () => {
      ipc.removeListener(channel, wrapped);
    };
  };
  return Object.freeze(bridge) as StatelensBridge;
}
