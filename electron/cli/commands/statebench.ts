// `statelens statebench FILE --strategy NAME`: imports a StateBench split into a temporary
// database (or into --db FILE or URL, which is kept for inspection afterwards), assembles a context at
// every query (as of the query's time), writes one JSONL line per query and prints StateBench's
// figures beside the `reference` ablation from the same run.
import { AssemblyStrategy, DEFAULT_STRATEGY, TokenizerName } from '../../../shared/assembly';
import { StatelensError } from '../../../shared/errors';
import {
  DEFAULT_STATEBENCH_BUDGET,
  formatFigures,
  runStatebench,
  type StatebenchRun,
  type StatebenchRunOptions,
} from '../../engine/assembly/statebench-runner';
import { readStatebenchFile } from '../../engine/import/statebench';
import { enumOpt, EXIT, intOpt, stringOpt, type CliCommand } from '../command';
import { dbName, PG_OPTIONS, PG_USAGE } from '../database';
import { databaseUrl, DB_URL_ENV } from '../db-url';
import { withDatabase } from '../new-database';

export const statebenchCommand: CliCommand = {
  name: 'statebench',
  summary: 'Assemble a context at every query of a StateBench split and judge it (beside the reference)',
  usage: `statelens statebench FILE [--strategy NAME] [--budget N] [--out OUT.jsonl] [--compare NAME|none]
                     [--tokenizer cl100k_base|o200k_base] [--db DB] [--json]

  FILE        a StateBench timeline file (JSONL, one timeline per line)
  --strategy  recent | important | balanced | state_based | reference | context_document
              (default ${DEFAULT_STRATEGY})
  --budget    token budget per context (default ${DEFAULT_STATEBENCH_BUDGET}; the reference takes none)
  --out       one line per query: {timeline_id, query_index, strategy, context, tokens, included, excluded}
  --compare   strategy printed beside it from the same run (default reference; none to skip)
  --db        import into this database and assemble from it, keeping it afterwards (a file or a
              server schema; open it with the inspector or \`statelens facts --db DB\`); it is
              created if missing and must not hold FILE's timelines yet (a file this run created
              is removed again when the import fails). Default: $${DB_URL_ENV} when set, else a
              temporary database, removed at the end.

Figures (StateBench's phrase rule on the context text): share of contexts holding a
must_not_mention phrase, share of must_mention phrases present, mean tokens (chars/4 and exact).
Exit codes: 0 done, 1 failed, 2 usage error.
${PG_USAGE}`,
  options: {
    ...PG_OPTIONS,
    strategy: { type: 'string' },
    budget: { type: 'string' },
    out: { type: 'string' },
    compare: { type: 'string' },
    tokenizer: { type: 'string' },
    db: { type: 'string' },
    json: { type: 'boolean' },
  },
  allowPositionals: true,
  async run(args, io) {
    const [file, ...extra] = args.positionals;
    if (!file || extra.length > 0) throw new StatelensError('INVALID_INPUT', 'Give exactly one StateBench FILE');
    const strategy = enumOpt(args, 'strategy', AssemblyStrategy.options, { fallback: DEFAULT_STRATEGY });
    const compared = enumOpt(args, 'compare', [...AssemblyStrategy.options, 'none'], { fallback: 'reference' });
    const compare = compared === 'none' ? null : compared;
    const tokenizer = enumOpt(args, 'tokenizer', TokenizerName.options, { fallback: 'cl100k_base' });
    const out = stringOpt(args, 'out');
    if (stringOpt(args, 'db') === '') throw new StatelensError('INVALID_INPUT', '--db needs a file name or a PostgreSQL URL');
    const options: StatebenchRunOptions = {
      file,
      strategy,
      budget: intOpt(args, 'budget', DEFAULT_STATEBENCH_BUDGET),
      compareWith: compare,
      tokenizer,
      ...(out ? { out } : {}),
    };
    // --db (or STATELENS_DB_URL) names a store to keep; the file is checked before it is opened.
    const db = stringOpt(args, 'db') !== undefined || databaseUrl(args) !== undefined ? dbName(args) : undefined;
    let run: StatebenchRun;
    if (db === undefined) run = await runStatebench(options);
    else {
      const lines = readStatebenchFile(file);
      run = await withDatabase(args, (store) => runStatebench({ ...options, lines, store }));
    }
    if (args.values.json) {
      io.out(
        JSON.stringify({
          file: run.file,
          budget: run.budget,
          timelines: run.timelines,
          primary: run.primary,
          comparison: run.comparison,
          ...(db ? { db } : {}),
        }),
      );
    } else {
      for (const line of formatFigures(run)) io.out(line);
      if (out) io.out(`wrote ${run.results.length} lines to ${out}`);
      if (db) io.out(`kept the database ${db} (${run.timelines} timelines imported)`);
    }
    return EXIT.ok;
  },
};
