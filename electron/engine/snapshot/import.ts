// Importing a snapshot into an EMPTY database, in one transaction: an NDJSON stream (read line
// by line, flat memory), a JSON document (bounded size) or a SQLite copy. Whatever is wrong —
// malformed, truncated, oversized, a newer version — the error names the line and field and
// nothing is imported.
import fs from 'node:fs';
import { postgresOf } from '../db/pg/database';
import { StatelensError } from '../../../shared/errors';
import type { SnapshotHeader } from '../../../shared/snapshot';
import { openDatabase } from '../db/open';
import { heldDescriptor } from '../db/raw-file';
import type { Store } from '../store';
import { RecordApplier, assertEmptyDatabase, importError, parseHeader, type Locator } from './apply';
import { DEFAULT_MAX_LINE_BYTES, openForReading, readLines, type Line } from './line-reader';
import { iterateRecords } from './records';
import { jsonSyntaxErrorAt, lineOfRecord, positionToLine } from './json-lines';

export const DEFAULT_MAX_JSON_BYTES = 256 * 1024 * 1024;

export type SnapshotFileKind = 'ndjson' | 'json' | 'sqlite';

export interface ImportOptions {
  /** Records applied so far (called every few hundred records and at the end). */
  readonly onProgress?: (done: number) => void;
  readonly maxLineBytes?: number;
  readonly maxJsonBytes?: number;
  /** Name of the input in error messages (defaults to the path). */
  readonly sourceName?: string;
  /** better-sqlite3 addon for another ABI, to read a SQLite copy (the Electron app's own). */
  readonly nativeBinding?: string;
}

export interface ImportSummary {
  readonly kind: SnapshotFileKind;
  readonly header: SnapshotHeader;
  readonly records: number;
  readonly counts: Record<string, number>;
  readonly partitionIds: number[];
}

const SQLITE_MAGIC = Buffer.from('SQLite format 3\0', 'latin1');

/** Tells the three snapshot forms apart by their first bytes. */
export function sniffSnapshot(path: string): SnapshotFileKind {
  // A database this process has open is read through its held descriptor (see db/raw-file).
  const heldFd = heldDescriptor(path);
  const fd = heldFd ?? openForReading(path);
  try {
    const head = Buffer.alloc(4096);
    const n = fs.readSync(fd, head, 0, head.length, 0);
    if (n === 0) throw new StatelensError('IMPORT_FAILED', `${path} is empty (0 bytes): not a snapshot`, { line: 1 });
    if (n >= 16 && head.subarray(0, 16).equals(SQLITE_MAGIC)) return 'sqlite';
    const text = head
      .subarray(0, n)
      .toString('utf8')
      .replace(/^\uFEFF/, '')
      .trimStart();
    if (text.startsWith('{"type":"header"') || /^\{\s*"type"\s*:\s*"header"/.test(text)) return 'ndjson';
    if (text.startsWith('{')) return 'json';
    throw new StatelensError('IMPORT_FAILED', `${path} line 1: not a Statelens snapshot (expected NDJSON, a JSON document or a SQLite copy)`, { line: 1 });
  } finally {
    if (heldFd === undefined) fs.closeSync(fd);
  }
}

function parseJsonLine(line: Line, source: string): unknown {
  if (line.text.trim() === '')
    throw new StatelensError('IMPORT_FAILED', `${source} line ${line.number}: empty line (one record per line, no blank lines)`, { line: line.number });
  try {
    return JSON.parse(line.text);
  } catch (e) {
    const hint = line.terminated ? '' : ' — the file ends in the middle of this record (truncated)';
    throw new StatelensError('IMPORT_FAILED', `${source} line ${line.number}: not valid JSON (${e instanceof Error ? e.message : String(e)})${hint}`, {
      line: line.number,
    });
  }
}

function finishImport(store: Store, applier: RecordApplier, header: SnapshotHeader, source: string): void {
  // Rows came with their own ids: PostgreSQL's identity sequences must move past them; and the
  // planner must see how many rows came, or the first reads get row-by-row plans.
  const pg = postgresOf(store.db);
  pg?.syncIdentities();
  pg?.analyzeTables();
  store.db
    .prepare("INSERT INTO statelens_meta (key, value) VALUES ('snapshot_import', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value")
    .run(JSON.stringify({ at: store.services.clock.now(), source, exportedAt: header.exportedAt, scope: header.scope, records: applier.recordCount }));
}

function partitionIdsOf(store: Store): number[] {
  return store.db.prepare('SELECT id FROM partitions ORDER BY id').pluck().all() as number[];
}

export function importSnapshotFile(store: Store, path: string, options: ImportOptions = {}): ImportSummary {
  store.assertWritable();
  const kind = sniffSnapshot(path);
  switch (kind) {
    case 'ndjson':
      return importNdjson(store, path, options);
    case 'json':
      return importJsonDocument(store, path, options);
    case 'sqlite':
      return importSqliteCopy(store, path, options);
  }
}

function importNdjson(store: Store, path: string, options: ImportOptions): ImportSummary {
  const source = options.sourceName ?? path;
  const lines = readLines(path, options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES);
  const first = lines.next();
  if (first.done) throw new StatelensError('IMPORT_FAILED', `${source} is empty: not a snapshot`, { line: 1 });
  const header = parseHeader(parseJsonLine(first.value, source), { label: `${source} line 1`, line: 1 });
  const partitionIds: number[] = [];
  // NDJSON has no blank lines, so record number seq sits on line seq + 1.
  const locate: Locator = (seq) => ({ label: `${source} line ${seq + 1}`, line: seq + 1 });
  let last = 1;
  const applier = store.write(partitionIds, 'import snapshot', () => {
    assertEmptyDatabase(store.db, store.path);
    const a = new RecordApplier(store.db, header, locate);
    for (const line of lines) {
      last = line.number;
      a.apply(parseJsonLine(line, source), line.number - 1);
      if (line.number % 1000 === 0) options.onProgress?.(a.recordCount);
    }
    a.finish({ label: `${source} line ${last}`, line: last });
    finishImport(store, a, header, source);
    partitionIds.push(...partitionIdsOf(store));
    return a;
  });
  options.onProgress?.(applier.recordCount);
  return { kind: 'ndjson', header, records: applier.recordCount, counts: applier.counts, partitionIds };
}

function importJsonDocument(store: Store, path: string, options: ImportOptions): ImportSummary {
  const source = options.sourceName ?? path;
  const max = options.maxJsonBytes ?? DEFAULT_MAX_JSON_BYTES;
  const size = fs.statSync(path).size;
  if (size > max) {
    throw new StatelensError('IMPORT_FAILED', `${source} is ${size} bytes, over the ${max}-byte limit for a JSON document: export as NDJSON for large stores`, {
      line: 1,
      limit: max,
    });
  }
  const text = fs.readFileSync(path, 'utf8');
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    const at = jsonSyntaxErrorAt(text);
    const where = positionToLine(text, at.position);
    const truncated = at.truncated ? ' — the document ends early (truncated)' : '';
    throw new StatelensError('IMPORT_FAILED', `${source} line ${where.line}: not valid JSON at column ${where.column} (${message})${truncated}`, {
      line: where.line,
    });
  }
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) {
    throw new StatelensError('IMPORT_FAILED', `${source} line 1: a JSON snapshot is an object with header, records and end`, { line: 1 });
  }
  const { header: rawHeader, records, end, ...extra } = doc as { header?: unknown; records?: unknown; end?: unknown };
  const unknownKey = Object.keys(extra)[0];
  if (unknownKey !== undefined) throw importError({ label: `${source} line 1` }, unknownKey, 'unknown top-level key (expected header, records, end)');
  const headerLine = lineOfKey(text, 'header');
  const header = parseHeader(rawHeader, { label: `${source} line ${headerLine}`, line: headerLine });
  if (!Array.isArray(records)) throw importError({ label: `${source} line ${lineOfKey(text, 'records')}` }, 'records', 'must be an array of records');
  if (end === undefined) throw importError({ label: `${source} line ${text.split('\n').length}` }, 'end', 'missing: the snapshot is truncated (no end record)');
  const locate: Locator = (seq) => {
    if (seq >= 1 && seq <= records.length) {
      const line = lineOfRecord(text, seq - 1);
      return { label: `${source} records[${seq - 1}]${line ? ` (line ${line})` : ''}`, ...(line ? { line } : {}) };
    }
    const line = lineOfKey(text, 'end');
    return { label: `${source} end (line ${line})`, line };
  };
  const partitionIds: number[] = [];
  const applier = store.write(partitionIds, 'import snapshot', () => {
    assertEmptyDatabase(store.db, store.path);
    const a = new RecordApplier(store.db, header, locate);
    records.forEach((r, i) => {
      if (typeof r === 'object' && r !== null && (r as { type?: unknown }).type === 'end') {
        throw importError(locate(i + 1), 'type', 'the end record belongs under "end", not inside "records"');
      }
      a.apply(r, i + 1);
      if ((i + 1) % 1000 === 0) options.onProgress?.(a.recordCount);
    });
    a.apply(typeof end === 'object' && end !== null ? { type: 'end', ...end } : end, records.length + 1);
    a.finish(locate(records.length + 1));
    finishImport(store, a, header, source);
    partitionIds.push(...partitionIdsOf(store));
    return a;
  });
  options.onProgress?.(applier.recordCount);
  return { kind: 'json', header, records: applier.recordCount, counts: applier.counts, partitionIds };
}

function lineOfKey(text: string, key: string): number {
  const at = text.indexOf(`"${key}"`);
  return at < 0 ? 1 : positionToLine(text, at).line;
}

/** A SQLite copy made by `export --format sqlite`: its rows become records, checked the same way. */
function importSqliteCopy(store: Store, path: string, options: ImportOptions): ImportSummary {
  const source = options.sourceName ?? path;
  const db = openDatabase(path, { readonly: true, ...(options.nativeBinding ? { nativeBinding: options.nativeBinding } : {}) });
  try {
    const schemaVersion = db.pragma('user_version', { simple: true }) as number;
    const header: SnapshotHeader = {
      type: 'header',
      format: 'statelens-snapshot',
      formatVersion: 1,
      schemaVersion,
      exportedAt: store.services.clock.now(),
      generator: 'sqlite copy',
      scope: { kind: 'database' },
    };
    // A copy has no lines: records are numbered in table order (partitions, facts, ...).
    const locate: Locator = (seq) => ({ label: `${source} record ${seq}` });
    const partitionIds: number[] = [];
    const applier = store.write(partitionIds, 'import snapshot', () => {
      assertEmptyDatabase(store.db, store.path);
      const a = new RecordApplier(store.db, header, locate);
      const counts: Record<string, number> = {};
      let seq = 0;
      db.exec('BEGIN');
      try {
        for (const rec of iterateRecords(db, null)) {
          seq++;
          counts[rec.type] = (counts[rec.type] ?? 0) + 1;
          a.apply(rec, seq);
          if (seq % 1000 === 0) options.onProgress?.(seq);
        }
      } finally {
        db.exec('COMMIT');
      }
      a.apply({ type: 'end', records: seq, counts }, seq + 1);
      a.finish(locate(seq + 1));
      finishImport(store, a, header, source);
      partitionIds.push(...partitionIdsOf(store));
      return a;
    });
    options.onProgress?.(applier.recordCount);
    return { kind: 'sqlite', header, records: applier.recordCount, counts: applier.counts, partitionIds };
  } finally {
    db.close();
  }
}
