// The one open database of an engine worker: a file (with first-run demo seeding) or a shared
// PostgreSQL server, closing, and what the inspector shows about it. Everything else reaches the
// store through here.
import fs from 'node:fs';
import path from 'node:path';
import { StatelensError } from '../../shared/errors';
import type { PartitionHandle } from '../engine/partition-handle';
import { PG_SCHEMA_VERSION } from '../engine/db/pg/migrations';
import { DEFAULT_PG_SCHEMA } from '../engine/db/pg/schema';
import { isDatabaseUrl, parsePgTarget, redactUrl, type PgTarget } from '../engine/db/pg/target';
import { isTextSnapshot, openSnapshotReadOnly } from '../engine/snapshot/open';
import { Store, type PgStoreOptions, type StoreOptions } from '../engine/store';

export interface OpenRequest {
  readonly path: string;
  /** Create the file when missing (the embedded default database); never for a chosen file. */
  readonly create: boolean;
  readonly readonly: boolean;
  /** Open for writing even when the file holds objects Statelens did not create (the user confirmed). */
  readonly trustForeignObjects?: boolean;
  /** Seed an empty database with generated demo data (the embedded default, first run). */
  readonly seedDemo?: { readonly facts: number; readonly seed: number };
  /** A PostgreSQL store instead of the file (`path` is then only its name, password redacted). */
  readonly postgres?: { readonly target: PgTarget; readonly options: PgStoreOptions };
}

/** A PostgreSQL store: the URL without a password, the password apart (never shown or logged). */
export interface OpenServerRequest {
  readonly url: string;
  readonly password: string | null;
  readonly schema: string;
  readonly org: string;
  readonly readonly: boolean;
}

export interface OpenDbInfo {
  readonly path: string;
  readonly name: string;
  readonly readonly: boolean;
  readonly sizeBytes: number;
  readonly schemaVersion: number;
  readonly server?: { readonly url: string; readonly schema: string; readonly org: string };
  readonly foreignObjects?: string[];
}

/** The connection target for `request`: its URL with the password put in (the URL shown never has it). */
export function serverTarget(request: Pick<OpenServerRequest, 'url' | 'password'>): PgTarget {
  const target = parsePgTarget(request.url);
  if (target.kind !== 'server' || !request.password) return target;
  const url = new URL(target.url);
  url.password = encodeURIComponent(request.password);
  return { kind: 'server', url: url.href };
}

/** Fills a new, empty database with generated demo data. */
export type DemoSeeder = (store: Store, demo: { readonly facts: number; readonly seed: number }, onProgress: (done: number, total: number) => void) => void;

export class EngineSession {
  private current: Store | undefined;
  /** Set while a JSON/NDJSON snapshot is open: its own path, shown instead of the temporary
   * read-only database it was imported into (removed when the store closes). */
  private snapshotPath: string | undefined;
  /** Set while a PostgreSQL store is open: what the inspector shows instead of a file. */
  private server: OpenDbInfo['server'];
  /** How the open server store was opened, to reconnect the same way after the server was lost
   * (its password stays in this worker's memory only). */
  private serverOpen: { readonly target: PgTarget; readonly options: StoreOptions & PgStoreOptions } | undefined;
  /** The server stopped answering (DB_UNAVAILABLE): the next call reconnects first. */
  private lost = false;

  constructor(
    readonly nativeBinding: string | undefined,
    private readonly seedDemo: DemoSeeder,
  ) {}

  get store(): Store {
    if (this.lost && this.serverOpen) this.reconnect(this.serverOpen);
    if (!this.current?.isOpen) throw new StatelensError('NO_DATABASE', 'No database is open: open one from the File menu');
    return this.current;
  }

  /** True while a server store is lost and not yet reconnected (polling waits meanwhile). */
  get serverLost(): boolean {
    return this.lost;
  }

  /** Called with every failed operation: a lost server is reconnected on the next call. */
  noteFailure(error: unknown): void {
    if (this.serverOpen && error instanceof StatelensError && error.code === 'DB_UNAVAILABLE') this.lost = true;
  }

  /** Replaces the dead connection; throws (DB_UNAVAILABLE) while the server is still away. */
  private reconnect(opened: NonNullable<EngineSession['serverOpen']>): void {
    const next = Store.openPostgres(opened.target, opened.options);
    try {
      this.current?.close();
    } catch {
      // The old connection is already gone with its server.
    }
    this.current = next;
    this.lost = false;
  }

  get isOpen(): boolean {
    return this.current?.isOpen ?? false;
  }

  /** The open store as it is, without reconnecting a lost server (for watching its changes). */
  get openStore(): Store | undefined {
    return this.current?.isOpen ? this.current : undefined;
  }

  scope(partitionId: number): PartitionHandle {
    return this.store.scopeById(partitionId);
  }

  /** Opens `request.path`; the previous database stays open when the new one is refused. A
   * database created here with `seedDemo` is filled with demo data before anyone sees it. */
  open(request: OpenRequest, onProgress: (done: number, total: number) => void = () => {}): Store {
    if (request.postgres) {
      const { target, options } = request.postgres;
      const shown = { url: request.path, schema: options.schema ?? DEFAULT_PG_SCHEMA, org: options.allOrgs ? '*' : (options.org ?? '') };
      return this.adoptServer(target, { ...options, readonly: request.readonly }, shown);
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
      ...(request.trustForeignObjects ? { trustForeignObjects: true } : {}),
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

  /** Opens a PostgreSQL store (the schema `statelens init --db URL` made); the previous database
   * stays open when the server refuses. */
  openServer(request: OpenServerRequest): Store {
    const options = { schema: request.schema, org: request.org, readonly: request.readonly };
    return this.adoptServer(serverTarget(request), options, { url: redactUrl(request.url), schema: request.schema, org: request.org });
  }

  /** The one way a server store becomes the open one (the desktop's form and `serve --db URL`). */
  private adoptServer(target: PgTarget, options: StoreOptions & PgStoreOptions, shown: NonNullable<OpenDbInfo['server']>): Store {
    const next = Store.openPostgres(target, options);
    this.close();
    this.current = next;
    this.server = shown;
    this.serverOpen = { target, options };
    return next;
  }

  close(): void {
    this.current?.close();
    this.current = undefined;
    this.snapshotPath = undefined;
    this.server = undefined;
    this.serverOpen = undefined;
    this.lost = false;
  }

  info(): OpenDbInfo | null {
    if (!this.current?.isOpen) return null;
    // The server's schema has its own version table; opening checked it is this build's.
    if (this.server) return { ...serverInfo(this.server), readonly: this.current.readonly, schemaVersion: PG_SCHEMA_VERSION };
    const p = this.snapshotPath ?? this.current.path;
    let sizeBytes = 0;
    try {
      // A PostgreSQL store's path is its redacted URL: no file, size 0.
      if (!isDatabaseUrl(p)) sizeBytes = fs.statSync(p).size;
    } catch {
      // The file may have been moved while open; the connection still works.
    }
    const foreign = this.current.foreignObjects;
    return {
      path: p,
      name: path.basename(p),
      readonly: this.current.readonly,
      sizeBytes,
      schemaVersion: this.current.schemaVersion,
      ...(foreign.length > 0 ? { foreignObjects: [...foreign] } : {}),
    };
  }
}

/** How a server store is named: its database and host (the URL shown in full beside it). */
function serverInfo(server: NonNullable<OpenDbInfo['server']>): Pick<OpenDbInfo, 'path' | 'name' | 'sizeBytes' | 'server'> {
  let name = server.url;
  try {
    const u = new URL(server.url);
    if (u.host !== '') name = `${decodeURIComponent(u.pathname.slice(1))} on ${u.host}`;
  } catch {
    // parsePgTarget accepted it; a URL the WHATWG parser refuses is shown whole.
  }
  return { path: server.url, name, sizeBytes: 0, server };
}
