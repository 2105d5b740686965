// Test projects: engine (Node, real SQLite files), contract (Node), renderer (jsdom) and
// e2e (Playwright driving Debian Chromium against `statelens serve`).
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** The end-to-end suite's second pass, on server databases (test/e2e/helpers/store.ts). */
const SERVER_PASS = process.env.STATELENS_E2E_STORE === 'server';

export default defineConfig({
  root,
  test: {
    reporters: ['default', 'json'],
    outputFile: { json: path.join(root, 'test-results', 'vitest.json') },
    projects: [
      {
        extends: true,
        test: {
          name: 'engine',
          environment: 'node',
          include: [
            'electron/**/*.test.ts',
            'test/engine/**/*.test.ts',
            'test/cli/**/*.test.ts',
            'test/faults/**/*.test.ts',
            'test/snapshot/**/*.test.ts',
            'test/mcp/**/*.test.ts',
            'test/runner/**/*.test.ts',
            'test/load/**/*.test.ts',
          ],
          testTimeout: 120_000,
          hookTimeout: 120_000,
          pool: 'forks',
        },
      },
      {
        extends: true,
        test: {
          name: 'contract',
          environment: 'node',
          include: ['shared/**/*.test.ts', 'test/contract/**/*.test.ts', 'test/server/**/*.test.ts', 'test/lint/**/*.test.ts'],
          testTimeout: 120_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'renderer',
          environment: 'jsdom',
          include: ['renderer/**/*.test.ts', 'renderer/**/*.test.tsx'],
          testTimeout: 30_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          environment: 'node',
          include: ['test/e2e/**/*.test.ts'],
          // The server pass first copies each prepared database into the server, record by record
          // through the engine's import: minutes for the largest on a busy machine.
          testTimeout: SERVER_PASS ? 900_000 : 300_000,
          hookTimeout: SERVER_PASS ? 900_000 : 300_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
