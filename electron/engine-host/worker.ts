// The engine worker thread: owns the database connection (SQLite, or PostgreSQL), runs one operation at a time from the
// facade, reports progress (throttled) and cancellation, and announces every change — its own
// writes and, by polling PRAGMA data_version, other processes' writes — as `data.changed`.
import type { MessagePort } from 'node:worker_threads';
import type { Progress } from '../../shared/contract';
import { StatelensError, toErrorShape } from '../../shared/errors';
import { seedDemo } from './demo-seeder';
import { EngineSession } from './engine-session';
import { createOperations, type EngineOpName, type OpContext } from './operations';
import type { FromWorker, ToWorker, WorkerOptions } from './protocol';

const PROGRESS_INTERVAL_MS = 100;

export function runWorker(port: MessagePort, options: WorkerOptions): void {
  const session = new EngineSession(options.nativeBinding, seedDemo);
  const ops = createOperations(session, options.actor ?? 'inspector');
  const cancels = new Map<string, AbortController>();
  const post = (m: FromWorker) => port.postMessage(m);
  let unsubscribe: (() => void) | undefined;
  let watchedStore: unknown;

  /** Re-subscribes to the store's change events whenever the open database changes. */
  function watchStore(): void {
    const store = session.openStore;
    if (store === watchedStore) return;
    unsubscribe?.();
    unsubscribe = undefined;
    watchedStore = store;
    if (store) {
      unsubscribe = store.onChange((e) => {
        post({ type: 'changed', event: { origin: e.origin, partitionIds: [...e.partitionIds], what: [...e.what] } });
        for (const a of e.agentStates ?? [])
          post({ type: 'agentStateChanged', event: { origin: e.origin, partitionId: a.partitionId, sessionId: a.sessionId } });
      });
    }
  }

  const poll = setInterval(() => {
    try {
      if (session.isOpen && !session.serverLost) session.store.pollExternalChanges();
    } catch (e) {
      session.noteFailure(e);
      // A failing poll (file removed, disk error) shows up on the next real call instead.
    }
  }, options.pollMs ?? 300);

  function contextFor(op: string, operationId: string | undefined, flag: Int32Array): OpContext {
    const controller = new AbortController();
    if (operationId) cancels.set(operationId, controller);
    let lastSent = 0;
    const checkFlag = () => {
      if (!controller.signal.aborted && Atomics.load(flag, 0) === 1) controller.abort();
    };
    return {
      operationId,
      get signal() {
        checkFlag();
        return controller.signal;
      },
      throwIfCancelled() {
        checkFlag();
        if (controller.signal.aborted) throw new StatelensError('CANCELLED', `${op} was cancelled`);
      },
      progress(operation: Progress['operation'], phase: string, done: number, total: number | null) {
        checkFlag();
        if (!operationId) return;
        const now = Date.now();
        const finished = total !== null && done >= total;
        if (!finished && now - lastSent < PROGRESS_INTERVAL_MS) return;
        lastSent = now;
        post({
          type: 'progress',
          progress: {
            operationId,
            operation,
            phase: phase.slice(0, 200),
            done: Math.max(0, Math.floor(done)),
            total: total === null ? null : Math.max(0, Math.floor(total)),
            finished,
          },
        });
      },
    };
  }

  // Synchronous operations (nearly all: better-sqlite3 is synchronous) run to completion one
  // at a time on this thread. An asynchronous one (an export, which reads through its own
  // snapshot connection) yields while it writes, so queries keep being answered meanwhile.
  const inFlight = new Set<Promise<void>>();

  async function runCall(message: Extract<ToWorker, { type: 'call' }>): Promise<void> {
    const { id, op, input, operationId, cancelFlag } = message;
    const ctx = contextFor(op, operationId, new Int32Array(cancelFlag));
    try {
      ctx.throwIfCancelled();
      const fn = ops[op as EngineOpName] as ((i: unknown, c: OpContext) => unknown) | undefined;
      if (!fn) throw new StatelensError('UNKNOWN_CHANNEL', `The engine has no operation ${op}`);
      const value = await fn(input, ctx);
      watchStore();
      post({ type: 'result', id, ok: true, value });
      if (op === 'db.openPath' || op === 'db.openServer' || op === 'db.closeStore')
        post({ type: 'changed', event: { origin: 'local', partitionIds: [], what: ['database'] } });
    } catch (e) {
      session.noteFailure(e);
      watchStore();
      post({ type: 'result', id, ok: false, error: toErrorShape(e) });
    } finally {
      if (operationId) cancels.delete(operationId);
    }
  }

  port.on('message', (message: ToWorker) => {
    if (message.type === 'cancel') {
      cancels.get(message.operationId)?.abort();
      return;
    }
    if (message.type === 'shutdown') {
      clearInterval(poll);
      void Promise.allSettled([...inFlight]).then(() => {
        unsubscribe?.();
        session.close();
        post({ type: 'closed' });
        port.close();
      });
      return;
    }
    const running = runCall(message);
    inFlight.add(running);
    void running.finally(() => inFlight.delete(running));
  });
  post({ type: 'ready' });
}
