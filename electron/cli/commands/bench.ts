// `statelens bench`: measures the CLI's own start-up, runs the benchmark sections of
// electron/bench/ and prints one Markdown report (every figure beside its target and the
// baselines measured in the same run, plus the machine).
// Figures only; nothing is asserted. `--quick` is the short run CI uses; `--json` prints the rows
// as one JSON array instead. `--db DIR` (alias `--dir`) is where the scratch databases are built.
import fs from 'node:fs';
import path from 'node:path';
import { StatelensError } from '../../../shared/errors';
import { coldStartSection } from '../../bench/cold-start';
import { machineInfo, type BenchRow } from '../../bench/section';
import { parsePgTarget } from '../../engine/db/pg/target';
import { EXIT, stringOpt, type CliCommand } from '../command';
import { databaseUrl } from '../db-url';
import { packageRoot } from '../package-root';

function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

/** A non-finite value is a figure that could not be measured (its row says why). */
function formatValue(v: number): string {
  return Number.isFinite(v) ? v.toLocaleString('en-US', { maximumFractionDigits: 2 }) : '—';
}

/** One figure in the --json output; a non-finite value (a measurement that could not be made) is null. */
interface JsonRow {
  readonly section: string;
  readonly metric: string;
  readonly value: number | null;
  readonly unit: string;
  readonly target: string | null;
  readonly baseline: string | null;
}

/** --db (or its older name --dir): a folder for the scratch databases, created if missing. */
function scratchDir(db: string | undefined, dir: string | undefined): string | undefined {
  if (db !== undefined && dir !== undefined && path.resolve(db) !== path.resolve(dir))
    throw new StatelensError('INVALID_INPUT', '--db and --dir are two names for one folder; give one of them');
  const chosen = db ?? dir;
  if (chosen === undefined) return undefined;
  if (chosen === '') throw new StatelensError('INVALID_INPUT', '--db needs a folder');
  if (!fs.existsSync(chosen)) fs.mkdirSync(chosen, { recursive: true });
  // Each section builds fresh databases; an existing database file would never be measured.
  else if (!fs.statSync(chosen).isDirectory())
    throw new StatelensError('INVALID_INPUT', `--db ${chosen} is a file; bench builds its own databases, so give a folder to build them in`);
  return chosen;
}

export const benchCommand: CliCommand = {
  name: 'bench',
  summary: 'Run the benchmarks and print a Markdown report (figures only)',
  usage: `statelens bench [--quick] [--only NAME,...] [--out FILE] [--db DIR] [--json]

Sections: cli (the CLI's cold start beside a bare \`node -e ''\`), then ingest, assembly, scale,
load, postgres, crash, statebench and runners.
--quick runs small sizes only (the CI run, well under 15 minutes); the full run includes the
1M-fact sizes. --only runs the named sections. The report (Markdown) goes to standard output and,
with --out, to FILE; progress goes to standard error.
--db DIR    the folder the benchmark builds its databases in (created if missing; default: the
            system temp folder). The benchmark measures databases it builds itself, so DIR is a
            folder, not a database: each section makes its own subfolder there and removes it
            when done, and an existing file is refused. --dir DIR is the older name for it.
--db URL    a PostgreSQL server URL (or $STATELENS_DB_URL): the postgres section measures on that
            server, in a scratch database it creates and drops (the role needs CREATEDB); the
            SQLite sections still build their files in the temp folder (or --dir).
--json      print the figures as one JSON array of rows, {section, metric, value, unit, target,
            baseline}, instead of the Markdown report (also what --out writes).
Exit codes: 0 report complete, 1 a section failed (its error is in the report, or on standard
error with --json), 2 usage error.`,
  options: {
    quick: { type: 'boolean' },
    only: { type: 'string' },
    out: { type: 'string' },
    db: { type: 'string' },
    dir: { type: 'string' },
    json: { type: 'boolean' },
  },
  async run(args, io) {
    // Loaded here, not at CLI start: the sections pull in every engine area (the bundle keeps
    // them in a chunk of their own).
    const { BENCH_SECTIONS: suite } = await import('../../bench/sections');
    const BENCH_SECTIONS = [coldStartSection(packageRoot()), ...suite];
    const only = stringOpt(args, 'only')
      ?.split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    const unknown = only?.filter((n) => !BENCH_SECTIONS.some((s) => s.name === n)) ?? [];
    if (unknown.length > 0)
      throw new StatelensError('INVALID_INPUT', `Unknown bench section ${unknown.join(', ')}; sections: ${BENCH_SECTIONS.map((s) => s.name).join(', ')}`);
    const url = databaseUrl(args);
    const dir = scratchDir(url === undefined ? stringOpt(args, 'db') : undefined, stringOpt(args, 'dir'));
    // pglite:DIR names no server: the postgres section then measures PGlite in process, as without one.
    const pgUrl = url !== undefined && parsePgTarget(url).kind === 'server' ? url : undefined;
    const quick = args.values.quick === true;
    const sections = BENCH_SECTIONS.filter((s) => !only || only.includes(s.name));
    const machine = machineInfo();
    const started = new Date();
    const lines: string[] = [
      '# Statelens benchmark report',
      '',
      `${quick ? 'Quick run (small sizes)' : 'Full run'}, started ${started.toISOString()}.`,
      '',
      `Machine: ${machine.cpu}, ${machine.cores} cores, ${machine.memoryGiB} GiB memory; Node ${machine.node}, SQLite ${machine.sqlite}, ${machine.platform}; load average at start ${machine.loadAverage.join(' / ')}.`,
    ];
    let failed = 0;
    const all: JsonRow[] = [];
    for (const section of sections) {
      io.err(`bench: ${section.name}${quick ? ' (quick)' : ''}`);
      const t0 = performance.now();
      let rows: BenchRow[] = [];
      let error: string | null = null;
      try {
        rows = await section.run({ quick, ...(dir ? { dir } : {}), ...(pgUrl ? { pgUrl } : {}), log: (line) => io.err(`  ${line}`) });
      } catch (e) {
        failed++;
        error = e instanceof Error ? e.message : String(e);
        io.err(`bench: section ${section.name} failed: ${error}`);
      }
      for (const r of rows)
        all.push({
          section: section.name,
          metric: r.metric,
          value: Number.isFinite(r.value) ? r.value : null,
          unit: r.unit,
          target: r.target ?? null,
          baseline: r.baseline ?? null,
        });
      const seconds = (performance.now() - t0) / 1000;
      lines.push('', `## ${section.name}`, '', `(${seconds.toFixed(1)} s)`, '');
      if (rows.length > 0) {
        lines.push('| metric | value | unit | target | baseline / detail |', '|---|---:|---|---|---|');
        for (const r of rows)
          lines.push(`| ${cell(r.metric)} | ${formatValue(r.value)} | ${cell(r.unit)} | ${cell(r.target ?? '')} | ${cell(r.baseline ?? '')} |`);
      }
      if (error) lines.push('', `**Section failed:** ${cell(error)}`);
    }
    const total = (Date.now() - started.getTime()) / 1000;
    lines.push(
      '',
      `Total ${total.toFixed(1)} s. Benchmarks print figures and assert nothing; wall-clock rates depend on the machine's other load (see the load average above).`,
    );
    const report = args.values.json ? JSON.stringify(all) : lines.join('\n');
    io.out(report);
    const out = stringOpt(args, 'out');
    if (out) fs.writeFileSync(out, `${report}\n`);
    return failed === 0 ? EXIT.ok : EXIT.failed;
  },
};
