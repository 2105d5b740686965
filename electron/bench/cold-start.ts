// How long `statelens` takes to start, measured as an agent launching `statelens mcp` pays it:
// a fresh Node process running `statelens --version`, from the compiled bundle and from the
// TypeScript sources (tsx), beside a bare `node -e ''` on the same machine.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { median, round, type BenchSection } from './section';

function startMs(args: readonly string[], env: NodeJS.ProcessEnv): number {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const ms = performance.now() - t0;
  if (r.status !== 0) throw new Error(`${args.join(' ')} exited ${r.status}: ${r.stderr.toString().slice(0, 300)}`);
  return ms;
}

/** Whether the launcher would run the compiled bundle now (it says so when traced). */
function bundleInUse(launcher: string, env: NodeJS.ProcessEnv): boolean {
  const r = spawnSync(process.execPath, [launcher, '--version'], { env: { ...env, STATELENS_CLI_TRACE: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
  return r.stderr.toString().includes('running out/cli/');
}

/** Median start-up of each way to run the CLI; `runs` per way, after one warm-up of the disk
 * cache. `bundle` is NaN when the bundle is missing or older than its sources (not in use). */
export function measureColdStart(launcher: string, runs: number): { bare: number; bundle: number; source: number } {
  const env = { ...process.env };
  delete env.STATELENS_CLI_SOURCE;
  delete env.STATELENS_CLI_TRACE;
  const ways = {
    bare: [['-e', ''], env],
    bundle: [[launcher, '--version'], env],
    source: [[launcher, '--version'], { ...env, STATELENS_CLI_SOURCE: '1' }],
  } as const;
  const out = { bare: NaN, bundle: NaN, source: NaN };
  const withBundle = bundleInUse(launcher, env);
  for (const [name, [args, e]] of Object.entries(ways) as Array<[keyof typeof out, readonly [readonly string[], NodeJS.ProcessEnv]]>) {
    if (name === 'bundle' && !withBundle) continue;
    startMs(args, e);
    out[name] = median(Array.from({ length: runs }, () => startMs(args, e)));
  }
  return out;
}

export function coldStartSection(root: string): BenchSection {
  return {
    name: 'cli',
    run({ quick, log }) {
      const launcher = path.join(root, 'electron', 'cli', 'statelens.mjs');
      const runs = quick ? 5 : 15;
      log?.(`cold start: ${runs} runs each of node -e '', statelens --version (bundle) and (sources)`);
      const m = measureColdStart(launcher, runs);
      return [
        { metric: "node -e '' (bare Node start)", value: round(m.bare), unit: 'ms', baseline: `median of ${runs}` },
        {
          metric: 'statelens --version, compiled bundle',
          value: round(m.bundle),
          unit: 'ms',
          target: 'close to bare Node',
          baseline: Number.isNaN(m.bundle)
            ? 'not measured: out/cli is missing or older than its sources (npm run build, or node electron/build/build-cli.mjs, rebuilds it)'
            : `${round(m.bundle - m.bare)} ms over bare Node`,
        },
        {
          metric: 'statelens --version, TypeScript sources via tsx',
          value: round(m.source),
          unit: 'ms',
          baseline: `${round(m.source - m.bare)} ms over bare Node (what a stale or missing bundle costs)`,
        },
      ];
    },
  };
}
