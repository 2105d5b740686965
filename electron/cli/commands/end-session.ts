// `statelens end-session`: ends one session of a partition, as an agent does when a conversation
// is over: the session's working set is cleared and its identity released; facts stay.
import { StatelensError } from '../../../shared/errors';
import { partitionLabel } from '../../engine/partitions/partitions';
import { EXIT, requireString, type CliCommand } from '../command';
import { PG_OPTIONS, PG_USAGE, openDb, partitionIdArg } from '../database';

export const endSessionCommand: CliCommand = {
  name: 'end-session',
  summary: 'End a session: clear its working set and release its identity (facts stay)',
  usage: `statelens end-session --db FILE --partition P --session ID [--json]

  --partition  numeric id or user:ORG/USER, capability:ORG/NAME, org:ORG
  --session    the session to end

Exit codes: 0 ended, 1 failed, 2 usage error.
${PG_USAGE}`,
  options: {
    ...PG_OPTIONS,
    db: { type: 'string' },
    partition: { type: 'string' },
    session: { type: 'string' },
    json: { type: 'boolean' },
  },
  async run(args, io) {
    const session = requireString(args, 'session');
    if (session.length > 200) throw new StatelensError('INVALID_INPUT', '--session is at most 200 characters');
    const store = openDb(args, {});
    try {
      const handle = store.scopeById(partitionIdArg(store, requireString(args, 'partition')) as number);
      const r = handle.endSession(session);
      if (args.values.json) io.out(JSON.stringify({ ...r, partition: partitionLabel(handle.ref) }));
      else
        io.out(
          `Ended session ${session} of ${partitionLabel(handle.ref)}: ${r.workingItemsCleared} working items cleared${r.identityReleased ? ', identity released' : ''}`,
        );
      return EXIT.ok;
    } finally {
      store.close();
    }
  },
};
