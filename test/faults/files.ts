// Byte-level helpers for fault tests: hashes of a database and its side files, bit flips at
// chosen offsets, and the page layout of a real Statelens database file.
import crypto from 'node:crypto';
import fs from 'node:fs';
import Database from 'better-sqlite3';
import type { EngineDb } from '../../electron/engine/db/connection';
import type { Store } from '../../electron/engine/store';
import { verifyDatabase } from '../../electron/engine/verify/verify';

export function sha256(file: string): string {
  return crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');
}

export interface FileState {
  readonly hash: string;
  readonly size: number;
}

/** Hash and size of the file and of every `-wal`/`-shm`/`-journal` beside it (absent ones omitted). */
export function fileStates(file: string): Record<string, FileState> {
  const out: Record<string, FileState> = {};
  for (const suffix of ['', '-wal', '-shm', '-journal']) {
    const p = file + suffix;
    if (fs.existsSync(p) && fs.statSync(p).isFile()) out[suffix || 'db'] = { hash: sha256(p), size: fs.statSync(p).size };
  }
  return out;
}

/** Flips one bit of the byte at `offset`. */
export function flipBit(file: string, offset: number, bit = 0): void {
  const fd = fs.openSync(file, 'r+');
  try {
    const b = Buffer.alloc(1);
    fs.readSync(fd, b, 0, 1, offset);
    b[0] = (b[0] ?? 0) ^ (1 << bit);
    fs.writeSync(fd, b, 0, 1, offset);
  } finally {
    fs.closeSync(fd);
  }
}

export function writeByte(file: string, offset: number, value: number): void {
  const fd = fs.openSync(file, 'r+');
  try {
    fs.writeSync(fd, Buffer.from([value]), 0, 1, offset);
  } finally {
    fs.closeSync(fd);
  }
}

export function pageSizeOf(file: string): number {
  const header = Buffer.alloc(100);
  const fd = fs.openSync(file, 'r');
  try {
    fs.readSync(fd, header, 0, 100, 0);
  } finally {
    fs.closeSync(fd);
  }
  const raw = header.readUInt16BE(16);
  return raw === 1 ? 65536 : raw;
}

/** Root b-tree page number of a table or index, read without going through the engine. */
export function rootPageOf(file: string, name: string): number {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const row = db.prepare('SELECT rootpage FROM sqlite_schema WHERE name = ?').get(name) as { rootpage: number } | undefined;
    if (!row) throw new Error(`no ${name} in ${file}`);
    return row.rootpage;
  } finally {
    db.close();
  }
}

/** Every page number that belongs to `name` (needs the dbstat virtual table; falls back to the root). */
export function pagesOf(file: string, name: string): number[] {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    try {
      return (db.prepare('SELECT pageno FROM dbstat WHERE name = ? ORDER BY pageno').pluck().all(name) as number[]) ?? [];
    } catch {
      return [rootPageOf(file, name)];
    }
  } finally {
    db.close();
  }
}

/** Every fact's id, validity and value in a stable order: a fingerprint of the stored data. */
export function factDigest(db: EngineDb): string {
  const rows = db.prepare('SELECT id, is_valid, superseded_by, value FROM facts ORDER BY id').raw().all();
  return crypto.createHash('sha256').update(JSON.stringify(rows)).digest('hex');
}

/** verifyDatabase's failed checks as lines (empty when `statelens verify` would pass). */
export function verifyProblems(store: Store): string[] {
  return verifyDatabase(store)
    .checks.filter((c) => !c.ok)
    .map((c) => `${c.name}: ${c.detail}`);
}
