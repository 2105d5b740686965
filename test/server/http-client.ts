// Plain HTTP helpers for the browser-mode tests: raw requests (any method, header or Host) and
// a server-sent-events reader over fetch (Node has no EventSource).
import http from 'node:http';

export interface RawResponse {
  readonly status: number;
  readonly headers: http.IncomingHttpHeaders;
  readonly body: string;
}

export function request(url: string, options: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: options.method ?? 'GET', headers: options.headers ?? {} }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    if (options.body !== undefined) req.write(options.body);
    req.end();
  });
}

export interface SseEvent {
  readonly event: string;
  readonly data: unknown;
}

/** Connects to an SSE URL and collects events until closed. */
export async function openEvents(
  url: string,
): Promise<{ events: SseEvent[]; status: number; waitFor(pred: (e: SseEvent) => boolean, ms?: number): Promise<SseEvent>; close(): void }> {
  const controller = new AbortController();
  const res = await fetch(url, { signal: controller.signal });
  const events: SseEvent[] = [];
  const waiters: Array<{ pred: (e: SseEvent) => boolean; resolve: (e: SseEvent) => void }> = [];
  if (res.ok && res.body) {
    const reader = res.body.getReader();
    const decoder = new TextDecoder();
    let buf = '';
    void (async () => {
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          buf += decoder.decode(value, { stream: true });
          let end: number;
          while ((end = buf.indexOf('\n\n')) >= 0) {
            const frame = buf.slice(0, end);
            buf = buf.slice(end + 2);
            let event = 'message';
            let data = '';
            for (const line of frame.split('\n')) {
              if (line.startsWith('event: ')) event = line.slice(7);
              else if (line.startsWith('data: ')) data += line.slice(6);
            }
            if (!data) continue;
            const e = { event, data: JSON.parse(data) as unknown };
            events.push(e);
            for (const w of waiters.splice(0)) {
              if (w.pred(e)) w.resolve(e);
              else waiters.push(w);
            }
          }
        }
      } catch {
        // aborted
      }
    })();
  }
  return {
    events,
    status: res.status,
    waitFor(pred, ms = 10_000) {
      const found = events.find(pred);
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no matching event within ${ms} ms (saw ${JSON.stringify(events).slice(0, 500)})`)), ms);
        waiters.push({
          pred,
          resolve: (e) => {
            clearTimeout(timer);
            resolve(e);
          },
        });
      });
    },
    close: () => controller.abort(),
  };
}
