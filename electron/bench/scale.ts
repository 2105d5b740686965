// Benchmark sections for behaviour under load: scale (a 1M-fact demo database; quick
// 100k), the live writer (60 s of an agent writing while the inspector works; quick 10 s) and
// kill -9 crash trials (100 per operation; quick 15). Print figures, assert nothing.
// Run alone: statelens bench --only scale,load,crash [--quick]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { generateDemo } from '../engine/demo';
import { Store } from '../engine/store';
import { packageRoot } from '../cli/package-root';
import { prepareDelete, prepareExport, prepareImport, prepareIngest, type PreparedOp } from './crash/ops';
import { formatCrashReport, runCrashTrials } from './crash/trials';
import { busyErrors, formatLoadReport, percentile, runConcurrentLoad } from './load/harness';
import { measureScale } from './scale-measure';
import { envInt, round, sizeLabel, type BenchOptions, type BenchRow, type BenchSection } from './section';

function scratch(opts: BenchOptions, name: string): string {
  return fs.mkdtempSync(path.join(opts.dir ?? os.tmpdir(), `statelens-bench-${name}-`));
}

/** Scale: generate the demo database, then open, page, search, assemble, read as of a time,
 * export and delete 10,000 facts on it. */
export async function runScaleBench(opts: BenchOptions = {}): Promise<BenchRow[]> {
  const log = opts.log ?? (() => undefined);
  const facts = envInt('STATELENS_SCALE_FACTS', opts.quick ? 100_000 : 1_000_000);
  const dir = scratch(opts, 'scale');
  const db = path.join(dir, 'scale.db');
  try {
    log(`scale: generating a ${sizeLabel(facts)}-fact demo database`);
    const store = Store.open(db);
    let stats;
    try {
      let next = 0;
      stats = generateDemo(store, {
        facts,
        seed: 'scale-bench',
        onProgress: (done, total) => {
          if (done >= next) {
            log(`  generated ${done.toLocaleString('en-US')} / ${total.toLocaleString('en-US')}`);
            next = done + Math.max(100_000, total / 5);
          }
        },
      });
    } finally {
      store.close();
    }
    const rows: BenchRow[] = [
      {
        metric: `demo database generated @${sizeLabel(facts)}`,
        value: round(stats.seconds),
        unit: 's',
        baseline: `${Math.round(stats.facts / stats.seconds).toLocaleString('en-US')} facts/s; ${stats.partitions} partitions, ${(fs.statSync(db).size / 1e6).toFixed(0)} MB`,
      },
    ];
    log(`scale: measuring on ${sizeLabel(facts)} facts`);
    rows.push(...(await measureScale({ db, workDir: dir, facts, deleteCount: 10_000, log })));
    return rows;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Load: an agent process writes at ~1,200 facts/s while this process pages, searches,
 * assembles, exports and deletes; nothing may fail or be lost. */
export async function runLoadBench(opts: BenchOptions = {}): Promise<BenchRow[]> {
  const log = opts.log ?? (() => undefined);
  const seconds = envInt('STATELENS_LOAD_SECONDS', opts.quick ? 10 : 60);
  const dir = scratch(opts, 'load');
  try {
    log(`load: ${seconds} s of a live writer`);
    const r = await runConcurrentLoad({ dir, seconds });
    for (const line of formatLoadReport(r).split('\n')) log(`  ${line}`);
    const lost = Object.values(r.rowsByPartition).reduce((n, p) => n + (p.written - p.deleted - p.stored), 0);
    const busy = busyErrors(r).length;
    const at = `@${seconds}s`;
    const rows: BenchRow[] = [
      {
        metric: `live writer rate ${at}`,
        value: round(r.writer.rate),
        unit: 'facts/s',
        target: '≥ 1,000 facts/s',
        baseline: `${r.writer.written.toLocaleString('en-US')} facts in ${r.writer.transactions.toLocaleString('en-US')} transactions`,
      },
      { metric: `writes lost ${at}`, value: lost, unit: 'facts', target: '0' },
      { metric: `errors reaching the inspector or the writer ${at}`, value: r.errors.length + r.writer.errorCount, unit: 'errors', target: '0' },
      { metric: `SQLITE_BUSY escaping ${at}`, value: busy, unit: 'errors', target: '0' },
      { metric: `slowest inspector call ${at} (${r.slowest.op})`, value: round(r.slowest.ms), unit: 'ms' },
      { metric: `slowest writer transaction ${at}`, value: round(r.writer.maxTxMs), unit: 'ms' },
    ];
    for (const [op, s] of Object.entries(r.ops)) {
      if (op === 'poll data_version' || op === 'list partitions' || op === 'current value') continue;
      rows.push({
        metric: `under load: ${op} ${at}`,
        value: round(percentile(s.samples, 50)),
        unit: 'ms median',
        baseline: `max ${round(s.maxMs)} ms over ${s.count} calls`,
      });
    }
    return rows;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Crash safety: kill -9 at random moments during import, ingest, bulk delete and exports. */
export async function runCrashBench(opts: BenchOptions = {}): Promise<BenchRow[]> {
  const log = opts.log ?? (() => undefined);
  const trials = envInt('STATELENS_CRASH_TRIALS', opts.quick ? 15 : 100);
  const dir = scratch(opts, 'crash');
  const split = path.resolve(packageRoot(), '..', 'shared', 'statebench', 'dev.jsonl');
  const haveSplit = fs.existsSync(split);
  const rows: BenchRow[] = [];
  try {
    const ops: Array<() => PreparedOp> = [
      ...(haveSplit ? [() => prepareImport(dir, split)] : []),
      () => prepareIngest(dir, 1500),
      () => prepareDelete(dir, 2500),
      () => prepareExport(dir, 'ndjson', haveSplit ? split : undefined, 1500),
      () => prepareExport(dir, 'sqlite', haveSplit ? split : undefined, 1500),
    ];
    if (!haveSplit) log(`crash: ${split} is absent, so the StateBench import trials are skipped (the large ingest covers import-like writes)`);
    for (const prepare of ops) {
      const { op, base } = prepare();
      log(`crash: ${op.name}, ${trials} trials`);
      const r = await runCrashTrials(op, base, dir, trials);
      log(`  ${formatCrashReport(r)}`);
      for (const f of r.failures.slice(0, 5)) log(`  FAILURE ${f}`);
      rows.push({
        metric: `kill -9 during ${op.name}: trials failing integrity/verify/all-or-nothing`,
        value: r.failures.length,
        unit: `of ${r.trials}`,
        target: '0',
        baseline: `${r.killedMidway} killed mid-operation, ${r.finishedBeforeKill} finished first; states ${JSON.stringify(r.states)}; op ~${Math.round(r.calibrationMs)} ms`,
      });
    }
    return rows;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export const scaleSection: BenchSection = { name: 'scale', run: runScaleBench };
export const loadSection: BenchSection = { name: 'load', run: runLoadBench };
export const crashSection: BenchSection = { name: 'crash', run: runCrashBench };
