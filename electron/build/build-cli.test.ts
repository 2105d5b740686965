// The CLI bundle holds the benchmark suite: `statelens bench` imports its sections from
// electron/bench/, so esbuild compiles them in, and nothing in the bundle comes from test/.
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build, type BuildOptions } from 'esbuild';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

describe('the CLI bundle', () => {
  it('compiles in the benchmark sections and their harness, and no file of test/', async () => {
    // The build script is a plain ES module without type declarations.
    const { cliBuildOptions } = (await import(pathToFileURL(path.join(root, 'electron', 'build', 'build-cli.mjs')).href)) as {
      cliBuildOptions: (outdir: string) => BuildOptions;
    };
    const options = cliBuildOptions(path.join(os.tmpdir(), 'statelens-cli-bundle-check'));
    const result = await build({ ...options, write: false, logLevel: 'silent' });
    const inputs = Object.keys(result.metafile?.inputs ?? {}).map((p) => path.relative(root, path.resolve(root, p)).split(path.sep).join('/'));
    expect(inputs).toContain('electron/cli/commands/bench.ts');
    for (const file of ['electron/bench/sections.ts', 'electron/bench/scale.ts', 'electron/bench/load/harness.ts', 'electron/bench/crash/trials.ts'])
      expect(inputs).toContain(file);
    expect(inputs.filter((f) => f.startsWith('test/'))).toEqual([]);
  });
});
