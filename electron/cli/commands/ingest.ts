// `statelens ingest EVENTS.jsonl`: the agents' wire format (StateBench event shapes plus a
// partition per line or per run) applied in one transaction; a bad line imports nothing.
import { EXIT, stringOpt, type CliCommand } from '../command';
import { PG_OPTIONS, PG_USAGE } from '../database';
import { StatelensError } from '../../../shared/errors';
import { designationFromFlags } from '../../engine/ingest/designation';
import { ingestFile } from '../../engine/ingest/ingest';
import { MATURITY_NOT_WRITABLE } from '../../engine/partitions/partitions';
import { withDatabase } from '../new-database';
import { progressBar } from '../progress';

export const ingestCommand: CliCommand = {
  name: 'ingest',
  summary: 'Apply agent events (JSONL: conversation_turn, state_write, supersession, query, identity)',
  usage: `statelens ingest EVENTS.jsonl --db FILE [--partition P | --org ORG (--user ID | --capability NAME | --organizational)]
                 [--dry-run] [--json]

One JSON event per line, in StateBench's shapes:
  {"type":"conversation_turn","ts":"...","speaker":"user","text":"..."}
  {"type":"state_write","ts":"...","writes":[{"id":"F1","layer":"persistent_facts","key":"budget","value":"$200k",
     "source":{"type":"system","authority":"peer"},"depends_on":[],"supersedes":null}]}
  {"type":"supersession","ts":"...","writes":[{"key":"budget_v2","value":"$120k","supersedes":"budget"}]}
  {"type":"query","ts":"...","prompt":"What is the budget?","ground_truth":{...}}
  {"type":"identity","identity_role":{"user_name":"Ann","authority":"manager","department":"Finance","organization":"Acme"}}
Any line may carry "partition": "user:ORG/USER" | "capability:ORG/NAME" | "org:ORG" (or the object form
{"kind":"user","org":"acme","user":"u1"}) and "session_id"; otherwise the run's flags apply.
A new capability partition starts junior. No event (and no flag here) sets an agent's maturity: a
writer cannot raise its own tier; an administrator sets it with \`statelens maturity\` (audited).
Use - for EVENTS to read standard input.

All lines go in one transaction: a bad line is reported with its number and field and nothing is
written. --dry-run checks and applies everything, then rolls back. Exit codes: 0 applied (or checked),
1 failed (nothing written), 2 usage error.
${PG_USAGE} Here --org also names the org of the partitions the flags designate.`,
  options: {
    ...PG_OPTIONS,
    db: { type: 'string' },
    partition: { type: 'string' },
    org: { type: 'string' },
    user: { type: 'string' },
    capability: { type: 'string' },
    organizational: { type: 'boolean' },
    // Declared only to refuse it with the reason (see MATURITY_NOT_WRITABLE), not as an unknown flag.
    maturity: { type: 'string' },
    'dry-run': { type: 'boolean' },
    json: { type: 'boolean' },
  },
  allowPositionals: true,
  async run(args, io) {
    const [file, ...extra] = args.positionals;
    if (!file || extra.length > 0) throw new StatelensError('INVALID_INPUT', 'Give exactly one EVENTS.jsonl file (or - for standard input)');
    const partition = designationFromFlags({
      partition: stringOpt(args, 'partition'),
      org: stringOpt(args, 'org'),
      user: stringOpt(args, 'user'),
      capability: stringOpt(args, 'capability'),
      organizational: args.values.organizational === true,
    });
    if (args.values.maturity !== undefined) throw new StatelensError('INVALID_INPUT', `--maturity: ${MATURITY_NOT_WRITABLE}`);
    const bar = progressBar(io, 'ingest');
    try {
      const summary = await withDatabase(args, (store) =>
        ingestFile(store, file === '-' ? 0 : file, {
          ...(partition ? { partition } : {}),
          dryRun: args.values['dry-run'] === true,
          sourceName: file === '-' ? 'stdin' : file,
          onProgress: (n) => bar.update(n),
        }),
      );
      bar.end();
      if (args.values.json) {
        io.out(JSON.stringify(summary));
        return EXIT.ok;
      }
      const o = summary.outcomes;
      io.out(
        `${summary.dryRun ? 'Checked (dry run, nothing written)' : 'Ingested'} ${summary.lines} events into ${summary.partitions.map((p) => p.partition).join(', ')}: ` +
          `${o.created + o.superseded} facts (${o.superseded} superseding), ${o.proposal} proposals, ${o.stale} stale, ${o.duplicate} duplicates, ` +
          `${summary.workingItems} working items, ${summary.environmentSignals} environment signals, ${summary.queries} queries`,
      );
      for (const u of summary.unresolvedSupersedes)
        io.err(`warning: line ${u.line} write ${u.write}: supersedes "${u.supersedes}" matched no fact; stored as a new fact`);
      for (const u of summary.unresolvedDependencies) io.err(`warning: line ${u.line} write ${u.write}: dependencies not found: ${u.refs.join(', ')}`);
      return EXIT.ok;
    } finally {
      bar.end();
    }
  },
};
