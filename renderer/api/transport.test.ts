import { afterEach, describe, expect, it, vi } from 'vitest';
import { httpTransport, RECONNECT, reconnectDelay, type ConnectionState } from './transport';

/** A stand-in for the browser's EventSource (jsdom has none): the test opens and fails it. */
class FakeStream extends EventTarget {
  static all: FakeStream[] = [];
  closed = false;
  constructor(readonly url: string) {
    super();
    FakeStream.all.push(this);
  }
  close(): void {
    this.closed = true;
  }
  open(): void {
    this.dispatchEvent(new Event('open'));
  }
  fail(): void {
    this.dispatchEvent(new Event('error'));
  }
  send(name: string, data: unknown): void {
    this.dispatchEvent(new MessageEvent(name, { data: JSON.stringify(data) }));
  }
}

const latest = () => FakeStream.all[FakeStream.all.length - 1] as FakeStream;

afterEach(() => {
  vi.useRealTimers();
  FakeStream.all = [];
});

describe('the browser-mode change stream', () => {
  it('reports live only while connected, backs off while the server is gone, and comes back', () => {
    vi.useFakeTimers();
    const t = httpTransport({ token: 'tok-1234567890abcdef', origin: 'http://127.0.0.1:1', eventSource: FakeStream as unknown as typeof EventSource });
    const seen: ConnectionState[] = [];
    t.connection?.subscribe(() => seen.push(t.connection?.current() ?? 'live'));
    const payloads: unknown[] = [];
    t.on('data.changed', (p) => payloads.push(p));
    expect(t.connection?.current()).toBe('connecting');
    latest().open();
    expect(t.connection?.current()).toBe('live');

    // The server dies: each failed attempt waits twice as long, and after a few it is offline.
    for (let failure = 1; failure <= RECONNECT.offlineAfter; failure++) {
      const stream = latest();
      stream.fail();
      expect(stream.closed).toBe(true);
      expect(t.connection?.current()).toBe(failure >= RECONNECT.offlineAfter ? 'offline' : 'reconnecting');
      const before = FakeStream.all.length;
      vi.advanceTimersByTime(reconnectDelay(failure) - 1);
      expect(FakeStream.all.length).toBe(before);
      vi.advanceTimersByTime(1);
      expect(FakeStream.all.length).toBe(before + 1);
    }
    expect(reconnectDelay(2)).toBe(2 * reconnectDelay(1));
    expect(reconnectDelay(50)).toBe(RECONNECT.maxDelayMs);

    // The server is back: the new stream carries events to the listeners registered before.
    latest().open();
    expect(t.connection?.current()).toBe('live');
    latest().send('data.changed', { what: ['facts'], origin: 'external' });
    expect(payloads).toEqual([{ what: ['facts'], origin: 'external' }]);
    expect(seen).toEqual(['live', 'reconnecting', 'offline', 'live']);
  });

  it('a late error from a stream already replaced changes nothing', () => {
    vi.useFakeTimers();
    const t = httpTransport({ token: 'tok-1234567890abcdef', eventSource: FakeStream as unknown as typeof EventSource });
    t.on('data.changed', () => {});
    const first = latest();
    first.fail();
    vi.advanceTimersByTime(reconnectDelay(1));
    latest().open();
    first.fail();
    expect(t.connection?.current()).toBe('live');
    expect(FakeStream.all).toHaveLength(2);
  });

  it('without a session token there is no stream and the state says offline', () => {
    const t = httpTransport({ token: undefined, eventSource: FakeStream as unknown as typeof EventSource });
    t.on('data.changed', () => {});
    expect(FakeStream.all).toHaveLength(0);
    expect(t.connection?.current()).toBe('offline');
  });
});
