// The reference MCP memory server (@modelcontextprotocol/server-memory) run as a child process
// over stdio with the MCP client SDK, writing its knowledge graph to a file we name.
import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { cliEntry, repoRoot } from '../../helpers/paths';

const require = createRequire(import.meta.url);
const serverEntry = path.join(path.dirname(require.resolve('@modelcontextprotocol/server-memory/package.json')), 'dist', 'index.js');

export interface MemoryServer {
  call(name: string, args: Record<string, unknown>): Promise<string>;
  /** The graph as the server reads it now (its read_graph tool). */
  readGraph(): Promise<{ entities: Array<{ name: string; entityType: string; observations: string[] }>; relations: Array<Record<string, string>> }>;
  close(): Promise<void>;
}

export async function startMemoryServer(memoryFile: string): Promise<MemoryServer> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [serverEntry],
    env: { ...(process.env as Record<string, string>), MEMORY_FILE_PATH: memoryFile },
    stderr: 'pipe',
  });
  const client = new Client({ name: 'statelens-import-test', version: '1.0.0' });
  await client.connect(transport);
  const call = async (name: string, args: Record<string, unknown>): Promise<string> => {
    const r = (await client.callTool({ name, arguments: args })) as { isError?: boolean; content: Array<{ type: string; text?: string }> };
    const text = r.content.map((c) => c.text ?? '').join('');
    if (r.isError) throw new Error(`${name} failed: ${text}`);
    return text;
  };
  return {
    call,
    readGraph: async () => JSON.parse(await call('read_graph', {})) as Awaited<ReturnType<MemoryServer['readGraph']>>,
    close: () => client.close(),
  };
}

/** Starts `statelens import mcp-memory FILE --watch --json` as a child; each JSON line it prints
 * goes to `onEvent`, its stderr to `onStderr`. */
export function spawnMcpMemoryWatcher(memoryFile: string, db: string, onEvent: (event: unknown) => void, onStderr: (text: string) => void): ChildProcess {
  const watcher = spawn(process.execPath, [cliEntry, 'import', 'mcp-memory', memoryFile, '--db', db, '--watch', '--json', '--interval', '100'], {
    cwd: repoRoot,
    env: { ...process.env, NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let buf = '';
  watcher.stdout?.setEncoding('utf8');
  watcher.stdout?.on('data', (chunk: string) => {
    buf += chunk;
    for (let nl = buf.indexOf('\n'); nl >= 0; nl = buf.indexOf('\n')) {
      const line = buf.slice(0, nl).trim();
      buf = buf.slice(nl + 1);
      if (line.startsWith('{')) onEvent(JSON.parse(line));
    }
  });
  watcher.stderr?.on('data', (d: Buffer) => onStderr(d.toString()));
  return watcher;
}
