// Lint, including the process boundaries: the engine and shared/ never import electron, the
// engine imports none of the layers built on it (CLI, server, handlers, MCP, main, engine host),
// shared/ imports no node:* module, the renderer imports only shared/ and itself (and never
// turns text into HTML), and no production code imports the tests (test/). Import cycles are
// found by electron/build/no-cycles.mjs, which `npm run lint` runs after ESLint.
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const PRODUCTION = ['electron/**/*.ts', 'electron/**/*.mjs', 'shared/**/*.ts', 'renderer/**/*.ts', 'renderer/**/*.tsx'];
const TESTS = ['**/*.test.ts', '**/*.test.tsx', 'renderer/test-utils/**'];
const NO_TEST_IMPORT = 'Production code does not import test/: move what it needs out of test/ (the tests may import it from there).';
/** Dynamic imports too (`await import('../../test/...')`), which no-restricted-imports does not see. */
const NO_TEST_DYNAMIC_IMPORT = { selector: 'ImportExpression[source.value=/(^|\\/)test\\//]', message: NO_TEST_IMPORT };

const NO_ELECTRON = { group: ['electron', 'electron/*'], message: 'The engine, CLI and server run without Electron.' };
/** The layers built on the engine, reached from inside electron/engine by climbing out of it. */
const ENGINE_CLIENTS = ['cli', 'server', 'handlers', 'mcp', 'main', 'preload', 'engine-host'];
const NO_ENGINE_CLIENTS = {
  regex: `^(\\.\\./)+(electron/)?(${ENGINE_CLIENTS.join('|')})(/|$)`,
  message:
    'The engine is the bottom layer: it imports nothing from the CLI, server, handlers, MCP server, main process or engine host (they import the engine).',
};

const NODE_BUILTINS = ['node:*', 'fs', 'path', 'os', 'child_process', 'crypto', 'http', 'https', 'net', 'worker_threads', 'url', 'stream', 'util', 'events'];

export default tseslint.config(
  { ignores: ['node_modules/**', 'out/**', 'dist/**', 'test-results/**', '.electron-native/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: [
      'electron/engine/**/*.ts',
      'electron/cli/**/*.ts',
      'electron/server/**/*.ts',
      'electron/mcp/**/*.ts',
      'electron/handlers/**/*.ts',
      'electron/engine-host/**/*.ts',
    ],
    rules: {
      'no-restricted-imports': ['error', { patterns: [NO_ELECTRON] }],
    },
  },
  // The engine's own rule set (options replace the block above's for these files, so it repeats
  // the electron rule).
  {
    files: ['electron/engine/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [NO_ELECTRON, NO_ENGINE_CLIENTS] }],
    },
  },
  {
    files: ['shared/**/*.ts'],
    languageOptions: { globals: {} },
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['electron', 'electron/*'], message: 'shared/ is imported by every side: no electron.' },
            { group: NODE_BUILTINS, message: 'shared/ is imported by the renderer: no Node modules.' },
            { group: ['**/electron/**', '**/renderer/**'], message: 'shared/ depends on nothing but itself and zod.' },
          ],
        },
      ],
    },
  },
  {
    files: ['renderer/**/*.ts', 'renderer/**/*.tsx'],
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['electron', 'electron/*'], message: 'The renderer reaches the engine only through the contract.' },
            { group: NODE_BUILTINS, message: 'The renderer runs sandboxed: no Node modules.' },
            { group: ['**/electron/**', '../../electron/*', '../electron/*'], message: 'The renderer imports only shared/ and itself.' },
          ],
        },
      ],
      // Memory text was written by an agent that may have read hostile text: it is rendered only
      // as text, never parsed as HTML.
      'no-restricted-syntax': [
        'error',
        { selector: "JSXAttribute[name.name='dangerouslySetInnerHTML']", message: 'Render memory text as text: no dangerouslySetInnerHTML.' },
        {
          selector: 'AssignmentExpression[left.property.name=/^(innerHTML|outerHTML)$/]',
          message: 'Render memory text as text: no innerHTML/outerHTML assignment.',
        },
        {
          selector: 'CallExpression[callee.property.name=/^(insertAdjacentHTML|createContextualFragment)$/]',
          message: 'Render memory text as text: no HTML parsing.',
        },
        { selector: "CallExpression[callee.object.name='document'][callee.property.name=/^(write|writeln)$/]", message: 'No document.write.' },
        NO_TEST_DYNAMIC_IMPORT,
      ],
    },
  },
  // A rule of its own (the typescript-eslint twin of no-restricted-imports), so it adds to the
  // layer rules above instead of replacing their options.
  {
    files: PRODUCTION,
    ignores: TESTS,
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', { patterns: [{ group: ['**/test/**', '**/test'], message: NO_TEST_IMPORT }] }],
    },
  },
  {
    files: ['electron/**/*.ts', 'electron/**/*.mjs', 'shared/**/*.ts'],
    ignores: TESTS,
    rules: { 'no-restricted-syntax': ['error', NO_TEST_DYNAMIC_IMPORT] },
  },
  // The engine's callers reach rows only through a PartitionHandle's methods (or the Store's
  // whole-database ones): never its context or the raw connection. The engine also loads none of
  // its callers lazily. (Repeats the test/ rule: these options replace the block above's.)
  {
    files: [
      'electron/cli/**/*.ts',
      'electron/server/**/*.ts',
      'electron/mcp/**/*.ts',
      'electron/handlers/**/*.ts',
      'electron/engine-host/**/*.ts',
      'electron/main/**/*.ts',
    ],
    ignores: TESTS,
    rules: {
      'no-restricted-syntax': [
        'error',
        NO_TEST_DYNAMIC_IMPORT,
        {
          selector: "MemberExpression[property.name='ctx']",
          message: 'Reach rows through the PartitionHandle methods, not its context (add a method there if one is missing).',
        },
        {
          selector: 'MemberExpression[object.name=/^(store|session)$/][property.name=/^(db|services)$/]',
          message: 'Reach rows through the Store or PartitionHandle methods, not the raw connection.',
        },
      ],
    },
  },
  {
    files: ['electron/engine/**/*.ts'],
    ignores: TESTS,
    rules: {
      'no-restricted-syntax': [
        'error',
        NO_TEST_DYNAMIC_IMPORT,
        { selector: `ImportExpression[source.value=/${NO_ENGINE_CLIENTS.regex.replaceAll('/', '\\/')}/]`, message: NO_ENGINE_CLIENTS.message },
      ],
    },
  },
);
