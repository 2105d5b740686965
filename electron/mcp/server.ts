// `statelens mcp`: a Model Context Protocol server over stdio for agents. Tools are listed with
// portable JSON Schemas made from their zod inputs, output schemas and annotations, and called
// through our own validation, so every failure — a bad argument, a missing partition, a locked
// database — comes back as an MCP tool error carrying our error shape, and never stops the
// server. Memory is also served read-only as resources. No Electron here.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { StatelensError, toErrorShape, type ErrorShape } from '../../shared/errors';
import { describeIssues, fieldIssues } from '../../shared/issues';
import { mapSqliteError } from '../engine/db/open';
import { Store } from '../engine/store';
import { withoutNulls } from './inputs';
import { LineTransport } from './line-transport';
import { publishedSchema } from './portable-schema';
import { serveResources } from './resources';
import { TOOLS, type McpTool } from './tools';

export const SERVER_NAME = 'statelens';
export const SERVER_VERSION = '0.1.0';

// An error carries our shape as its text only: clients validate any structuredContent against the
// tool's output schema, which describes a successful result.
function errorResult(shape: ErrorShape): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: JSON.stringify(shape) }] };
}

function okResult(value: unknown): CallToolResult {
  const structured = typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : { result: value };
  return { content: [{ type: 'text', text: JSON.stringify(value) }], structuredContent: structured };
}

function invalidArguments(tool: string, error: z.ZodError): ErrorShape {
  const issues = fieldIssues(error, { root: '(arguments)' });
  const first = issues[0];
  return {
    code: 'INVALID_INPUT',
    message: `Invalid arguments for ${tool}: ${describeIssues(error, { root: '(arguments)' })}`,
    details: { tool, ...(first ? { field: first.field } : {}), issues },
  };
}

/** The tools as `tools/list` shows them. */
export function listTools(tools: readonly McpTool[] = TOOLS): Tool[] {
  return tools.map((t) => ({
    name: t.name,
    title: t.title,
    description: t.description,
    inputSchema: publishedSchema(t.input) as Tool['inputSchema'],
    outputSchema: z.toJSONSchema(t.output, { io: 'output', target: 'draft-7', unrepresentable: 'any' }) as Tool['outputSchema'],
    annotations: { title: t.title, ...t.annotations },
  }));
}

/** Runs one tool call to a result; never throws. */
export async function callTool(store: Store, tools: ReadonlyMap<string, McpTool>, name: string, args: unknown): Promise<CallToolResult> {
  const tool = tools.get(name);
  if (!tool) return errorResult({ code: 'NOT_FOUND', message: `No tool named "${name}"; tools: ${[...tools.keys()].join(', ')}` });
  const parsed = tool.input.safeParse(withoutNulls(args ?? {}));
  if (!parsed.success) return errorResult(invalidArguments(name, parsed.error));
  try {
    const input = parsed.data as Record<string, unknown>;
    // What a tool fetches from outside (environment providers) is awaited before its synchronous run.
    const prepared = tool.prepare ? await tool.prepare(store, input) : undefined;
    const run = (): unknown => tool.run(store, input, prepared);
    // A write may create its partition before its input is refused: one transaction for the
    // call rolls the new partition back with everything else.
    return okResult(tool.writes ? store.write([], name, run) : run());
  } catch (e) {
    if (e instanceof StatelensError) return errorResult(e.toShape());
    const mapped = mapSqliteError(e, store.path);
    return errorResult(mapped ? mapped.toShape() : toErrorShape(e));
  }
}

export function createMcpServer(store: Store, tools: readonly McpTool[] = TOOLS): Server {
  const byName = new Map(tools.map((t) => [t.name, t]));
  const listing = listTools(tools);
  const server = new Server(
    { name: SERVER_NAME, version: SERVER_VERSION },
    {
      capabilities: { tools: {}, resources: {} },
      instructions:
        'Statelens keeps agent memory as structured state. Every tool takes a `partition` as text: "user:ORG/USER", "capability:ORG/NAME" or "org:ORG". Agents write; people review in the inspector. Partitions, their current facts and their assembled contexts are also readable as resources.',
    },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: listing }));
  server.setRequestHandler(CallToolRequestSchema, (request) => callTool(store, byName, request.params.name, request.params.arguments));
  serveResources(server, store);
  return server;
}

/** Serves a database file (or the store `db` opens) over stdin/stdout until the client disconnects; logs go to stderr only. */
export async function serveStdio(db: string | (() => Store), log: (line: string) => void = (l) => process.stderr.write(`${l}\n`)): Promise<void> {
  const store = typeof db === 'string' ? Store.open(db) : db();
  const dbPath = store.path;
  const server = createMcpServer(store);
  const transport = new LineTransport(process.stdin, process.stdout);
  const closed = new Promise<void>((resolve) => {
    server.onclose = () => resolve();
    process.stdin.once('end', () => resolve());
  });
  server.onerror = (e) => log(`statelens mcp: ${e instanceof Error ? e.message : String(e)}`);
  await server.connect(transport);
  log(`statelens mcp: serving ${dbPath} over stdio (${TOOLS.length} tools)`);
  try {
    await closed;
  } finally {
    await server.close().catch(() => undefined);
    store.close();
    log('statelens mcp: closed');
  }
}
