// Real child processes for tests: TypeScript fixtures under tsx (through the benchmarks'
// child-process helper) and the real `statelens` command.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
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

/** Why a child dropped to another user (root only) cannot load the project's code, if it
 * cannot: a folder from the project up to the root that other users may not enter. */
export function unprivilegedCannotRun(): string | undefined {
  if (process.getuid?.() !== 0) return undefined;
  for (let d = repoRoot; ; d = path.dirname(d)) {
    const mode = fs.statSync(d).mode;
    if ((mode & 0o001) === 0)
      return `${d} is closed to other users (mode ${(mode & 0o777).toString(8)}), so an unprivileged child cannot load the project from ${repoRoot}`;
    if (path.dirname(d) === d) return undefined;
  }
}

export interface CliResult {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

export interface CliOptions {
  /** Where the command runs (default: the repository root). */
  readonly cwd?: string;
  /** Variables added to this process's environment. */
  readonly env?: Readonly<Record<string, string>>;
  /** Killed, and the run rejected, after this long (default two minutes). */
  readonly timeoutMs?: number;
  /** Written to the command's stdin, which is then closed (default: no stdin at all). */
  readonly input?: string;
  /** Run as another user (root only: lets a test drop privileges so that file modes apply). */
  readonly as?: { readonly uid: number; readonly gid: number };
}

/** Runs the real `statelens` command (the launcher a user runs) in a child process, without
 * colours, and collects its exit code and output. */
export function statelens(args: readonly string[], options: CliOptions = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, [cliEntry, ...args], {
      cwd: options.cwd ?? repoRoot,
      env: { ...process.env, NO_COLOR: '1', ...options.env },
      stdio: [options.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
      ...options.as,
    });
    let stdout = '';
    let stderr = '';
    proc.stdout?.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    proc.stderr?.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    const timer = setTimeout(() => {
      proc.kill('SIGKILL');
      reject(new Error(`statelens ${args.join(' ')} timed out\n${stderr}`));
    }, options.timeoutMs ?? 120_000);
    proc.on('error', reject);
    // 'close', not 'exit': the output is read to its end only by then.
    proc.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
    if (options.input !== undefined) {
      // A command that exits without reading its input must not fail the run with EPIPE.
      proc.stdin?.on('error', () => undefined);
      proc.stdin?.end(options.input);
    }
  });
}
