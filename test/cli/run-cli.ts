// Runs the real `statelens` command in a child process (the launcher a user runs) and collects
// its exit code and output.
import { execFile } from 'node:child_process';
import { cliEntry, repoRoot } from '../helpers/paths';

export interface CliRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

export function statelens(args: readonly string[], options: { cwd?: string } = {}): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [cliEntry, ...args],
      { cwd: options.cwd ?? repoRoot, maxBuffer: 64 * 1024 * 1024, env: { ...process.env, NO_COLOR: '1' } },
      (error, stdout, stderr) => {
        if (error && typeof error.code !== 'number') return reject(error);
        resolve({ code: error ? (error.code as number) : 0, stdout, stderr });
      },
    );
  });
}
