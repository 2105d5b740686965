// `statelens chain ID`: a fact's supersession chain, oldest version first, each with its value,
// time, source and authority and the rule that superseded it, plus proposals made against it.
import type { Fact } from '../../../shared/domain';
import { StatelensError } from '../../../shared/errors';
import type { PartitionHandle } from '../../engine/partition-handle';
import { partitionLabel } from '../../engine/partitions/partitions';
import type { Store } from '../../engine/store';
import { EXIT, stringOpt, type CliCommand } from '../command';
import { PG_OPTIONS, PG_USAGE, openDb, partitionIdArg } from '../database';

function locate(store: Store, ref: string, partition: string | undefined): { handle: PartitionHandle; id: string } {
  const partitionId = partitionIdArg(store, partition);
  if (partitionId !== null) {
    const handle = store.scopeById(partitionId);
    // A key whose facts are all superseded still has a chain worth showing: its newest version.
    const fact = handle.resolveFact(ref, { orSupersededKey: true });
    if (!fact) throw new StatelensError('NOT_FOUND', `No fact "${ref}" (as id, label or key) in ${partitionLabel(handle.ref)}`);
    return { handle, id: fact.id };
  }
  // Ids are unique in the file, so the inspector may find which partition holds one.
  const owner = store.partitionOfFact(ref);
  if (owner === undefined) throw new StatelensError('NOT_FOUND', `No fact with id "${ref}" (give --partition to look up a label or key)`);
  return { handle: store.scopeById(owner), id: ref };
}

function describe(f: Fact, next: Fact | undefined): string {
  const source = [f.source.type, f.source.authority, f.source.identity].filter(Boolean).join('/');
  const state = f.isValid
    ? 'CURRENT'
    : f.status === 'superseded' && next && f.supersededBy === next.id
      ? `superseded by ${f.supersededBy} (${f.supersessionRule ?? '?'}: ${f.supersessionReason ?? ''})`
      : f.status === 'superseded'
        ? `superseded${f.supersededBy ? ` by ${f.supersededBy}` : ''} (${f.supersessionRule ?? '?'}: ${f.supersessionReason ?? ''})`
        : f.status;
  return `${f.ts}  ${f.id}  ${f.key} = ${JSON.stringify(f.value)}  [${source}]  ${state}${f.needsReview ? '  NEEDS REVIEW' : ''}`;
}

export const chainCommand: CliCommand = {
  name: 'chain',
  summary: "Show a fact's supersession chain and the proposals made against it",
  usage: `statelens chain ID --db FILE [--partition P] [--json]

  ID           a fact id; with --partition also a source label or a key (resolved in that order)
  --partition  numeric id or user:ORG/USER, capability:ORG/NAME, org:ORG

Exit codes: 0 shown, 1 not found or failed, 2 usage error.
${PG_USAGE}`,
  options: { ...PG_OPTIONS, db: { type: 'string' }, partition: { type: 'string' }, json: { type: 'boolean' } },
  allowPositionals: true,
  async run(args, io) {
    const [ref, ...extra] = args.positionals;
    if (!ref || extra.length > 0) throw new StatelensError('INVALID_INPUT', 'Give exactly one fact ID');
    const store = openDb(args, { readonly: true });
    try {
      const { handle, id } = locate(store, ref, stringOpt(args, 'partition'));
      const chain = handle.chain(id);
      if (args.values.json) {
        io.out(
          JSON.stringify({ partitionId: handle.id, partition: partitionLabel(handle.ref), factId: id, versions: chain.versions, proposals: chain.proposals }),
        );
        return EXIT.ok;
      }
      io.out(
        `Chain of ${id} in ${partitionLabel(handle.ref)}: ${chain.versions.length} version${chain.versions.length === 1 ? '' : 's'}, ${chain.proposals.length} proposal${chain.proposals.length === 1 ? '' : 's'}`,
      );
      chain.versions.forEach((v, i) => io.out(`  ${i + 1}. ${describe(v, chain.versions[i + 1])}`));
      if (chain.proposals.length > 0) {
        io.out('Proposals (lower authority, not applied):');
        for (const p of chain.proposals)
          io.out(
            `  - ${p.ts}  ${p.id}  ${p.key} = ${JSON.stringify(p.value)}  [${[p.source.type, p.source.authority].filter(Boolean).join('/')}]  against ${p.proposalFor}: ${p.supersessionReason ?? ''}`,
          );
      }
      return EXIT.ok;
    } finally {
      store.close();
    }
  },
};
