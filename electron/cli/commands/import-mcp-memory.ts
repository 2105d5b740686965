// `statelens import mcp-memory FILE`: the reference MCP memory server's knowledge-graph JSONL.
import { MCP_MEMORY_DEFAULT_USER, readMcpMemory } from '../../engine/import/foreign/mcp-memory';
import { foreignImportCommand, readInput, targetPartition } from './import-foreign';

export const importMcpMemoryCommand = foreignImportCommand({
  name: 'mcp-memory',
  summary: "Import the MCP memory server's knowledge graph (its JSONL memory file)",
  synopsis: 'statelens import mcp-memory FILE --db TARGET [--partition P] [--json]',
  usage: `  FILE         the memory file of @modelcontextprotocol/server-memory (its MEMORY_FILE_PATH)
  --partition  where the graph goes (default user:ORG/${MCP_MEMORY_DEFAULT_USER})

Each entity becomes a fact keyed by its name ("NAME is a TYPE"); each observation a fact keyed
"NAME · observation N" that depends on its entity; each relation a fact "FROM TYPE TO" that
depends on both entities. A line that is not a JSON object is refused; duplicate observations
and relations, empty ones and unknown record types are left out and listed.`,
  options: { partition: { type: 'string' } },
  plan: ([file], args, org) =>
    readMcpMemory(readInput(file as string), file as string, targetPartition(args, { kind: 'user', org, user: MCP_MEMORY_DEFAULT_USER })),
});
