// Browser mode against clients that never finish a request, over raw sockets: a refusal (401)
// closes the connection while a declared body is still trickling in, a request that does not
// arrive whole in time is cut off, and the event stream stays open past that timeout. The
// transport does not depend on the store, so it runs on a SQLite file.
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HTTP_API_PREFIX, HTTP_EVENTS_PATH } from '../../shared/contract';
import { Store } from '../../electron/engine/store';
import { tmpDir } from '../helpers/tmp';
import { startHttpBackend, type HttpBackend } from './http-backend';

const TIMEOUT_MS = 1500;
let backend: HttpBackend;

beforeAll(async () => {
  const dir = fs.mkdtempSync(path.join(tmpDir(), 'slow-'));
  const db = path.join(dir, 's.db');
  Store.open(db).close();
  fs.mkdirSync(path.join(dir, 'renderer'));
  backend = await startHttpBackend({
    dbPath: db,
    rendererDir: path.join(dir, 'renderer'),
    downloadsDir: path.join(dir, 'downloads'),
    requestTimeoutMs: TIMEOUT_MS,
  });
}, 120_000);
afterAll(async () => {
  await backend?.close();
});

interface Exchange {
  /** Everything the server sent until the socket closed (or the test stopped waiting). */
  readonly received: string;
  /** Whether the server closed the connection, and after how long. */
  readonly closedAfterMs: number | null;
}

/** Sends `head`, then one byte of body every `trickleMs` until the server closes the socket or
 * `waitMs` passes. */
function trickle(head: string, trickleMs: number, waitMs: number): Promise<Exchange> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const socket = net.connect(backend.server.port, '127.0.0.1');
    let received = '';
    let timer: NodeJS.Timeout | undefined;
    const finish = (closed: boolean): void => {
      clearInterval(timer);
      clearTimeout(giveUp);
      socket.destroy();
      resolve({ received, closedAfterMs: closed ? Date.now() - started : null });
    };
    const giveUp = setTimeout(() => finish(false), waitMs);
    socket.on('connect', () => {
      socket.write(head);
      timer = setInterval(() => {
        if (!socket.destroyed && socket.writable) socket.write('x');
      }, trickleMs);
    });
    socket.on('data', (chunk: Buffer) => (received += chunk.toString('utf8')));
    socket.on('close', () => finish(true));
    socket.on('error', (e: NodeJS.ErrnoException) => (e.code === 'ECONNRESET' || e.code === 'EPIPE' ? finish(true) : reject(e)));
  });
}

const host = (): string => `127.0.0.1:${backend.server.port}`;

describe('browser mode and slow or unauthenticated requests', () => {
  it('a 401 closes the connection while the declared body is still trickling in', async () => {
    const head = `POST ${HTTP_API_PREFIX}partitions.list HTTP/1.1\r\nHost: ${host()}\r\nContent-Type: application/json\r\nContent-Length: 100000000\r\n\r\n{`;
    const r = await trickle(head, 100, 10_000);
    expect(r.received).toMatch(/^HTTP\/1\.1 401/);
    expect(r.received).toMatch(/connection: close/i);
    expect(r.received).toMatch(/"code":"UNAUTHORIZED"/);
    // Closed at once, long before the request timeout would have cut it.
    expect(r.closedAfterMs).not.toBeNull();
    expect(r.closedAfterMs ?? Infinity).toBeLessThan(TIMEOUT_MS);
  });

  it('a refused static request with a body closes too', async () => {
    const head = `POST /index.html HTTP/1.1\r\nHost: ${host()}\r\nContent-Length: 5000000\r\n\r\n`;
    const r = await trickle(head, 100, 10_000);
    expect(r.received).toMatch(/^HTTP\/1\.1 401/);
    expect(r.closedAfterMs ?? Infinity).toBeLessThan(TIMEOUT_MS);
  });

  it('an authenticated call whose body never finishes is cut off by the request timeout', async () => {
    const head = `POST ${HTTP_API_PREFIX}partitions.list HTTP/1.1\r\nHost: ${host()}\r\nx-statelens-token: ${backend.server.token}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{`;
    // A body within the size limit, one byte every 100 ms: it would take 100 s to arrive.
    const r = await trickle(head, 100, 10_000);
    expect(r.closedAfterMs).not.toBeNull();
    expect(r.closedAfterMs ?? 0).toBeGreaterThanOrEqual(TIMEOUT_MS - 100);
    expect(r.received).toMatch(/^HTTP\/1\.1 408/);
  });

  it('headers that never finish are cut off too', async () => {
    const r = await trickle(`GET / HTTP/1.1\r\nHost: ${host()}\r\nX-Slow: `, 100, 10_000);
    expect(r.closedAfterMs).not.toBeNull();
    expect(r.closedAfterMs ?? Infinity).toBeLessThan(TIMEOUT_MS * 3);
  });

  it('the event stream stays open well past the request timeout', async () => {
    const socket = net.connect(backend.server.port, '127.0.0.1');
    let received = '';
    let closed = false;
    socket.on('data', (c: Buffer) => (received += c.toString('utf8')));
    socket.on('close', () => (closed = true));
    socket.on('error', () => (closed = true));
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    socket.write(`GET ${HTTP_EVENTS_PATH} HTTP/1.1\r\nHost: ${host()}\r\nx-statelens-token: ${backend.server.token}\r\nAccept: text/event-stream\r\n\r\n`);
    await new Promise((r) => setTimeout(r, TIMEOUT_MS * 3));
    expect(received).toMatch(/^HTTP\/1\.1 200/);
    expect(received).toMatch(/text\/event-stream/);
    expect(closed).toBe(false);
    socket.destroy();
  });
});
