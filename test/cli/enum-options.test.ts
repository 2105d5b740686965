// Every option that takes one of a fixed set of words refuses anything else the same way, in a
// real `statelens` child process: exit 2 (usage), naming the option, every allowed word and the
// word given — checked before any file is opened or written.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { statelens } from '../helpers/child';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'statelens-enum-options-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
const db = path.join(dir, 'never-created.db');
const events = path.join(dir, 'events.jsonl');
fs.writeFileSync(events, '');

const STRATEGIES = 'recent, important, balanced, state_based, reference, context_document';
const cases: Array<[string, string[], string, string]> = [
  ['export --format', ['export', '--db', db, '--out', path.join(dir, 'x'), '--format', 'bogus'], 'format', 'json, ndjson, sqlite, markdown, csv, statebench'],
  [
    'export --validity',
    ['export', '--db', db, '--out', path.join(dir, 'x'), '--format', 'csv', '--validity', 'bogus'],
    'validity',
    'valid, superseded, proposal, all',
  ],
  ['context --strategy', ['context', '--db', db, '--partition', '1', '--strategy', 'bogus'], 'strategy', STRATEGIES],
  ['context --tokenizer', ['context', '--db', db, '--partition', '1', '--strategy', 'recent', '--tokenizer', 'bogus'], 'tokenizer', 'cl100k_base, o200k_base'],
  ['statebench --strategy', ['statebench', events, '--strategy', 'bogus'], 'strategy', STRATEGIES],
  ['statebench --compare', ['statebench', events, '--strategy', 'recent', '--compare', 'bogus'], 'compare', `${STRATEGIES}, none`],
  ['statebench --tokenizer', ['statebench', events, '--strategy', 'recent', '--tokenizer', 'bogus'], 'tokenizer', 'cl100k_base, o200k_base'],
  ['delete --validity', ['delete', '--db', db, '--partition', '1', '--validity', 'bogus'], 'validity', 'valid, superseded, proposal, all'],
];

describe('enum options of the CLI (child processes)', () => {
  for (const [name, args, option, allowed] of cases) {
    it(`${name}: a word outside the set is a usage error listing the set`, async () => {
      const r = await statelens(args);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toContain(`--${option} must be one of ${allowed}; got "bogus"`);
      expect(fs.existsSync(db)).toBe(false);
    });
  }

  it('a required one that is missing says so and lists the set', async () => {
    const r = await statelens(['export', '--db', db, '--out', path.join(dir, 'y')]);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain('--format is required: one of json, ndjson, sqlite, markdown, csv, statebench');
  });
});
