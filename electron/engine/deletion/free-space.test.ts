import crypto from 'node:crypto';
import fs from 'node:fs';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { dumpTables } from '../../../test/engine/support';
import { sqliteOf } from '../db/connection';
import { openTmpStore, tmpDbPath } from '../../../test/helpers/tmp';
import type { Store } from '../store';
import { freeRegions, NeedleSet, wipeFreeSpace } from './free-space';
import { wipeUnderLock } from './scrub';

/** Nonzero bytes in the free regions of the pages SQLite lists as b-tree pages. */
function dirtyFreeBytes(db: Database.Database, path: string): number {
  const pageSize = db.pragma('page_size', { simple: true }) as number;
  const btree = db.prepare("SELECT pageno FROM dbstat WHERE pagetype IN ('internal', 'leaf')").pluck().all() as number[];
  const file = fs.readFileSync(path);
  let dirty = 0;
  for (const pageNo of btree) {
    const page = file.subarray((pageNo - 1) * pageSize, pageNo * pageSize);
    for (const [from, to] of freeRegions(page, pageNo === 1 ? 100 : 0, pageSize)) for (let i = from; i < to; i++) if (page[i] !== 0) dirty++;
  }
  return dirty;
}

/** The bytes of every overflow page, by page number. */
function overflowPages(db: Database.Database, path: string): Map<number, string> {
  const pageSize = db.pragma('page_size', { simple: true }) as number;
  const file = fs.readFileSync(path);
  const pages = new Map<number, string>();
  for (const n of db.prepare("SELECT pageno FROM dbstat WHERE pagetype = 'overflow'").pluck().all() as number[])
    pages.set(n, file.subarray((n - 1) * pageSize, n * pageSize).toString('hex'));
  return pages;
}

/** Nonzero bytes on freelist pages beyond what the freelist itself records. */
function dirtyFreelistBytes(path: string): number {
  const file = fs.readFileSync(path);
  const pageSize = file.readUInt16BE(16);
  const page = (n: number): Buffer => file.subarray((n - 1) * pageSize, n * pageSize);
  let dirty = 0;
  for (let trunk = file.readUInt32BE(32); trunk !== 0; trunk = page(trunk).readUInt32BE(0)) {
    const t = page(trunk);
    const count = t.readUInt32BE(4);
    for (let i = 8 + 4 * count; i < pageSize; i++) if (t[i] !== 0) dirty++;
    for (let i = 0; i < count; i++) for (const b of page(t.readUInt32BE(8 + 4 * i))) if (b !== 0) dirty++;
  }
  return dirty;
}

/** Runs the wipe the way the scrub does: under the write lock, with the WAL checkpointed away. */
function wipe(db: Database.Database, path: string, needles = new NeedleSet()): ReturnType<typeof wipeFreeSpace> {
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.exec('BEGIN IMMEDIATE');
  try {
    let walked = false;
    const result = wipeFreeSpace(path, needles, () => {
      walked = true;
      return new Set(db.prepare("SELECT pageno FROM dbstat WHERE pagetype IN ('internal', 'leaf')").pluck().all() as number[]);
    });
    return { ...result, walked } as ReturnType<typeof wipeFreeSpace> & { walked: boolean };
  } finally {
    db.exec('COMMIT');
    db.pragma('shrink_memory');
  }
}

/** A store whose b-tree pages hold stale bytes in their free space: many facts, some with values
 * long enough to spill onto overflow pages, then deletions without the engine's scrub. */
function storeWithStaleFreeSpace(): { store: Store; db: Database.Database; markers: string[] } {
  const store = openTmpStore();
  const db = sqliteOf(store.db, 'Wiping free space');
  const p = store.scope({ kind: 'user', org: 'acme', user: 'u1' }, { create: true });
  const markers: string[] = [];
  const batch = Array.from({ length: 1500 }, (_, i) => {
    const marker = `mk${crypto.randomBytes(6).toString('hex')}`;
    markers.push(marker);
    return { key: `topic_${i % 97}_${i}`, value: `note ${marker} ${'detail '.repeat(i % 5 === 0 ? 900 : i % 30)}end` };
  });
  p.writeFacts(batch);
  db.pragma('secure_delete = OFF');
  db.exec('DELETE FROM facts WHERE rid % 7 = 0');
  db.pragma('secure_delete = ON');
  return { store, db, markers };
}

describe('zeroing free space in place', () => {
  it('clears every stale byte of every b-tree page and changes nothing else', () => {
    const { store, db } = storeWithStaleFreeSpace();
    db.pragma('wal_checkpoint(TRUNCATE)');
    const before = dirtyFreeBytes(db, store.path);
    expect(before).toBeGreaterThan(0);
    const freelistBefore = dirtyFreelistBytes(store.path);
    expect(freelistBefore).toBeGreaterThan(0); // pages freed while secure_delete was off
    const content = dumpTables(db);
    const overflow = overflowPages(db, store.path);
    expect(overflow.size).toBeGreaterThan(10);

    const result = wipe(db, store.path);
    expect(result.bytesZeroed).toBeGreaterThanOrEqual(before + freelistBefore);
    expect(dirtyFreeBytes(db, store.path)).toBe(0);
    expect(dirtyFreelistBytes(store.path)).toBe(0);
    expect(overflowPages(db, store.path)).toEqual(overflow);
    expect(dumpTables(db)).toEqual(content);
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    store.close();
  });

  it('reports the matches it wiped away', () => {
    const { store, db, markers } = storeWithStaleFreeSpace();
    const needles = new NeedleSet();
    for (const m of markers) needles.add(m);
    db.pragma('wal_checkpoint(TRUNCATE)');
    const file = fs.readFileSync(store.path).toString('latin1');
    expect(markers.some((m) => file.includes(m))).toBe(true);
    const result = wipe(db, store.path, needles);
    expect(result.scan.hits.length).toBeGreaterThan(0);
    expect(result.scan.btreePages).toBeGreaterThan(0);
    store.close();
  });

  it('asks SQLite for the b-tree pages when the file has auto-vacuum pointer maps', () => {
    const path = tmpDbPath('autovacuum.db');
    const db = new Database(path);
    db.pragma('auto_vacuum = FULL');
    db.pragma('journal_mode = WAL');
    db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT); CREATE INDEX t_v ON t (v)');
    const insert = db.prepare('INSERT INTO t (v) VALUES (?)');
    db.transaction(() => {
      for (let i = 0; i < 3000; i++) insert.run(`value ${crypto.randomBytes(8).toString('hex')} ${'x'.repeat(i % 200)}`);
    })();
    db.exec('DELETE FROM t WHERE id % 3 = 0');
    const content = db.prepare('SELECT * FROM t ORDER BY id').all();
    const result = wipe(db, path) as ReturnType<typeof wipeFreeSpace> & { walked: boolean };
    expect(result.walked).toBe(true);
    expect(dirtyFreeBytes(db, path)).toBe(0);
    expect(dirtyFreelistBytes(path)).toBe(0);
    expect(db.prepare('SELECT * FROM t ORDER BY id').all()).toEqual(content);
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    db.close();
  });

  it('no other connection writes a cached copy of wiped free space back', () => {
    const store = openTmpStore();
    const p = store.scope({ kind: 'user', org: 'acme', user: 'u1' }, { create: true });
    const rows = Array.from({ length: 1200 }, (_, i) => ({
      key: `topic_${i}`,
      value: `note mk${crypto.randomBytes(6).toString('hex')} ${'detail '.repeat(i % 30)}end`,
    }));
    p.writeFacts(rows);
    const db = sqliteOf(store.db, 'Wiping free space');
    const marker = (value: string): string => value.match(/mk[0-9a-f]{12}/)![0];
    // Rows removed without secure_delete leave their text in their pages' free space.
    const gone = (db.prepare('SELECT value FROM facts WHERE rid % 4 = 0').pluck().all() as string[]).map(marker);
    db.pragma('secure_delete = OFF');
    db.exec('DELETE FROM facts WHERE rid % 4 = 0');
    db.pragma('secure_delete = ON');
    db.pragma('wal_checkpoint(TRUNCATE)');
    // A second connection reads every page now, after the checkpoint: its cache holds the free
    // space as it is before the wipe, under the same WAL header the wipe starts from.
    const other = new Database(store.path);
    other.pragma('cache_size = -65536');
    other.prepare('SELECT * FROM facts').all();
    const before = fs.readFileSync(store.path).toString('latin1');
    expect(gone.filter((m) => before.includes(m)).length).toBeGreaterThan(0);

    const wiped = wipeUnderLock(db, store.path, new NeedleSet());
    expect(wiped?.bytesZeroed).toBeGreaterThan(0);
    // The other connection now rewrites every table page: from its cache, were it still valid.
    other.exec('UPDATE facts SET importance = importance / 2');
    other.close();
    db.pragma('wal_checkpoint(TRUNCATE)');
    const after = fs.readFileSync(store.path).toString('latin1');
    expect(gone.filter((m) => after.includes(m))).toEqual([]);
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    store.close();
  });
});

describe('finding needles in free space', () => {
  const find = (needles: NeedleSet, hay: string, from = 0, to?: number): Array<[number, string]> => {
    const buf = Buffer.from(hay, 'utf8');
    const hits: Array<[number, string]> = [];
    needles.matchIn(buf, from, to ?? buf.length, (offset, kind) => hits.push([offset, kind]));
    return hits;
  };

  it('finds short and long needles, whole, and only inside the region', () => {
    const needles = new NeedleSet();
    needles.add('zq91');
    needles.add('a sixteen-plus byte needle');
    needles.add('abc'); // too short: a coincidence, never a needle
    expect(find(needles, '..zq91..a sixteen-plus byte needle..abc')).toEqual([
      [2, 'text'],
      [8, 'text'],
    ]);
    expect(find(needles, '..zq91..a sixteen-plus byte needle', 0, 20)).toEqual([[2, 'text']]);
    expect(find(needles, '..zq9 a sixteen-plus byte needl')).toEqual([]);
  });

  it('finds a long text by any window of it, and prefers text over a word at one offset', () => {
    const value = Array.from({ length: 40 }, (_, i) => `w${i}`).join(' ');
    const needles = new NeedleSet();
    needles.add(value);
    needles.add('w10 w11', 'word');
    // A 100-byte fragment from the middle of the value still holds a whole window.
    const fragment = value.slice(40, 140);
    expect(find(needles, `xx${fragment}xx`).length).toBeGreaterThan(0);
    expect(find(needles, 'zz w10 w11 zz')).toEqual([[3, 'word']]);
    const sharedStart = new NeedleSet();
    sharedStart.add('quarterly vendor invoice 123', 'word');
    sharedStart.add('quarterly vendor invoice 123');
    expect(find(sharedStart, '_quarterly vendor invoice 123_')).toEqual([[1, 'text']]);
    expect(find(sharedStart, '_quarterly vendor invoice 124_')).toEqual([]);
  });
});
