// The thin handlers behind every contract channel, shared by IPC (electron/main) and HTTP
// (electron/server). They receive parsed input, call the engine worker through its facade and
// combine it with the host's dialogs; they never import Electron.
import path from 'node:path';
import { ENGINE_CHANNELS, type CallChannel, type ChannelOutput, type DbState, type EngineChannel, type ParsedInput } from '../../shared/contract';
import { StatelensError } from '../../shared/errors';
import type { EngineHost } from '../engine-host/facade';
import { exportFileName } from '../../shared/snapshot';
import type { Shell } from './shell';

export type Handler<C extends CallChannel> = (input: ParsedInput<C>) => Promise<ChannelOutput<C>>;
export type Handlers = { readonly [C in CallChannel]: Handler<C> };

export interface HandlerDeps {
  readonly engine: EngineHost;
  readonly shell: Shell;
}

const BROWSER_NO_SERVER =
  'In browser mode the inspector shows the database `statelens serve` was started with and cannot switch to a server; connect from the desktop app (File › Connect to Server…).';
const BROWSER_FIXED = 'In browser mode the database is the one `statelens serve --db FILE` was started with; restart serve to inspect another file.';

let generated = 0;
function newOperationId(prefix: string): string {
  generated = (generated + 1) % 1_000_000;
  return `${prefix}-${Date.now().toString(36)}-${generated.toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
}

export function createHandlers({ engine, shell }: HandlerDeps): Handlers {
  /** Exports between their start call and their answer, by operation id. A cancel can arrive
   * before the engine runs the export (while the target is being chosen): it is remembered here,
   * since the engine does not know the operation yet. */
  const exportsInFlight = new Map<string, { cancelled: boolean }>();

  /** An engine-backed channel's handler: the parsed input to the worker's operation of the same
   * name, under the caller's operation id when the input names one (progress, cancel). */
  const forward =
    <C extends EngineChannel>(channel: C): Handler<C> =>
    (input) =>
      engine.call(channel, input as never, (input as { operationId?: string }).operationId) as Promise<ChannelOutput<C>>;
  const forwarded = Object.fromEntries(ENGINE_CHANNELS.map((c) => [c, forward(c)])) as { [C in EngineChannel]: Handler<C> };

  async function state(): Promise<DbState> {
    const info = await engine.call('db.current', {});
    const def = shell.defaultDatabase();
    return {
      mode: shell.mode,
      canOpenOther: shell.mode === 'desktop',
      db: info && { ...info, isDefault: def !== null && path.resolve(def.path) === path.resolve(info.path) },
    };
  }

  function assertDesktop(): void {
    if (shell.mode !== 'desktop') throw new StatelensError('PERMISSION_DENIED', BROWSER_FIXED, { mode: shell.mode });
  }

  return {
    'db.info': () => state(),
    'db.recent': async () => ({ entries: await shell.recent() }),
    'db.open': async (input) => {
      assertDesktop();
      let chosen: { path: string; create: boolean; seedDemo?: { facts: number; seed: number } } | null;
      if (input.source === 'dialog') {
        const p = await shell.chooseDatabase();
        chosen = p === null ? null : { path: p, create: false };
      } else if (input.source === 'recent') {
        const entry = (await shell.recent()).find((e) => e.index === input.index);
        if (!entry) throw new StatelensError('NOT_FOUND', `There is no recent database number ${input.index + 1}`);
        chosen = { path: entry.path, create: false };
      } else {
        const def = shell.defaultDatabase();
        if (!def) throw new StatelensError('NOT_FOUND', 'This build has no embedded default database');
        chosen = { path: def.path, create: true, seedDemo: def.demo };
      }
      if (!chosen) return { cancelled: true, state: await state() };
      // Seeding the default database on first run takes a moment: progress under 'database'.
      await engine.call('db.openPath', { ...chosen, readonly: false }, newOperationId('open'));
      if (input.source !== 'default') await shell.rememberRecent(chosen.path);
      return { cancelled: false, state: await state() };
    },
    'db.connect': async (input) => {
      const servers = shell.servers;
      if (shell.mode !== 'desktop' || !servers) throw new StatelensError('PERMISSION_DENIED', BROWSER_NO_SERVER, { mode: shell.mode });
      let server: { url: string; schema: string; org: string; password: string | null };
      if (input.source === 'form') server = { url: input.url, schema: input.schema, org: input.org, password: input.password ?? null };
      else {
        const entry = await servers.recent(input.index);
        if (!entry) throw new StatelensError('NOT_FOUND', `There is no recent server number ${input.index + 1}`);
        server = entry;
      }
      const { password, ...ref } = server;
      await engine.call('db.openServer', { ...ref, password, readonly: false }, newOperationId('connect'));
      // Only a password that worked is kept; a recent entry leaves its kept password as it was.
      const credential = await servers.remember(ref, input.source === 'form' ? (input.remember ? password : null) : undefined);
      return { state: await state(), credential };
    },
    'db.recentServers': async () => ({ servers: shell.servers ? await shell.servers.list() : [] }),
    'db.trustForeignObjects': async () => {
      const current = await engine.call('db.current', {});
      if (!current) throw new StatelensError('NO_DATABASE', 'No database is open');
      if (current.server || !current.foreignObjects?.length) return state();
      await engine.call('db.openPath', { path: current.path, create: false, readonly: false, trustForeignObjects: true }, newOperationId('open'));
      return state();
    },
    'db.close': async () => {
      assertDesktop();
      await engine.call('db.closeStore', {});
      return state();
    },

    ...forwarded,
    // A deletion always has an operation id, so its progress can be followed and cancelled.
    'deletion.apply': (input) => engine.call('deletion.apply', input, input.operationId ?? newOperationId('delete')),

    'export.start': async ({ operationId, ...request }) => {
      const pending = { cancelled: false };
      exportsInFlight.set(operationId, pending);
      try {
        const current = await engine.call('db.current', {});
        if (!current) throw new StatelensError('NO_DATABASE', 'Open a database before exporting');
        const base = path.basename(current.name, path.extname(current.name));
        const partition =
          request.partitionId == null ? null : ((await engine.call('partitions.list', {})).partitions.find((p) => p.id === request.partitionId)?.ref ?? null);
        const fileName = exportFileName({
          database: base,
          partition,
          // An as-of time alone is named as such, not as a filter.
          filtered: Object.entries(request.filter ?? {}).some(([k, v]) => k !== 'asOf' && v !== undefined && !(k === 'validity' && v === 'all')),
          asOf: request.filter?.asOf ?? null,
          format: request.format,
        });
        const target = await shell.chooseExportTarget(request.format, fileName);
        if (!target) return { status: 'cancelled', operationId };
        if (pending.cancelled) {
          // Cancelled before the engine started: nothing was written.
          if (target.kind === 'download') target.discard();
          return { status: 'cancelled', operationId };
        }
        try {
          const summary = await engine.call('export.run', { request, outPath: target.path }, operationId);
          if (target.kind === 'file')
            return { status: 'saved', operationId, format: summary.format, path: summary.path, bytes: summary.bytes, records: summary.records };
          if (pending.cancelled) {
            // The cancel came while the export ran but too late to stop it: the file is not offered.
            target.discard();
            return { status: 'cancelled', operationId };
          }
          return {
            status: 'download',
            operationId,
            format: summary.format,
            url: target.publish(summary.bytes),
            fileName: target.fileName,
            bytes: summary.bytes,
            records: summary.records,
          };
        } catch (e) {
          if (target.kind === 'download') target.discard();
          if (e instanceof StatelensError && e.code === 'CANCELLED') return { status: 'cancelled', operationId };
          throw e;
        }
      } finally {
        exportsInFlight.delete(operationId);
      }
    },
    'export.cancel': async ({ operationId }) => {
      const pending = exportsInFlight.get(operationId);
      if (pending) pending.cancelled = true;
      const running = engine.cancel(operationId);
      return { cancelled: running || pending !== undefined };
    },
  };
}
