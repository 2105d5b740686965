// Compiles the `statelens` CLI (electron/cli/main.ts and everything it imports) into ES modules,
// out/cli/statelens.mjs (plus chunks loaded on demand), so a start does not transpile TypeScript first. Runs on
// `npm install` (postinstall) and `npm run build`. Packages stay external (better-sqlite3 is
// native; the rest load from node_modules as before). Beside the bundle, inputs.json lists the
// source files it was built from: the launcher falls back to the sources when one is newer.
// Without esbuild (a devDependency), nothing is built and the launcher uses the sources (a
// development checkout) or says how to build.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const CLI_OUT_DIR = path.join(root, 'out', 'cli');

/** The esbuild options of the CLI bundle, written into `outdir`. */
export function cliBuildOptions(outdir) {
  return {
    entryPoints: { statelens: path.join(root, 'electron', 'cli', 'main.ts') },
    outdir,
    outExtension: { '.js': '.mjs' },
    chunkNames: 'chunks/[name]-[hash]',
    // Separate chunks for what a command imports on demand (the MCP SDK for `statelens mcp`),
    // so other starts do not load it.
    splitting: true,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    metafile: true,
    banner: { js: '// Built by electron/build/build-cli.mjs from electron/cli/main.ts: do not edit.' },
  };
}

export async function buildCli({ quiet = false } = {}) {
  let esbuild;
  try {
    esbuild = await import('esbuild');
  } catch (e) {
    if (!quiet) console.warn(`statelens: esbuild is not available (${e instanceof Error ? e.message : e}); the CLI will run from its TypeScript sources`);
    return false;
  }
  // Built into a fresh folder, then swapped in whole: a launcher never sees half a build.
  const staging = `${CLI_OUT_DIR}.${process.pid}.tmp`;
  fs.rmSync(staging, { recursive: true, force: true });
  const result = await esbuild.build({ ...cliBuildOptions(staging), logLevel: quiet ? 'silent' : 'warning' });
  const inputs = Object.keys(result.metafile.inputs).map((p) => path.relative(root, path.resolve(root, p)));
  fs.writeFileSync(path.join(staging, 'inputs.json'), `${JSON.stringify(inputs, null, 1)}\n`);
  const old = `${CLI_OUT_DIR}.${process.pid}.old`;
  if (fs.existsSync(CLI_OUT_DIR)) fs.renameSync(CLI_OUT_DIR, old);
  fs.renameSync(staging, CLI_OUT_DIR);
  fs.rmSync(old, { recursive: true, force: true });
  return true;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    if (await buildCli()) console.log(`statelens: compiled the CLI into ${path.relative(root, CLI_OUT_DIR)}/statelens.mjs`);
  } catch (e) {
    // A failed build must not fail `npm install`: the launcher runs the sources instead.
    console.warn(`statelens: could not compile the CLI (${e instanceof Error ? e.message : e}); it will run from its TypeScript sources`);
  }
}
