// kill -9 during a StateBench import, a snapshot import and a large ingest: afterwards the database passes
// integrity_check and every operation is wholly applied or wholly absent. CI runs
// STATELENS_CRASH_TRIALS (default 10) trials per operation; the benchmark runs 100.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { envInt } from '../helpers/child';
import { repoRoot } from '../helpers/paths';
import { tmpDir } from '../helpers/tmp';
import { formatCrashReport, runCrashTrials } from '../../electron/bench/crash/trials';
import { prepareImport, prepareIngest, prepareSnapshotImport } from '../../electron/bench/crash/ops';

const trials = envInt('STATELENS_CRASH_TRIALS', 10);
const seed = envInt('STATELENS_CRASH_SEED', Date.now() % 1_000_000);
const split = path.resolve(repoRoot, '..', 'shared', 'statebench', 'dev.jsonl');

describe('crash safety: import and ingest', { timeout: 900_000 }, () => {
  it(`StateBench import killed at random points (${trials} trials)`, async (ctx) => {
    if (!fs.existsSync(split)) {
      console.log(`[crash import] SKIPPED: ${split} is absent (the StateBench data lives in ../shared/statebench)`);
      return ctx.skip();
    }
    const dir = tmpDir('statelens-crash-import-');
    const { op, base } = prepareImport(dir, split);
    const report = await runCrashTrials(op, base, dir, trials, seed);
    console.log(`[crash] ${formatCrashReport(report)}`);
    expect(report.failures).toEqual([]);
    expect(report.killedMidway).toBeGreaterThan(0);
  });

  it(`an NDJSON snapshot import killed at random points (${trials} trials)`, async () => {
    const dir = tmpDir('statelens-crash-snapshot-');
    const haveSplit = fs.existsSync(split);
    if (!haveSplit) console.log(`[crash snapshot import] ${split} is absent: snapshot of generated facts only`);
    const { op, base } = await prepareSnapshotImport(dir, haveSplit ? split : undefined, 1500);
    const report = await runCrashTrials(op, base, dir, trials, seed);
    console.log(`[crash] ${formatCrashReport(report)}`);
    expect(report.failures).toEqual([]);
    expect(report.killedMidway).toBeGreaterThan(0);
  });

  it(`a large ingest killed at random points (${trials} trials)`, async () => {
    const dir = tmpDir('statelens-crash-ingest-');
    const { op, base } = prepareIngest(dir, 1500);
    const report = await runCrashTrials(op, base, dir, trials, seed);
    console.log(`[crash] ${formatCrashReport(report)}`);
    expect(report.failures).toEqual([]);
    expect(report.killedMidway).toBeGreaterThan(0);
  });
});
