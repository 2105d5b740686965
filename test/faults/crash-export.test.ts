// kill -9 during exports: the database is untouched and the export file is either complete and
// valid or absent (a `.partial` temporary may remain; it is never under the chosen name).
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { envInt } from '../helpers/child';
import { repoRoot } from '../helpers/paths';
import { tmpDir } from '../helpers/tmp';
import { formatCrashReport, runCrashTrials } from '../../electron/bench/crash/trials';
import { prepareExport } from '../../electron/bench/crash/ops';

const trials = envInt('STATELENS_CRASH_TRIALS', 10);
const seed = envInt('STATELENS_CRASH_SEED', Date.now() % 1_000_000);
const split = path.resolve(repoRoot, '..', 'shared', 'statebench', 'dev.jsonl');

describe('crash safety: export', { timeout: 900_000 }, () => {
  for (const format of ['ndjson', 'json', 'sqlite'] as const) {
    it(`${format} export killed at random points (${trials} trials)`, async () => {
      const dir = tmpDir(`statelens-crash-export-${format}-`);
      const haveSplit = fs.existsSync(split);
      if (!haveSplit) console.log(`[crash export] ${split} is absent: exporting generated facts only`);
      const { op, base } = prepareExport(dir, format, haveSplit ? split : undefined, 1500);
      const report = await runCrashTrials(op, base, dir, trials, seed);
      console.log(`[crash] ${formatCrashReport(report)}`);
      expect(report.failures).toEqual([]);
    });
  }
});
