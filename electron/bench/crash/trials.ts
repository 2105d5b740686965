// Crash trials: run an operation in a child process, kill -9 it at a random moment, then check
// the database is intact and the operation was applied fully or not at all. Shared by the
// benchmark (100 trials per operation) and the fault tests (short).
import fs from 'node:fs';
import path from 'node:path';
import { isStatelensError } from '../../../shared/errors';
import { mulberry32 } from '../../engine/demo/prng';
import { Store } from '../../engine/store';
import { verifyDatabase } from '../../engine/verify/verify';
import { benchScript, sleep, spawnScript } from '../child-process';
import { sqliteChecks } from '../databases';

/** What one trial observed after the crash; `state` names which side of the operation it is on. */
export interface TrialCheck {
  readonly state: 'before' | 'after';
  readonly problems: string[];
}

export interface CrashOp {
  readonly name: string;
  /** op-process.ts arguments for a trial on `db` (outputs go into `dir`). */
  args(db: string, dir: string): string[];
  /** Inspects a database (and `dir`) after a trial and says whether it is wholly before or after. */
  check(db: string, dir: string): TrialCheck;
}

export interface CrashReport {
  readonly op: string;
  readonly trials: number;
  readonly seed: number;
  /** Trials killed while the operation was still running (neither done nor before start). */
  readonly killedMidway: number;
  readonly finishedBeforeKill: number;
  readonly states: Record<string, number>;
  readonly calibrationMs: number;
  readonly failures: string[];
}

/** The child process that runs one operation until it is killed. */
const OP_PROCESS = benchScript('crash/op-process.ts');

function copyDb(from: string, to: string): void {
  fs.copyFileSync(from, to);
  for (const s of ['-wal', '-shm']) if (fs.existsSync(from + s)) fs.copyFileSync(from + s, to + s);
}

/** Opens a crashed database as the app would (recovering its WAL) and runs SQLite's own checks
 * and `statelens verify` (verifyDatabase: integrity plus the model's invariants). */
export function openAndCheck(db: string, inspect: (store: Store) => string[]): string[] {
  let store: Store | undefined;
  try {
    store = Store.open(db);
    const report = verifyDatabase(store);
    const failed = report.checks.filter((c) => !c.ok).map((c) => `verify ${c.name}: ${c.detail}`);
    return [...sqliteChecks(store.db), ...failed, ...inspect(store)];
  } catch (e) {
    return [`open after crash: ${isStatelensError(e) ? `${e.code} ${e.message}` : String(e)}`];
  } finally {
    store?.close();
  }
}

export function factCount(store: Store): number {
  return store.db.prepare('SELECT count(*) FROM facts').pluck().get() as number;
}

export async function runCrashTrials(op: CrashOp, base: string, workDir: string, trials: number, seed = Date.now() % 1_000_000): Promise<CrashReport> {
  const random = mulberry32(seed);
  const failures: string[] = [];
  const states: Record<string, number> = {};
  let killedMidway = 0;
  let finishedBeforeKill = 0;

  // Calibration: one uncrashed run tells how long the operation takes from "ready" to "done".
  const calDir = fs.mkdtempSync(path.join(workDir, `${op.name}-cal-`));
  const calDb = path.join(calDir, 'trial.db');
  copyDb(base, calDb);
  const cal = spawnScript(OP_PROCESS, op.args(calDb, calDir));
  await cal.waitFor((m) => m.type === 'ready', 120_000);
  const calStart = performance.now();
  await cal.waitFor((m) => m.type === 'done', 600_000);
  const calibrationMs = performance.now() - calStart;
  const exit = await cal.exited;
  if (exit.code !== 0) failures.push(`calibration run exited ${exit.code}: ${cal.stderr().slice(-2000)}`);
  const calCheck = op.check(calDb, calDir);
  if (calCheck.state !== 'after' || calCheck.problems.length > 0) failures.push(`calibration run: ${calCheck.state} ${calCheck.problems.join('; ')}`);
  fs.rmSync(calDir, { recursive: true, force: true });

  for (let t = 0; t < trials; t++) {
    const dir = fs.mkdtempSync(path.join(workDir, `${op.name}-${t}-`));
    const db = path.join(dir, 'trial.db');
    copyDb(base, db);
    const child = spawnScript(OP_PROCESS, op.args(db, dir));
    try {
      await child.waitFor((m) => m.type === 'ready', 120_000);
    } catch (e) {
      failures.push(`trial ${t}: child never got ready: ${String(e)}`);
      child.killHard();
      continue;
    }
    // Uniform over the operation's span, plus a little past it so some trials finish first.
    const delay = random() * calibrationMs * 1.15;
    await sleep(delay);
    child.killHard();
    const ended = await child.exited;
    const done = child.messages.some((m) => m.type === 'done');
    if (done) finishedBeforeKill++;
    else if (ended.signal === 'SIGKILL') killedMidway++;
    else failures.push(`trial ${t}: child exited by itself (${ended.code}) without finishing: ${child.stderr().slice(-1500)}`);
    const result = op.check(db, dir);
    states[result.state] = (states[result.state] ?? 0) + 1;
    if (done && result.state !== 'after') result.problems.push('the operation reported done but the database shows it unapplied');
    if (result.problems.length > 0) failures.push(`trial ${t} (kill after ${delay.toFixed(0)} ms, seed ${seed}): ${result.problems.join('; ')}`);
    else fs.rmSync(dir, { recursive: true, force: true });
  }
  return { op: op.name, trials, seed, killedMidway, finishedBeforeKill, states, calibrationMs, failures };
}

export function formatCrashReport(r: CrashReport): string {
  return `${r.op}: ${r.trials} kill -9 trials (seed ${r.seed}), operation ~${r.calibrationMs.toFixed(0)} ms; killed mid-operation ${r.killedMidway}, finished first ${r.finishedBeforeKill}; outcome ${JSON.stringify(r.states)}; failures ${r.failures.length}`;
}
