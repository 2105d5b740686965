// `statelens import snapshot FILE`: restores a json / ndjson snapshot or a SQLite copy into an
// empty database, in one transaction; a bad file names the line and field and imports nothing.
import { EXIT, type CliCommand } from '../command';
import { dbName, PG_OPTIONS, PG_USAGE } from '../database';
import { StatelensError } from '../../../shared/errors';
import { importSnapshotFile } from '../../engine/snapshot/import';
import { withDatabase } from '../new-database';
import { progressBar } from '../progress';

export const importSnapshotCommand: CliCommand = {
  name: 'import snapshot',
  summary: 'Import a snapshot (json, ndjson or a SQLite copy) into an empty database',
  usage: `statelens import snapshot FILE --db TARGET [--json]

  FILE     a snapshot written by \`statelens export --format json|ndjson|sqlite\`
  --db     the database to fill; created when missing, refused when it already holds data

Everything is checked (format and schema version, every record's fields, record order, chain
pointers, the end record's counts) inside one transaction: on any problem the error names the
line and field and nothing is imported. Exit codes: 0 imported, 1 failed, 2 usage error.
${PG_USAGE}`,
  options: { ...PG_OPTIONS, db: { type: 'string' }, json: { type: 'boolean' } },
  allowPositionals: true,
  async run(args, io) {
    const [file, ...extra] = args.positionals;
    if (!file || extra.length > 0) throw new StatelensError('INVALID_INPUT', 'Give exactly one snapshot FILE');
    const path = dbName(args);
    const bar = progressBar(io, 'import');
    try {
      const summary = await withDatabase(args, (store) => importSnapshotFile(store, file, { onProgress: (n) => bar.update(n) }));
      bar.end();
      if (args.values.json)
        io.out(
          JSON.stringify({
            kind: summary.kind,
            records: summary.records,
            counts: summary.counts,
            partitionIds: summary.partitionIds,
            scope: summary.header.scope,
          }),
        );
      else {
        const parts = Object.entries(summary.counts)
          .map(([t, n]) => `${n} ${t}`)
          .join(', ');
        io.out(`Imported ${summary.records} records from ${file} (${summary.kind}) into ${path}: ${parts || 'nothing'}`);
      }
      return EXIT.ok;
    } finally {
      bar.end();
    }
  },
};
