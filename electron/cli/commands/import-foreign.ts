// `statelens import mcp-memory|mem0|langgraph|letta`: memory another system keeps, read into a
// plan (engine/import/foreign) and written in one transaction. One shape for every source: the
// summary names what was imported, and every record left out is listed with where it was.
import { StatelensError } from '../../../shared/errors';
import type { PartitionRef } from '../../../shared/domain';
import { applyForeignPlan, type ForeignImportSummary } from '../../engine/import/foreign/apply';
import type { ForeignPlan } from '../../engine/import/foreign/plan';
import { parseDesignation } from '../../engine/ingest/designation';
import { DEFAULT_IMPORT_ORG, readForeignFile } from '../../engine/import/foreign/from-file';
import { EXIT, stringOpt, type CliCommand, type CliIO, type ParsedCli } from '../command';
import { dbName, PG_OPTIONS, PG_USAGE } from '../database';
import { withDatabase } from '../new-database';
import { progressBar } from '../progress';

/** The org of imported partitions when --org names none. */
export { DEFAULT_IMPORT_ORG };
/** Records left out that the text summary lists one by one (all are in --json). */
const LISTED = 20;

export interface ForeignSource {
  readonly name: string;
  readonly summary: string;
  /** Usage lines between the synopsis and the common part. */
  readonly usage: string;
  readonly synopsis: string;
  readonly options?: CliCommand['options'];
  readonly minInputs?: number;
  readonly maxInputs?: number;
  /** Reads the inputs into a plan; nothing is written yet. */
  plan(inputs: readonly string[], args: ParsedCli, org: string): Promise<ForeignPlan> | ForeignPlan;
  /** Runs instead of the one-off import when --watch is given (sources that can be watched). */
  watch?(inputs: readonly string[], args: ParsedCli, io: CliIO, org: string): Promise<number>;
}

export function importOrg(args: ParsedCli): string {
  return stringOpt(args, 'org') || DEFAULT_IMPORT_ORG;
}

/** --partition, or `fallback` in the import's org. */
export function targetPartition(args: ParsedCli, fallback: PartitionRef): PartitionRef {
  const given = stringOpt(args, 'partition');
  return given ? parseDesignation(given) : fallback;
}

/** A file input's text; NOT_FOUND / IMPORT_FAILED saying why it cannot be read. */
export const readInput = readForeignFile;

export function foreignImportCommand(source: ForeignSource): CliCommand {
  return {
    name: `import ${source.name}`,
    summary: source.summary,
    usage: `${source.synopsis}

${source.usage}

Everything goes in one transaction: input that cannot be read as this format is refused with the
line or row that breaks it, and nothing is imported. Records that can be read but not kept (empty
or oversized values, duplicates, unknown record types) are left out and listed; unknown fields are
noted. Each fact keeps its provenance: the source system as its source, the writer as its
identity, the source's id as its label, and an \`import\` audit entry with the rest. Importing the
same source into a partition twice is refused. The database is created when missing. The desktop
app runs the same import on one file from File › Import From (browser mode has no menu: use this).
Exit codes: 0 imported, 1 failed (nothing written), 2 usage error.
${PG_USAGE} --org also names the org of the imported partitions (default ${DEFAULT_IMPORT_ORG}).`,
    options: { ...PG_OPTIONS, db: { type: 'string' }, json: { type: 'boolean' }, ...source.options },
    allowPositionals: true,
    async run(args, io) {
      const inputs = args.positionals;
      const min = source.minInputs ?? 1;
      const max = source.maxInputs ?? 1;
      if (inputs.length < min || inputs.length > max) throw new StatelensError('INVALID_INPUT', `Usage: ${source.synopsis}`);
      if (args.values.watch === true && source.watch) return source.watch(inputs, args, io, importOrg(args));
      const plan = await source.plan(inputs, args, importOrg(args));
      const path = dbName(args);
      const bar = progressBar(io, 'import');
      try {
        const summary = await withDatabase(args, (store) => applyForeignPlan(store, plan, { onProgress: (done, total) => bar.update(done, total) }));
        bar.end();
        report(io, summary, path, args.values.json === true);
        return EXIT.ok;
      } finally {
        bar.end();
      }
    },
  };
}

function report(io: CliIO, s: ForeignImportSummary, path: string, json: boolean): void {
  if (json) {
    io.out(JSON.stringify(s));
    return;
  }
  io.out(
    `Imported ${s.system} memory from ${s.sourceName} into ${path}: ${s.facts} facts (${s.supersessions} superseding an earlier version), ` +
      `${s.dependencyEdges} dependencies, ${s.deletions} deletions recorded, ${s.turns} conversation turns, ${s.duplicates} duplicates; ` +
      `${s.skipped.length} records left out, in ${s.partitions.map((p) => p.partition).join(', ')}`,
  );
  for (const r of s.skipped.slice(0, LISTED)) io.err(`left out: ${r.where}: ${r.reason}`);
  if (s.skipped.length > LISTED) io.err(`left out: … and ${s.skipped.length - LISTED} more (--json lists all)`);
  for (const r of s.notes.slice(0, LISTED)) io.err(`note: ${r.where}: ${r.reason}`);
  if (s.notes.length > LISTED) io.err(`note: … and ${s.notes.length - LISTED} more (--json lists all)`);
}
