// `statelens environment-providers` and `statelens context` as a user runs them (the real CLI
// child): providers set from the command line are fetched fresh by the next context.
import fs from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { statelens } from '../helpers/child';
import { tmpDir } from '../helpers/tmp';

it('sets providers, refuses a remote calendar, and the context shows the folder fetched fresh', async () => {
  const dir = tmpDir('statelens-cli-env-');
  const db = path.join(dir, 'm.db');
  const folder = path.join(dir, 'project');
  fs.mkdirSync(folder);
  fs.writeFileSync(path.join(folder, 'notes.txt'), 'x');
  const P = 'user:acme/ann';
  const events = path.join(dir, 'events.jsonl');
  fs.writeFileSync(events, JSON.stringify({ type: 'state_write', ts: '2026-01-01T00:00:00Z', writes: [{ key: 'k', value: 'v' }] }));
  const facts = await statelens(['ingest', events, '--db', db, '--partition', P]);
  expect(facts.code, facts.stderr).toBe(0);
  const set = await statelens(['environment-providers', '--db', db, '--partition', P, '--json', '--set', JSON.stringify([{ kind: 'recent_files', folder }])]);
  expect(set.code, set.stderr).toBe(0);
  expect(JSON.parse(set.stdout).providers).toEqual([{ kind: 'recent_files', folder }]);
  const bad = await statelens(['environment-providers', '--db', db, '--partition', P, '--set', '[{"kind":"calendar","source":"https://example.com/c.ics"}]']);
  expect(bad.code).toBe(2);
  expect(bad.stderr).toContain('INVALID_INPUT');
  const ctx = await statelens(['context', '--db', db, '--partition', P, '--strategy', 'state_based', '--query', 'files']);
  expect(ctx.code, ctx.stderr).toBe(0);
  expect(ctx.stdout).toContain('recent_file_modifications: notes.txt');
});
