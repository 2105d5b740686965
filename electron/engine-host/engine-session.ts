// The one open database of an engine worker: opening (with first-run demo seeding), closing,
// and what the inspector shows about the file. Everything else reaches the store through here.
import fs from 'node:fs';
import path from 'node:path';
import { StatelensError } from '../../shared/errors';
import type { PartitionHandle } from '../engine/partition-handle';
import { isTextSnapshot, openSnapshotReadOnly } from '../engine/snapshot/open';
import { isDatabaseUrl, type PgTarget } from '../engine/db/pg/target';
import { Store, type PgStoreOptions } from '../engine/store';

export interface OpenRequest {
  readonly path: string;
  /** Create the file when missing (the embedded default database); never for a chosen file. */
  readonly create: boolean;
  readonly readonly: boolean;
  /** Seed an empty database with generated demo data (the embedded default, first run). */
  readonly seedDemo?: { readonly facts: number; readonly seed: number };
  /** A PostgreSQL store instead of the file (`path` is then only its name, password redacted). */
  readonly postgres?: { readonly target: PgTarget; readonly options: PgStoreOptions };
}

export interface OpenDbInfo {
  readonly path: string;
  readonly name: string;
  readonly readonly: boolean;
  readonly sizeBytes: number;
  readonly schemaVersion: number;
}

/** Fills a new, empty database with generated demo data. */
export type DemoSeeder = (store: Store, demo: { readonly facts: number; readonly seed: number }, onProgress: (done: number, total: number) => void) => void;

export class EngineSession {
  private current: Store | undefined;
  /** Set while a JSON/NDJSON snapshot is open: its own path, shown instead of the temporary
   * read-only database it was imported into (removed when the store closes). */
  private snapshotPath: string | undefined;

  constructor(
    readonly nativeBinding: string | undefined,
    private readonly seedDemo: DemoSeeder,
  ) {}

  get store(): Store {
    if (!this.current?.isOpen) throw new StatelensError('NO_DATABASE', 'No database is open: open one from the File menu');
    return this.current;
  }

  get isOpen(): boolean {
    return this.current?.isOpen ?? false;
  }

  scope(partitionId: number): PartitionHandle {
    return this.store.scopeById(partitionId);
  }

  /** Opens `request.path`; the previous database stays open when the new one is refused. A
   * database created here with `seedDemo` is filled with demo data before anyone sees it. */
  open(request: OpenRequest, onProgress: (done: number, total: number) => void = () => {}): Store {
    if (request.postgres) {
      const store = Store.openPostgres(request.postgres.target, { ...request.postgres.options, readonly: request.readonly });
      this.close();
      this.current = store;
      return store;
    }
    const resolved = path.resolve(request.path);
    const existed = fs.existsSync(resolved);
    if (!request.create && !existed) throw new StatelensError('NOT_FOUND', `${resolved} does not exist`);
    if (existed && isTextSnapshot(resolved)) {
      const opened = openSnapshotReadOnly(resolved, this.nativeBinding ? { nativeBinding: this.nativeBinding } : {});
      this.close();
      this.current = opened.store;
      this.snapshotPath = resolved;
      return opened.store;
    }
    if (request.create) fs.mkdirSync(path.dirname(resolved), { recursive: true });
    const next = Store.open(resolved, {
      readonly: request.readonly,
      create: request.create,
      ...(this.nativeBinding ? { nativeBinding: this.nativeBinding } : {}),
    });
    try {
      if (request.seedDemo && !request.readonly && next.listPartitions().length === 0) this.seedDemo(next, request.seedDemo, onProgress);
    } catch (e) {
      next.close();
      // A half-seeded new file would be mistaken for the real default next time.
      if (!existed) for (const suffix of ['', '-wal', '-shm']) fs.rmSync(resolved + suffix, { force: true });
      throw e;
    }
    this.close();
    this.current = next;
    return next;
  }

  close(): void {
    this.current?.close();
    this.current = undefined;
    this.snapshotPath = undefined;
  }

  info(): OpenDbInfo | null {
    if (!this.current?.isOpen) return null;
    const p = this.snapshotPath ?? this.current.path;
    let sizeBytes = 0;
    try {
      // A PostgreSQL store's path is its redacted URL: no file, size 0.
      if (!isDatabaseUrl(p)) sizeBytes = fs.statSync(p).size;
    } catch {
      // The file may have been moved while open; the connection still works.
    }
    return { path: p, name: path.basename(p), readonly: this.current.readonly, sizeBytes, schemaVersion: this.current.schemaVersion };
  }
}
