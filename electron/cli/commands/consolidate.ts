// `statelens consolidate`: clusters a capability partition's similar events into heuristics (and
// heuristics into strategies), as proposals where the maturity forbids the level, and archives
// stale superseded events. --dry-run prints the same report and writes nothing.
import { StatelensError } from '../../../shared/errors';
import type { ConsolidationReport } from '../../engine/consolidation/consolidate';
import { DEFAULT_CONSOLIDATE_PARAMS } from '../../engine/consolidation/consolidate';
import { partitionLabel } from '../../engine/partitions/partitions';
import { EXIT, intOpt, stringOpt, type CliCommand, type ParsedCli } from '../command';
import { PG_OPTIONS, PG_USAGE, openDb, partitionIdArg } from '../database';

const D = DEFAULT_CONSOLIDATE_PARAMS;

export const consolidateCommand: CliCommand = {
  name: 'consolidate',
  summary: 'Cluster similar capability memories into heuristics and strategies; archive stale events',
  usage: `statelens consolidate --db FILE [--partition capability:ORG/NAME] [--dry-run] [--min-cluster N] [--similarity X] [--prune-age D] [--actor NAME] [--json]

  --partition    a capability partition: numeric id or capability:ORG/NAME (default: every capability partition)
  --dry-run      print the report and write nothing
  --min-cluster  the fewest similar memories that make an abstraction (default ${D.minCluster})
  --similarity   Jaccard similarity of content words every pair of a cluster reaches, 0..1 (default ${D.similarity})
  --prune-age    superseded, never-accessed, low-importance events older than D days are archived (default ${D.pruneAgeDays})
  --actor        who runs it, recorded in the audit log (default consolidation)

A cluster becomes a heuristic (events) or strategy (heuristics) where the partition's maturity
allows the level, else a proposal in the review queue. Every run is one audit entry; a second run
over unchanged memory changes nothing.

Exit codes: 0 done, 1 failed (not found, not a capability partition), 2 usage error.
${PG_USAGE}`,
  options: {
    ...PG_OPTIONS,
    db: { type: 'string' },
    partition: { type: 'string' },
    'dry-run': { type: 'boolean' },
    'min-cluster': { type: 'string' },
    similarity: { type: 'string' },
    'prune-age': { type: 'string' },
    actor: { type: 'string' },
    json: { type: 'boolean' },
  },
  async run(args, io) {
    const dryRun = args.values['dry-run'] === true;
    const params = {
      minCluster: intOpt(args, 'min-cluster', D.minCluster),
      similarity: numberOpt(args, 'similarity', D.similarity),
      pruneAgeDays: numberOpt(args, 'prune-age', D.pruneAgeDays),
    };
    const store = openDb(args, { readonly: dryRun });
    try {
      const given = stringOpt(args, 'partition');
      const ids =
        given === undefined
          ? store
              .listPartitions()
              .filter((p) => p.ref.kind === 'capability')
              .map((p) => p.id)
          : [partitionIdArg(store, given) as number];
      const reports = ids.map((id) => {
        const handle = store.scopeById(id);
        return { partition: partitionLabel(handle.ref), ...handle.consolidate(params, { dryRun, actor: stringOpt(args, 'actor') }) };
      });
      if (args.values.json) io.out(JSON.stringify(reports));
      else for (const r of reports) io.out(formatReport(r.partition, r));
      return EXIT.ok;
    } finally {
      store.close();
    }
  },
};

function numberOpt(args: ParsedCli, name: string, fallback: number): number {
  const v = stringOpt(args, name);
  if (v === undefined) return fallback;
  const n = Number(v);
  if (v.trim() === '' || !Number.isFinite(n)) throw new StatelensError('INVALID_INPUT', `--${name} must be a number, got "${v}"`);
  return n;
}

/** The human report: the same for a dry run and a run, bar the first line's verb. */
export function formatReport(partition: string, r: ConsolidationReport): string {
  const lines = [`${partition}: ${r.dryRun ? 'dry run, nothing written' : `consolidated (audit entry ${r.auditId})`}`];
  const p = r.params;
  lines.push(
    `  parameters: min cluster ${p.minCluster}, similarity ${p.similarity}, prune age ${p.pruneAgeDays} days, prune importance below ${p.pruneImportance}`,
  );
  for (const a of r.abstractions) {
    const what = a.outcome === 'existing' ? 'already consolidated' : a.outcome === 'proposal' ? `${a.level} proposal (above the maturity)` : a.level;
    lines.push(`  ${what}: ${a.key}${a.id ? ` (${a.id})` : ''}`, `    ${a.value}`, `    from ${a.from.join(', ')}`);
  }
  if (r.abstractions.length === 0) lines.push('  no cluster reaches the minimum size');
  lines.push(`  ${r.dryRun ? 'would archive' : 'archived'} ${r.archived.length} event(s)${r.archived.length ? `: ${r.archived.join(', ')}` : ''}`);
  return lines.join('\n');
}
