// Browser mode's HTTP server: the built renderer and the contract over JSON POST /api/<channel>
// and server-sent events on /api/events, on 127.0.0.1 only, every request carrying the session
// token. Calls go through the same dispatcher (validation, handlers, error shape) as IPC.
import fs from 'node:fs';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { HTTP_API_PREFIX, HTTP_EVENTS_PATH, MAX_PAYLOAD_BYTES, TOKEN_QUERY, type CallResult, type EventChannel } from '../../shared/contract';
import { StatelensError, type ErrorShape } from '../../shared/errors';
import type { Dispatch } from '../handlers/dispatch';
import type { ContractEvents } from '../handlers/event-bus';
import { cookieName, hostAllowed, LOOPBACK, loopbackHost, newToken, originAllowed, presentedToken, tokensEqual } from './auth';
import type { DownloadRegistry } from './browser-shell';
import { SECURITY_HEADERS } from './http-security';
import { contentTypeOf, resolveStatic } from './static-files';

export interface ServerOptions {
  /** Must be 127.0.0.1 or localhost; anything else is refused. */
  readonly host?: string;
  /** 0 picks a free port. */
  readonly port?: number;
  readonly token?: string;
  readonly dispatch: Dispatch;
  readonly events: ContractEvents;
  /** The built renderer (out/renderer). */
  readonly rendererDir: string;
  readonly downloads?: DownloadRegistry;
  readonly heartbeatMs?: number;
  /** How long a request may take to arrive whole, headers and body (default 30 s). */
  readonly requestTimeoutMs?: number;
}

export interface RunningServer {
  readonly port: number;
  readonly origin: string;
  readonly token: string;
  /** The address to open: origin plus `?token=`. */
  readonly url: string;
  close(): Promise<void>;
}

/** The HTTP status of every typed error (the body is the same `{ok: false, error}` shape): a
 * complete table, so a new error code cannot fall back to a misleading 200. A read-only database
 * answers 409 Conflict: the request is valid, the state of the open database refuses it. */
export const STATUS_BY_CODE: Readonly<Record<ErrorShape['code'], number>> = {
  INVALID_INPUT: 400,
  UNAUTHORIZED: 401,
  PERMISSION_DENIED: 403,
  LEVEL_NOT_ALLOWED: 403,
  FORBIDDEN_SENDER: 403,
  NOT_FOUND: 404,
  UNKNOWN_CHANNEL: 404,
  READ_ONLY: 409,
  CONFLICT: 409,
  PARTITION_MISMATCH: 409,
  NO_DATABASE: 409,
  CANCELLED: 409,
  NOT_A_STATELENS_DB: 422,
  DB_TOO_NEW: 422,
  IMPORT_FAILED: 422,
  CORRUPT_DB: 500,
  INTERNAL: 500,
  NOT_SUPPORTED: 501,
  BUSY: 503,
  DB_UNAVAILABLE: 503,
  DISK_FULL: 507,
};

const REQUEST_TIMEOUT_MS = 30_000;
const HEADERS_TIMEOUT_MS = 20_000;

const UNAUTHORIZED_PAGE = 'Statelens: this address needs the session token. Open the exact URL that `statelens serve` printed (it ends with ?token=...).\n';

export async function startServer(options: ServerOptions): Promise<RunningServer> {
  const host = loopbackHost(options.host);
  const token = options.token ?? newToken();
  if (token.length < 16) throw new StatelensError('INVALID_INPUT', 'The session token must be at least 16 characters');
  const sseClients = new Set<ServerResponse>();
  let port = 0;

  const unsubscribe = options.events.subscribe((event: EventChannel, payload) => {
    const frame = `event: ${event}\ndata: ${JSON.stringify(payload)}\n\n`;
    for (const res of sseClients) res.write(frame);
  });

  function send(res: ServerResponse, status: number, body: string | Buffer, type: string, extra: Record<string, string> = {}): void {
    // Answered before its body arrived (a refusal): the connection closes rather than waiting
    // for a body that may trickle in for ever.
    const unread = !res.req.complete;
    res.writeHead(status, {
      ...SECURITY_HEADERS,
      'content-type': type,
      'content-length': String(Buffer.byteLength(body)),
      'cache-control': 'no-store',
      ...(unread ? { connection: 'close' } : {}),
      ...extra,
    });
    if (unread) res.once('finish', () => res.req.socket.destroy());
    res.end(body);
  }
  function sendJson(res: ServerResponse, status: number, value: unknown): void {
    send(res, status, JSON.stringify(value), 'application/json; charset=utf-8');
  }
  function sendError(res: ServerResponse, status: number, code: ErrorShape['code'], message: string): void {
    sendJson(res, status, { ok: false, error: { code, message } } satisfies CallResult<never>);
  }

  /** Reads the body up to the contract's limit. Past it, the rest is read and dropped (so the
   * client gets its 413 rather than a reset connection), up to a hard cap where we hang up. */
  async function readBody(req: IncomingMessage): Promise<string> {
    const declared = Number(req.headers['content-length'] ?? 0);
    if (declared > MAX_PAYLOAD_BYTES * 4) {
      req.destroy();
      throw new StatelensError('INVALID_INPUT', `The request body is larger than ${MAX_PAYLOAD_BYTES} bytes`);
    }
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of req) {
      size += (chunk as Buffer).length;
      if (size > MAX_PAYLOAD_BYTES * 4) {
        req.destroy();
        break;
      }
      if (size <= MAX_PAYLOAD_BYTES) chunks.push(chunk as Buffer);
    }
    if (size > MAX_PAYLOAD_BYTES) throw new StatelensError('INVALID_INPUT', `The request body is larger than ${MAX_PAYLOAD_BYTES} bytes`);
    return Buffer.concat(chunks).toString('utf8');
  }

  async function handleCall(req: IncomingMessage, res: ServerResponse, channel: string): Promise<void> {
    if (req.method !== 'POST') return sendError(res, 405, 'INVALID_INPUT', 'Calls are POST requests with a JSON body');
    const type = req.headers['content-type'] ?? '';
    if (!type.startsWith('application/json')) return sendError(res, 415, 'INVALID_INPUT', 'Calls carry application/json');
    let raw: unknown;
    try {
      const text = await readBody(req);
      raw = text.length === 0 ? {} : JSON.parse(text);
    } catch (e) {
      if (e instanceof StatelensError) return sendError(res, 413, e.code, e.message);
      return sendError(res, 400, 'INVALID_INPUT', 'The request body is not valid JSON');
    }
    const result = await options.dispatch(channel, raw);
    sendJson(res, result.ok ? 200 : STATUS_BY_CODE[result.error.code], result);
  }

  function handleEvents(req: IncomingMessage, res: ServerResponse): void {
    res.writeHead(200, {
      ...SECURITY_HEADERS,
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    res.write('retry: 2000\n\n');
    sseClients.add(res);
    const beat = setInterval(() => res.write(': keep-alive\n\n'), options.heartbeatMs ?? 15_000);
    const done = () => {
      clearInterval(beat);
      sseClients.delete(res);
    };
    req.on('close', done);
    res.on('close', done);
  }

  function handleDownload(res: ServerResponse, id: string): void {
    const d = options.downloads?.take(id);
    if (!d || !fs.existsSync(d.file)) return send(res, 404, 'This download is gone (each export can be downloaded once).\n', 'text/plain; charset=utf-8');
    const stat = fs.statSync(d.file);
    res.writeHead(200, {
      ...SECURITY_HEADERS,
      'content-type': 'application/octet-stream',
      'content-length': String(stat.size),
      'content-disposition': `attachment; filename="${d.fileName.replace(/[^A-Za-z0-9._-]/g, '_')}"`,
      'cache-control': 'no-store',
    });
    // Unlink as soon as the file is open: on POSIX the open descriptor keeps the bytes readable,
    // so the export is gone from disk before the first byte is sent and nothing lingers if the
    // client disconnects. Where unlinking an open file fails (Windows), remove it on close.
    const fd = fs.openSync(d.file, 'r');
    let removed: boolean;
    try {
      options.downloads?.remove(d.file);
      removed = true;
    } catch {
      removed = false;
    }
    const stream = fs.createReadStream(d.file, { fd });
    stream.pipe(res);
    if (!removed) stream.on('close', () => options.downloads?.remove(d.file));
    stream.on('error', () => res.destroy());
  }

  function handleStatic(req: IncomingMessage, res: ServerResponse, url: URL, setCookie: boolean): void {
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(res, 405, 'Method not allowed\n', 'text/plain; charset=utf-8');
    const resolved = resolveStatic(options.rendererDir, url.pathname);
    if (resolved.kind === 'refused') return send(res, 400, 'Bad path\n', 'text/plain; charset=utf-8');
    if (resolved.kind === 'missing') {
      const hint = fs.existsSync(options.rendererDir) ? '' : ` The renderer is not built (${options.rendererDir} is missing): run \`npm run build\`.`;
      return send(res, 404, `Not found.${hint}\n`, 'text/plain; charset=utf-8');
    }
    const body = fs.readFileSync(resolved.file);
    const extra: Record<string, string> = {};
    if (setCookie) extra['set-cookie'] = `${cookieName(port)}=${token}; HttpOnly; SameSite=Strict; Path=/`;
    if (req.method === 'HEAD') {
      res.writeHead(200, {
        ...SECURITY_HEADERS,
        'content-type': contentTypeOf(resolved.file),
        'content-length': String(body.length),
        'cache-control': 'no-store',
        ...extra,
      });
      res.end();
      return;
    }
    send(res, 200, body, contentTypeOf(resolved.file), extra);
  }

  async function route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (!hostAllowed(req, port)) return send(res, 403, 'Forbidden host\n', 'text/plain; charset=utf-8');
    if (!originAllowed(req, port)) return sendError(res, 403, 'FORBIDDEN_SENDER', 'Cross-origin requests are refused');
    const url = new URL(req.url ?? '/', `http://${LOOPBACK}:${port}`);
    const presented = presentedToken(req, url, port);
    const isApi = url.pathname.startsWith(HTTP_API_PREFIX);
    if (isApi && url.pathname !== HTTP_EVENTS_PATH && !url.pathname.startsWith(`${HTTP_API_PREFIX}download/`)) {
      // Calls need the header: a cookie alone would let another page's form post in.
      if (!tokensEqual(token, presented.header))
        return sendError(res, 401, 'UNAUTHORIZED', 'Missing or wrong session token (send it in the x-statelens-token header)');
      let channel: string;
      try {
        channel = decodeURIComponent(url.pathname.slice(HTTP_API_PREFIX.length));
      } catch {
        return sendError(res, 400, 'INVALID_INPUT', 'The channel in the path has a malformed percent-escape');
      }
      return handleCall(req, res, channel);
    }
    const viaQuery = tokensEqual(token, presented.query);
    const authorised = viaQuery || tokensEqual(token, presented.header) || tokensEqual(token, presented.cookie);
    if (!authorised) {
      if (isApi) return sendError(res, 401, 'UNAUTHORIZED', 'Missing or wrong session token');
      return send(res, 401, UNAUTHORIZED_PAGE, 'text/plain; charset=utf-8');
    }
    if (url.pathname === HTTP_EVENTS_PATH) return handleEvents(req, res);
    if (url.pathname.startsWith(`${HTTP_API_PREFIX}download/`)) return handleDownload(res, url.pathname.slice(`${HTTP_API_PREFIX}download/`.length));
    return handleStatic(req, res, url, viaQuery);
  }

  // Every request must arrive whole within the timeout. The event stream is not cut by it: its
  // request (a GET without a body) has arrived whole when its response starts and stays open.
  const requestTimeout = options.requestTimeoutMs ?? REQUEST_TIMEOUT_MS;
  const timeouts = {
    requestTimeout,
    headersTimeout: Math.min(HEADERS_TIMEOUT_MS, requestTimeout),
    connectionsCheckingInterval: Math.max(50, Math.min(1000, Math.floor(requestTimeout / 4))),
  };
  const server = http.createServer(timeouts, (req, res) => {
    route(req, res).catch((e: unknown) => {
      if (!res.headersSent) sendError(res, 500, 'INTERNAL', e instanceof Error ? e.message : String(e));
      else res.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (e: NodeJS.ErrnoException) =>
      reject(e.code === 'EADDRINUSE' ? new StatelensError('BUSY', `Port ${options.port} on ${host} is in use; pick another with --port`) : e),
    );
    server.listen(options.port ?? 0, host, () => resolve());
  });
  port = (server.address() as AddressInfo).port;
  const origin = `http://${LOOPBACK}:${port}`;
  return {
    port,
    origin,
    token,
    url: `${origin}/?${TOKEN_QUERY}=${token}`,
    async close() {
      unsubscribe();
      for (const res of sseClients) res.end();
      sseClients.clear();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
