// The engine behind an async facade: the main process (and `statelens serve`) talk to one
// worker thread that owns the database, so a long export, delete or assembly never blocks the
// caller's event loop. Calls are typed by the worker's operation table; progress, changes and
// cancellation travel beside them. A crashed worker is restarted and reopens the last database.
import { EventEmitter } from 'node:events';
import { Worker } from 'node:worker_threads';
import type { AgentStateChanged, DataChanged, Progress } from '../../shared/contract';
import { StatelensError } from '../../shared/errors';
import type { OpenRequest, OpenServerRequest } from './engine-session';
import type { EngineOpName, OpInput, OpOutput } from './operations';
import type { FromWorker, ToWorker, WorkerOptions } from './protocol';

export interface EngineHostOptions extends WorkerOptions {
  /** The worker's entry file: out/main/engine-worker.js in Electron, worker-node.mjs under Node. */
  readonly workerPath: string;
}

export interface EngineEvents {
  progress: [Progress];
  changed: [DataChanged];
  agentStateChanged: [AgentStateChanged];
  /** The worker died unexpectedly (it is restarted on the next call). */
  crashed: [Error];
}

interface PendingCall {
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: StatelensError) => void;
  readonly operationId: string | undefined;
}

export class EngineHost extends EventEmitter<EngineEvents> {
  private worker: Worker | undefined;
  private ready: Promise<void> | undefined;
  private nextId = 1;
  private readonly pending = new Map<number, PendingCall>();
  private readonly cancelFlags = new Map<string, Int32Array>();
  /** What to reopen after a crash: the last file or server opened (a server's password is kept
   * here, in memory only, so a restarted worker can reconnect). */
  private lastOpen:
    { readonly op: 'db.openPath'; readonly input: OpenRequest } | { readonly op: 'db.openServer'; readonly input: OpenServerRequest } | undefined;
  private closing = false;

  constructor(private readonly options: EngineHostOptions) {
    super();
  }

  /** Starts the worker (calls start it lazily too). */
  start(): Promise<void> {
    if (this.ready) return this.ready;
    const worker = new Worker(this.options.workerPath, {
      workerData: { nativeBinding: this.options.nativeBinding, pollMs: this.options.pollMs, actor: this.options.actor } satisfies WorkerOptions,
    });
    this.worker = worker;
    this.ready = new Promise<void>((resolve, reject) => {
      const onEarlyExit = (code: number) => reject(new StatelensError('INTERNAL', `The engine worker exited during start (code ${code})`));
      worker.once('exit', onEarlyExit);
      worker.once('error', reject);
      worker.on('message', (m: FromWorker) => {
        if (m.type === 'ready') {
          worker.off('exit', onEarlyExit);
          worker.off('error', reject);
          resolve();
        } else this.onMessage(m);
      });
    });
    worker.on('error', (e) => this.onWorkerGone(worker, e));
    worker.on('exit', (code) => this.onWorkerGone(worker, new Error(`engine worker exited with code ${code}`)));
    return this.ready;
  }

  private onMessage(m: FromWorker): void {
    if (m.type === 'result') {
      const call = this.pending.get(m.id);
      if (!call) return;
      this.pending.delete(m.id);
      if (call.operationId) this.cancelFlags.delete(call.operationId);
      if (m.ok) call.resolve(m.value);
      else call.reject(new StatelensError(m.error.code, m.error.message, m.error.details));
    } else if (m.type === 'progress') this.emit('progress', m.progress);
    else if (m.type === 'changed') this.emit('changed', m.event);
    else if (m.type === 'agentStateChanged') this.emit('agentStateChanged', m.event);
  }

  private onWorkerGone(worker: Worker, error: Error): void {
    if (this.worker !== worker) return;
    this.worker = undefined;
    this.ready = undefined;
    for (const [, call] of this.pending) call.reject(new StatelensError('INTERNAL', `The engine stopped: ${error.message}`));
    this.pending.clear();
    this.cancelFlags.clear();
    if (!this.closing) this.emit('crashed', error);
  }

  /** Runs one engine operation in the worker. `operationId` names it for progress and cancel. */
  async call<N extends EngineOpName>(op: N, input: OpInput<N>, operationId?: string): Promise<OpOutput<N>> {
    if (this.closing) throw new StatelensError('NO_DATABASE', 'The engine is shutting down');
    const restarted = !this.worker;
    await this.start();
    const opening = op === 'db.openPath' || op === 'db.openServer';
    if (restarted && this.lastOpen && !opening) {
      if (this.lastOpen.op === 'db.openPath') await this.send('db.openPath', this.lastOpen.input);
      else await this.send('db.openServer', this.lastOpen.input);
    }
    const value = await this.send(op, input, operationId);
    if (op === 'db.openPath') this.lastOpen = { op, input: input as OpenRequest };
    if (op === 'db.openServer') this.lastOpen = { op, input: input as OpenServerRequest };
    if (op === 'db.closeStore') this.lastOpen = undefined;
    return value;
  }

  private send<N extends EngineOpName>(op: N, input: OpInput<N>, operationId?: string): Promise<OpOutput<N>> {
    const worker = this.worker;
    if (!worker) return Promise.reject(new StatelensError('INTERNAL', 'The engine worker is not running'));
    const id = this.nextId++;
    const cancelFlag = new SharedArrayBuffer(4);
    if (operationId) this.cancelFlags.set(operationId, new Int32Array(cancelFlag));
    return new Promise<OpOutput<N>>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject, operationId });
      worker.postMessage({ type: 'call', id, op, input, operationId, cancelFlag } satisfies ToWorker);
    });
  }

  /** Cancels a running or queued operation; true when one by that id was in flight. */
  cancel(operationId: string): boolean {
    const flag = this.cancelFlags.get(operationId);
    if (!flag) return false;
    // The shared flag is seen even while the worker is busy in synchronous SQLite work.
    Atomics.store(flag, 0, 1);
    this.worker?.postMessage({ type: 'cancel', operationId } satisfies ToWorker);
    return true;
  }

  /** Closes the database and stops the worker. */
  async close(): Promise<void> {
    if (this.closing) return;
    this.closing = true;
    const worker = this.worker;
    if (!worker) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => void worker.terminate().then(() => resolve()), 5000);
      worker.once('exit', () => {
        clearTimeout(timer);
        resolve();
      });
      worker.postMessage({ type: 'shutdown' } satisfies ToWorker);
    });
  }
}
