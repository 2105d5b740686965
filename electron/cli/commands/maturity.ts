// `statelens maturity`: the administrative action that shows or sets a capability partition's
// maturity (junior: events; senior: + heuristics; master: + strategies). No agent write can change
// the tier; this command is the one way, and each change is audited with who and why.
import { Maturity } from '../../../shared/domain';
import { StatelensError } from '../../../shared/errors';
import { partitionLabel } from '../../engine/partitions/partitions';
import { EXIT, requireString, stringOpt, type CliCommand } from '../command';
import { PG_OPTIONS, PG_USAGE, openDb, partitionIdArg } from '../database';

export const maturityCommand: CliCommand = {
  name: 'maturity',
  summary: "Show or set a capability agent's maturity (an audited administrative change)",
  usage: `statelens maturity --db FILE --partition P [--set junior|senior|master --actor NAME [--reason TEXT]] [--json]

  --partition  a capability partition: numeric id or capability:ORG/NAME
  --set        the new maturity; without it the current one is shown
  --actor      who makes the change, recorded in the audit log (required with --set)
  --reason     why, recorded in the audit log

Exit codes: 0 shown or set, 1 failed (not found, not a capability partition), 2 usage error.
${PG_USAGE}`,
  options: {
    ...PG_OPTIONS,
    db: { type: 'string' },
    partition: { type: 'string' },
    set: { type: 'string' },
    actor: { type: 'string' },
    reason: { type: 'string' },
    json: { type: 'boolean' },
  },
  async run(args, io) {
    const setText = stringOpt(args, 'set');
    const target = setText === undefined ? undefined : Maturity.safeParse(setText);
    if (target && !target.success) throw new StatelensError('INVALID_INPUT', `--set must be junior, senior or master; got "${setText}"`);
    const actor = target ? requireString(args, 'actor') : undefined;
    const store = openDb(args, { readonly: target === undefined });
    try {
      const id = partitionIdArg(store, requireString(args, 'partition')) as number;
      const handle = store.scopeById(id);
      const label = partitionLabel(handle.ref);
      if (!target || actor === undefined) {
        if (handle.kind !== 'capability')
          throw new StatelensError('PARTITION_MISMATCH', `Only capability partitions have a maturity; ${label} is ${handle.kind}`);
        if (args.values.json) io.out(JSON.stringify({ partitionId: id, partition: label, maturity: handle.maturity }));
        else io.out(`${label}: ${handle.maturity ?? 'junior'}`);
        return EXIT.ok;
      }
      const r = store.setMaturity(id, target.data, { actor, reason: stringOpt(args, 'reason') ?? null });
      if (args.values.json) io.out(JSON.stringify({ ...r, partition: label }));
      else io.out(r.changed ? `${label}: ${r.from ?? 'junior'} -> ${r.to} (audited, by ${actor})` : `${label}: already ${r.to}, nothing changed`);
      return EXIT.ok;
    } finally {
      store.close();
    }
  },
};
