// `statelens delete` with a filter that means nothing, as a child process: a search with no word
// to look for, or filter flags that restrict nothing, are refused (exit 2, nothing deleted) even
// with --yes; only --all empties a partition; the preview echoes the selection it applies.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Store } from '../../electron/engine/store';
import { statelens } from '../helpers/child';

const USER = { kind: 'user', org: 'acme', user: 'u1' } as const;
let dir: string;
let seed: string;
let partition: string;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'statelens-cli-delete-'));
  seed = path.join(dir, 'seed.db');
  const store = Store.open(seed);
  try {
    const h = store.scope(USER, { create: true });
    for (let i = 0; i < 12; i++) h.writeFact({ key: `note_${i}`, value: i % 3 === 0 ? `budget line ${i}` : `plain note ${i}` });
    store.scope({ kind: 'user', org: 'acme', user: 'u2' }, { create: true }).writeFact({ key: 'other', value: 'budget elsewhere' });
    partition = String(h.id);
  } finally {
    store.close();
  }
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function copyOfSeed(name: string): string {
  const file = path.join(dir, name);
  fs.copyFileSync(seed, file);
  return file;
}

function factCount(file: string): number {
  const store = Store.open(file, { readonly: true });
  try {
    return store.scope(USER).allFacts().length;
  } finally {
    store.close();
  }
}

describe('statelens delete with a filter that means nothing', () => {
  it('refuses searches with no word to look for, even with --yes, and deletes nothing', async () => {
    const db = copyOfSeed('garbage.db');
    for (const search of ['...', '*', '']) {
      const r = await statelens(['delete', '--db', db, '--partition', partition, '--search', search, '--yes']);
      expect(r.code, `--search ${JSON.stringify(search)}: ${r.stdout}${r.stderr}`).toBe(2);
      expect(r.stderr).toMatch(/has no word to look for.*\[INVALID_INPUT\]/);
      expect(r.stdout).not.toMatch(/Deleted/);
    }
    const tooMany = await statelens([
      'delete',
      '--db',
      db,
      '--partition',
      partition,
      '--search',
      Array.from({ length: 40 }, (_, i) => `w${i}`).join(' '),
      '--yes',
    ]);
    expect(tooMany.code).toBe(2);
    expect(tooMany.stderr).toMatch(/40 words; at most 32/);
    // 100 KB: the largest one argument a child process may be given on Linux is 128 KiB.
    const huge = await statelens(['delete', '--db', db, '--partition', partition, '--search', 'x'.repeat(100_000), '--yes']);
    expect(huge.code).toBe(2);
    expect(huge.stderr).toMatch(/at most 500 characters/);
    expect(factCount(db)).toBe(12);
  });

  it('statelens facts refuses the same searches instead of listing everything', async () => {
    for (const search of ['*', '', '...']) {
      for (const where of [[], ['--partition', partition]]) {
        const r = await statelens(['facts', '--db', seed, '--search', search, ...where]);
        expect(r.code, `facts --search ${JSON.stringify(search)} ${where.join(' ')}: ${r.stdout}`).toBe(2);
        expect(r.stderr).toMatch(/has no word to look for.*\[INVALID_INPUT\]/);
        // Only the error: no table header, no fact row.
        expect(r.stdout).toBe('');
      }
    }
    // A search that finds nothing still prints the (empty) table.
    const none = await statelens(['facts', '--db', seed, '--search', 'nonesuch']);
    expect(none.code).toBe(0);
    expect(none.stdout).toBe('PARTITION\tID\tSTATUS\tTS\tKEY\tVALUE\tFLAGS\n');
  });

  it('refuses filter flags that restrict nothing and points at --all', async () => {
    const db = copyOfSeed('empty-filter.db');
    const r = await statelens(['delete', '--db', db, '--partition', partition, '--validity', 'all', '--yes']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/restricts nothing.*--all/);
    expect(factCount(db)).toBe(12);
  });

  it('echoes the filter it applies in the preview, and deletes only what it matches', async () => {
    const db = copyOfSeed('echo.db');
    const dry = await statelens(['delete', '--db', db, '--partition', partition, '--search', 'budget!!', '--validity', 'valid', '--dry-run']);
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain(
      'Selected: every fact matching all of\n  · validity: valid now\n  · search: every word of "budget!!" ("budget!!" also as the start of a word)\n',
    );
    expect(dry.stdout).toMatch(/would delete 4 facts/);
    const done = await statelens(['delete', '--db', db, '--partition', partition, '--search', 'budget', '--yes', '--json']);
    expect(done.code).toBe(0);
    const out = JSON.parse(done.stdout) as { preview: { selection: unknown }; result: { deleted: number } };
    expect(out.preview.selection).toEqual({ kind: 'filter', conditions: ['search: every word of "budget" ("budget" also as the start of a word)'] });
    expect(out.result.deleted).toBe(4);
    expect(factCount(db)).toBe(8);
  });

  it('deletes the whole partition only with --all, and says so in the preview', async () => {
    const db = copyOfSeed('all.db');
    const r = await statelens(['delete', '--db', db, '--partition', partition, '--all', '--yes']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Selected: every fact of the partition (--all).');
    expect(r.stdout).toMatch(/Deleted 12 facts/);
    expect(factCount(db)).toBe(0);
    const store = Store.open(db, { readonly: true });
    try {
      expect(store.scope({ kind: 'user', org: 'acme', user: 'u2' }).allFacts()).toHaveLength(1);
    } finally {
      store.close();
    }
  });
});
