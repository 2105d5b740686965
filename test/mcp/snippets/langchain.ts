import { MultiServerMCPClient } from '@langchain/mcp-adapters';

/** Statelens's tools for a LangChain.js agent: pass `tools` to your agent; `client.close()` when done. */
export async function statelensTools(db: string) {
  const client = new MultiServerMCPClient({
    mcpServers: {
      statelens: { transport: 'stdio', command: 'npx', args: ['statelens', 'mcp', '--db', db] },
    },
  });
  return { client, tools: await client.getTools() };
}
