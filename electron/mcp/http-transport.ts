// `statelens mcp --http`: the same MCP server over the Streamable HTTP transport, for agents on
// other machines reaching a team store through a tunnel or proxy. It binds 127.0.0.1 only and
// refuses, before the protocol sees anything: a Host or Origin that is not ours (DNS rebinding),
// a missing or wrong bearer token, a body over the size limit, and a request that takes too long
// to arrive. Each client session gets its own protocol server over the one shared store or, with
// `clients` (one per bearer token), over a store of its own opened as that client's role.
import { randomUUID } from 'node:crypto';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import type { Store } from '../engine/store';
import { hostAllowed, LOOPBACK, newToken, originAllowed, tokensEqual } from '../server/auth';
import { MCP_HTTP_PATH, MCP_MAX_BODY_BYTES, MCP_MAX_SESSIONS, MCP_REQUEST_TIMEOUT_MS } from './http-limits';
import { createMcpServer } from './server';

/** A client known by its bearer token: its sessions each open their own store (as its role). */
export interface McpHttpClient {
  /** For logs; never the token. */
  readonly name: string;
  open(): Store;
}

export interface McpHttpOptions {
  readonly port?: number;
  /** Bearer token → client. With it, `token` is not used and each session opens its client's store. */
  readonly clients?: ReadonlyMap<string, McpHttpClient>;
  /** The bearer token clients must send; a random one when absent. */
  readonly token?: string;
  readonly maxBodyBytes?: number;
  readonly requestTimeoutMs?: number;
  readonly log?: (line: string) => void;
}

export interface McpHttpServer {
  readonly url: string;
  readonly token: string;
  close(): Promise<void>;
}

function refuse(res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
  if (res.headersSent) return;
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}

/** The body as JSON, or a refusal already sent (413 over the limit, 400 not JSON). */
async function readBody(req: IncomingMessage, res: ServerResponse, limit: number): Promise<{ ok: true; body: unknown } | { ok: false }> {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > limit) {
    refuse(res, 413, `The request body is over the limit of ${limit} bytes`);
    req.resume();
    return { ok: false };
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) {
      refuse(res, 413, `The request body is over the limit of ${limit} bytes`);
      req.destroy();
      return { ok: false };
    }
    chunks.push(chunk);
  }
  try {
    return { ok: true, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown };
  } catch {
    refuse(res, 400, 'The request body is not JSON');
    return { ok: false };
  }
}

/** The client whose token is `given` (every token compared in constant time), or undefined. */
function clientOf(clients: ReadonlyMap<string, McpHttpClient>, given: string | undefined): McpHttpClient | undefined {
  let found: McpHttpClient | undefined;
  for (const [token, client] of clients) if (tokensEqual(token, given)) found = client;
  return found;
}

interface Session {
  readonly transport: StreamableHTTPServerTransport;
  /** The token that opened it: another token may not use it. */
  readonly token: string;
}

/** @param store the store every session shares; with `options.clients`, none (each opens its own). */
export async function serveMcpHttp(store: Store | undefined, options: McpHttpOptions = {}): Promise<McpHttpServer> {
  const token = options.token ?? newToken();
  const clients = options.clients;
  if (!store && !clients) throw new Error('serveMcpHttp needs a store or clients');
  const limit = options.maxBodyBytes ?? MCP_MAX_BODY_BYTES;
  const requestTimeout = options.requestTimeoutMs ?? MCP_REQUEST_TIMEOUT_MS;
  const log = options.log ?? (() => undefined);
  const sessions = new Map<string, Session>();
  let port = 0;

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', `http://${LOOPBACK}:${port}`);
    if (!hostAllowed(req, port)) return refuse(res, 403, `Host must be ${LOOPBACK}:${port} or localhost:${port}`);
    if (!originAllowed(req, port)) return refuse(res, 403, 'Cross-origin requests are refused');
    const auth = req.headers.authorization;
    const given = typeof auth === 'string' && auth.startsWith('Bearer ') ? auth.slice(7).trim() : undefined;
    const client = clients ? clientOf(clients, given) : undefined;
    if (clients ? !client : !tokensEqual(token, given))
      return refuse(res, 401, 'A valid bearer token is required', { 'www-authenticate': 'Bearer realm="statelens"' });
    if (url.pathname !== MCP_HTTP_PATH) return refuse(res, 404, `The MCP endpoint is ${MCP_HTTP_PATH}`);

    const sessionId = req.headers['mcp-session-id'];
    const session = typeof sessionId === 'string' ? sessions.get(sessionId) : undefined;
    // A session answers only the token that opened it.
    const known = session && tokensEqual(session.token, given) ? session.transport : undefined;
    if (req.method === 'POST') {
      const read = await readBody(req, res, limit);
      if (!read.ok) return;
      if (known) return known.handleRequest(req, res, read.body);
      if (sessionId !== undefined) return refuse(res, 404, 'Unknown or ended session');
      if (!isInitializeRequest(read.body)) return refuse(res, 400, 'Start a session with an initialize request');
      if (sessions.size >= MCP_MAX_SESSIONS) return refuse(res, 503, `Too many open sessions (${MCP_MAX_SESSIONS}); end one first`);
      let own: Store | undefined;
      if (client) {
        try {
          own = client.open();
        } catch (e) {
          log(`statelens mcp: ${client.name} could not connect: ${e instanceof Error ? e.message : String(e)}`);
          return refuse(res, 403, `This token's role cannot open the store: ${e instanceof Error ? e.message : String(e)}`);
        }
      }
      const sessionStore = own ?? (store as Store);
      const transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => void sessions.set(id, { transport, token: given as string }),
      });
      transport.onclose = () => {
        if (transport.sessionId) sessions.delete(transport.sessionId);
        own?.close();
      };
      const server = createMcpServer(sessionStore);
      server.onerror = (e) => log(`statelens mcp: ${e instanceof Error ? e.message : String(e)}`);
      await server.connect(transport);
      return transport.handleRequest(req, res, read.body);
    }
    if (req.method === 'GET' || req.method === 'DELETE') {
      if (!known) return refuse(res, sessionId === undefined ? 400 : 404, 'Unknown or missing session');
      return known.handleRequest(req, res);
    }
    refuse(res, 405, 'Method not allowed', { allow: 'GET, POST, DELETE' });
  };

  const server = http.createServer({ requestTimeout, headersTimeout: Math.min(requestTimeout, 10_000) }, (req, res) => {
    handle(req, res).catch((e: unknown) => {
      log(`statelens mcp: ${e instanceof Error ? e.message : String(e)}`);
      refuse(res, 500, 'Internal error');
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, LOOPBACK, () => resolve());
  });
  port = (server.address() as AddressInfo).port;
  return {
    url: `http://${LOOPBACK}:${port}${MCP_HTTP_PATH}`,
    token,
    async close() {
      for (const s of sessions.values()) await s.transport.close().catch(() => undefined);
      sessions.clear();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
