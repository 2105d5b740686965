// A `statelens demo` database made by the CLI (as a user would), in a temporary folder the
// caller removes.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cliEntry, repoRoot } from '../../helpers/paths';

export interface DemoDatabase {
  readonly dir: string;
  readonly file: string;
  remove(): void;
}

export function demoDatabase(facts: number, prefix: string): DemoDatabase {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `statelens-e2e-${prefix}-`));
  const file = path.join(dir, 'demo.db');
  const t0 = Date.now();
  const r = spawnSync(process.execPath, [cliEntry, 'demo', '--facts', String(facts), '--db', file], { cwd: repoRoot, encoding: 'utf8', timeout: 600_000 });
  if (r.status !== 0) {
    fs.rmSync(dir, { recursive: true, force: true });
    throw new Error(`statelens demo failed:\n${r.stdout}\n${r.stderr}`);
  }
  console.log(`e2e: statelens demo --facts ${facts} took ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  return { dir, file, remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}
