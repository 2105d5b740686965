// The reference MCP memory server (@modelcontextprotocol/server-memory) run as a child process
// over stdio with the MCP client SDK, writing its knowledge graph to a file we name.
import { createRequire } from 'node:module';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

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
