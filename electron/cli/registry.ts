// Every `statelens` subcommand, listed once. Help text and dispatch are derived from this list.
import type { CliCommand } from './command';
import { chainCommand } from './commands/chain';
import { deleteCommand } from './commands/delete';
import { exportCommand } from './commands/export';
import { importSnapshotCommand } from './commands/import-snapshot';
import { ingestCommand } from './commands/ingest';
import { mcpCommand } from './commands/mcp';
import { runnerCommand } from './commands/runner';
import { serveCommand } from './commands/serve';
import { contextCommand } from './commands/context';
import { statebenchCommand } from './commands/statebench';
import { demoCommand } from './commands/demo';
import { importStatebenchCommand } from './commands/import-statebench';
import { factsCommand } from './commands/facts';
import { verifyCommand } from './commands/verify';
import { maturityCommand } from './commands/maturity';
import { endSessionCommand } from './commands/end-session';
import { benchCommand } from './commands/bench';

export const COMMANDS: readonly CliCommand[] = [
  demoCommand,
  importStatebenchCommand,
  factsCommand,
  verifyCommand,
  benchCommand,
  importSnapshotCommand,
  ingestCommand,
  chainCommand,
  deleteCommand,
  exportCommand,
  runnerCommand,
  mcpCommand,
  serveCommand,
  contextCommand,
  statebenchCommand,
  maturityCommand,
  endSessionCommand,
];
