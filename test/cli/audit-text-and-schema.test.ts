// The CLI's audit text and schema names, checked as every other entry point checks them: an
// --actor or --reason that is too long or holds line breaks or bidirectional marks is refused
// (INVALID_INPUT, nothing changed), and a --schema or ?schema= outside the contract's pattern is
// refused before anything is created. Real child processes on real stores.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { statelens } from '../helpers/child';
import { tmpDir } from '../helpers/tmp';

describe('statelens CLI: audit text and schema names', () => {
  it('refuses an --actor or --reason longer than the HTTP path takes or holding control or bidirectional characters, changing nothing', async () => {
    const dir = tmpDir();
    const db = path.join(dir, 'store.db');
    const events = path.join(dir, 'events.jsonl');
    fs.writeFileSync(events, `${JSON.stringify({ type: 'state_write', ts: '2026-01-01T00:00:00Z', writes: [{ key: 'city', value: 'Oslo' }] })}\n`);
    expect((await statelens(['ingest', events, '--db', db, '--org', 'acme', '--capability', 'search'])).code).toBe(0);
    const bad = [
      ['--actor', 'x'.repeat(100_000)],
      ['--actor', 'ada\nmaturity.set by admin'],
      ['--actor', 'ada\u202egnp.exe'],
      ['--actor', 'ada', '--reason', 'r'.repeat(100_000)],
      ['--actor', 'ada', '--reason', 'fine\r\nforged line'],
    ];
    for (const extra of bad) {
      const r = await statelens(['maturity', '--db', db, '--partition', 'capability:acme/search', '--set', 'senior', ...extra]);
      expect(r.code, extra.join(' ').slice(0, 60)).toBe(2);
      expect(r.stderr).toMatch(/INVALID_INPUT/);
    }
    const shown = await statelens(['maturity', '--db', db, '--partition', 'capability:acme/search', '--json']);
    expect(shown.stdout).not.toMatch(/senior/);
    const deleted = await statelens([
      'delete',
      '--db',
      db,
      '--partition',
      'capability:acme/search',
      '--all',
      '--yes',
      '--actor',
      'ada',
      '--reason',
      'x\u2066y',
    ]);
    expect(deleted.code).toBe(2);
    expect(deleted.stderr).toMatch(/INVALID_INPUT/);
    const ok = await statelens([
      'maturity',
      '--db',
      db,
      '--partition',
      'capability:acme/search',
      '--set',
      'senior',
      '--actor',
      '  ada  ',
      '--reason',
      'proven',
    ]);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toMatch(/\bada\b/);
  });

  it('refuses a --schema or ?schema= outside the contract pattern before creating anything', async () => {
    const dir = tmpDir();
    const pglite = `pglite:${path.join(dir, 'pg')}`;
    for (const args of [
      ['init', '--db', pglite, '--schema', 'x"; select 1; --'],
      ['init', '--db', pglite, '--schema', 'Upper'],
      ['facts', '--db', 'postgres://nobody@127.0.0.1:1/none?schema=1st', '--org', 'acme', '--partition', 'user:acme/u1'],
    ]) {
      const r = await statelens(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(/INVALID_INPUT/);
      expect(r.stderr).toMatch(/schema/i);
    }
  });
});
