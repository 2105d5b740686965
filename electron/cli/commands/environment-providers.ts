// `statelens environment-providers`: shows or sets the environment providers a partition queries
// fresh at every assembly (an agent-side setting, like `set_environment_providers` over MCP).
import { StatelensError } from '../../../shared/errors';
import { partitionLabel } from '../../engine/partitions/partitions';
import { EXIT, requireString, type CliCommand } from '../command';
import { PG_OPTIONS, PG_USAGE, openDb, partitionIdArg } from '../database';

export const environmentProvidersCommand: CliCommand = {
  name: 'environment-providers',
  summary: 'Show or set the environment providers fetched fresh at every assembly',
  usage: `statelens environment-providers --db FILE --partition P [--set JSON] [--json]

  --partition  numeric id or user:ORG/USER, capability:ORG/NAME, org:ORG
  --set        a JSON list replacing the providers, e.g.
               '[{"kind":"clock","timezone":"Europe/Paris"},{"kind":"calendar","source":"/home/me/work.ics"},
                 {"kind":"recent_files","folder":"/home/me/project","limit":5}]'  ('[]' turns fetching off)

Exit codes: 0 done, 1 failed, 2 usage error.
${PG_USAGE}`,
  options: {
    ...PG_OPTIONS,
    db: { type: 'string' },
    partition: { type: 'string' },
    set: { type: 'string' },
    json: { type: 'boolean' },
  },
  async run(args, io) {
    const raw = args.values.set;
    let list: unknown;
    if (typeof raw === 'string') {
      try {
        list = JSON.parse(raw);
      } catch {
        throw new StatelensError('INVALID_INPUT', '--set is not JSON: give a list of providers');
      }
      if (!Array.isArray(list)) throw new StatelensError('INVALID_INPUT', '--set must be a JSON list of providers');
    }
    const store = openDb(args, {});
    try {
      const handle = store.scopeById(partitionIdArg(store, requireString(args, 'partition')) as number);
      const providers = Array.isArray(list) ? handle.setEnvironmentProviders(list) : handle.environmentProviders();
      if (args.values.json) io.out(JSON.stringify({ partition: partitionLabel(handle.ref), providers }));
      else if (providers.length === 0) io.out(`${partitionLabel(handle.ref)}: no environment providers`);
      else io.out(providers.map((p) => JSON.stringify(p)).join('\n'));
      return EXIT.ok;
    } finally {
      store.close();
    }
  },
};
