// Read-only databases are readable: a 0444 file in a read-only folder and in a writable one are
// read by `facts`, `verify` and `export` without a byte changed (in the read-only folder no
// -shm can be made, so the file is read whole), and `ingest` into them says the file is
// read-only instead of blaming an input line. Root ignores file modes, so as root the CLI runs
// as uid 65534 in a child process.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { statelens, unprivilegedCannotRun } from '../helpers/child';
import { tmpDir } from '../helpers/tmp';
import { EXPORT_FORMATS } from '../../shared/snapshot';
import { makeStatelensDb } from '../../electron/bench/databases';
import { fileStates } from './files';
import { skipOrFail } from './skip-or-fail';

const asRoot = process.getuid?.() === 0;
const unprivileged = asRoot ? { uid: 65534, gid: 65534 } : undefined;

const cli = (args: readonly string[]) => statelens(args, { as: unprivileged });

describe('read-only databases (unprivileged child processes)', () => {
  it('facts, verify and export read a 0444 file in a read-only or a writable folder; ingest says the file is read-only', async (ctx) => {
    const blocked = unprivilegedCannotRun();
    if (blocked) return skipOrFail(ctx, blocked);
    const base = tmpDir('statelens-ro-cli-');
    fs.chmodSync(base, 0o777);
    const locked = path.join(base, 'locked');
    const open = path.join(base, 'open');
    fs.mkdirSync(locked);
    fs.mkdirSync(open);
    const events = path.join(base, 'events.jsonl');
    fs.writeFileSync(events, `${JSON.stringify({ type: 'state_write', ts: '2026-01-01T00:00:00Z', writes: [{ key: 'k', value: 'v' }] })}\n`);
    fs.chmodSync(events, 0o644);
    const dbs = { locked: path.join(locked, 'a.db'), open: path.join(open, 'b.db') };
    for (const db of Object.values(dbs)) {
      makeStatelensDb(db, 50);
      fs.chmodSync(db, 0o444);
    }
    fs.chmodSync(locked, 0o555);
    fs.chmodSync(open, 0o777);
    try {
      for (const [name, db] of Object.entries(dbs)) {
        const before = fileStates(db);
        const facts = await cli(['facts', '--db', db, '--json']);
        expect(facts.code, `${name} facts: ${facts.stderr}`).toBe(0);
        expect(facts.stdout.trim().split('\n')).toHaveLength(50);
        const verify = await cli(['verify', '--db', db]);
        expect(verify.code, `${name} verify: ${verify.stderr}`).toBe(0);
        const out = path.join(base, `${name}.ndjson`);
        const exported = await cli(['export', '--db', db, '--format', 'ndjson', '--out', out]);
        expect(exported.code, `${name} export: ${exported.stderr}`).toBe(0);
        expect(fs.readFileSync(out, 'utf8')).toContain('"type":"fact"');
        const ingest = await cli(['ingest', events, '--db', db, '--partition', 'user:acme/u1']);
        expect(ingest.code).toBe(1);
        expect(ingest.stderr).toMatch(/cannot be written: the file is read-only; it can still be read .*\[READ_ONLY\]/);
        expect(ingest.stderr).not.toMatch(/line 1/);
        expect(fileStates(db).db, name).toEqual(before.db);
      }
      expect(fs.readdirSync(locked)).toEqual(['a.db']);
    } finally {
      fs.chmodSync(locked, 0o755);
    }
  });

  it('reading a writable file leaves no -wal or -shm behind (facts, verify, every export format, context)', async () => {
    const dir = tmpDir('statelens-reader-');
    const db = path.join(dir, 'c.db');
    makeStatelensDb(db, 30);
    const before = fileStates(db).db;
    const runs: string[][] = [
      ['facts', '--db', db, '--json'],
      ['verify', '--db', db],
      ['context', '--db', db, '--partition', '1'],
      ...EXPORT_FORMATS.map((format) => ['export', '--db', db, '--format', format, '--out', path.join(dir, `out-${format}`)]),
    ];
    for (const args of runs) {
      const r = await statelens(args);
      expect(r.code, `${args[0]} ${args.slice(-2).join(' ')}: ${r.stderr}`).toBe(0);
      expect(
        fs.readdirSync(dir).filter((f) => f.startsWith('c.db')),
        args.join(' '),
      ).toEqual(['c.db']);
    }
    expect(fileStates(db).db).toEqual(before);
  });
});
