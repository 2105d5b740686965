// The real backend in-process for renderer component tests: a seeded SQLite file, the engine
// worker, the shipped handlers and dispatcher (input parsed, output checked against the
// contract) and the event bus. The renderer side wraps `call` and `subscribe` into its Transport.
import fs from 'node:fs';
import { EngineHost } from '../../../electron/engine-host/facade';
import { createAppServices, type AppServices } from '../../../electron/handlers/app-services';
import { browserShell, DownloadRegistry } from '../../../electron/server/browser-shell';
import { Store } from '../../../electron/engine/store';
import type { CallResult } from '../../../shared/contract';
import type { PartitionRef } from '../../../shared/domain';
import type { FactWriteInput } from '../../../shared/writes';
import { WORKER_PATH } from '../../helpers/paths';
import { tmpDbPath } from '../../helpers/tmp';
import { openStoreAt } from './store';

export interface TestBackend {
  /** One call through the shipped dispatcher, with a JSON round trip as over the wire. */
  call(channel: string, input: unknown): Promise<CallResult<unknown>>;
  subscribe(listener: (event: string, payload: unknown) => void): () => void;
  readonly services: AppServices;
  readonly dbPath: string;
  /** Files in the folder browser-mode exports are written to (finished ones waiting for their
   * download, and partial ones). */
  exportFiles(): string[];
  close(): Promise<void>;
}

/** An engine worker with the shipped handlers; databases are opened in it one after another. */
export interface BackendRuntime {
  readonly services: AppServices;
  /** Seeds a fresh database file and makes it the open one. */
  open<T>(seed: (store: Store) => T): Promise<TestBackend & { seeded: T }>;
  close(): Promise<void>;
}

export function startRuntime(): BackendRuntime {
  const engine = new EngineHost({ workerPath: WORKER_PATH, pollMs: 50 });
  const downloads = new DownloadRegistry();
  const services = createAppServices(engine, browserShell({ downloads, token: () => 'test-token' }), { validate: true });
  return {
    services,
    async open(seed) {
      const dbPath = tmpDbPath('inspector.db');
      const store = Store.open(dbPath);
      let seeded;
      try {
        seeded = seed(store);
      } finally {
        store.close();
      }
      await engine.call('db.openPath', { path: dbPath, create: false, readonly: false });
      return {
        async call(channel, input) {
          const result = await services.dispatch(channel, JSON.parse(JSON.stringify(input ?? {})));
          return JSON.parse(JSON.stringify(result)) as CallResult<unknown>;
        },
        subscribe: (listener) => services.events.subscribe((name, payload) => listener(name, payload)),
        services,
        dbPath,
        exportFiles: () => (fs.existsSync(downloads.dir) ? fs.readdirSync(downloads.dir) : []),
        seeded,
        close: async () => {
          await engine.call('db.closeStore', {});
        },
      };
    },
    async close() {
      await services.close();
      downloads.dispose();
    },
  };
}

/** A runtime of its own around one seeded database (closed together). */
export async function startBackend<T>(seed: (store: Store) => T): Promise<TestBackend & { seeded: T }> {
  const runtime = startRuntime();
  const backend = await runtime.open(seed);
  return { ...backend, close: () => runtime.close() };
}

/** Writes facts into acme/ana through its own connection, one after another, each stamped (audit
 * entries included) with its `at` instead of the wall clock. `db` is a file's path or a database URL
 * (as in the other external writers below). */
export function externalWritesAt(
  db: string,
  writes: ReadonlyArray<{ input: FactWriteInput; at: string }>,
  ref: PartitionRef = { kind: 'user', org: 'acme', user: 'ana' },
): string[] {
  let now = '';
  const writer = openStoreAt(db, { clock: { now: () => now } });
  try {
    return writes.map((w) => {
      now = w.at;
      return writer.scope(ref).writeFact(w.input).factId;
    });
  } finally {
    writer.close();
  }
}

/** Writes one fact into acme/ana through its own connection, as another agent process would. */
export function externalWrite(db: string, input: FactWriteInput, ref: PartitionRef = { kind: 'user', org: 'acme', user: 'ana' }): string {
  const writer = openStoreAt(db);
  try {
    return writer.scope(ref).writeFact(input).factId;
  } finally {
    writer.close();
  }
}

/** Writes facts and then records turns in acme/ana through its own connection, as another agent
 * process would (turns may supersede or flag the facts they contradict). */
export function externalTurns(
  db: string,
  facts: readonly FactWriteInput[],
  sessionId: string,
  turns: ReadonlyArray<{ speaker: string; text: string }>,
  ref: PartitionRef = { kind: 'user', org: 'acme', user: 'ana' },
): void {
  const writer = openStoreAt(db);
  try {
    const h = writer.scope(ref);
    h.writeFacts(facts);
    h.recordTurns(sessionId, turns);
  } finally {
    writer.close();
  }
}
