// Corrupt and hostile files: each opens (read-only or read-write) or fails with a typed error,
// and the file's bytes are unchanged afterwards (no side file that changes the database either).
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isStatelensError, type ErrorCode } from '../../shared/errors';
import { SCHEMA_VERSION } from '../../electron/engine/db/migrations';
import { Store } from '../../electron/engine/store';
import { verifyDatabase } from '../../electron/engine/verify/verify';
import { envInt, statelens } from '../helpers/child';
import { tmpDir } from '../helpers/tmp';
import { makeStatelensDb } from '../../electron/bench/databases';
import { fileStates, flipBit, pageSizeOf, pagesOf, rootPageOf, writeByte, type FileState } from './files';

type Outcome = { opened: true; facts: number; readFailure?: string; verified: boolean } | { opened: false; code: ErrorCode; message: string };

/** Opens, reads every partition, runs `statelens verify`, closes. An open that fails must fail
 * with a typed StatelensError. Damage that SQLite's quick_check at open cannot see (a wrong index
 * entry) may surface on a later read as SQLITE_CORRUPT: recorded, and verify must then report it. */
function tryOpen(file: string, readonly: boolean): Outcome {
  let store: Store | undefined;
  try {
    store = Store.open(file, { readonly, create: false });
  } catch (e) {
    if (!isStatelensError(e))
      throw new Error(`untyped error opening ${path.basename(file)} (${readonly ? 'read-only' : 'read-write'}): ${String(e)}`, { cause: e });
    expect(e.message.length).toBeGreaterThan(10);
    expect(e.message).not.toContain('\n');
    return { opened: false, code: e.code, message: e.message };
  }
  try {
    let facts = 0;
    let readFailure: string | undefined;
    try {
      for (const p of store.listPartitions()) facts += store.scopeById(p.id).allFacts().length;
    } catch (e) {
      const code = isStatelensError(e) ? e.code : String((e as { code?: unknown }).code ?? '');
      if (!/^(CORRUPT_DB|SQLITE_CORRUPT)/.test(code)) throw new Error(`read after open failed with ${code}: ${String(e)}`, { cause: e });
      readFailure = code;
    }
    // verify must not throw on what opened; when a read hit damage, it must say the file is damaged.
    const report = verifyDatabase(store);
    if (readFailure) expect(report.ok, `reads hit ${readFailure} but verify passed`).toBe(false);
    return { opened: true, facts, verified: report.ok, ...(readFailure ? { readFailure } : {}) };
  } finally {
    store.close();
  }
}

/** The database file itself is byte-identical, and any side file left behind is empty or as before.
 * With `headerMayChange`, bytes 0-99 may differ (a read-write open of a file that passes every
 * check may set WAL mode, rewriting the header); every page byte after it must be identical. */
function expectUntouched(file: string, before: Record<string, FileState>, original?: Buffer, headerMayChange = false): void {
  const after = fileStates(file);
  if (headerMayChange && original && after.db?.hash !== before.db?.hash) {
    const now = fs.readFileSync(file);
    expect(now.length).toBe(original.length);
    expect(now.subarray(100).equals(original.subarray(100)), 'database bytes after the header').toBe(true);
  } else {
    expect(after.db, 'database bytes').toEqual(before.db);
  }
  for (const side of ['-wal', '-journal'] as const) {
    const b = before[side];
    const a = after[side];
    if (a && !b) expect(a.size, `${side} left behind with content`).toBe(0);
    if (b) expect(a, `${side} changed`).toEqual(b);
  }
}

function checkBoth(file: string, allowed: readonly ErrorCode[], mayOpen = false): Outcome[] {
  const isDir = fs.statSync(file).isDirectory();
  const before = isDir ? {} : fileStates(file);
  const original = isDir ? undefined : fs.readFileSync(file);
  const readOnly = tryOpen(file, true);
  if (!isDir) expectUntouched(file, before);
  const readWrite = tryOpen(file, false);
  if (!isDir) expectUntouched(file, before, original, readWrite.opened && readWrite.verified);
  for (const o of [readOnly, readWrite]) {
    if (o.opened) expect(mayOpen, `${path.basename(file)} opened but should have been refused`).toBe(true);
    else expect(allowed, `${path.basename(file)}: ${o.code} ${o.message}`).toContain(o.code);
  }
  return [readOnly, readWrite];
}

function variant(base: string, name: string): string {
  const file = path.join(path.dirname(base), name);
  fs.copyFileSync(base, file);
  return file;
}

function otherAppDb(file: string, wal: boolean): void {
  const db = new Database(file);
  if (wal) db.pragma('journal_mode = WAL');
  db.exec("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT); INSERT INTO notes (body) VALUES ('shopping list'), ('call mum');");
  db.close();
}

describe('corrupt and hostile files', { timeout: 600_000 }, () => {
  const dir = () => tmpDir('statelens-hostile-');

  it('refuses files that are not SQLite: zero-length, text, random bytes, a directory', () => {
    const d = dir();
    const empty = path.join(d, 'empty.db');
    fs.writeFileSync(empty, '');
    const text = path.join(d, 'notes.db');
    fs.writeFileSync(text, 'This is a plain text file, not a database.\n'.repeat(100));
    const random = path.join(d, 'random.db');
    fs.writeFileSync(random, Buffer.from(Array.from({ length: 8192 }, (_, i) => (i * 7919 + 13) % 256)));
    const png = path.join(d, 'image.db');
    fs.writeFileSync(png, Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(4096, 1)]));
    const folder = path.join(d, 'folder.db');
    fs.mkdirSync(folder);
    for (const f of [empty, text, random, png, folder]) checkBoth(f, ['NOT_A_STATELENS_DB']);
    expect(fs.readdirSync(folder)).toEqual([]);
  });

  it("refuses another application's SQLite file (rollback journal and WAL) and an empty foreign SQLite file", () => {
    const d = dir();
    const rollback = path.join(d, 'other-rollback.db');
    otherAppDb(rollback, false);
    const wal = path.join(d, 'other-wal.db');
    otherAppDb(wal, true);
    const bare = path.join(d, 'bare.db');
    const db = new Database(bare);
    db.pragma('user_version = 0');
    db.exec('VACUUM');
    db.close();
    const outcomes = [rollback, wal, bare].flatMap((f) => checkBoth(f, ['NOT_A_STATELENS_DB']));
    const messages = outcomes.map((o) => (o.opened ? '' : o.message));
    expect(messages.some((m) => m.includes('another application'))).toBe(true);
  });

  it('refuses a database of a newer schema version with DB_TOO_NEW, read-only too', () => {
    const d = dir();
    const file = path.join(d, 'future.db');
    makeStatelensDb(file, 50);
    const db = new Database(file);
    db.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
    db.close();
    const outcomes = checkBoth(file, ['DB_TOO_NEW']);
    for (const o of outcomes) if (!o.opened) expect(o.message).toContain(String(SCHEMA_VERSION + 1));
  });

  it('refuses truncated databases with a typed error', () => {
    const d = dir();
    const base = path.join(d, 'base.db');
    makeStatelensDb(base);
    const size = fs.statSync(base).size;
    const page = pageSizeOf(base);
    const half = variant(base, 'half.db');
    fs.truncateSync(half, Math.floor(size / page / 2) * page);
    const ragged = variant(base, 'ragged.db');
    fs.truncateSync(ragged, Math.floor(size / 3) + 123);
    const headerOnly = variant(base, 'header-only.db');
    fs.truncateSync(headerOnly, 100);
    const shortHeader = variant(base, 'short-header.db');
    fs.truncateSync(shortHeader, 60);
    checkBoth(half, ['CORRUPT_DB']);
    checkBoth(ragged, ['CORRUPT_DB']);
    checkBoth(headerOnly, ['CORRUPT_DB', 'NOT_A_STATELENS_DB']);
    checkBoth(shortHeader, ['NOT_A_STATELENS_DB']);
  });

  it('refuses bit flips in the header, the schema page and b-tree pages', () => {
    const d = dir();
    const base = path.join(d, 'base.db');
    makeStatelensDb(base);
    const page = pageSizeOf(base);

    const magic = variant(base, 'magic.db');
    flipBit(magic, 3, 2); // "SQLite format 3" no longer
    checkBoth(magic, ['NOT_A_STATELENS_DB']);

    const appId = variant(base, 'app-id.db');
    flipBit(appId, 70, 1); // application_id no longer ours: someone else's file
    checkBoth(appId, ['NOT_A_STATELENS_DB']);

    const pageSize = variant(base, 'page-size.db');
    flipBit(pageSize, 16, 3); // page size no longer a power of two
    checkBoth(pageSize, ['NOT_A_STATELENS_DB', 'CORRUPT_DB']);

    // The schema b-tree is rooted in page 1 (its header at byte 100) and its rows hold the SQL.
    const schemaRoot = variant(base, 'schema-root.db');
    writeByte(schemaRoot, 100, 0x03); // not a b-tree page type
    checkBoth(schemaRoot, ['CORRUPT_DB', 'NOT_A_STATELENS_DB']);
    const schema = variant(base, 'schema.db');
    const at = fs.readFileSync(schema).indexOf('CREATE TABLE facts (');
    expect(at).toBeGreaterThan(100);
    expect(pagesOf(base, 'sqlite_schema')).toContain(Math.floor(at / page) + 1);
    writeByte(schema, at + 3, 0x00);
    writeByte(schema, at + 9, 0x7f);
    checkBoth(schema, ['CORRUPT_DB']);

    // A leaf or interior page of the facts table: an impossible page type byte.
    const factsPages = pagesOf(base, 'facts');
    const target = factsPages[Math.floor(factsPages.length / 2)] ?? rootPageOf(base, 'facts');
    const btree = variant(base, 'btree.db');
    writeByte(btree, (target - 1) * page, 0x07);
    checkBoth(btree, ['CORRUPT_DB']);

    // The cell pointer array of the full-text index's data page: cells point outside the page.
    const ftsPages = pagesOf(base, 'facts_fts_data');
    const ftsTarget = ftsPages[ftsPages.length - 1] ?? rootPageOf(base, 'facts_fts_data');
    const fts = variant(base, 'fts.db');
    const pageStart = (ftsTarget - 1) * page;
    const headerLen = fs.readFileSync(fts)[pageStart] === 0x05 ? 12 : 8;
    writeByte(fts, pageStart + headerLen, 0xff);
    writeByte(fts, pageStart + headerLen + 1, 0xff);
    checkBoth(fts, ['CORRUPT_DB']);

    // The root page of an index.
    const idx = variant(base, 'index.db');
    writeByte(idx, (rootPageOf(base, 'facts_partition_ts') - 1) * page, 0x00);
    checkBoth(idx, ['CORRUPT_DB']);
  });

  it('random bit flips anywhere: opened or refused with a typed error, bytes unchanged', () => {
    const d = dir();
    const base = path.join(d, 'base.db');
    makeStatelensDb(base, 600);
    const size = fs.statSync(base).size;
    let n = 0;
    const tally: Record<string, number> = {};
    fc.assert(
      fc.property(fc.integer({ min: 0, max: size - 1 }), fc.integer({ min: 0, max: 7 }), (offset, bit) => {
        const file = variant(base, `flip-${n++}.db`);
        flipBit(file, offset, bit);
        const outcomes = checkBoth(file, ['CORRUPT_DB', 'NOT_A_STATELENS_DB', 'DB_TOO_NEW', 'READ_ONLY'], true);
        for (const o of outcomes) {
          const k = o.opened
            ? o.readFailure
              ? `opened, read hit ${o.readFailure}`
              : o.verified
                ? 'opened, verify ok'
                : 'opened, verify found damage'
            : o.code;
          tally[k] = (tally[k] ?? 0) + 1;
        }
        for (const s of ['', '-wal', '-shm']) fs.rmSync(file + s, { force: true });
      }),
      { numRuns: envInt('STATELENS_FLIP_RUNS', 60), seed: envInt('STATELENS_FLIP_SEED', 7) },
    );
    console.log(`random bit flips over ${size} bytes (read-only + read-write opens): ${JSON.stringify(tally)}`);
  });

  it('`statelens verify --db BAD` exits 1 with a one-line typed message and leaves the file as it was', async () => {
    const d = dir();
    const base = path.join(d, 'base.db');
    makeStatelensDb(base, 300);
    const cases: Array<[string, string, string]> = [];
    const add = (name: string, code: string, make: (file: string) => void) => {
      const file = path.join(d, name);
      make(file);
      cases.push([name, file, code]);
    };
    add('empty.db', 'NOT_A_STATELENS_DB', (f) => fs.writeFileSync(f, ''));
    add('other-app.db', 'NOT_A_STATELENS_DB', (f) => otherAppDb(f, true));
    add('future.db', 'DB_TOO_NEW', (f) => {
      fs.copyFileSync(base, f);
      const db = new Database(f);
      db.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
      db.close();
    });
    add('truncated.db', 'CORRUPT_DB', (f) => {
      fs.copyFileSync(base, f);
      fs.truncateSync(f, Math.floor(fs.statSync(base).size / pageSizeOf(base) / 2) * pageSizeOf(base));
    });
    add('btree.db', 'CORRUPT_DB', (f) => {
      fs.copyFileSync(base, f);
      const pages = pagesOf(base, 'facts');
      writeByte(f, ((pages[Math.floor(pages.length / 2)] ?? rootPageOf(base, 'facts')) - 1) * pageSizeOf(base), 0x07);
    });
    add('folder.db', 'NOT_A_STATELENS_DB', (f) => fs.mkdirSync(f));
    const before = new Map(cases.map(([, file]) => [file, fs.statSync(file).isFile() ? fileStates(file) : null]));
    const results = await Promise.all(cases.map(([, file]) => statelens(['verify', '--db', file])));
    cases.forEach(([name, file, code], i) => {
      const r = results[i];
      if (!r) throw new Error('missing result');
      const lines = r.stderr.trim().split('\n');
      expect(r.code, `${name}: ${r.stderr}`).toBe(1);
      expect(lines, `${name} stderr`).toHaveLength(1);
      expect(lines[0]).toMatch(new RegExp(`^statelens verify: .+\\[${code}\\]$`));
      expect(r.stderr).not.toMatch(/\bat .+:\d+:\d+/); // no stack trace
      const b = before.get(file);
      if (b) expectUntouched(file, b);
    });
    // The healthy original passes.
    const ok = await statelens(['verify', '--db', base]);
    expect(ok.code, ok.stderr).toBe(0);
  });
});
