// `statelens import statebench FILE`: replays StateBench timelines (JSONL, one per line) into one
// user partition each, in one transaction: a malformed line imports nothing.
import fs from 'node:fs';
import { StatelensError } from '../../../shared/errors';
import { importStatebenchParsed, readStatebenchFile } from '../../engine/import/statebench';
import { EXIT, type CliCommand } from '../command';
import { dbName, PG_OPTIONS, PG_USAGE } from '../database';
import { withDatabase } from '../new-database';
import { progressBar } from '../progress';

export const importStatebenchCommand: CliCommand = {
  name: 'import statebench',
  summary: 'Import StateBench timelines (JSONL) into one user partition per timeline',
  usage: `statelens import statebench FILE --db TARGET [--json]

Each line of FILE is one StateBench timeline: initial_state (identity, persistent facts, working
set, environment) and events in order (conversation turns go to the working set, state writes and
supersessions to the persistent facts, queries are kept as saved queries). A supersession names
its target by id, label or key; every one must resolve, and fact ids are unique within a
timeline: otherwise nothing is imported. The database (or the server schema) is created when
missing.

All lines go in one transaction: a line that is not a valid timeline, or a supersedes that
matches no fact, is reported with its line (and field), and nothing is imported. Exit codes: 0 imported, 1 failed (nothing written), 2 usage
error.
${PG_USAGE}`,
  options: {
    ...PG_OPTIONS,
    db: { type: 'string' },
    json: { type: 'boolean' },
  },
  allowPositionals: true,
  async run(args, io) {
    const [file, ...extra] = args.positionals;
    if (!file || extra.length > 0) throw new StatelensError('INVALID_INPUT', 'Give exactly one StateBench JSONL file');
    if (!fs.existsSync(file)) throw new StatelensError('NOT_FOUND', `${file} does not exist`);
    const path = dbName(args);
    // Validate the whole file before the database is opened (or created).
    const lines = readStatebenchFile(file);
    const bar = progressBar(io, 'import');
    try {
      const stats = await withDatabase(args, (store) =>
        importStatebenchParsed(store, lines, { sourceName: file, onProgress: (done, total) => bar.update(done, total) }),
      );
      bar.end();
      if (args.values.json) {
        io.out(JSON.stringify({ ...stats, partitions: stats.partitionIds.length }));
      } else {
        io.out(
          `Imported ${stats.timelines} timelines from ${file} into ${path}: ${stats.facts} facts (${stats.initialFacts} initial), ` +
            `${stats.supersessionWrites} supersession writes (${stats.supersessionsResolved} resolved), ` +
            `${stats.inferredSupersessions} inferred supersessions, ${stats.proposals} proposals, ${stats.turns} turns, ${stats.workingItems} working items, ` +
            `${stats.environmentSignals} environment signals, ${stats.queries} queries`,
        );
      }
      return EXIT.ok;
    } finally {
      bar.end();
    }
  },
};
