// Child processes for the load and crash benchmarks (and the tests that reuse them): runs a
// TypeScript script under tsx, reads the JSON lines it prints, waits for a given message and can
// kill it with SIGKILL mid-operation.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { packageRoot } from '../cli/package-root';

/** One JSON object per stdout line; `type` says what it is (ready, progress, done, error). */
export interface ChildMessage {
  readonly type: string;
  readonly [field: string]: unknown;
}

export interface ChildExit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

export interface ScriptChild {
  readonly proc: ChildProcess;
  readonly messages: ChildMessage[];
  /** Everything written to stderr (for failure messages). */
  stderr(): string;
  /** Resolves with the first message (already seen or future) matching `pred`. */
  waitFor(pred: (m: ChildMessage) => boolean, timeoutMs?: number): Promise<ChildMessage>;
  readonly exited: Promise<ChildExit>;
  /** kill -9: the process gets no chance to clean up, as in a power cut or a crash. */
  killHard(): void;
}

function attach(proc: ChildProcess, label: string): ScriptChild {
  const messages: ChildMessage[] = [];
  const waiters: Array<{ pred: (m: ChildMessage) => boolean; resolve: (m: ChildMessage) => void }> = [];
  let err = '';
  let buf = '';
  let done: ChildExit | undefined;
  const failWaiters: Array<(e: Error) => void> = [];

  proc.stdout?.setEncoding('utf8');
  proc.stdout?.on('data', (chunk: string) => {
    buf += chunk;
    let nl: number;
    while ((nl = buf.indexOf('\n')) >= 0) {
      const line = buf.slice(0, nl).trim();
      buf = buf.slice(nl + 1);
      if (!line.startsWith('{')) continue;
      let msg: ChildMessage;
      try {
        msg = JSON.parse(line) as ChildMessage;
      } catch {
        continue;
      }
      messages.push(msg);
      for (let i = waiters.length - 1; i >= 0; i--) {
        const w = waiters[i];
        if (w && w.pred(msg)) {
          waiters.splice(i, 1);
          w.resolve(msg);
        }
      }
    }
  });
  proc.stderr?.setEncoding('utf8');
  proc.stderr?.on('data', (chunk: string) => {
    err += chunk;
    if (err.length > 200_000) err = err.slice(-100_000);
  });

  const exited = new Promise<ChildExit>((resolve) => {
    proc.on('exit', (code, signal) => {
      done = { code, signal };
      for (const f of failWaiters.splice(0)) f(new Error(`${label} exited (code ${code}, signal ${signal}) before the awaited message.\n${err.slice(-4000)}`));
      resolve(done);
    });
  });

  return {
    proc,
    messages,
    stderr: () => err,
    exited,
    waitFor(pred, timeoutMs = 60_000) {
      const seen = messages.find(pred);
      if (seen) return Promise.resolve(seen);
      if (done) return Promise.reject(new Error(`${label} already exited (code ${done.code}, signal ${done.signal}).\n${err.slice(-4000)}`));
      return new Promise<ChildMessage>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`${label}: timed out after ${timeoutMs} ms waiting for a message.\n${err.slice(-4000)}`)), timeoutMs);
        waiters.push({
          pred,
          resolve: (m) => {
            clearTimeout(timer);
            resolve(m);
          },
        });
        failWaiters.push((e) => {
          clearTimeout(timer);
          reject(e);
        });
      });
    },
    killHard() {
      if (!done && proc.pid !== undefined) proc.kill('SIGKILL');
    },
  };
}

/** Starts a TypeScript script under tsx with the given arguments, optionally as another user
 * (root only: lets a test drop privileges so that file modes apply). */
export function spawnScript(file: string, args: readonly string[], env: Record<string, string> = {}, as?: { uid: number; gid: number }): ScriptChild {
  const proc = spawn(process.execPath, ['--import', 'tsx', file, ...args], {
    // tsx resolves from the package's own node_modules.
    cwd: packageRoot(),
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    ...(as ?? {}),
  });
  return attach(proc, path.basename(file));
}

/** A script of electron/bench/ (a child process the benchmarks start), found from the package
 * root: the same path from the TypeScript sources and from the compiled CLI bundle. */
export function benchScript(relative: string): string {
  return path.join(packageRoot(), 'electron', 'bench', relative);
}

export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
