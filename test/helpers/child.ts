// Real child processes for fault and load tests: TypeScript fixtures under tsx (through the
// benchmarks' child-process helper) and the real `statelens` command.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { spawnScript, type ScriptChild } from '../../electron/bench/child-process';
import { cliEntry, repoRoot } from './paths';

// Bounded CI runs vs the full runs read their sizes the way the benchmarks do.
export { envInt } from '../../electron/bench/section';

export const fixturesDir = path.join(repoRoot, 'test', 'fixtures');

/** Starts `test/fixtures/<name>` under tsx with the given arguments, optionally as another
 * user (root only: lets a test drop privileges so that file modes apply). */
export function spawnFixture(name: string, args: readonly string[], env: Record<string, string> = {}, as?: { uid: number; gid: number }): ScriptChild {
  return spawnScript(path.join(fixturesDir, name), args, env, as);
}

export interface CliResult {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs the real `statelens` command in a child process and collects its output. */
export function runCli(args: readonly string[], options: { timeoutMs?: number; env?: Record<string, string> } = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, [cliEntry, ...args], {
      cwd: repoRoot,
      env: { ...process.env, ...(options.env ?? {}) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    proc.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    proc.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    const timer = setTimeout(() => {
      proc.kill('SIGKILL');
      reject(new Error(`statelens ${args.join(' ')} timed out\n${stderr}`));
    }, options.timeoutMs ?? 120_000);
    proc.on('error', reject);
    proc.on('exit', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}
