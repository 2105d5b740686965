// Where an export may write: never over its own open database or the database's companion files
// (through `..`, a symlink or a hard link, whatever --overwrite says), and never over something
// that is not a regular file. The CLI runs as a real child process; the desktop export dialog
// (which passes overwrite) through the contract harness.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXPORT_FORMATS } from '../../shared/snapshot';
import { exportStore } from '../../electron/engine/snapshot/export';
import { Store } from '../../electron/engine/store';
import { statelens } from '../helpers/child';
import { describeStores } from '../helpers/stores';
import { tmpDir } from '../helpers/tmp';
import { scriptedDesktopShell, startHarness } from '../contract/harness';
import { isStatelensError } from '../../shared/errors';

const USER = { kind: 'user', org: 'acme', user: 'u1' } as const;

function makeDb(dir: string): { db: string; bytes: Buffer } {
  const db = path.join(dir, 's.db');
  const store = Store.open(db);
  store.scope(USER, { create: true }).writeFact({ key: 'budget', value: '$200,000' });
  store.close();
  return { db, bytes: fs.readFileSync(db) };
}

function factCount(db: string): number {
  const store = Store.open(db, { readonly: true });
  try {
    return store.scope(USER).validFacts().length;
  } finally {
    store.close();
  }
}

async function codeOfAsync(fn: () => Promise<unknown>): Promise<string> {
  try {
    await fn();
  } catch (e) {
    return isStatelensError(e) ? e.code : `untyped: ${String(e)}`;
  }
  return 'no error';
}

describe('statelens export never replaces its own database', () => {
  it.each(EXPORT_FORMATS)('--format %s --out <the database> --overwrite: refused, the database unchanged', async (format) => {
    const dir = tmpDir();
    const { db, bytes } = makeDb(dir);
    const r = await statelens(['export', '--db', db, '--format', format, '--out', db, '--overwrite']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/its own database.*INVALID_INPUT/s);
    expect(fs.readFileSync(db).equals(bytes)).toBe(true);
    expect(factCount(db)).toBe(1);
  });

  it('through ./d/../s.db, a symlink, a hard link and the -wal/-shm/-journal names', async () => {
    const dir = tmpDir();
    const { db, bytes } = makeDb(dir);
    fs.mkdirSync(path.join(dir, 'd'));
    fs.symlinkSync(db, path.join(dir, 'link.db'));
    fs.linkSync(db, path.join(dir, 'hard.db'));
    fs.symlinkSync(dir, path.join(dir, 'dirlink'));
    const outs = ['./d/../s.db', 'link.db', 'hard.db', 'dirlink/s.db', 's.db-wal', 's.db-shm', 's.db-journal', path.join(dir, 'd', '..', 's.db')];
    for (const out of outs) {
      const r = await statelens(['export', '--db', db, '--format', 'csv', '--out', out, '--overwrite'], { cwd: dir });
      expect({ out, code: r.code }).toEqual({ out, code: 2 });
      expect(r.stderr).toMatch(/INVALID_INPUT/);
    }
    expect(fs.readFileSync(db).equals(bytes)).toBe(true);
    expect(fs.lstatSync(path.join(dir, 'link.db')).isSymbolicLink()).toBe(true);
    expect(fs.existsSync(path.join(dir, 's.db-journal'))).toBe(false);
    expect(factCount(db)).toBe(1);
    // Another file in the same folder is still written.
    const ok = await statelens(['export', '--db', db, '--format', 'csv', '--out', 'facts.csv'], { cwd: dir });
    expect(ok.code).toBe(0);
    expect(fs.readFileSync(path.join(dir, 'facts.csv'), 'utf8')).toMatch(/budget/);
  });

  it('--format sqlite over the database while an agent holds it open: refused, acknowledged writes kept', async () => {
    const dir = tmpDir();
    const { db } = makeDb(dir);
    const agent = Store.open(db);
    try {
      agent.scope(USER).writeFact({ key: 'deadline', value: 'Friday' });
      const r = await statelens(['export', '--db', db, '--format', 'sqlite', '--out', db, '--overwrite']);
      expect(r.code).toBe(2);
      agent.scope(USER).writeFact({ key: 'owner', value: 'Ann' });
    } finally {
      agent.close();
    }
    expect(factCount(db)).toBe(3);
  });

  it('the desktop export dialog (which passes overwrite) choosing the open database: INVALID_INPUT, nothing replaced', async () => {
    const dir = tmpDir();
    const { db } = makeDb(dir);
    const dataDir = path.join(dir, 'data');
    const base = scriptedDesktopShell(dataDir, { openPath: db, exportDir: dataDir });
    const h = await startHarness({
      dataDir,
      dbPath: db,
      shell: { ...base, chooseExportTarget: async () => ({ kind: 'file', path: path.join(dir, 'd', '..', 's.db') }) },
    });
    try {
      fs.mkdirSync(path.join(dir, 'd'));
      for (const format of ['csv', 'sqlite'] as const) {
        const result = await h.bridge.export.start({ format, partitionId: null, operationId: `own-db-${format}` });
        expect(result).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
      }
    } finally {
      await h.close();
    }
    expect(factCount(db)).toBe(1);
  });
});

describeStores('an export never replaces what is not a regular file', (open) => {
  it('a named pipe, a symlink to a device and a folder are refused even with overwrite', async () => {
    const store = open();
    try {
      store.scope(USER, { create: true }).writeFact({ key: 'budget', value: '$200,000' });
      const dir = tmpDir();
      const fifo = path.join(dir, 'pipe');
      execFileSync('mkfifo', [fifo]);
      const device = path.join(dir, 'full');
      fs.symlinkSync('/dev/full', device);
      for (const out of [fifo, device]) {
        for (const format of ['csv', 'ndjson', 'sqlite'] as const) {
          const code = await codeOfAsync(() => exportStore(store, { format, out, overwrite: true }));
          expect({ out, format, code }).toEqual({ out, format, code: 'INVALID_INPUT' });
        }
      }
      expect(fs.lstatSync(fifo).isFIFO()).toBe(true);
      expect(fs.lstatSync(device).isSymbolicLink()).toBe(true);
      expect(fs.statSync('/dev/full').isCharacterDevice()).toBe(true);
      expect(await codeOfAsync(() => exportStore(store, { format: 'csv', out: dir, overwrite: true }))).toBe('INVALID_INPUT');
      expect(fs.readdirSync(dir).sort()).toEqual(['full', 'pipe']);
    } finally {
      store.close();
    }
  });
});

describe('statelens export onto a device', () => {
  it('--out /dev/full --overwrite is refused and the device stays a device', async () => {
    const dir = tmpDir();
    const { db } = makeDb(dir);
    const r = await statelens(['export', '--db', db, '--format', 'csv', '--out', '/dev/full', '--overwrite']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/not a regular file/);
    expect(fs.statSync('/dev/full').isCharacterDevice()).toBe(true);
  });
});
