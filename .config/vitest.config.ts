// Test projects: engine (Node, real SQLite files), contract (Node), renderer (jsdom) — `npm test`,
// minutes — then slow (the long tiers below, `npm run test:slow`, run in full by CI) and e2e
// (Playwright driving Debian Chromium against `statelens serve`, `npm run test:e2e`).
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { configDefaults, defineConfig } from 'vitest/config';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** The end-to-end suite's second pass, on server databases (test/e2e/helpers/store.ts). */
const SERVER_PASS = process.env.STATELENS_E2E_STORE === 'server';

/** The slow tier: files whose work is repetition or scale (property runs, crash trials, load with
 * many child processes, server-only suites, full StateBench splits). Each area keeps a fast
 * representative in `npm test`, named beside it. */
export const SLOW_TESTS = [
  // Concurrent writers for seconds each; test/faults/posix-locks.test.ts stays.
  'test/load/**/*.test.ts',
  // kill -9 trials per operation and random bit flips; disk-full and read-only files stay.
  'test/faults/crash-*.test.ts',
  'test/faults/hostile-files.test.ts',
  'test/faults/deletion-privacy.test.ts',
  // Property runs (hundreds of generated histories); the example-based tests of the same rules stay.
  'test/engine/*.property.test.ts',
  'test/snapshot/property.test.ts',
  'test/contract/fuzz.test.ts', // test/contract/fuzz-bad-values.test.ts stays
  // Every export format on every store, and while an agent writes; test/snapshot/cli.test.ts
  // writes every format and stays.
  'test/snapshot/formats.test.ts',
  // A 200,000-fact export in bounded memory; test/snapshot/cli.test.ts exports small files.
  'test/snapshot/large-export.test.ts',
  // Both full StateBench splits; test/cli/runner-cli.test.ts runs the runner on a small one.
  'test/engine/assembly-statebench.test.ts',
  // Server-only suites (they skip without STATELENS_TEST_PG_URL); test/engine/postgres-store.test.ts
  // and the store tests of describeStores cover PostgreSQL on PGlite. The role suites
  // (postgres-roles, every-role) run on PGlite too and stay in `npm test`.
  'test/engine/postgres-rls-store.test.ts',
  'test/engine/postgres-auth-tls.test.ts',
  'test/engine/pg-live-updates.test.ts',
  'test/engine/deletion-privacy-postgres.test.ts',
  'test/cli/postgres-datasets.test.ts',
];

const ENGINE_TESTS = [
  'electron/**/*.test.ts',
  'test/engine/**/*.test.ts',
  'test/cli/**/*.test.ts',
  'test/faults/**/*.test.ts',
  'test/snapshot/**/*.test.ts',
  'test/mcp/**/*.test.ts',
  'test/runner/**/*.test.ts',
  'test/load/**/*.test.ts',
];
const CONTRACT_TESTS = ['shared/**/*.test.ts', 'test/contract/**/*.test.ts', 'test/server/**/*.test.ts', 'test/lint/**/*.test.ts'];

export default defineConfig({
  root,
  test: {
    reporters: ['default', 'json'],
    // `npm run coverage`: the engine's line coverage under `npm test` (electron/build/coverage-floor.mjs
    // compares it with the figure recorded in .config/coverage-floor.json).
    coverage: {
      provider: 'v8',
      include: ['electron/engine/**/*.ts'],
      exclude: ['**/*.test.ts', '**/*.test-helper.ts'],
      reporter: ['text-summary', 'json-summary'],
      reportsDirectory: path.join(root, 'test-results', 'coverage'),
      // The figure is printed (and held to its floor) even when a test fails.
      reportOnFailure: true,
    },
    outputFile: { json: path.join(root, 'test-results', 'vitest.json') },
    projects: [
      {
        extends: true,
        test: {
          name: 'engine',
          environment: 'node',
          include: ENGINE_TESTS,
          exclude: [...configDefaults.exclude, ...SLOW_TESTS],
          testTimeout: 120_000,
          hookTimeout: 120_000,
          pool: 'forks',
        },
      },
      {
        extends: true,
        test: {
          name: 'slow',
          environment: 'node',
          include: SLOW_TESTS,
          // One file at a time: the load tests hold long transactions on the shared server, and a
          // deletion's scrub cannot vacuum dead rows while another transaction keeps them visible.
          fileParallelism: false,
          testTimeout: 600_000,
          hookTimeout: 600_000,
          pool: 'forks',
        },
      },
      {
        extends: true,
        test: {
          name: 'contract',
          environment: 'node',
          include: CONTRACT_TESTS,
          exclude: [...configDefaults.exclude, ...SLOW_TESTS],
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
