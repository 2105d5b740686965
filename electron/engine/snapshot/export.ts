// Every export format from one consistent read snapshot: json / ndjson snapshots, a SQLite
// copy, a Markdown report, CSV of (filtered) facts and StateBench initial states. Progress is
// reported as it goes; an AbortSignal cancels and leaves no file behind.
import fs from 'node:fs';
import { isStatelensError, StatelensError } from '../../../shared/errors';
import type { FactFilterInput } from '../../../shared/query';
import { ExportFormat, SNAPSHOT_FORMAT, SNAPSHOT_FORMAT_VERSION, type ExportSummary, type SnapshotEnd, type SnapshotHeader } from '../../../shared/snapshot';
import { dialectOf } from '../db/dialect';
import type { EngineDb } from '../db/connection';
import { mapSqliteError, openDatabase } from '../db/open';
import { refFromRow, type PartitionRow } from '../partitions/partitions';
import type { Store } from '../store';
import { RecordApplier, type Locator } from './apply';
import { writeCsv } from './csv';
import { writeMarkdown } from './markdown';
import { openStoreSnapshotReader, type ReaderOptions, type SnapshotReader } from './reader';
import { countRecords, iterateRecords, totalOf } from './records';
import { checkExportTarget } from './output-target';
import { selectFacts, type ExportSelection } from './selection';
import { Ticker, tempPathFor, throwIfAborted, withFileSink, type ExportControl, type FileSink } from './sink';
import { writeStatebench } from './statebench';

export const GENERATOR = 'statelens 0.1';

export interface ExportOptions extends ExportControl, ReaderOptions {
  readonly format: ExportFormat;
  readonly out: string;
  /** One partition (numeric id); omitted or null: the whole database. */
  readonly partitionId?: number | null;
  /** Only the facts of this filtered view (and, with its asOf, the state as of that time). */
  readonly filter?: FactFilterInput;
  /** Replace an existing file at `out` (default: refuse). */
  readonly overwrite?: boolean;
  /** Called with the open snapshot before anything is written (tests use it to write
   * concurrently and prove the export does not see it). */
  readonly onSnapshotOpen?: () => void | Promise<void>;
}

function scopeOf(reader: SnapshotReader, partitionId: number | null): SnapshotHeader['scope'] {
  if (partitionId === null) return { kind: 'database' };
  const row = reader.db.prepare('SELECT * FROM partitions WHERE id = ?').get(partitionId) as PartitionRow | undefined;
  if (!row) throw new StatelensError('NOT_FOUND', `No partition with id ${partitionId}`, { partitionId });
  return { kind: 'partition', partition: refFromRow(row) };
}

/** Writes the snapshot records as NDJSON (one per line) or as one JSON document of the same records. */
async function writeSnapshot(
  db: EngineDb,
  sink: FileSink,
  header: SnapshotHeader,
  partitionId: number | null,
  ndjson: boolean,
  control: ExportControl,
  selection: ExportSelection | undefined,
): Promise<{ records: number; counts: Record<string, number> }> {
  const expected = countRecords(db, partitionId, selection);
  const ticker = new Ticker(control, 'records', totalOf(expected));
  const counts: Record<string, number> = {};
  await sink.write(ndjson ? `${JSON.stringify(header)}\n` : `{"header":${JSON.stringify(header)},\n"records":[`);
  let n = 0;
  for (const rec of iterateRecords(db, partitionId, selection)) {
    counts[rec.type] = (counts[rec.type] ?? 0) + 1;
    await sink.write(ndjson ? `${JSON.stringify(rec)}\n` : `${n === 0 ? '\n' : ',\n'}${JSON.stringify(rec)}`);
    n++;
    await ticker.tick();
  }
  const end: SnapshotEnd = { type: 'end', records: n, counts };
  await sink.write(ndjson ? `${JSON.stringify(end)}\n` : `\n],\n"end":${JSON.stringify(end)}}\n`);
  ticker.finish();
  return { records: n, counts };
}

/** A partition (or a selection) as a SQLite database of its own: its records replayed into a
 * fresh file. */
async function writeRecordCopy(
  reader: SnapshotReader,
  target: string,
  header: SnapshotHeader,
  partitionId: number | null,
  control: ExportControl,
  native: ReaderOptions,
  selection: ExportSelection | undefined,
): Promise<{ records: number; counts: Record<string, number>; bytes: number }> {
  const temp = tempPathFor(target);
  const out = openDatabase(temp, { create: true, ...(native.nativeBinding ? { nativeBinding: native.nativeBinding } : {}) });
  try {
    const expected = countRecords(reader.db, partitionId, selection);
    const ticker = new Ticker(control, 'records', totalOf(expected));
    const locate: Locator = (seq) => ({ label: `record ${seq}` });
    const counts: Record<string, number> = {};
    let n = 0;
    out.exec('BEGIN IMMEDIATE');
    const applier = new RecordApplier(out, header, locate);
    for (const rec of iterateRecords(reader.db, partitionId, selection)) {
      counts[rec.type] = (counts[rec.type] ?? 0) + 1;
      applier.apply(rec, ++n);
      await ticker.tick();
    }
    applier.apply({ type: 'end', records: n, counts }, n + 1);
    applier.finish(locate(n + 1));
    out.exec('COMMIT');
    out.pragma('wal_checkpoint(TRUNCATE)');
    out.pragma('journal_mode = DELETE');
    out.close();
    fs.renameSync(temp, target);
    ticker.finish();
    return { records: n, counts, bytes: fs.statSync(target).size };
  } catch (e) {
    if (out.open) out.close();
    for (const suffix of ['', '-wal', '-shm', '-journal']) fs.rmSync(temp + suffix, { force: true });
    throw copyError(e, target);
  }
}

/** A failed SQLite copy as a typed error (disk full, read-only folder), named by the target the
 * user chose rather than by its temporary file. */
function copyError(e: unknown, target: string): unknown {
  return isStatelensError(e) ? e : (mapSqliteError(e, target) ?? e);
}

/** Runs one export. Resolves with what was written; rejects with CANCELLED when aborted. */
export async function exportStore(store: Store, options: ExportOptions): Promise<ExportSummary> {
  const format = ExportFormat.parse(options.format);
  const target = options.out;
  const partitionId = options.partitionId ?? null;
  checkExportTarget(target, store.path, options.overwrite === true);
  throwIfAborted(options.signal);
  const reader = openStoreSnapshotReader(store, options);
  try {
    // CSV lists the filtered view through the table's own paging; the other formats read the
    // selection from a temporary table of this connection.
    const selection = options.filter !== undefined && format !== 'csv' ? selectFacts(reader.db, partitionId, options.filter) : undefined;
    const header: SnapshotHeader = {
      type: 'header',
      format: SNAPSHOT_FORMAT,
      formatVersion: SNAPSHOT_FORMAT_VERSION,
      schemaVersion: reader.schemaVersion,
      exportedAt: store.services.clock.now(),
      generator: GENERATOR,
      scope: scopeOf(reader, partitionId),
      ...(selection ? { selection: { filter: selection.filter, facts: selection.facts } } : {}),
    };
    await options.onSnapshotOpen?.();
    const control: ExportControl = options;
    if (format === 'sqlite') {
      // VACUUM INTO copies a SQLite file; any other store is replayed record by record.
      if (partitionId !== null || selection || dialectOf(reader.db).name !== 'sqlite') {
        const r = await writeRecordCopy(reader, target, header, partitionId, control, options, selection);
        return { format, path: target, bytes: r.bytes, records: r.records, counts: r.counts };
      }
      // VACUUM INTO reads one consistent snapshot by itself and cannot run inside a transaction.
      reader.db.exec('COMMIT');
      control.onProgress?.({ phase: 'copy', done: 0, total: 1 });
      const temp = tempPathFor(target);
      try {
        reader.db.prepare('VACUUM INTO ?').run(temp);
        throwIfAborted(options.signal);
        fs.renameSync(temp, target);
      } catch (e) {
        fs.rmSync(temp, { force: true });
        throw copyError(e, target);
      }
      control.onProgress?.({ phase: 'copy', done: 1, total: 1 });
      const copy = openDatabase(target, { readonly: true, ...(options.nativeBinding ? { nativeBinding: options.nativeBinding } : {}) });
      try {
        const counts = countRecords(copy, null);
        return { format, path: target, bytes: fs.statSync(target).size, records: totalOf(counts), counts };
      } finally {
        copy.close();
      }
    }
    const { result, bytes } = await withFileSink(target, async (sink) => {
      switch (format) {
        case 'json':
        case 'ndjson':
          return writeSnapshot(reader.db, sink, header, partitionId, format === 'ndjson', control, selection);
        case 'csv': {
          const n = await writeCsv(reader.db, sink, partitionId, options.filter, control);
          return { records: n, counts: { fact: n } };
        }
        case 'markdown': {
          const n = await writeMarkdown(reader.db, sink, partitionId, { exportedAt: header.exportedAt, source: reader.source }, control, selection);
          return { records: n, counts: { fact: n } };
        }
        case 'statebench': {
          const n = await writeStatebench(reader.db, sink, partitionId, control, selection);
          return { records: n, counts: { partition: n } };
        }
      }
    });
    return { format, path: target, bytes, records: result.records, counts: result.counts };
  } finally {
    reader.close();
  }
}
