// The layer rules hold because lint fails on a break of each: planted imports are linted with
// the project's own ESLint config (as `npm run lint` does) and a planted import circle is run
// through the cycle checker. A rule that stops firing fails here, not silently in review.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ESLint } from 'eslint';
import { afterAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/paths';

const eslint = new ESLint({ cwd: repoRoot, overrideConfigFile: path.join(repoRoot, '.config', 'eslint.config.mjs') });

/** The messages ESLint gives `code` as if it were the file at `file` (relative to the repo). */
async function lint(file: string, code: string): Promise<Array<{ ruleId: string | null; message: string }>> {
  const [result] = await eslint.lintText(code, { filePath: path.join(repoRoot, file) });
  return (result?.messages ?? []).map((m) => ({ ruleId: m.ruleId, message: m.message }));
}

const RESTRICTED = /^(@typescript-eslint\/)?no-restricted-(imports|syntax)$/;

async function expectRefused(file: string, code: string, says: RegExp): Promise<void> {
  const messages = await lint(file, code);
  expect(messages, `${file}: ${code}`).toContainEqual({ ruleId: expect.stringMatching(RESTRICTED), message: expect.stringMatching(says) });
}

describe('lint enforces the layer rules', () => {
  it('a clean engine module passes (so a refusal below is the rule, not a parse error)', async () => {
    expect(
      await lint(
        'electron/engine/facts/planted.ts',
        "import { StatelensError } from '../../../shared/errors';\nimport type { PartitionContext } from '../context';\nexport type P = PartitionContext;\nexport const E = StatelensError;\n",
      ),
    ).toEqual([]);
  });

  it('the engine imports no electron', async () => {
    await expectRefused('electron/engine/planted.ts', "import { app } from 'electron';\nexport const a = app;\n", /without Electron/);
  });

  for (const layer of ['cli', 'server', 'mcp', 'handlers', 'main', 'engine-host']) {
    it(`the engine imports nothing from electron/${layer}`, async () => {
      await expectRefused('electron/engine/query/planted.ts', `import { x } from '../../${layer}/thing';\nexport const a = x;\n`, /bottom layer/);
      await expectRefused('electron/engine/planted.ts', `import type { X } from '../${layer}/thing';\nexport type A = X;\n`, /bottom layer/);
    });
  }

  it('the engine loads none of its callers lazily either', async () => {
    await expectRefused(
      'electron/engine/facts/planted.ts',
      "export async function load(): Promise<unknown> {\n  return import('../../mcp/server');\n}\n",
      /bottom layer/,
    );
  });

  it("the engine's callers reach rows through the handle, not its context or the raw connection", async () => {
    const handle = "import type { PartitionHandle } from '../../engine/partition-handle';\n";
    await expectRefused(
      'electron/mcp/tools/planted.ts',
      `${handle}export const f = (h: PartitionHandle) => h.ctx.db;\n`,
      /through the PartitionHandle methods/,
    );
    await expectRefused(
      'electron/engine-host/planted.ts',
      "import type { Store } from '../engine/store';\nexport const f = (store: Store) => store.db.prepare('SELECT 1');\n",
      /not the raw connection/,
    );
    await expectRefused(
      'electron/server/planted.ts',
      "import type { EngineSession } from '../engine-host/engine-session';\nexport const f = (session: EngineSession) => session.store.scopeById(1).ctx;\n",
      /through the PartitionHandle methods/,
    );
  });

  it('production code imports nothing from test/ (statically or dynamically), wherever it lives', async () => {
    await expectRefused(
      'electron/cli/commands/planted.ts',
      "import type { CliResult } from '../../../test/helpers/child';\nexport type R = CliResult;\n",
      /does not import test/,
    );
    await expectRefused(
      'electron/engine/planted.ts',
      "import { tmpDbPath } from '../../test/helpers/tmp';\nexport const t = tmpDbPath;\n",
      /does not import test/,
    );
    await expectRefused(
      'electron/cli/commands/planted.ts',
      "export async function load(): Promise<unknown> {\n  return import('../../../test/helpers/child');\n}\n",
      /does not import test/,
    );
    await expectRefused('shared/planted.ts', "import { x } from '../test/helpers/x';\nexport const a = x;\n", /does not import test/);
  });

  it('no production module reaches into test/ by a path it builds either (which no import rule sees)', () => {
    const builtPath = /\b(join|resolve)\([^)]*['"`]test['"`]|['"`](\.\.?\/)*test\//;
    const offenders: string[] = [];
    for (const top of ['electron', 'shared', 'renderer']) {
      for (const rel of fs.readdirSync(path.join(repoRoot, top), { recursive: true, encoding: 'utf8' })) {
        const file = path.join(top, rel);
        if (!/\.(ts|tsx|mjs|cjs)$/.test(file) || /\.test\.tsx?$/.test(file) || file.startsWith(path.join('renderer', 'test-utils'))) continue;
        fs.readFileSync(path.join(repoRoot, file), 'utf8')
          .split('\n')
          .forEach((line, i) => {
            if (builtPath.test(line)) offenders.push(`${file}:${i + 1}: ${line.trim()}`);
          });
      }
    }
    expect(offenders).toEqual([]);
  });

  it('test code may import test/ helpers', async () => {
    const messages = await lint('electron/engine/planted.test.ts', "import { tmpDbPath } from '../../test/helpers/tmp';\nexport const t = tmpDbPath;\n");
    expect(messages.filter((m) => RESTRICTED.test(m.ruleId ?? ''))).toEqual([]);
  });

  it('shared/ imports no node: module', async () => {
    await expectRefused('shared/planted.ts', "import fs from 'node:fs';\nexport const f = fs;\n", /no Node modules/);
  });

  it('the renderer imports nothing from electron/', async () => {
    await expectRefused(
      'renderer/inspector/Planted.tsx',
      "import { Store } from '../../electron/engine/store';\nexport const S = Store;\n",
      /only shared\/ and itself/,
    );
  });
});

describe('the cycle checker (run by npm run lint)', () => {
  const dirs: string[] = [];
  afterAll(() => {
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  });

  /** A throwaway source tree: files by path relative to its root. */
  function tree(files: Record<string, string>): string {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'statelens-cycles-'));
    dirs.push(dir);
    for (const [rel, text] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
      fs.writeFileSync(path.join(dir, rel), text);
    }
    return dir;
  }

  function check(root: string): { code: number | null; stderr: string } {
    const r = spawnSync(process.execPath, [path.join(repoRoot, 'electron', 'build', 'no-cycles.mjs'), '--root', root], { encoding: 'utf8' });
    return { code: r.status, stderr: r.stderr };
  }

  it('reports a planted circle through three modules, type-only edges included, and fails', () => {
    const root = tree({
      'electron/engine/store.ts': "import { PartitionHandle } from './partition-handle';\nexport class Store { h?: PartitionHandle; }\n",
      'electron/engine/partition-handle.ts': "import { deleteFacts } from './deletion/delete';\nexport class PartitionHandle { d = deleteFacts; }\n",
      'electron/engine/deletion/delete.ts': "import type { Store } from '../store';\nexport function deleteFacts(_s: Store): void {}\n",
      'electron/engine/leaf.ts': "import { Store } from './store';\nexport const s = Store;\n",
    });
    const r = check(root);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      'import cycle: electron/engine/deletion/delete.ts -> electron/engine/store.ts -> electron/engine/partition-handle.ts -> electron/engine/deletion/delete.ts',
    );
    expect(r.stderr).toContain('1 import cycle(s)');
  });

  it('reports a circle between shared/ and renderer/ made by a dynamic import', () => {
    const root = tree({
      'shared/a.ts': "export async function load(): Promise<unknown> { return import('../renderer/b'); }\n",
      'renderer/b.tsx': "import { load } from '../shared/a';\nexport const B = load;\n",
    });
    const r = check(root);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/import cycle: renderer\/b\.tsx -> shared\/a\.ts -> renderer\/b\.tsx/);
  });

  it('passes a tree without circles, and ignores test code that imports back', () => {
    const root = tree({
      'electron/engine/store.ts': "import { PartitionHandle } from './partition-handle';\nexport class Store { h?: PartitionHandle; }\n",
      'electron/engine/partition-handle.ts': 'export class PartitionHandle {}\n',
      'electron/engine/partition-handle.test.ts': "import { Store } from './store';\nexport const s = Store;\n",
    });
    expect(check(root)).toEqual({ code: 0, stderr: '' });
  });

  it('finds no circle in the project itself', () => {
    expect(check(repoRoot)).toEqual({ code: 0, stderr: '' });
  });
});
