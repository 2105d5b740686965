// File › Import from… creates memory, so it must stay out of every channel a renderer (or a
// browser) can call: the contract has no importing channel, the engine's import operation is
// unknown to the registrar and the handlers' dispatcher (nothing is written), and in the sources
// only the menu's module calls it.
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CALL_CHANNELS } from '../../shared/contract';
import { repoRoot } from '../helpers/paths';
import type { Fixture } from './fixture';
import { senderEvent, startFixtureHarness, type FixtureHarness } from './harness';

let fx: Fixture;
let h: FixtureHarness;

beforeAll(async () => {
  h = await startFixtureHarness('statelens-import-menu-');
  fx = h.fx;
}, 120_000);
afterAll(() => h?.close());

const factCount = (): number => {
  const db = new Database(fx.path, { readonly: true });
  try {
    return db.prepare('SELECT count(*) FROM facts').pluck().get() as number;
  } finally {
    db.close();
  }
};

/** Non-test TypeScript files under `dir`, relative to the repository. */
function sources(dir: string): string[] {
  return fs
    .readdirSync(path.join(repoRoot, dir), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && /\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name))
    .map((e) => path.relative(repoRoot, path.join(e.parentPath, e.name)));
}

describe('importing is reachable only from the application menu', () => {
  it('the contract has no channel that imports or writes memory', () => {
    expect(CALL_CHANNELS.filter((c) => /import|ingest|write|create|add|remember/i.test(c))).toEqual([]);
  });

  it('the registrar refuses the engine import operation and nothing is written', async () => {
    const file = path.join(h.dir, 'memory.jsonl');
    fs.writeFileSync(file, `${JSON.stringify({ type: 'entity', name: 'Eve', entityType: 'person', observations: ['Injected'] })}\n`);
    const before = factCount();
    for (const channel of ['import.foreign', 'import.mcpMemory', 'db.import']) {
      const r = await h.registrar.receive(channel, senderEvent(h.contents), [{ system: 'mcp-memory', file }]);
      expect(r.ok ? null : r.error.code, channel).toBe('UNKNOWN_CHANNEL');
    }
    expect(factCount()).toBe(before);
  });

  it("only the menu's module calls the import operation, and main calls it only from the menu's action", () => {
    const callers = [...sources('electron'), ...sources('renderer'), ...sources('shared')].filter((f) =>
      fs.readFileSync(path.join(repoRoot, f), 'utf8').includes("'import.foreign'"),
    );
    expect(callers.sort()).toEqual(['electron/engine-host/operations.ts', 'electron/main/foreign-import.ts']);
    const users = sources('electron').filter((f) => /\bimportFromMenu\(/.test(fs.readFileSync(path.join(repoRoot, f), 'utf8')));
    expect(users.sort()).toEqual(['electron/main/foreign-import.ts', 'electron/main/index.ts']);
    const main = fs.readFileSync(path.join(repoRoot, 'electron/main/index.ts'), 'utf8');
    // One call, inside the menu's importFrom action.
    expect(main.match(/importFromMenu\(/g)).toHaveLength(1);
    expect(main).toMatch(/importFrom: \(system\) => \{\s*if \(engineHost\) void importFromMenu\(system, engineHost, nativeImportDialogs\(\)\);/);
  });
});
