// `statelens consolidate` as a child process on a real SQLite file: a dry run prints the report
// and leaves the file byte for byte as it was; the run prints the same clusters, writes them
// with one audit entry, and a second run changes nothing; bad parameters are usage errors.
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CACHE, DEPLOY, NEAR_MISSES } from '../../electron/engine/consolidation/fixtures.test-helper';
import { Store } from '../../electron/engine/store';
import { statelens } from '../helpers/child';
import { tmpDbPath } from '../helpers/tmp';

const agent = { kind: 'capability', org: 'acme', capability: 'deployer' } as const;

function seed(db: string): void {
  const store = Store.open(db);
  const p = store.scope(agent, { create: true });
  store.setMaturity(p.id, 'senior', { actor: 'admin' });
  const q = store.scopeById(p.id);
  for (const e of [...DEPLOY, ...NEAR_MISSES, ...CACHE])
    q.writeFact({ key: e.key, value: e.value, entity: e.entityKey, level: 'event' }, { inferSupersession: false });
  store.close();
}

describe('statelens consolidate', () => {
  it('previews without writing, applies once, and is idempotent', async () => {
    const db = tmpDbPath();
    seed(db);
    const before = fs.readFileSync(db);
    const dry = await statelens(['consolidate', '--db', db, '--partition', 'capability:acme/deployer', '--dry-run']);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toMatch(/dry run, nothing written/);
    expect(dry.stdout.match(/^ {2}heuristic: /gm)).toHaveLength(2);
    expect(fs.readFileSync(db).equals(before)).toBe(true);
    const run = await statelens(['consolidate', '--db', db, '--partition', 'capability:acme/deployer', '--json']);
    expect(run.code, run.stderr).toBe(0);
    const [report] = JSON.parse(run.stdout) as Array<{ abstractions: Array<{ outcome: string; key: string }>; auditId: number }>;
    expect(report?.abstractions.map((a) => a.outcome)).toEqual(['fact', 'fact']);
    expect(dry.stdout).toContain(report?.abstractions[0]?.key);
    const again = await statelens(['consolidate', '--db', db, '--json']);
    const [second] = JSON.parse(again.stdout) as Array<{ abstractions: Array<{ outcome: string }> }>;
    expect(second?.abstractions.map((a) => a.outcome)).toEqual(['existing', 'existing']);
  });

  it('refuses bad parameters as usage errors', async () => {
    const db = tmpDbPath();
    seed(db);
    for (const extra of [
      ['--similarity', 'lots'],
      ['--similarity', '2'],
      ['--min-cluster', '1'],
    ]) {
      const r = await statelens(['consolidate', '--db', db, '--dry-run', ...extra]);
      expect(r.code, extra.join(' ')).toBe(2);
      expect(r.stderr).toMatch(/INVALID_INPUT/);
    }
  });
});
