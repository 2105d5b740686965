// kill -9 during a bulk deletion (the transaction, then the scrub: checkpoint, free-space scan,
// VACUUM): the database is intact and the deletion is wholly applied or wholly absent.
import { describe, expect, it } from 'vitest';
import { envInt } from '../helpers/child';
import { tmpDir } from '../helpers/tmp';
import { formatCrashReport, runCrashTrials } from '../../electron/bench/crash/trials';
import { prepareDelete } from '../../electron/bench/crash/ops';

const trials = envInt('STATELENS_CRASH_TRIALS', 10);
const seed = envInt('STATELENS_CRASH_SEED', Date.now() % 1_000_000);

describe('crash safety: bulk delete', { timeout: 900_000 }, () => {
  it(`a bulk delete killed at random points (${trials} trials)`, async () => {
    const dir = tmpDir('statelens-crash-delete-');
    const { op, base } = prepareDelete(dir, 2500);
    const report = await runCrashTrials(op, base, dir, trials, seed);
    console.log(`[crash] ${formatCrashReport(report)}`);
    expect(report.failures).toEqual([]);
    expect(report.killedMidway).toBeGreaterThan(0);
  });
});
