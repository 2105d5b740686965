// `statelens delete`: the user's one write, from the command line. Shows the engine's impact
// preview (what goes, which dependents get flagged, which chain pointers are relinked), then
// asks for confirmation unless --yes; without a terminal and without --yes it refuses.
import type { DeletionImpact, DeletionResult, SelectionEcho } from '../../../shared/deletion';
import { StatelensError } from '../../../shared/errors';
import type { DeletionSelectionInput } from '../../../shared/query';
import type { PartitionHandle } from '../../engine/partition-handle';
import { partitionLabel } from '../../engine/partitions/partitions';
import type { Store } from '../../engine/store';
import { EXIT, stringOpt, type CliCommand, type CliIO, type ParsedCli } from '../command';
import { progressBar } from '../progress';
import { PG_OPTIONS, PG_USAGE, openDb, partitionIdArg } from '../database';
import { databaseUrl } from '../db-url';
import { FILTER_OPTIONS, FILTER_USAGE, filterFromArgs } from '../filter-flags';

const SHOWN = 20;

function selectionOf(args: ParsedCli): DeletionSelectionInput {
  const flagIds = args.values.id;
  const ids = [...args.positionals, ...(Array.isArray(flagIds) ? (flagIds as string[]) : [])];
  const filter = filterFromArgs(args);
  const all = args.values.all === true;
  const chosen = [ids.length > 0, filter !== undefined, all].filter(Boolean).length;
  if (chosen === 0) throw new StatelensError('INVALID_INPUT', 'Say what to delete: fact ids, filter flags, or --all');
  if (chosen > 1) throw new StatelensError('INVALID_INPUT', 'Give fact ids, filter flags or --all — only one of them');
  if (ids.length > 0) return { ids };
  // Only --all deletes a whole partition: filter flags that restrict nothing (a search with no
  // word in it, --validity all) are refused by the engine, never widened to everything.
  return filter !== undefined ? { filter } : { all: true };
}

function handleFor(store: Store, args: ParsedCli, selection: DeletionSelectionInput): PartitionHandle {
  const partitionId = partitionIdArg(store, stringOpt(args, 'partition'));
  if (partitionId !== null) return store.scopeById(partitionId);
  if (!('ids' in selection)) throw new StatelensError('INVALID_INPUT', 'A delete by filter or --all needs --partition');
  // Ids are unique in the file: find the partition that holds them (all must share it).
  const owners = new Set<number>();
  for (const id of selection.ids) {
    const owner = store.partitionOfFact(id);
    if (owner === undefined) throw new StatelensError('NOT_FOUND', `No fact with id "${id}"; nothing was deleted`, { id });
    owners.add(owner);
  }
  if (owners.size > 1) throw new StatelensError('INVALID_INPUT', 'The ids belong to several partitions; delete per partition (--partition)');
  return store.scopeById([...owners][0] as number);
}

function printSelection(io: CliIO, echo: SelectionEcho): void {
  if (echo.kind === 'all') io.out('Selected: every fact of the partition (--all).');
  else if (echo.kind === 'ids') io.out(`Selected: ${echo.count} fact id${echo.count === 1 ? '' : 's'}.`);
  else {
    io.out('Selected: every fact matching all of');
    for (const c of echo.conditions) io.out(`  · ${c}`);
  }
}

function printImpact(io: CliIO, where: string, impact: DeletionImpact): void {
  printSelection(io, impact.selection);
  io.out(`In ${where}: would delete ${impact.toDelete} fact${impact.toDelete === 1 ? '' : 's'} (${impact.validToDelete} valid now).`);
  for (const f of impact.facts.slice(0, SHOWN)) io.out(`  - ${f.id}  ${f.key}  [${f.status}]`);
  if (impact.toDelete > SHOWN) io.out(`  … and ${impact.toDelete - SHOWN} more`);
  io.out(
    `  ${impact.flaggedCount} dependent fact${impact.flaggedCount === 1 ? '' : 's'} would be flagged needs_review${impact.flagged.length > 0 ? `: ${impact.flagged.slice(0, SHOWN).join(', ')}${impact.flaggedCount > SHOWN ? ', …' : ''}` : ''}`,
  );
  io.out(
    `  ${impact.relinkedCount} chain pointer${impact.relinkedCount === 1 ? '' : 's'} relinked (${impact.clearedCount} cleared), ${impact.orphanedCount} superseded fact${impact.orphanedCount === 1 ? '' : 's'} left without a successor, ${impact.proposalsAffected} proposal${impact.proposalsAffected === 1 ? '' : 's'} affected`,
  );
  for (const r of impact.relinked.slice(0, SHOWN)) io.out(`    ${r.id}.${r.field}: ${r.from} -> ${r.to ?? '(cleared)'}`);
}

function printResult(io: CliIO, r: DeletionResult, onPostgres: boolean): void {
  io.out(
    `Deleted ${r.deleted} fact${r.deleted === 1 ? '' : 's'}; flagged ${r.flagged}, relinked ${r.relinked} (${r.cleared} cleared)${r.auditId !== null ? `; audit entry ${r.auditId}` : ''}.`,
  );
  if (!r.scrub) return;
  const done = r.scrub.complete ? 'yes' : 'NO (see below)';
  // PostgreSQL's scrub rewrites the tables' files; the server's WAL is beyond any client's reach.
  if (!onPostgres) io.out(`Text removed from the file and its WAL: ${done}`);
  else {
    const tables = r.scrub.rebuilt.length > 0 ? ` (VACUUM FULL of ${r.scrub.rebuilt.join(', ')})` : '';
    io.out(`Text removed from the PostgreSQL tables and their indexes${tables}: ${done}`);
    if (r.scrub.complete) io.out("  The server's WAL, archives, replicas and backups keep it until they are recycled.");
  }
}

export const deleteCommand: CliCommand = {
  name: 'delete',
  summary: 'Delete facts (by id, by filter or all of a partition) after an impact preview',
  usage: `statelens delete --db FILE [--partition P] (ID... | --id ID ... | filter flags | --all)
                 [--reason TEXT] [--actor NAME] [--yes] [--dry-run] [--json]

  ID / --id    fact ids (repeatable); without --partition their partition is found from the ids
  --partition  numeric id or user:ORG/USER, capability:ORG/NAME, org:ORG (needed for filters, --all)
  --all        every fact of the partition (the only way to select them all: filter flags that
               restrict nothing, such as a search with no word in it, are refused)
  ${FILTER_USAGE}
  --dry-run    show the impact preview only
  --yes        do not ask; without it a terminal is asked to confirm and anything else is refused

The preview is the engine's: the selection as it applies it (each filter condition in words),
what would be deleted, the dependents flagged needs_review, the chain
pointers relinked or cleared. The delete is one transaction, recorded in the audit log (who, when,
why — never the text), and the text is scrubbed from the database file and its WAL. While another
program keeps a read transaction open the scrub waits a few seconds; if the text still cannot be
overwritten the facts stay deleted, the command says where copies remain and exits 1. On
PostgreSQL the scrub is VACUUM (FULL) of the tables a delete writes (it needs their owner): it
rewrites their files and indexes, but the server's WAL, archives and backups keep the text until
they are recycled.
Exit codes: 0 deleted (or nothing matched, or --dry-run), 1 failed, not confirmed or not scrubbed,
2 usage error or refused (no terminal to confirm on and no --yes).
${PG_USAGE}`,
  options: {
    ...PG_OPTIONS,
    db: { type: 'string' },
    partition: { type: 'string' },
    id: { type: 'string', multiple: true },
    all: { type: 'boolean' },
    reason: { type: 'string' },
    actor: { type: 'string' },
    yes: { type: 'boolean', short: 'y' },
    'dry-run': { type: 'boolean' },
    json: { type: 'boolean' },
    ...FILTER_OPTIONS,
  },
  allowPositionals: true,
  async run(args, io) {
    const selection = selectionOf(args);
    const json = args.values.json === true;
    const store = openDb(args, {});
    try {
      const handle = handleFor(store, args, selection);
      const where = partitionLabel(handle.ref);
      const impact = handle.previewDeletion(selection);
      if (impact.missingIds.length > 0) {
        throw new StatelensError(
          'NOT_FOUND',
          `${impact.missingIds.length} of the ids are not facts of ${where} (${impact.missingIds.slice(0, 5).join(', ')}); nothing was deleted`,
          {
            missing: impact.missingIds.slice(0, 20),
          },
        );
      }
      if (!json) printImpact(io, where, impact);
      if (impact.toDelete === 0 || args.values['dry-run'] === true) {
        if (json) io.out(JSON.stringify({ partitionId: handle.id, preview: impact, result: null }));
        else io.out(impact.toDelete === 0 ? 'Nothing matches; nothing was deleted.' : 'Dry run: nothing was deleted.');
        return EXIT.ok;
      }
      if (args.values.yes !== true) {
        if (!io.isTTY) {
          io.err(
            `statelens delete: refusing to delete ${impact.toDelete} fact${impact.toDelete === 1 ? '' : 's'} without confirmation (no terminal); pass --yes after reviewing the preview`,
          );
          return EXIT.usage;
        }
        const answer = await io.prompt(`Delete ${impact.toDelete} fact${impact.toDelete === 1 ? '' : 's'} from ${where}? Type "yes" to confirm: `);
        if (!answer || !/^(y|yes)$/i.test(answer.trim())) {
          io.out('Not confirmed: nothing was deleted.');
          return EXIT.failed;
        }
      }
      const bar = progressBar(io, 'delete');
      const result = handle.deleteFacts(selection, {
        actor: stringOpt(args, 'actor') ?? 'cli',
        reason: stringOpt(args, 'reason') ?? null,
        onProgress: (done, total) => bar.update(done, total),
      });
      bar.end();
      if (json) io.out(JSON.stringify({ partitionId: handle.id, preview: impact, result }));
      else printResult(io, result, databaseUrl(args) !== undefined);
      // The facts are deleted, but copies of their text are still on disk: not a success.
      if (result.scrub && !result.scrub.complete) {
        io.err(`statelens delete: deleted, but copies of the deleted text remain on disk: ${result.scrub.detail}`);
        return EXIT.failed;
      }
      return EXIT.ok;
    } finally {
      store.close();
    }
  },
};
