// Every `statelens` subcommand, listed once, in the groups and order the help shows them. Help
// text, dispatch and "did you mean" are derived from this list.
import type { CliCommand } from './command';
import { benchCommand } from './commands/bench';
import { chainCommand } from './commands/chain';
import { contextCommand } from './commands/context';
import { deleteCommand } from './commands/delete';
import { demoCommand } from './commands/demo';
import { exportCommand } from './commands/export';
import { factsCommand } from './commands/facts';
import { initCommand } from './commands/init';
import { importSnapshotCommand } from './commands/import-snapshot';
import { importStatebenchCommand } from './commands/import-statebench';
import { importMcpMemoryCommand } from './commands/import-mcp-memory';
import { importMem0Command } from './commands/import-mem0';
import { importLanggraphCommand } from './commands/import-langgraph';
import { importLettaCommand } from './commands/import-letta';
import { ingestCommand } from './commands/ingest';
import { mcpCommand } from './commands/mcp';
import { openCommand } from './commands/open';
import { runnerCommand } from './commands/runner';
import { serveCommand } from './commands/serve';
import { statebenchCommand } from './commands/statebench';
import { verifyCommand } from './commands/verify';
import { maturityCommand } from './commands/maturity';
import { consolidateCommand } from './commands/consolidate';
import { endSessionCommand } from './commands/end-session';
import { environmentProvidersCommand } from './commands/environment-providers';

export interface CommandGroup {
  readonly title: string;
  readonly commands: readonly CliCommand[];
}

export const COMMAND_GROUPS: readonly CommandGroup[] = [
  { title: 'Inspect', commands: [openCommand, serveCommand, factsCommand, chainCommand, contextCommand] },
  {
    title: 'Bring memory in',
    commands: [
      demoCommand,
      ingestCommand,
      importStatebenchCommand,
      importSnapshotCommand,
      importMcpMemoryCommand,
      importMem0Command,
      importLanggraphCommand,
      importLettaCommand,
      mcpCommand,
    ],
  },
  {
    title: 'Maintain',
    commands: [initCommand, deleteCommand, exportCommand, verifyCommand, maturityCommand, consolidateCommand, endSessionCommand, environmentProvidersCommand],
  },
  { title: 'Measure', commands: [statebenchCommand, runnerCommand, benchCommand] },
];

export const COMMANDS: readonly CliCommand[] = COMMAND_GROUPS.flatMap((g) => g.commands);
