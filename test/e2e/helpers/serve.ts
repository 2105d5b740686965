// `statelens serve` as a child process: the real CLI, the real HTTP server and engine worker,
// on a prepared database, serving a renderer built for the test run.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { cliEntry, repoRoot } from '../../helpers/paths';
import { servedStoreOf, type ServedStore } from './store';

export const E2E_RENDERER_DIR = path.join(repoRoot, 'out', 'e2e-renderer');

let built: Promise<void> | undefined;
const PRODUCTION_STAMP = '.production-build';

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestMtime(p));
    else newest = Math.max(newest, fs.statSync(p).mtimeMs);
  }
  return newest;
}

/** True when the built renderer is older than a source file it is built from. */
function rendererStale(): boolean {
  const index = path.join(E2E_RENDERER_DIR, 'index.html');
  if (!fs.existsSync(index) || !fs.existsSync(path.join(E2E_RENDERER_DIR, PRODUCTION_STAMP))) return true;
  const builtAt = fs.statSync(index).mtimeMs;
  return newestMtime(path.join(repoRoot, 'renderer')) > builtAt || newestMtime(path.join(repoRoot, 'shared')) > builtAt;
}

/** Builds the renderer with Vite (the same settings electron-vite uses for it) when a source
 * changed since the last build. */
export function buildRenderer(): Promise<void> {
  built ??= (async () => {
    if (!rendererStale()) return;
    const { build } = await import('vite');
    const react = (await import('@vitejs/plugin-react')).default;
    // Vitest runs with NODE_ENV=test, which would give React's development build (slow and
    // not what ships): build for production explicitly.
    const previous = process.env.NODE_ENV;
    process.env.NODE_ENV = 'production';
    try {
      await build({
        mode: 'production',
        configFile: false,
        logLevel: 'warn',
        root: path.join(repoRoot, 'renderer'),
        base: './',
        plugins: [react()],
        build: { outDir: E2E_RENDERER_DIR, emptyOutDir: true, reportCompressedSize: false, chunkSizeWarningLimit: 4000 },
      });
    } finally {
      if (previous === undefined) delete process.env.NODE_ENV;
      else process.env.NODE_ENV = previous;
    }
    if (!fs.existsSync(path.join(E2E_RENDERER_DIR, 'index.html'))) throw new Error('the renderer build produced no index.html');
    fs.writeFileSync(path.join(E2E_RENDERER_DIR, PRODUCTION_STAMP), 'production build\n');
  })();
  return built;
}

export interface Served {
  /** The store serve has open: the prepared file, or its copy on the server (see ./store). */
  readonly store: ServedStore;
  readonly url: string;
  readonly origin: string;
  readonly token: string;
  readonly proc: ChildProcess;
  log(): string;
  /** Stops serve, then drops the server copy of the store if there is one. */
  stop(): Promise<void>;
}

/** Serves the prepared database `db` (a file, or a URL), as this run's store kind; `env` is added
 * to the child's environment (e.g. TMPDIR: where serve keeps exports until downloaded). */
export async function startServe(db: string, extra: readonly string[] = [], env: Readonly<Record<string, string>> = {}): Promise<Served> {
  const store = servedStoreOf(db);
  try {
    return await serveStore(store, extra, env);
  } catch (e) {
    store.drop();
    throw e;
  }
}

async function serveStore(store: ServedStore, extra: readonly string[], env: Readonly<Record<string, string>>): Promise<Served> {
  const proc = spawn(process.execPath, [cliEntry, 'serve', '--db', store.db, '--port', '0', '--renderer', E2E_RENDERER_DIR, ...extra], {
    cwd: repoRoot,
    env: { ...process.env, ...env, NODE_ENV: 'test' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  proc.stdout?.setEncoding('utf8');
  proc.stderr?.setEncoding('utf8');
  proc.stderr?.on('data', (d: string) => (out += d));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`statelens serve did not print its URL within 60 s:\n${out}`)), 60_000);
    proc.stdout?.on('data', (d: string) => {
      out += d;
      const m = /Open (http:\/\/127\.0\.0\.1:\d+\/\S*)/.exec(out);
      if (m?.[1]) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
    proc.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`statelens serve exited with ${code}:\n${out}`));
    });
  });
  const parsed = new URL(url);
  const exited = new Promise<void>((resolve) => {
    if (proc.exitCode !== null || proc.signalCode !== null) resolve();
    else proc.once('exit', () => resolve());
  });
  return {
    store,
    url,
    origin: parsed.origin,
    token: parsed.searchParams.get('token') ?? '',
    proc,
    log: () => out,
    async stop() {
      if (proc.exitCode === null && proc.signalCode === null) {
        const timer = setTimeout(() => proc.kill('SIGKILL'), 10_000);
        proc.kill('SIGTERM');
        await exited;
        clearTimeout(timer);
      }
      store.drop();
    },
  };
}
