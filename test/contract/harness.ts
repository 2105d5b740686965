// The desktop wiring without an Electron binary: the real engine worker, handlers, dispatcher,
// registrar and preload bridge, joined by small fakes of ipcMain / ipcRenderer / webContents /
// frames (structured-clone semantics included) and a scripted stand-in for the native dialogs.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { IpcMainInvokeEvent } from 'electron';
import { ipcEventChannel, type StatelensBridge } from '../../shared/contract';
import { EngineHost } from '../../electron/engine-host/facade';
import { createAppServices, type AppServices } from '../../electron/handlers/app-services';
import { defaultDatabaseIn } from '../../electron/handlers/default-database';
import type { ExportTarget, Shell } from '../../electron/handlers/shell';
import { RecentFiles, RecentServers } from '../../electron/main/recent-files';
import { ServerCredentials, serverShell } from '../../electron/main/server-credentials';
import { fakeSafeStorage } from '../helpers/fake-safe-storage';
import { registerContract, type IpcMainLike, type Registrar } from '../../electron/main/registrar';
import { APP_ORIGIN, type SenderEvent } from '../../electron/main/sender-policy';
import { buildBridge, type IpcRendererLike } from '../../electron/preload/bridge';
import { WORKER_PATH } from '../helpers/paths';
import { buildFixture, type Fixture } from './fixture';

type Handler = (event: IpcMainInvokeEvent, ...args: unknown[]) => unknown;

export class FakeIpcMain implements IpcMainLike {
  readonly handlers = new Map<string, Handler>();
  handle(channel: string, listener: Handler): void {
    if (this.handlers.has(channel)) throw new Error(`Attempted to register a second handler for '${channel}'`);
    this.handlers.set(channel, listener);
  }
  removeHandler(channel: string): void {
    this.handlers.delete(channel);
  }
  /** What Electron does on ipcRenderer.invoke: clone the arguments, run the handler, clone the answer. */
  async invoke(channel: string, event: SenderEvent, ...args: unknown[]): Promise<unknown> {
    const h = this.handlers.get(channel);
    if (!h) throw new Error(`Error invoking remote method '${channel}': Error: No handler registered for '${channel}'`);
    return structuredClone(await h(event as IpcMainInvokeEvent, ...structuredClone(args)));
  }
}

export interface FakeFrame {
  url: string;
  parent: FakeFrame | null;
  frameTreeNodeId: number;
  processId: number;
}

let nextId = 1;
export function fakeFrame(url = `${APP_ORIGIN}/index.html`, parent: FakeFrame | null = null): FakeFrame {
  return { url, parent, frameTreeNodeId: nextId++, processId: 7 };
}

export class FakeWebContents {
  readonly id = nextId++;
  readonly mainFrame: FakeFrame;
  private readonly listeners = new Map<string, Set<(event: unknown, ...args: unknown[]) => void>>();
  constructor(url?: string) {
    this.mainFrame = fakeFrame(url);
  }
  send(channel: string, ...args: unknown[]): void {
    const cloned = structuredClone(args);
    for (const l of this.listeners.get(channel) ?? []) l({ sender: 'ipc-renderer-event' }, ...cloned);
  }
  on(channel: string, l: (event: unknown, ...args: unknown[]) => void): void {
    let set = this.listeners.get(channel);
    if (!set) this.listeners.set(channel, (set = new Set()));
    set.add(l);
  }
  off(channel: string, l: (event: unknown, ...args: unknown[]) => void): void {
    this.listeners.get(channel)?.delete(l);
  }
  listenerCount(channel: string): number {
    return this.listeners.get(channel)?.size ?? 0;
  }
}

export function senderEvent(contents: FakeWebContents, frame: FakeFrame | null = contents.mainFrame): SenderEvent {
  return { sender: contents, senderFrame: frame } as unknown as SenderEvent;
}

/** The renderer side of one window: invoke goes to ipcMain as that window's main frame. */
export function fakeIpcRenderer(ipcMain: FakeIpcMain, contents: FakeWebContents, frame: () => FakeFrame | null = () => contents.mainFrame): IpcRendererLike {
  return {
    invoke: (channel, ...args) => ipcMain.invoke(channel, senderEvent(contents, frame()), ...args),
    on: (channel, l) => contents.on(channel, l),
    removeListener: (channel, l) => contents.off(channel, l),
  };
}

/** Stands in for the native open/save dialogs: answers what a user would pick. */
export interface ScriptedDialogs {
  openPath: string | null;
  exportDir: string;
}

export function scriptedDesktopShell(dataDir: string, dialogs: ScriptedDialogs, demoFacts = 2000): Shell {
  const recent = new RecentFiles(path.join(dataDir, 'recent.json'));
  return {
    mode: 'desktop',
    chooseDatabase: async () => dialogs.openPath,
    recent: async () => recent.list(),
    rememberRecent: async (p) => recent.remember(p),
    // The app's own default seeding, smaller so tests stay quick.
    defaultDatabase: () => ({ ...defaultDatabaseIn(dataDir), demo: { facts: demoFacts, seed: 7 } }),
    chooseExportTarget: async (_format, name): Promise<ExportTarget> => ({ kind: 'file', path: path.join(dialogs.exportDir, name) }),
    servers: serverShell(
      new RecentServers(path.join(dataDir, 'recent-servers.json')),
      new ServerCredentials(path.join(dataDir, 'server-credentials.json'), fakeSafeStorage()),
    ),
  };
}

export interface Harness {
  readonly services: AppServices;
  readonly ipcMain: FakeIpcMain;
  readonly registrar: Registrar;
  readonly contents: FakeWebContents;
  readonly bridge: StatelensBridge;
  readonly dialogs: ScriptedDialogs;
  close(): Promise<void>;
}

export async function startHarness(options: { dataDir: string; dbPath?: string; shell?: Shell; engine?: EngineHost }): Promise<Harness> {
  fs.mkdirSync(options.dataDir, { recursive: true });
  const dialogs: ScriptedDialogs = { openPath: options.dbPath ?? null, exportDir: options.dataDir };
  const engine = options.engine ?? new EngineHost({ workerPath: WORKER_PATH, pollMs: 100, actor: 'tester (contract tests)' });
  const services = createAppServices(engine, options.shell ?? scriptedDesktopShell(options.dataDir, dialogs), { validate: true });
  const ipcMain = new FakeIpcMain();
  const contents = new FakeWebContents();
  const ours = new Set([contents.id]);
  const registrar = registerContract(ipcMain, services.dispatch, { isOurWebContents: (id) => ours.has(id) });
  const unsubscribe = services.events.subscribe((event, payload) => contents.send(ipcEventChannel(event), payload));
  const bridge = buildBridge(fakeIpcRenderer(ipcMain, contents));
  if (options.dbPath) await engine.call('db.openPath', { path: options.dbPath, create: false, readonly: false });
  return {
    services,
    ipcMain,
    registrar,
    contents,
    bridge,
    dialogs,
    async close() {
      unsubscribe();
      registrar.dispose();
      await services.close();
    },
  };
}

export interface FixtureHarness extends Harness {
  readonly fx: Fixture;
  /** The temporary folder holding the fixture and the harness's data (removed by close). */
  readonly dir: string;
}

/** A harness on the fixture database, both in a temporary folder of their own (removed by close):
 * the scripted "open" dialog picks the fixture, exports land in the folder's data/. */
export async function startFixtureHarness(prefix: string): Promise<FixtureHarness> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  try {
    const fx = buildFixture(path.join(dir, 'fixture.db'));
    const h = await startHarness({ dataDir: path.join(dir, 'data'), dbPath: fx.path });
    return {
      ...h,
      fx,
      dir,
      async close() {
        await h.close();
        fs.rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (e) {
    fs.rmSync(dir, { recursive: true, force: true });
    throw e;
  }
}
