// `statelens delete` while another process holds a read transaction: the delete commits, but
// the text cannot be overwritten yet, so the command says where the copies are and what removes
// them, and exits 1. A real second process holds the transaction.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tmpDir } from '../helpers/tmp';
import { repoRoot } from '../helpers/paths';
import { statelens } from '../helpers/child';

const HOLD_READ = `
const Database = require('better-sqlite3');
const db = new Database(process.argv[1], { readonly: true });
db.exec('BEGIN');
db.prepare('SELECT count(*) FROM facts').get();
process.stdout.write('reading\\n');
process.stdin.on('data', () => {});
process.stdin.on('end', () => { db.exec('COMMIT'); db.close(); process.exit(0); });
`;

describe('statelens delete while another process reads', () => {
  it('reports copies left in the database file, says what removes them and exits 1; a later delete completes', async () => {
    const dir = tmpDir();
    const db = path.join(dir, 'agent.db');
    const events = path.join(dir, 'events.jsonl');
    fs.writeFileSync(
      events,
      ['secret-alpha', 'plain-beta', 'plain-gamma']
        .map((v, i) => JSON.stringify({ type: 'state_write', ts: `2026-01-0${i + 1}T00:00:00Z`, writes: [{ key: `k${i}`, value: v }] }))
        .join('\n'),
    );
    expect((await statelens(['ingest', events, '--db', db, '--partition', 'user:acme/u1'])).code).toBe(0);
    const reader = spawn(process.execPath, ['-e', HOLD_READ, db], { cwd: repoRoot, stdio: ['pipe', 'pipe', 'inherit'] });
    await new Promise<void>((resolve) => reader.stdout.once('data', () => resolve()));
    try {
      const r = await statelens(['delete', '--db', db, '--partition', 'user:acme/u1', '--key', 'k0', '--yes']);
      expect(r.code).toBe(1);
      expect(r.stdout).toMatch(/Deleted 1 fact/);
      expect(r.stderr).toMatch(/copies of the deleted text remain in the database file/);
      expect(r.stderr).toMatch(/once that reader ends and a checkpoint runs/);
      expect(r.stderr).not.toMatch(/remain in (it|the WAL) until/);
    } finally {
      reader.stdin.end();
      await new Promise((resolve) => reader.once('exit', resolve));
    }
    const later = await statelens(['delete', '--db', db, '--partition', 'user:acme/u1', '--key', 'k1', '--yes']);
    expect(later.code, later.stderr).toBe(0);
    expect(later.stdout).toMatch(/Text removed from the file and its WAL: yes/);
    expect(fs.readFileSync(db).includes(Buffer.from('secret-alpha'))).toBe(false);
  });
});
