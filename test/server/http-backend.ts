// Browser mode in-process for the server tests: an engine worker with the shipped handlers
// (output checked against the contract) on one database (a file, or a PostgreSQL store named as
// `statelens serve --db` names it), behind the real HTTP server.
import { pgStoreOf } from '../../electron/cli/database';
import { isDatabaseUrl, redactUrl } from '../../electron/engine/db/pg/target';
import { EngineHost } from '../../electron/engine-host/facade';
import { createAppServices, type AppServices } from '../../electron/handlers/app-services';
import { browserShell, DownloadRegistry } from '../../electron/server/browser-shell';
import { startServer, type RunningServer } from '../../electron/server/server';
import { WORKER_PATH } from '../helpers/paths';

export interface HttpBackend {
  readonly services: AppServices;
  readonly server: RunningServer;
  readonly downloads: DownloadRegistry;
  /** Stops the server, then the engine, and removes the downloads folder. */
  close(): Promise<void>;
}

export async function startHttpBackend(options: {
  /** A database file, or a PostgreSQL URL / `pglite:DIR` whose store exists. */
  readonly dbPath: string;
  readonly rendererDir: string;
  /** Where finished exports wait for their download. */
  readonly downloadsDir: string;
  /** Who the audit log says acted. */
  readonly actor?: string;
  readonly requestTimeoutMs?: number;
}): Promise<HttpBackend> {
  const downloads = new DownloadRegistry(options.downloadsDir);
  let server: RunningServer | undefined;
  const engine = new EngineHost({ workerPath: WORKER_PATH, pollMs: 100, actor: options.actor ?? 'tester (contract tests)' });
  const services = createAppServices(engine, browserShell({ downloads, token: () => server?.token ?? '' }), { validate: true });
  try {
    const db = options.dbPath;
    const opened = isDatabaseUrl(db) ? { path: redactUrl(db), postgres: pgStoreOf({ values: {}, positionals: [] }, db) } : { path: db };
    await engine.call('db.openPath', { ...opened, create: false, readonly: false });
    server = await startServer({
      dispatch: services.dispatch,
      events: services.events,
      rendererDir: options.rendererDir,
      downloads,
      ...(options.requestTimeoutMs ? { requestTimeoutMs: options.requestTimeoutMs } : {}),
    });
  } catch (e) {
    await services.close();
    downloads.dispose();
    throw e;
  }
  const running = server;
  return {
    services,
    server: running,
    downloads,
    async close() {
      await running.close();
      await services.close();
      downloads.dispose();
    },
  };
}
