// `statelens export`: a snapshot (json, ndjson), a SQLite copy, a Markdown report, CSV of the
// facts or StateBench initial states, of the whole database or one partition, of every fact or
// only those the filter flags select (with --as-of: the state as of that time).
import { EXPORT_FORMATS } from '../../../shared/snapshot';
import { exportStore } from '../../engine/snapshot/export';
import { enumOpt, EXIT, requireString, stringOpt, type CliCommand } from '../command';
import { PG_OPTIONS, PG_USAGE, openDb, partitionIdArg } from '../database';
import { FILTER_OPTIONS, FILTER_USAGE, filterFromArgs } from '../filter-flags';
import { progressBar } from '../progress';

export const exportCommand: CliCommand = {
  name: 'export',
  summary: 'Export the database or one partition (json, ndjson, sqlite, markdown, csv, statebench)',
  usage: `statelens export --db FILE --format ${EXPORT_FORMATS.join('|')} --out FILE [--partition ID] [--overwrite] [--json] [filter flags]

  json        one JSON document: header, every record of every layer, end (small stores)
  ndjson      the same records one per line, streamed with flat memory (large stores)
  sqlite      a consistent copy of the database file (VACUUM INTO); opens read-only
  markdown    a report a person can read: identity, valid facts, chains, reviews, proposals
  csv         the facts (RFC 4180)
  statebench  one StateBench timeline per user partition with its initial_state

  --partition  numeric id or user:ORG/USER, capability:ORG/NAME, org:ORG (default: everything)
  ${FILTER_USAGE}

Filter flags narrow any format to the facts they select; --as-of exports the state as of that
time (facts as they stood then, other rows as far as they existed). The export reads one consistent snapshot even while an agent writes. Exit codes: 0 written,
1 failed (nothing written), 2 usage error.
${PG_USAGE}`,
  options: {
    ...PG_OPTIONS,
    db: { type: 'string' },
    format: { type: 'string', short: 'f' },
    out: { type: 'string', short: 'o' },
    partition: { type: 'string' },
    overwrite: { type: 'boolean' },
    json: { type: 'boolean' },
    ...FILTER_OPTIONS,
  },
  async run(args, io) {
    const format = enumOpt(args, 'format', EXPORT_FORMATS, { required: true });
    const out = requireString(args, 'out');
    const filter = filterFromArgs(args);
    const store = openDb(args, { readonly: true });
    const bar = progressBar(io, `export ${format}`);
    const abort = new AbortController();
    const onSigint = (): void => abort.abort();
    process.once('SIGINT', onSigint);
    try {
      const partitionId = partitionIdArg(store, stringOpt(args, 'partition'));
      const summary = await exportStore(store, {
        format,
        out,
        partitionId,
        ...(filter ? { filter } : {}),
        overwrite: args.values.overwrite === true,
        signal: abort.signal,
        onProgress: (p) => bar.update(p.done, p.total),
      });
      bar.end();
      if (args.values.json) io.out(JSON.stringify(summary));
      else io.out(`Wrote ${summary.path} (${format}, ${summary.bytes} bytes, ${summary.records} ${format === 'statebench' ? 'timelines' : 'records'})`);
      return EXIT.ok;
    } finally {
      bar.end();
      process.off('SIGINT', onSigint);
      store.close();
    }
  },
};
