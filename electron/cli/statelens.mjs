#!/usr/bin/env node
// The `statelens` command's launcher. Runs the compiled CLI (out/cli/statelens.mjs, built on
// `npm install` and `npm run build`) when it is at least as new as every source file it was
// built from; otherwise (missing, stale because a source was edited, or STATELENS_CLI_SOURCE=1)
// it registers tsx and runs the TypeScript sources, so nobody ever runs stale code.
// STATELENS_CLI_TRACE=1 says on standard error which of the two ran.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const bundle = path.join(root, 'out', 'cli', 'statelens.mjs');

function bundleIsFresh() {
  if (process.env.STATELENS_CLI_SOURCE === '1') return false;
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

let runCli;
const fresh = bundleIsFresh();
if (process.env.STATELENS_CLI_TRACE === '1')
  process.stderr.write(`statelens: running ${fresh ? path.relative(root, bundle) : 'the TypeScript sources (tsx)'}\n`);
if (fresh) {
  ({ runCli } = await import(pathToFileURL(bundle).href));
} else {
  const { register } = await import('tsx/esm/api');
  register();
  ({ runCli } = await import('./main.ts'));
}
process.exitCode = await runCli(process.argv.slice(2));
