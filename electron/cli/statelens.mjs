#!/usr/bin/env node
// The `statelens` command's launcher. Runs the compiled CLI (out/cli/statelens.mjs, built on
// `npm install` and `npm run build`) without looking at the sources: an installed copy's sources
// do not change. Only in a development checkout (a `.git` beside package.json), where sources are
// edited, does it compare the bundle with the sources it was built from (out/cli/inputs.json) and
// run the TypeScript sources through tsx (a devDependency) when one is newer, so nobody runs stale
// code there. STATELENS_CLI_SOURCE=1 forces the sources; STATELENS_CLI_TRACE=1 says which ran.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const bundle = path.join(root, 'out', 'cli', 'statelens.mjs');
const REBUILD = 'run `npm run build` (or `node electron/build/build-cli.mjs`) to compile it';

/** Whether the bundle is newer than every source it was built from (a development checkout only). */
function sourcesUnchanged() {
  let builtAt;
  let inputs;
  try {
    builtAt = fs.statSync(bundle).mtimeMs;
    inputs = JSON.parse(fs.readFileSync(path.join(root, 'out', 'cli', 'inputs.json'), 'utf8'));
  } catch {
    return false;
  }
  if (!Array.isArray(inputs) || inputs.length === 0) return false;
  for (const input of inputs) {
    try {
      if (fs.statSync(path.join(root, input)).mtimeMs > builtAt) return false;
    } catch {
      return false; // a source it was built from is gone: the sources have moved on
    }
  }
  return true;
}

function useBundle() {
  if (process.env.STATELENS_CLI_SOURCE === '1' || !fs.existsSync(bundle)) return false;
  return !fs.existsSync(path.join(root, '.git')) || sourcesUnchanged();
}

let runCli;
const fromBundle = useBundle();
if (process.env.STATELENS_CLI_TRACE === '1')
  process.stderr.write(`statelens: running ${fromBundle ? path.relative(root, bundle) : 'the TypeScript sources (tsx)'}\n`);
if (fromBundle) {
  ({ runCli } = await import(pathToFileURL(bundle).href));
} else {
  let register;
  try {
    ({ register } = await import('tsx/esm/api'));
  } catch {
    const why = fs.existsSync(bundle) ? 'the compiled CLI is older than its sources' : 'the compiled CLI (out/cli) is missing';
    process.stderr.write(`statelens: ${why} and tsx (a devDependency) is not installed: ${REBUILD}\n`);
    process.exit(1);
  }
  register();
  ({ runCli } = await import('./main.ts'));
}
process.exitCode = await runCli(process.argv.slice(2));
