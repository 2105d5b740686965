// Opening a snapshot for reading: a SQLite copy opens read-only in place; a JSON or NDJSON
// snapshot is imported into a temporary database file that is then opened read-only, and
// removed when the caller disposes of it.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sqliteOf } from '../db/connection';
import { Store, type StoreOptions } from '../store';
import { importSnapshotFile, sniffSnapshot, type ImportOptions } from './import';

export interface OpenedSnapshot {
  readonly store: Store;
  readonly kind: 'sqlite' | 'json' | 'ndjson';
  /** Closes the store and deletes any temporary database made for it (store.close does too). */
  dispose(): void;
}

/** True when `file` is a JSON or NDJSON snapshot rather than a database file (which includes a
 * SQLite copy); false for anything else, whose own opener then names the problem. */
export function isTextSnapshot(file: string): boolean {
  try {
    const kind = sniffSnapshot(file);
    return kind === 'json' || kind === 'ndjson';
  } catch {
    return false;
  }
}

export function openSnapshotReadOnly(file: string, options: ImportOptions & Pick<StoreOptions, 'nativeBinding'> = {}): OpenedSnapshot {
  const kind = sniffSnapshot(file);
  const native = options.nativeBinding ? { nativeBinding: options.nativeBinding } : {};
  if (kind === 'sqlite') {
    const store = Store.open(file, { readonly: true, ...native });
    return { store, kind, dispose: () => store.close() };
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'statelens-snapshot-'));
  const dbPath = path.join(dir, 'snapshot.db');
  try {
    const writable = Store.open(dbPath, { create: true, ...native });
    try {
      importSnapshotFile(writable, file, options);
      sqliteOf(writable.db, 'A WAL checkpoint').pragma('wal_checkpoint(TRUNCATE)');
    } finally {
      writable.close();
    }
    const store = Store.open(dbPath, { readonly: true, ...native });
    // Closing the store by any path (dispose or store.close) removes the temporary database.
    store.afterClose(() => fs.rmSync(dir, { recursive: true, force: true }));
    return { store, kind, dispose: () => store.close() };
  } catch (e) {
    fs.rmSync(dir, { recursive: true, force: true });
    throw e;
  }
}
