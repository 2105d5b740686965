// `statelens import mcp-memory FILE`: the reference MCP memory server's knowledge-graph JSONL;
// with --watch, kept in step with the file both ways until stopped.
import { StatelensError } from '../../../shared/errors';
import { MCP_MEMORY_DEFAULT_USER, readMcpMemory } from '../../engine/import/foreign/mcp-memory';
import { McpMemoryWatch, REMOVAL_HOLD_MS, WATCH_ACTOR, type WatchEvent } from '../../engine/import/foreign/mcp-memory-watch';
import { EXIT, stringOpt, type CliIO } from '../command';
import { databaseUrl } from '../db-url';
import { withDatabase } from '../new-database';
import { foreignImportCommand, readInput, targetPartition } from './import-foreign';

/** How often --watch looks at the file and the audit log (ms). */
const DEFAULT_INTERVAL_MS = 500;

export const importMcpMemoryCommand = foreignImportCommand({
  name: 'mcp-memory',
  summary: "Import the MCP memory server's knowledge graph (its JSONL memory file)",
  synopsis: 'statelens import mcp-memory FILE --db TARGET [--partition P] [--json] [--watch [--interval MS]]',
  usage: `  FILE         the memory file of @modelcontextprotocol/server-memory (its MEMORY_FILE_PATH)
  --partition  where the graph goes (default user:ORG/${MCP_MEMORY_DEFAULT_USER})
  --watch      keep running: import what the file gains, and write deletions back to it
  --interval   how often --watch looks at the file and the store, in ms (default ${DEFAULT_INTERVAL_MS})

Each entity becomes a fact keyed by its name ("NAME is a TYPE"); each observation a fact keyed
"NAME · observation N" that depends on its entity; each relation a fact "FROM TYPE TO" that
depends on both entities. A line that is not a JSON object is refused; duplicate observations
and relations, empty ones and unknown record types are left out and listed.

With --watch (a database file only) the import resumes on a database that already holds this
file's memory, and runs until interrupted. Entities, observations and relations the file gains
are imported. A fact from the file deleted in Statelens (statelens delete, the inspector) is
removed from the file: the observation, or the entity with its observations and relations (whose
facts are then deleted here too), or the relation. The file is rewritten atomically (temporary
file, fsync, rename), only over the version just read: when it changed meanwhile the write is
refused, the change imported, and the deletion retried. The replaced version is kept as FILE.bak.
A removed record that comes back within ${REMOVAL_HOLD_MS / 1000} s (a writer that read the file before the removal
wrote it back whole) is removed again, not imported.
Deletions made while no watcher runs are written back when --watch starts next (the audit log
keeps which facts came from the file and which deletions reached it), with the same checks.
Records the file loses (the memory server deleted an observation, an entity or a relation) are
deleted here too, audited as "${WATCH_ACTOR}" with the file named as the reason.

  statelens import mcp-memory ~/.mcp/memory.jsonl --db memory.db --watch`,
  options: { partition: { type: 'string' }, watch: { type: 'boolean' }, interval: { type: 'string' } },
  plan: ([file], args, org) =>
    readMcpMemory(readInput(file as string), file as string, targetPartition(args, { kind: 'user', org, user: MCP_MEMORY_DEFAULT_USER })),
  watch: async ([file], args, io, org) => {
    if (databaseUrl(args) !== undefined) throw new StatelensError('INVALID_INPUT', '--watch keeps a database file in step (--db FILE), not a server store');
    const interval = Number(stringOpt(args, 'interval') ?? DEFAULT_INTERVAL_MS);
    if (!Number.isInteger(interval) || interval < 50 || interval > 60_000) throw new StatelensError('INVALID_INPUT', '--interval takes 50 to 60000 ms');
    readInput(file as string);
    const partition = targetPartition(args, { kind: 'user', org, user: MCP_MEMORY_DEFAULT_USER });
    return withDatabase(args, async (store) => {
      const watch = new McpMemoryWatch(store, file as string, partition, (e) => say(io, file as string, e, args.values.json === true));
      watch.poll();
      io.out(`Watching ${file as string}; Ctrl-C stops.`);
      const signal = await new Promise<NodeJS.Signals>((resolve) => {
        const timer = setInterval(() => watch.poll(), interval);
        const stop = (s: NodeJS.Signals): void => {
          clearInterval(timer);
          process.off('SIGINT', stop);
          process.off('SIGTERM', stop);
          resolve(s);
        };
        process.on('SIGINT', stop);
        process.on('SIGTERM', stop);
      });
      watch.close();
      const left = watch.pendingCount;
      io.err(
        `statelens import mcp-memory: ${signal}, stopping${left > 0 ? `; ${left} deletion${left === 1 ? ' was' : 's were'} not written back to the file` : ''}`,
      );
      return left > 0 ? EXIT.failed : EXIT.ok;
    });
  },
});

function say(io: CliIO, file: string, e: WatchEvent, json: boolean): void {
  if (json) {
    io.out(JSON.stringify(e));
    return;
  }
  if (e.kind === 'synced') io.out(`Imported ${e.facts} new fact${e.facts === 1 ? '' : 's'} from ${file}`);
  else if (e.kind === 'written-back') io.out(`Removed ${e.removed} record${e.removed === 1 ? '' : 's'} from ${file} (previous version in ${file}.bak)`);
  else if (e.kind === 'resumed')
    io.out(
      `${e.pending} deletion${e.pending === 1 ? '' : 's'} made while no watcher ran will be written back to ${file}` +
        (e.unmatched > 0 ? `; ${e.unmatched} deleted fact${e.unmatched === 1 ? '' : 's'} no longer found in it` : ''),
    );
  else if (e.kind === 'mirrored') io.out(`Deleted ${e.deleted} fact${e.deleted === 1 ? '' : 's'} whose records ${file} no longer holds`);
  else io.err(`${e.kind === 'refused' ? 'not written' : 'error'}: ${e.reason}`);
}
