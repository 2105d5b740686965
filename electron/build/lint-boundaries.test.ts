// The layer rules are kept by the linter: a planted violation of each fails `npm run lint`
// with the project's own configuration.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const eslint = new ESLint({ cwd: root, overrideConfigFile: path.join(root, '.config', 'eslint.config.mjs') });

async function problems(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return (result?.messages ?? []).map((m) => `${m.ruleId}: ${m.message}`);
}

describe('lint boundaries', () => {
  it('production code may not import test/, statically or dynamically', async () => {
    expect(await problems('electron/cli/commands/planted.ts', "import { x } from '../../../test/helpers/child';\nexport const y = x;\n")).toEqual([
      expect.stringMatching(/no-restricted-imports: .*do(es)? not import test\//),
    ]);
    expect(await problems('electron/engine/planted.ts', "export const load = () => import('../../test/helpers/tmp');\n")).toEqual([
      expect.stringMatching(/no-restricted-syntax: .*does not import test\//),
    ]);
    expect(await problems('renderer/app/planted.tsx', "import { seed } from '../../test/e2e/helpers/seed';\nexport const s = seed;\n")).toContainEqual(
      expect.stringMatching(/does not import test\//),
    );
  });

  it('tests may import test/ helpers, and the older layer rules still hold beside the new one', async () => {
    expect(await problems('electron/cli/planted.test.ts', "import { tmpDir } from '../../test/helpers/tmp';\nexport const d = tmpDir;\n")).toEqual([]);
    expect(await problems('electron/engine/planted.ts', "import { app } from 'electron';\nexport const a = app;\n")).toEqual([
      expect.stringMatching(/^no-restricted-imports: .*without Electron/),
    ]);
  });
});
