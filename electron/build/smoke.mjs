// The install smoke test (`npm run smoke`): what a newcomer does first, through the CLI that
// `npm install` linked (node_modules/.bin/statelens, what `npx statelens` runs). It writes the demo
// into a new file, verifies it and assembles one context from it, so an install whose native
// build was skipped (a blocked install script) or whose CLI link is missing fails here, loudly.
// Usage: node electron/build/smoke.mjs   (exit 0: the install works; 1: a step failed, shown)
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const cli = path.join(root, 'node_modules', '.bin', process.platform === 'win32' ? 'statelens.cmd' : 'statelens');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'statelens-smoke-'));
const db = path.join(dir, 'demo.db');
// A user partition the demo (default seed) always fills.
const PARTITION = 'user:northwind/ann.keller';

/** Runs one CLI step; on failure prints its output and exits 1. Returns stdout. */
function step(label, args) {
  const started = Date.now();
  const r = spawnSync(cli, args, { cwd: root, encoding: 'utf8', shell: process.platform === 'win32', maxBuffer: 64 * 1024 * 1024 });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  if (r.status !== 0) {
    console.error(`smoke: FAILED ${label} (exit ${r.status ?? r.signal ?? r.error?.message}) after ${seconds} s: statelens ${args.join(' ')}`);
    console.error(`${r.stdout ?? ''}${r.stderr ?? ''}`.trim());
    finish(1);
  }
  console.log(`smoke: ok ${label} (${seconds} s)`);
  return r.stdout;
}

function finish(code) {
  fs.rmSync(dir, { recursive: true, force: true });
  process.exit(code);
}

if (!fs.existsSync(cli)) {
  console.error(`smoke: FAILED ${path.relative(root, cli)} is missing: \`npm install\` did not link the CLI (its postinstall did not run)`);
  finish(1);
}
step('demo into a new file', ['demo', '--facts', '100', '--db', db]);
step('verify', ['verify', '--db', db]);
const context = JSON.parse(step('context', ['context', '--db', db, '--partition', PARTITION, '--budget', '500', '--json']));
if (!(context.counts?.included > 0) || !(context.tokens > 0)) {
  console.error(`smoke: FAILED context: no fact was included (counts ${JSON.stringify(context.counts)}, ${context.tokens} tokens)`);
  finish(1);
}
console.log(`smoke: the install works (demo, verify, a context of ${context.counts.included} facts in ${context.tokens} tokens)`);
finish(0);
