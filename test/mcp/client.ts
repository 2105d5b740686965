// The MCP server as an agent meets it: the SDK's own Client over stdio, spawning the real
// `statelens mcp` on a database file, with the tool answers read from their JSON text.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Store } from '../../electron/engine/store';
import type { DbTarget } from '../helpers/db-targets';
import { cliEntry, repoRoot } from '../helpers/paths';
import { startHttpMcp } from './http-server';

/** A tool's answer: whether it is a tool error, and the JSON of its text. */
export interface ToolAnswer {
  readonly isError: boolean;
  readonly body: Record<string, unknown>;
}

export interface ToolError {
  readonly code: string;
  readonly message: string;
  readonly details?: Record<string, unknown>;
}

export interface McpSession {
  readonly client: Client;
  /** What the server has written to standard error so far. */
  stderr(): string;
  call(name: string, args: unknown): Promise<ToolAnswer>;
  /** A call that must succeed: its answer's JSON. */
  ok(name: string, args: unknown): Promise<Record<string, unknown>>;
  /** A call that must be a tool error: the error. */
  fails(name: string, args: unknown): Promise<ToolError>;
  close(): Promise<void>;
}

/** Reads the store a session serves, as the inspector would, and returns the session to go on
 * with: a PGlite folder takes one process at a time, so there the server is stopped for the read
 * and a new one started after it. */
export async function readServed(target: DbTarget, session: McpSession, read: (store: Store) => void, clientName?: string): Promise<McpSession> {
  if (target.kind === 'pglite') await session.close();
  try {
    const store = target.open({ readonly: true });
    try {
      read(store);
    } finally {
      store.close();
    }
  } finally {
    if (target.kind === 'pglite') session = await connectMcp(target.db, clientName);
  }
  return session;
}

/** How long the server may take to answer `initialize`: it opens the store first, and a PGlite
 * folder can take longer than the SDK's 60 s default to start on a loaded machine. */
export const STARTUP_TIMEOUT_MS = 180_000;

/** With STATELENS_TEST_MCP_TRANSPORT=http the MCP tests run against `statelens mcp --http`
 * through the SDK's Streamable HTTP client instead of stdio: the same suite, the other transport. */
export const MCP_TRANSPORT = process.env.STATELENS_TEST_MCP_TRANSPORT === 'http' ? 'http' : 'stdio';

export async function connectMcp(db: string, clientName = 'statelens-test', transportKind: 'stdio' | 'http' = MCP_TRANSPORT): Promise<McpSession> {
  const client = new Client({ name: clientName, version: '1.0.0' });
  let stderr = '';
  let readStderr = (): string => stderr;
  let stop = async (): Promise<void> => undefined;
  if (transportKind === 'http') {
    const served = await startHttpMcp(db, [], {}, STARTUP_TIMEOUT_MS);
    stop = () => served.stop();
    readStderr = () => served.stderr();
    await client.connect(new StreamableHTTPClientTransport(new URL(served.url), { requestInit: { headers: { authorization: `Bearer ${served.token}` } } }), {
      timeout: STARTUP_TIMEOUT_MS,
    });
  } else {
    const transport = new StdioClientTransport({ command: process.execPath, args: [cliEntry, 'mcp', '--db', db], cwd: repoRoot, stderr: 'pipe' });
    transport.stderr?.on('data', (c: Buffer) => (stderr += c.toString()));
    await client.connect(transport, { timeout: STARTUP_TIMEOUT_MS });
  }
  const call = async (name: string, args: unknown): Promise<ToolAnswer> => {
    const r = (await client.callTool({ name, arguments: args as Record<string, unknown> })) as CallToolResult;
    const first = r.content[0];
    if (!first || first.type !== 'text') throw new Error(`${name}: no text content`);
    return { isError: r.isError === true, body: JSON.parse(first.text) as Record<string, unknown> };
  };
  return {
    client,
    stderr: () => readStderr(),
    call,
    async ok(name, args) {
      const r = await call(name, args);
      if (r.isError) throw new Error(`${name} failed: ${JSON.stringify(r.body)}`);
      return r.body;
    },
    async fails(name, args) {
      const r = await call(name, args);
      if (!r.isError) throw new Error(`${name} was expected to fail, and answered ${JSON.stringify(r.body)}`);
      return r.body as unknown as ToolError;
    },
    async close() {
      await client.close();
      await stop();
    },
  };
}
