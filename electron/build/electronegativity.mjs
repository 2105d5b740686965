// Runs @doyensec/electronegativity over the app's sources (main, preload, server, handlers,
// engine host, renderer, shared, package.json) and fails on any HIGH or MEDIUM finding. The
// tool itself always exits 0, so its findings are read through its programmatic API.
// Usage: node electron/build/electronegativity.mjs [--json]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const SOURCES = [
  'electron/main',
  'electron/preload',
  'electron/server',
  'electron/handlers',
  'electron/engine-host',
  'electron/build',
  'renderer',
  'shared',
  'package.json',
];
const SCANNED = /\.(ts|tsx|js|mjs|cjs|html)$/;
const FAILING = new Set(['HIGH', 'MEDIUM']);

/** A copy of just the sources (the tool walks node_modules otherwise), tests left out. */
function stage() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'statelens-electronegativity-'));
  const copy = (rel) => {
    const from = path.join(root, rel);
    if (!fs.existsSync(from)) return;
    const stat = fs.statSync(from);
    if (stat.isDirectory()) {
      for (const name of fs.readdirSync(from)) if (name !== 'node_modules') copy(path.join(rel, name));
    } else if ((SCANNED.test(rel) && !/\.test\.tsx?$/.test(rel)) || rel === 'package.json') {
      const to = path.join(dir, rel.replace(/\.(mjs|cjs)$/, '.js'));
      fs.mkdirSync(path.dirname(to), { recursive: true });
      fs.copyFileSync(from, to);
    }
  };
  for (const s of SOURCES) copy(s);
  return dir;
}

const require = createRequire(import.meta.url);
const runner = require('@doyensec/electronegativity');
const run = runner.default ?? runner;

const dir = stage();
const quietLog = console.log;
let result;
try {
  console.log = () => {}; // the tool prints a translation-download notice
  result = await run({ input: dir, isRelative: true, parserPlugins: [] }, false);
} finally {
  console.log = quietLog;
  fs.rmSync(dir, { recursive: true, force: true });
}

const issues = result.issues.map((i) => ({
  id: i.id,
  severity: i.severity?.name ?? String(i.severity),
  confidence: i.confidence?.name ?? String(i.confidence),
  file: i.file,
  line: i.location?.line,
  manualReview: Boolean(i.manualReview),
  description: i.description,
}));
const failing = issues.filter((i) => FAILING.has(i.severity));
const parseErrors = result.errors.filter((e) => !e.tolerable);

if (process.argv.includes('--json')) console.log(JSON.stringify({ issues, errors: result.errors }, null, 2));
else {
  for (const i of issues) console.log(`${i.severity.padEnd(13)} ${i.confidence.padEnd(10)} ${i.id}  ${i.file}:${i.line ?? '?'}`);
  for (const e of parseErrors) console.log(`PARSE ERROR  ${e.file}: ${e.message}`);
  console.log(
    `electronegativity: ${result.globalChecks + result.atomicChecks} checks, ${issues.length} findings, ${failing.length} high/medium, ${parseErrors.length} files not parsed`,
  );
}
process.exit(failing.length > 0 || parseErrors.length > 0 ? 1 : 0);
