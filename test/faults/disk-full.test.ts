// Disk full and read-only storage: writes fail with DISK_FULL / READ_ONLY, nothing partial is
// committed, the database stays intact and works again once space or permission returns.
// Uses a real 4 MB tmpfs (root + mount); read-only folders run in an unprivileged child.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isStatelensError, type StatelensError } from '../../shared/errors';
import { sqliteOf } from '../../electron/engine/db/connection';
import { exportStore } from '../../electron/engine/snapshot/export';
import { importSnapshotFile } from '../../electron/engine/snapshot/import';
import { Store } from '../../electron/engine/store';
import { spawnFixture, unprivilegedCannotRun } from '../helpers/child';
import { tmpDir } from '../helpers/tmp';
import { makeStatelensDb, sqliteChecks } from '../../electron/bench/databases';
import { factDigest, fileStates, verifyProblems } from './files';
import { fillDisk, mountTmpfs, type MountResult } from './mounts';
import { skipOrFail } from './skip-or-fail';

const user = { kind: 'user', org: 'acme', user: 'ann' } as const;

function expectTyped(fn: () => unknown, codes: readonly string[]): StatelensError {
  try {
    fn();
  } catch (e) {
    if (!isStatelensError(e)) throw new Error(`expected a typed error (${codes.join('/')}), got ${String(e)}`, { cause: e });
    expect(codes).toContain(e.code);
    expect(e.message).not.toContain('\n');
    return e;
  }
  throw new Error(`expected ${codes.join('/')} but the call succeeded`);
}

function bulk(n: number, tag: string, size: number): Array<{ key: string; value: string }> {
  return Array.from({ length: n }, (_, i) => ({ key: `${tag}_${i}`, value: `${tag} ${i} ${'x'.repeat(size)}` }));
}

let mount: MountResult;
beforeAll(() => {
  mount = mountTmpfs('4m');
});
afterAll(() => {
  if (mount.ok) mount.fs.unmount();
});

describe('disk full', () => {
  it('a write on a full disk fails with DISK_FULL, commits nothing, and works again after space is freed', (ctx) => {
    if (!mount.ok) return skipOrFail(ctx, mount.reason);
    const dir = fs.mkdtempSync(path.join(mount.fs.dir, 'full-'));
    const file = path.join(dir, 'full.db');
    const filler = path.join(dir, 'filler.bin');
    const store = Store.open(file);
    const p = store.scope(user, { create: true });
    p.writeFacts(bulk(300, 'base', 200));
    p.writeFacts([{ key: 'base_7', value: 'base 7 corrected: actually changed' }]); // a chain
    const before = factDigest(store.db);
    const countBefore = p.allFacts().length;

    const filled = fillDisk(filler);
    ctx.onTestFinished(() => fs.rmSync(dir, { recursive: true, force: true }));
    expect(filled).toBeGreaterThan(0);
    const err = expectTyped(() => p.writeFacts(bulk(400, 'more', 2000)), ['DISK_FULL']);
    console.log(`[disk-full] batch write on a full tmpfs: ${err.code}: ${err.message}`);
    expect(p.allFacts().length).toBe(countBefore);
    expect(factDigest(store.db)).toBe(before);
    expect(sqliteChecks(store.db)).toEqual([]);
    expect(verifyProblems(store)).toEqual([]);

    // Keep writing until even one small fact cannot be stored; each failure is typed and atomic.
    let small = 0;
    for (let i = 0; i < 200; i++) {
      try {
        p.writeFacts(bulk(5, `small${i}`, 500));
        small += 5;
      } catch (e) {
        if (!isStatelensError(e)) throw e;
        expect(e.code).toBe('DISK_FULL');
        break;
      }
    }
    expect(p.allFacts().length).toBe(countBefore + small);
    store.close();

    // Reopening on the full disk either works or says DISK_FULL; it never damages the file.
    try {
      Store.open(file).close();
    } catch (e) {
      if (!isStatelensError(e)) throw e;
      expect(['DISK_FULL', 'READ_ONLY', 'CORRUPT_DB']).toContain(e.code);
    }
    fs.rmSync(filler);
    const again = Store.open(file);
    expect(sqliteChecks(again.db)).toEqual([]);
    expect(verifyProblems(again)).toEqual([]);
    const q = again.scope(user);
    expect(q.allFacts().length).toBe(countBefore + small);
    expect(q.currentValue('base_7')).toBe('base 7 corrected: actually changed');
    q.writeFacts(bulk(50, 'after', 200));
    expect(q.allFacts().length).toBe(countBefore + small + 50);
    again.close();
  });

  it('creating a database on a full disk fails with a typed error and leaves no half-made database', (ctx) => {
    if (!mount.ok) return skipOrFail(ctx, mount.reason);
    const dir = fs.mkdtempSync(path.join(mount.fs.dir, 'create-'));
    const filler = path.join(dir, 'filler.bin');
    fillDisk(filler);
    ctx.onTestFinished(() => fs.rmSync(dir, { recursive: true, force: true }));
    const file = path.join(dir, 'new.db');
    expectTyped(() => Store.open(file).close(), ['DISK_FULL', 'READ_ONLY', 'CORRUPT_DB']);
    fs.rmSync(filler);
    // With space back, the same path opens as a fresh, migrated database (or the leftover is refused clearly).
    try {
      const s = Store.open(file);
      expect(sqliteChecks(s.db)).toEqual([]);
      s.close();
    } catch (e) {
      if (!isStatelensError(e)) throw e;
      expect(['NOT_A_STATELENS_DB']).toContain(e.code);
    }
  });
});

async function expectTypedAsync(fn: () => Promise<unknown>, codes: readonly string[]): Promise<StatelensError> {
  try {
    await fn();
  } catch (e) {
    if (!isStatelensError(e)) throw new Error(`expected a typed error (${codes.join('/')}), got ${String(e)}`, { cause: e });
    expect(codes).toContain(e.code);
    return e;
  }
  throw new Error(`expected ${codes.join('/')} but the call succeeded`);
}

describe('disk full during export, import and delete', () => {
  it('an export onto a full disk fails with DISK_FULL, leaves no file behind, and works once space is back', async (ctx) => {
    if (!mount.ok) return skipOrFail(ctx, mount.reason);
    const source = path.join(tmpDir(), 'source.db');
    makeStatelensDb(source, 3000);
    const store = Store.open(source);
    ctx.onTestFinished(() => store.close());
    const before = factDigest(store.db);
    const dir = fs.mkdtempSync(path.join(mount.fs.dir, 'export-'));
    const filler = path.join(dir, 'filler.bin');
    fillDisk(filler);
    ctx.onTestFinished(() => fs.rmSync(dir, { recursive: true, force: true }));
    for (const format of ['ndjson', 'json', 'csv', 'markdown', 'statebench', 'sqlite'] as const) {
      const out = path.join(dir, `snapshot.${format}`);
      const err = await expectTypedAsync(() => exportStore(store, { format, out }), ['DISK_FULL']);
      if (format === 'ndjson') console.log(`[disk-full] export on a full tmpfs: ${err.code}: ${err.message}`);
      expect(fs.readdirSync(dir).sort(), format).toEqual(['filler.bin']);
    }
    expect(factDigest(store.db)).toBe(before);
    fs.rmSync(filler);
    const summary = await exportStore(store, { format: 'ndjson', out: path.join(dir, 'snapshot.ndjson') });
    expect(summary.records).toBeGreaterThan(3000);
  });

  it('a snapshot import into a database on a full disk fails with DISK_FULL and imports nothing', async (ctx) => {
    if (!mount.ok) return skipOrFail(ctx, mount.reason);
    const source = path.join(tmpDir(), 'source.db');
    makeStatelensDb(source, 3000);
    const src = Store.open(source, { readonly: true });
    const snapshot = path.join(tmpDir(), 'snap.ndjson');
    await exportStore(src, { format: 'ndjson', out: snapshot });
    src.close();
    const dir = fs.mkdtempSync(path.join(mount.fs.dir, 'import-'));
    ctx.onTestFinished(() => fs.rmSync(dir, { recursive: true, force: true }));
    const file = path.join(dir, 'target.db');
    const target = Store.open(file);
    ctx.onTestFinished(() => target.close());
    const filler = path.join(dir, 'filler.bin');
    fillDisk(filler);
    expectTyped(() => importSnapshotFile(target, snapshot), ['DISK_FULL']);
    expect(target.listPartitions()).toEqual([]);
    expect(sqliteChecks(target.db)).toEqual([]);
    fs.rmSync(filler);
    const result = importSnapshotFile(target, snapshot);
    expect(result.records).toBeGreaterThan(3000);
    expect(verifyProblems(target)).toEqual([]);
  });

  it('a bulk delete on a full disk is applied wholly or not at all, and the database stays sound', (ctx) => {
    if (!mount.ok) return skipOrFail(ctx, mount.reason);
    const dir = fs.mkdtempSync(path.join(mount.fs.dir, 'delete-'));
    ctx.onTestFinished(() => fs.rmSync(dir, { recursive: true, force: true }));
    const file = path.join(dir, 'delete.db');
    const store = Store.open(file);
    ctx.onTestFinished(() => store.close());
    const p = store.scope(user, { create: true });
    p.writeFacts(bulk(300, 'del', 100));
    p.writeFacts(Array.from({ length: 50 }, (_, i) => ({ key: `del_${i}`, value: `del ${i} corrected: actually changed` })));
    sqliteOf(store.db, 'A WAL checkpoint').pragma('wal_checkpoint(TRUNCATE)');
    const total = p.allFacts().length;
    const filler = path.join(dir, 'filler.bin');
    fillDisk(filler);
    let deleted = 0;
    try {
      deleted = p.deleteFacts({ filter: { validity: 'superseded' } }, { actor: 'disk-full test', reason: 'cleanup' }).deleted;
    } catch (e) {
      if (!isStatelensError(e)) throw e;
      expect(e.code).toBe('DISK_FULL');
      console.log(`[disk-full] bulk delete on a full tmpfs: ${e.code}: ${e.message}`);
    }
    // Whole or nothing: all 50 superseded facts are gone, or every fact is still there.
    expect([total, total - 50]).toContain(p.allFacts().length);
    expect(deleted === 0 || deleted === 50).toBe(true);
    expect(sqliteChecks(store.db)).toEqual([]);
    fs.rmSync(filler);
    expect(verifyProblems(store)).toEqual([]);
  });
});

describe('read-only storage', () => {
  it('a read-only filesystem: opening read-write fails with READ_ONLY and the bytes are unchanged', (ctx) => {
    if (!mount.ok) return skipOrFail(ctx, mount.reason);
    const dir = fs.mkdtempSync(path.join(mount.fs.dir, 'ro-'));
    const file = path.join(dir, 'ro.db');
    makeStatelensDb(file, 200);
    const before = fileStates(file);
    mount.fs.remount('ro');
    try {
      const e = expectTyped(() => Store.open(file).close(), ['READ_ONLY']);
      console.log(`[read-only fs] read-write open: ${e.code}: ${e.message}`);
      // A WAL database needs its -shm beside it even to read; SQLite cannot create it here.
      try {
        const s = Store.open(file, { readonly: true });
        expect(s.scope(user).allFacts().length).toBe(200);
        expectTyped(() => s.scope(user).writeFact({ key: 'x', value: 'y' }), ['READ_ONLY']);
        s.close();
        console.log('[read-only fs] read-only open: works');
      } catch (err) {
        if (!isStatelensError(err)) throw err;
        expect(err.code).toBe('READ_ONLY');
        console.log(`[read-only fs] read-only open: ${err.code}: ${err.message}`);
      }
    } finally {
      mount.fs.remount('rw');
    }
    expect(fileStates(file)).toEqual(before);
    const s = Store.open(file);
    expect(sqliteChecks(s.db)).toEqual([]);
    expect(verifyProblems(s)).toEqual([]);
    expect(s.scope(user).allFacts().length).toBe(200);
    s.close();
  });

  it('a read-only folder and a read-only file (unprivileged process): typed READ_ONLY, nothing changed', async (ctx) => {
    // As root the probe runs as uid 65534, which must be able to reach the project's code.
    const blocked = unprivilegedCannotRun();
    if (blocked) return skipOrFail(ctx, blocked);
    const base = tmpDir('statelens-ro-');
    fs.chmodSync(base, 0o755);
    const roDir = path.join(base, 'locked');
    fs.mkdirSync(roDir);
    const file = path.join(roDir, 'locked.db');
    makeStatelensDb(file, 120);
    const fileOnly = path.join(base, 'file-only');
    fs.mkdirSync(fileOnly);
    const roFile = path.join(fileOnly, 'ro-file.db');
    makeStatelensDb(roFile, 120);

    fs.chmodSync(file, 0o444);
    fs.chmodSync(roDir, 0o555);
    fs.chmodSync(roFile, 0o444);
    fs.chmodSync(fileOnly, 0o777);
    const states = { dir: fileStates(file), file: fileStates(roFile) };
    const asRoot = process.getuid?.() === 0;
    console.log(`[read-only folder] probing as ${asRoot ? 'uid 65534 (root ignores file modes, so the probe drops privileges)' : `uid ${process.getuid?.()}`}`);
    try {
      for (const [name, db] of [
        ['folder 0555 + file 0444', file],
        ['file 0444 in a writable folder', roFile],
      ] as const) {
        const child = spawnFixture('readonly-probe.ts', [db], {}, asRoot ? { uid: 65534, gid: 65534 } : undefined);
        const msg = await child.waitFor((m) => m.type === 'result', 60_000);
        await child.exited;
        const result = msg.result as Record<string, { ok: boolean; code?: string; facts?: number; message?: string }>;
        console.log(`[read-only folder] ${name}: ${JSON.stringify(result)}`);
        for (const [step, r] of Object.entries(result)) {
          if (!r.ok) expect(r.code, `${name} ${step}: ${r.message}`).toBe('READ_ONLY');
        }
        // No write got through, whichever step refused it.
        expect(result['readwrite.write']?.ok ?? false).toBe(false);
        expect(result['readonly.write']?.ok ?? false).toBe(false);
        for (const r of [result['readwrite.open'], result['readonly.open'], result['readwrite.afterWrite']]) {
          if (r?.ok && r.facts !== undefined) expect(r.facts).toBe(120);
        }
      }
    } finally {
      fs.chmodSync(roDir, 0o755);
      fs.chmodSync(file, 0o644);
      fs.chmodSync(roFile, 0o644);
    }
    expect(fileStates(file).db).toEqual(states.dir.db);
    expect(fileStates(roFile).db).toEqual(states.file.db);
  });
});
