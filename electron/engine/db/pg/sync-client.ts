// A synchronous PostgreSQL connection for the synchronous engine. A dedicated worker thread owns
// the async client; each call posts a request, blocks on Atomics.wait over a shared flag and takes
// the reply with receiveMessageOnPort. The wait wakes in slices to notice a worker that died, so a
// crash or a lost server surfaces as a typed StatelensError, never a hang.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import { StatelensError } from '../../../../shared/errors';
import { toStatelensError, type PgWireError } from './errors';
import { describeTarget, type PgTarget } from './target';
import { DEAD, NOTIFIED, REPLY, SIGNAL_WORDS, WORKER_SOURCE } from './worker-source';

export interface PgResult<R> {
  readonly rows: R[];
  /** Rows returned, or rows changed by INSERT/UPDATE/DELETE. */
  readonly rowCount: number;
}

export interface SyncPgOptions {
  /** Schema(s) unqualified names resolve to (SET search_path), already quoted where needed. */
  readonly searchPath?: string;
  /** Longest a single call may take before the connection is given up (default 5 minutes). */
  readonly callTimeoutMs?: number;
  /** Longest a server connection may take to open (default 10 s). */
  readonly connectTimeoutMs?: number;
  /** The PGlite data folder must be there already: opening a store is not creating one. */
  readonly existing?: boolean;
}

type Request =
  | { op: 'open' }
  | { op: 'query'; sql: string; params: readonly unknown[] }
  | { op: 'exec'; sql: string }
  | { op: 'commit' }
  | { op: 'listen'; channel: string }
  | { op: 'notifications' }
  | { op: 'close' }
  | { op: 'crash' };

/** What other sessions announced since the last look: partition ids, or `all` when one
 * announcement named too many to list. */
export interface PgNotifications {
  readonly ids: number[];
  readonly all: boolean;
}

type Reply = { ok: true; rows: unknown[]; rowCount: number } | { ok: false; error: PgWireError };

/** A statement that ends the aborted state of a transaction by going back to a savepoint. */
function recoversSavepoint(req: Request): boolean {
  return (req.op === 'exec' || req.op === 'query') && /^\s*ROLLBACK\s+TO\b/i.test(req.sql);
}

/** The error a commit that could not happen raises: the failure that aborted the transaction,
 * with its code (a permission stays PERMISSION_DENIED), saying nothing was committed. */
function notCommitted(cause: StatelensError): StatelensError {
  return new StatelensError(cause.code, `Nothing was committed: a statement of the transaction failed (${cause.message})`, {
    ...cause.details,
    committed: false,
  });
}

/** How often a blocked call looks whether the worker is still alive. */
const WAIT_SLICE_MS = 50;
const DEFAULT_CALL_TIMEOUT_MS = 5 * 60_000;
const OPEN_TIMEOUT_MS = 120_000;
/** The contrib extensions the PostgreSQL schema creates; a server ships them, PGlite loads them. */
export const PGLITE_EXTENSIONS = ['btree_gin', 'unaccent'] as const;

function moduleUrl(name: string): string {
  try {
    // Resolved when a connection opens, never at import: loading the engine needs no driver.
    return pathToFileURL(createRequire(import.meta.url).resolve(name)).href;
  } catch {
    throw new StatelensError('NOT_SUPPORTED', `PostgreSQL support needs the ${name} package, which is not installed`);
  }
}

/** URL parameters naming files the driver reads as it connects (TLS authority, client certificate). */
const TLS_FILE_PARAMS = ['sslrootcert', 'sslcert', 'sslkey'] as const;

/** Refuses a server URL whose TLS files cannot be read, naming the parameter, before any worker
 * starts: the driver would otherwise fail with a bare file-system error. */
function checkTlsFiles(target: PgTarget): void {
  if (target.kind !== 'server') return;
  const params = new URL(target.url).searchParams;
  for (const name of TLS_FILE_PARAMS) {
    const file = params.get(name);
    if (file === null) continue;
    try {
      fs.accessSync(file, fs.constants.R_OK);
    } catch (e) {
      const why = (e as NodeJS.ErrnoException).code === 'ENOENT' ? 'there is no such file' : (e as Error).message;
      throw new StatelensError('INVALID_INPUT', `${name}=${file} in ${describeTarget(target)} cannot be read: ${why}`, { parameter: name });
    }
  }
}

/** Refuses a PGlite data folder that cannot be (or, with `existing`, is not) there before PGlite
 * starts: it would fail with a bare file-system error, or leave a new, empty cluster behind that
 * holds no store. */
function checkPgliteFolder(target: PgTarget, existing: boolean): void {
  if (target.kind !== 'pglite' || target.dataDir === undefined) return;
  const dir = path.resolve(target.dataDir);
  if (existing && !fs.existsSync(dir)) throw new StatelensError('NOT_FOUND', `${describeTarget(target)} does not exist: \`statelens init --db\` creates it`);
  if (!fs.existsSync(path.dirname(dir))) throw new StatelensError('NOT_FOUND', `The folder of ${describeTarget(target)} does not exist`);
}

/** Quotes an identifier for SQL (a schema name in search_path, say). */
export function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

export class SyncPg {
  readonly target: PgTarget;
  /** What it was opened with (a second connection to the same place opens with the same). */
  readonly options: SyncPgOptions;
  readonly where: string;
  private readonly worker: Worker;
  private readonly port: MessagePort;
  private readonly signal: Int32Array;
  private readonly callTimeoutMs: number;
  private closedReason: StatelensError | undefined;
  private depth = 0;
  /** The failure that aborted the open transaction (PostgreSQL then refuses every statement and
   * turns COMMIT into a rollback), until a ROLLBACK TO SAVEPOINT recovers it or the transaction ends. */
  private abortedBy: StatelensError | undefined;
  private listening = false;
  private notificationsTaken = 0;

  private constructor(target: PgTarget, options: SyncPgOptions) {
    this.target = target;
    this.options = options;
    this.where = describeTarget(target);
    this.callTimeoutMs = options.callTimeoutMs ?? DEFAULT_CALL_TIMEOUT_MS;
    this.signal = new Int32Array(new SharedArrayBuffer(4 * SIGNAL_WORDS));
    const { port1, port2 } = new MessageChannel();
    this.port = port1;
    this.worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: {
        port: port2,
        signalBuffer: this.signal.buffer,
        modules:
          target.kind === 'server'
            ? { pg: moduleUrl('pg') }
            : {
                pglite: moduleUrl('@electric-sql/pglite'),
                pgliteExtensions: Object.fromEntries(PGLITE_EXTENSIONS.map((name) => [name, moduleUrl(`@electric-sql/pglite/contrib/${name}`)])),
              },
        target,
        searchPath: options.searchPath,
        connectTimeoutMs: options.connectTimeoutMs ?? 10_000,
      },
      transferList: [port2],
    });
    // The bridge must never keep a process alive on its own, nor crash it with an 'error' event
    // (a worker's death is noticed by the next call through the DEAD flag).
    this.worker.unref();
    this.worker.on('error', () => undefined);
  }

  /** Connects (or starts PGlite) and returns once the connection is usable; throws a typed error otherwise. */
  static open(target: PgTarget, options: SyncPgOptions = {}): SyncPg {
    checkTlsFiles(target);
    checkPgliteFolder(target, options.existing ?? false);
    const conn = new SyncPg(target, options);
    try {
      // Starting PGlite (a WebAssembly PostgreSQL) takes seconds on a loaded machine.
      conn.call({ op: 'open' }, Math.max(conn.callTimeoutMs, OPEN_TIMEOUT_MS));
    } catch (e) {
      conn.abandon();
      throw e;
    }
    return conn;
  }

  get closed(): boolean {
    return this.closedReason !== undefined;
  }

  get inTransaction(): boolean {
    return this.depth > 0;
  }

  /** One statement with $1… parameters. */
  query<R = Record<string, unknown>>(sql: string, params: readonly unknown[] = []): PgResult<R> {
    const r = this.call({ op: 'query', sql, params: [...params] });
    return { rows: r.rows as R[], rowCount: r.rowCount };
  }

  /** Several statements without parameters (schema scripts). */
  exec(sql: string): void {
    this.call({ op: 'exec', sql });
  }

  /** Opens a transaction; `statement` may name its mode (BEGIN ISOLATION LEVEL REPEATABLE READ). */
  begin(statement = 'BEGIN'): void {
    this.exec(statement);
    this.depth = 1;
    this.abortedBy = undefined;
  }

  /** Commits, or throws when the transaction cannot commit: a statement of it failed (even one
   * whose error a caller caught), and PostgreSQL would answer COMMIT by rolling everything back. */
  commit(): void {
    this.depth = 0;
    const aborted = this.abortedBy;
    if (aborted) {
      this.abortedBy = undefined;
      this.exec('ROLLBACK');
      throw notCommitted(aborted);
    }
    const tag = this.call({ op: 'commit' }).rows[0] as { command?: string } | undefined;
    // The server's own word, for a failure this side never saw (a deferred constraint says so as an error).
    if (tag?.command !== undefined && tag.command !== 'COMMIT') {
      throw new StatelensError('INTERNAL', `PostgreSQL (${this.where}) rolled the transaction back instead of committing it (${tag.command})`);
    }
  }

  rollback(): void {
    this.depth = 0;
    this.abortedBy = undefined;
    this.exec('ROLLBACK');
  }

  /** Runs `fn` in a transaction (a savepoint when already in one): committed when it returns,
   * rolled back when it throws. A lost connection rolls back on the server by itself. */
  transaction<T>(fn: () => T): T {
    const nested = this.depth > 0;
    const savepoint = `statelens_sp_${this.depth}`;
    this.exec(nested ? `SAVEPOINT ${savepoint}` : 'BEGIN');
    if (!nested) this.abortedBy = undefined;
    this.depth++;
    let result: T;
    try {
      result = fn();
      if (nested && this.abortedBy) throw this.abortedBy;
    } catch (e) {
      this.depth--;
      if (!this.closed) {
        try {
          if (nested) this.exec(`ROLLBACK TO SAVEPOINT ${savepoint}`);
          else this.rollback();
        } catch {
          // The original failure is the one worth reporting.
        }
      }
      throw e;
    }
    this.depth--;
    if (nested) this.exec(`RELEASE SAVEPOINT ${savepoint}`);
    else this.commit();
    return result;
  }

  /**
   * LISTENs on `channel`: the worker counts other sessions' notifications as they arrive (its own
   * are left out) and keeps the partition ids they carry. False where nothing can be heard (PGlite:
   * one in-process connection per data folder).
   */
  listen(channel: string): boolean {
    const r = this.call({ op: 'listen', channel });
    this.listening = (r.rows[0] as { listening?: boolean } | undefined)?.listening === true;
    return this.listening;
  }

  get isListening(): boolean {
    return this.listening;
  }

  /** Other sessions' notifications since the last call: null, without a round trip to the
   * worker, when there were none. */
  takeNotifications(): PgNotifications | null {
    if (!this.listening) return null;
    const count = Atomics.load(this.signal, NOTIFIED);
    if (count === this.notificationsTaken) return null;
    this.notificationsTaken = count;
    const taken = (this.call({ op: 'notifications' }).rows[0] as PgNotifications | undefined) ?? { ids: [], all: true };
    // Empty when the last take already drained what raised the count since.
    return taken.all || taken.ids.length > 0 ? taken : null;
  }

  /** Closes the connection and stops the worker; closing twice is a no-op. */
  close(): void {
    if (this.closed) return;
    try {
      this.call({ op: 'close' });
    } catch {
      // A connection already lost has nothing left to close.
    }
    this.abandon();
  }

  /** Tests only: makes the worker die as a crash would, and returns once it has died, without
   * this side noticing (the next call must find out by itself). */
  crashWorkerForTest(): void {
    this.port.postMessage({ op: 'crash' } satisfies Request);
    const deadline = Date.now() + 30_000;
    while (Atomics.load(this.signal, DEAD) !== 1 && Date.now() < deadline) Atomics.wait(this.signal, REPLY, 0, WAIT_SLICE_MS);
  }

  private abandon(reason?: StatelensError): void {
    this.closedReason ??= reason ?? new StatelensError('DB_UNAVAILABLE', `The PostgreSQL connection to ${this.where} is closed`);
    this.depth = 0;
    this.port.close();
    void this.worker.terminate();
  }

  private call(req: Request, timeoutMs = this.callTimeoutMs): Extract<Reply, { ok: true }> {
    if (this.closedReason) throw this.closedReason;
    Atomics.store(this.signal, REPLY, 0);
    this.port.postMessage(req);
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      Atomics.wait(this.signal, REPLY, 0, WAIT_SLICE_MS);
      const message = receiveMessageOnPort(this.port) as { message: Reply } | undefined;
      if (message) {
        Atomics.store(this.signal, REPLY, 0);
        const reply = message.message;
        if (reply.ok) {
          if (this.abortedBy && recoversSavepoint(req)) this.abortedBy = undefined;
          return reply;
        }
        const error = toStatelensError(reply.error, this.where);
        if (error.code === 'DB_UNAVAILABLE') this.abandon(error);
        else if (this.depth > 0) this.abortedBy ??= error;
        throw error;
      }
      if (Atomics.load(this.signal, DEAD) === 1) {
        const error = new StatelensError('DB_UNAVAILABLE', `The PostgreSQL connection to ${this.where} is unavailable: its worker thread stopped`);
        this.abandon(error);
        throw error;
      }
      if (Date.now() > deadline) {
        const error = new StatelensError('DB_UNAVAILABLE', `The PostgreSQL connection to ${this.where} did not answer within ${timeoutMs} ms; it was closed`, {
          timeoutMs,
        });
        this.abandon(error);
        throw error;
      }
    }
  }
}
