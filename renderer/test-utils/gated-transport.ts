// A transport whose answers on chosen channels wait until the test opens the gate: for seeing
// what a view shows while a request is out.
import type { CallChannel } from '../../shared/contract';
import type { Transport } from '../api/transport';

/** A transport on the real backend whose answers on the gated channels wait while the gate is
 * shut (the call itself reaches the engine at once, so its writes and events happen). */
export function gatedTransport(inner: Transport) {
  let shut: Set<string> = new Set();
  let waiting: Array<() => void> = [];
  const held: string[] = [];
  const transport: Transport = {
    ...inner,
    async call(channel, input) {
      const answer = inner.call(channel, input).then(
        (value) => ({ ok: true as const, value }),
        (error: unknown) => ({ ok: false as const, error }),
      );
      if (shut.has(channel)) {
        held.push(channel);
        await new Promise<void>((resolve) => waiting.push(resolve));
      }
      const r = await answer;
      if (r.ok) return r.value;
      throw r.error;
    },
  };
  return {
    transport,
    held,
    shut(...channels: CallChannel[]) {
      shut = new Set(channels);
    },
    open() {
      shut = new Set();
      const w = waiting;
      waiting = [];
      for (const resolve of w) resolve();
    },
  };
}
