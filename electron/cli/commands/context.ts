// `statelens context`: what a model would see — one partition's context under a strategy and a
// token budget, with its sections and why each fact is in or out. A preview changes nothing;
// --take records the access of the included facts (the agent taking the context).
import { AssemblyStrategy, DEFAULT_BUDGET, DEFAULT_STRATEGY, TokenizerName, type AssemblyRequestInput, type AssemblyResult } from '../../../shared/assembly';
import { partitionLabel } from '../../engine/partitions/partitions';
import { enumOpt, EXIT, intOpt, requireString, stringOpt, type CliCommand, type CliIO } from '../command';
import { PG_OPTIONS, PG_USAGE, openDb, partitionIdArg } from '../database';

function report(io: CliIO, label: string, r: AssemblyResult): void {
  io.out(r.text);
  io.out('');
  io.out(`--- ${r.strategy} for ${label}: ${r.tokens} tokens (${r.tokenizer})${r.budget === null ? ', no budget' : ` of ${r.budget}`}, now ${r.now}`);
  for (const s of r.sections) io.out(`  ${s.title}: ${s.tokens} tokens`);
  const excluded = Object.entries(r.counts.excluded)
    .map(([k, v]) => `${v} ${k}`)
    .join(', ');
  io.out(`  included ${r.counts.included}${excluded ? `; excluded ${excluded}` : ''}`);
}

export const contextCommand: CliCommand = {
  name: 'context',
  summary: 'Assemble the context a strategy hands to a model, with provenance',
  usage: `statelens context --db FILE --partition P [--strategy NAME] [--budget N] [--query TEXT]
                  [--as-of ISO] [--session ID] [--task ID] [--fact-share 0.7] [--tokenizer T] [--take] [--json]

  --partition  numeric id or user:ORG/USER, capability:ORG/NAME, org:ORG
  --strategy   recent | important | balanced | state_based | reference | context_document
               (default ${DEFAULT_STRATEGY})
  --budget     token budget of the whole text (default ${DEFAULT_BUDGET}; reference takes none)
  --take       the agent takes the context: included facts get their access recorded
  --json       the full result: text, tokens, sections and provenance with spans

Exit codes: 0 assembled, 1 failed, 2 usage error.
${PG_USAGE}`,
  options: {
    ...PG_OPTIONS,
    db: { type: 'string' },
    partition: { type: 'string' },
    strategy: { type: 'string' },
    budget: { type: 'string' },
    query: { type: 'string' },
    'as-of': { type: 'string' },
    session: { type: 'string' },
    task: { type: 'string' },
    'fact-share': { type: 'string' },
    tokenizer: { type: 'string' },
    take: { type: 'boolean' },
    json: { type: 'boolean' },
  },
  async run(args, io) {
    const strategy = enumOpt(args, 'strategy', AssemblyStrategy.options, { fallback: DEFAULT_STRATEGY });
    const tokenizer = enumOpt(args, 'tokenizer', TokenizerName.options);
    const share = stringOpt(args, 'fact-share');
    const request: AssemblyRequestInput = {
      strategy,
      budget: intOpt(args, 'budget', DEFAULT_BUDGET),
      query: stringOpt(args, 'query') ?? '',
      ...(stringOpt(args, 'as-of') ? { asOf: stringOpt(args, 'as-of') } : {}),
      ...(stringOpt(args, 'session') ? { sessionId: stringOpt(args, 'session') } : {}),
      ...(stringOpt(args, 'task') ? { taskId: stringOpt(args, 'task') } : {}),
      ...(share !== undefined ? { factShare: Number(share) } : {}),
      ...(tokenizer ? { tokenizer } : {}),
    };
    const take = args.values.take === true;
    const store = openDb(args, { readonly: !take });
    try {
      const id = partitionIdArg(store, requireString(args, 'partition'));
      const handle = store.scopeById(id as number);
      // The partition's environment providers are fetched fresh first (each within its deadline).
      const fetched = request.asOf === undefined ? await handle.fetchEnvironment() : undefined;
      const options = fetched ? { fetched } : {};
      const result = take ? handle.takeContext(request, options) : handle.assemble(request, options);
      if (args.values.json) io.out(JSON.stringify(result));
      else report(io, partitionLabel(handle.ref), result);
      return EXIT.ok;
    } finally {
      store.close();
    }
  },
};
