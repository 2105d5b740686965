// `statelens serve`: browser mode. Serves the built renderer and the IPC contract over HTTP +
// server-sent events on 127.0.0.1 with a random session token in the printed URL; the engine
// runs in a worker thread exactly as in the desktop app. Builds the renderer first when
// out/renderer is missing (or with --build).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { StatelensError } from '../../../shared/errors';
import { EngineHost } from '../../engine-host/facade';
import { localActor } from '../../handlers/actor';
import { createAppServices } from '../../handlers/app-services';
import { defaultDatabaseIn, userDataDir } from '../../handlers/default-database';
import { loopbackHost } from '../../server/auth';
import { browserShell, DownloadRegistry } from '../../server/browser-shell';
import { startServer } from '../../server/server';
import { EXIT, intOpt, stringOpt, type CliCommand, type CliIO } from '../command';
import { pgStoreOf, PG_OPTIONS, PG_USAGE } from '../database';
import { databaseUrl } from '../db-url';
import { packageRoot } from '../package-root';
import { redactUrl } from '../../engine/db/pg/target';

const repoRoot = packageRoot();
export const DEFAULT_RENDERER_DIR = path.join(repoRoot, 'out', 'renderer');
const WORKER_PATH = path.join(repoRoot, 'electron', 'engine-host', 'worker-node.mjs');

/** Runs `electron-vite build` (main, preload and renderer) in the repository. */
export async function buildRenderer(io: CliIO): Promise<void> {
  const bin = path.join(repoRoot, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js');
  if (!fs.existsSync(bin)) throw new StatelensError('NOT_FOUND', 'electron-vite is not installed: run `npm install`, then `npm run build`');
  io.err('statelens serve: building the renderer (npm run build)...');
  const code = await new Promise<number | null>((resolve, reject) => {
    const child = spawn(process.execPath, [bin, 'build'], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] });
    let log = '';
    child.stdout.on('data', (d: Buffer) => (log += d.toString()));
    child.stderr.on('data', (d: Buffer) => (log += d.toString()));
    child.on('error', reject);
    child.on('exit', (c) => {
      if (c !== 0) io.err(log.trim().split('\n').slice(-30).join('\n'));
      resolve(c);
    });
  });
  if (code !== 0) throw new StatelensError('INTERNAL', 'Building the renderer failed (see above); fix it and run `npm run build`');
}

function waitForSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    const on = (s: NodeJS.Signals) => {
      process.off('SIGINT', on);
      process.off('SIGTERM', on);
      resolve(s);
    };
    process.on('SIGINT', on);
    process.on('SIGTERM', on);
  });
}

export const serveCommand: CliCommand = {
  name: 'serve',
  summary: 'Serve the inspector to a browser on 127.0.0.1 (token in the printed URL)',
  usage: `statelens serve [--db FILE] [--port N] [--readonly] [--build] [--renderer DIR]

  --db FILE       the database to inspect (default: the app's embedded default database,
                  created and seeded with demo data on first use); a SQLite copy or a JSON
                  or NDJSON snapshot is shown too (a JSON/NDJSON snapshot always read-only)
  --port N        port on 127.0.0.1 (default 0: any free port)
  --readonly      open the database read-only (deletes and dismissals are refused)
  --build         rebuild the renderer before serving (it is built anyway when missing)
  --renderer DIR  serve the renderer built in DIR (default out/renderer)

Binds to 127.0.0.1 only. Every request needs the random session token carried by the printed
URL. From another machine: ssh -L PORT:127.0.0.1:PORT HOST, then open the URL locally.
${PG_USAGE}`,
  options: {
    ...PG_OPTIONS,
    db: { type: 'string' },
    port: { type: 'string' },
    host: { type: 'string' },
    readonly: { type: 'boolean' },
    build: { type: 'boolean' },
    renderer: { type: 'string' },
  },
  async run(args, io) {
    const host = loopbackHost(stringOpt(args, 'host'));
    const port = intOpt(args, 'port', 0);
    if (port > 65535) throw new StatelensError('INVALID_INPUT', '--port must be at most 65535');
    const rendererDir = path.resolve(stringOpt(args, 'renderer') ?? DEFAULT_RENDERER_DIR);
    if (args.values.build || !fs.existsSync(path.join(rendererDir, 'index.html'))) {
      if (stringOpt(args, 'renderer') !== undefined && !args.values.build)
        throw new StatelensError('NOT_FOUND', `${rendererDir} holds no built renderer (index.html)`);
      await buildRenderer(io);
    }
    const url = databaseUrl(args);
    const dbArg = url === undefined ? stringOpt(args, 'db') : undefined;
    const readonly = Boolean(args.values.readonly);
    const def = defaultDatabaseIn(userDataDir());
    const downloads = new DownloadRegistry();
    let token = '';
    const engine = new EngineHost({ workerPath: WORKER_PATH, actor: localActor('statelens serve') });
    const services = createAppServices(engine, browserShell({ downloads, token: () => token }), {
      validate: process.env.NODE_ENV !== 'production',
      log: (line) => io.err(line),
    });
    try {
      const info = url
        ? await engine.call('db.openPath', { path: redactUrl(url), create: false, readonly, postgres: pgStoreOf(args, url) })
        : dbArg
          ? await engine.call('db.openPath', { path: path.resolve(dbArg), create: false, readonly })
          : await engine.call('db.openPath', { path: def.path, create: !readonly, readonly, ...(readonly ? {} : { seedDemo: def.demo }) });
      const server = await startServer({ host, port, dispatch: services.dispatch, events: services.events, rendererDir, downloads });
      token = server.token;
      io.out(`statelens serve: ${info.path}${info.readonly ? ' (read-only)' : ''}`);
      io.out(`Open ${server.url}`);
      io.out('Press Ctrl+C to stop.');
      const signal = await waitForSignal();
      io.err(`statelens serve: ${signal}, stopping`);
      await server.close();
      return EXIT.ok;
    } finally {
      await services.close();
      downloads.dispose();
    }
  },
};
