import { createMCPClient } from '@ai-sdk/mcp';
import { Experimental_StdioMCPTransport } from '@ai-sdk/mcp/mcp-stdio';

/** Statelens's tools for the Vercel AI SDK: pass `tools` to generateText / streamText; `client.close()` when done. */
export async function statelensTools(db: string) {
  const client = await createMCPClient({
    transport: new Experimental_StdioMCPTransport({ command: 'npx', args: ['statelens', 'mcp', '--db', db] }),
  });
  return { client, tools: await client.tools() };
}
