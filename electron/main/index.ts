// The Electron main process: hardened window and sessions, the app:// protocol, the engine in
// a worker thread behind the typed IPC registrar, the menu, recent files, remembered window
// state and the embedded default database (seeded with demo data on first run).
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { app, BrowserWindow, dialog, ipcMain, Menu, safeStorage, screen, session } from 'electron';
import { databaseTitle, ipcEventChannel } from '../../shared/contract';
import { isStatelensError } from '../../shared/errors';
import { EngineHost } from '../engine-host/facade';
import { localActor } from '../handlers/actor';
import { createAppServices, type AppServices } from '../handlers/app-services';
import { defaultDatabaseIn } from '../handlers/default-database';
import { registerAppScheme, serveAppProtocol } from './app-protocol';
import { desktopShell } from './desktop-shell';
import { importFromMenu, type ImportDialogs } from './foreign-import';
import { menuTemplate } from './menu';
import { databaseFromArgv } from './launch-args';
import { electronNativeBinding } from './native-binding';
import { RecentFiles, RecentServers } from './recent-files';
import { ServerCredentials, serverShell } from './server-credentials';
import { registerContract } from './registrar';
import { hardenSession, hardenWebContents } from './security';
import { APP_ORIGIN, originOf } from './sender-policy';
import { loadWindowState, saveWindowState } from './window-state';

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '..', '..');
const isDev = !app.isPackaged;
const devUrl = isDev ? process.env.ELECTRON_RENDERER_URL : undefined;
const devOrigin = devUrl ? originOf(devUrl) : undefined;
const log = (line: string) => console.error(line);

registerAppScheme();
app.enableSandbox();
/** A second launch hands over to the first window instead of opening the database twice. */
const primaryInstance = app.requestSingleInstanceLock();
if (!primaryInstance) app.quit();

let services: AppServices | undefined;
/** The engine worker's host; File › Import from… calls it directly (no contract channel does). */
let engineHost: EngineHost | undefined;
let mainWindow: BrowserWindow | undefined;
const ourContents = new Set<number>();

function userFile(name: string): string {
  return path.join(app.getPath('userData'), name);
}

function showError(title: string, e: unknown): void {
  const message = isStatelensError(e) ? e.message : e instanceof Error ? e.message : String(e);
  if (mainWindow && !mainWindow.isDestroyed()) void dialog.showMessageBox(mainWindow, { type: 'error', title, message: title, detail: message });
  else dialog.showErrorBox(title, message);
}

function createWindow(): BrowserWindow {
  const stateFile = userFile('window-state.json');
  const state = loadWindowState(
    stateFile,
    screen.getAllDisplays().map((d) => d.workArea),
  );
  const win = new BrowserWindow({
    ...(state.positioned ? { x: state.bounds.x, y: state.bounds.y } : {}),
    width: state.bounds.width,
    height: state.bounds.height,
    minWidth: 640,
    minHeight: 420,
    show: false,
    title: 'Statelens',
    ...(isDev ? { icon: path.join(repoRoot, 'resources', 'icon.png') } : {}),
    backgroundColor: '#1e1e1e',
    webPreferences: {
      // Reviewed: the preload only exposes the contract bridge (electron/preload/bridge.ts).
      preload: path.join(here, '..', 'preload', 'index.cjs'), // eng-disable PRELOAD_JS_CHECK
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      webviewTag: false,
      navigateOnDragDrop: false,
      safeDialogs: true,
      spellcheck: false,
      devTools: isDev,
      disableBlinkFeatures: 'Auxclick',
    },
  });
  const id = win.webContents.id;
  ourContents.add(id);
  if (state.maximized) win.maximize();
  win.once('ready-to-show', () => win.show());
  const remember = () => {
    if (!win.isDestroyed()) saveWindowState(stateFile, { bounds: win.getNormalBounds(), maximized: win.isMaximized() });
  };
  win.on('resize', remember);
  win.on('move', remember);
  win.on('close', remember);
  win.on('closed', () => {
    ourContents.delete(id);
    if (mainWindow === win) mainWindow = undefined;
  });
  if (devUrl) void win.loadURL(devUrl);
  else void win.loadURL(`${APP_ORIGIN}/index.html`);
  return win;
}

async function updateTitle(): Promise<void> {
  if (!services || !mainWindow || mainWindow.isDestroyed()) return;
  const result = await services.handlers['db.info']({});
  mainWindow.setTitle(databaseTitle(result.db));
}

async function rebuildMenu(): Promise<void> {
  if (!services) return;
  const s = services;
  const run = (title: string, fn: () => Promise<unknown>) => () =>
    void fn()
      .then(() => rebuildMenu())
      .catch((e: unknown) => showError(title, e));
  const recent = (await s.handlers['db.recent']({})).entries;
  const recentServers = (await s.handlers['db.recentServers']({})).servers;
  Menu.setApplicationMenu(
    Menu.buildFromTemplate(
      menuTemplate({
        recent,
        recentServers,
        isMac: process.platform === 'darwin',
        devTools: isDev,
        actions: {
          openDatabase: run('Could not open the database', () => s.handlers['db.open']({ source: 'dialog' })),
          openRecent: (index) => run('Could not open the database', () => s.handlers['db.open']({ source: 'recent', index }))(),
          openDefault: run('Could not open the demo database', () => s.handlers['db.open']({ source: 'default' })),
          connectServer: () => s.events.emit('app.command', { command: 'connect-server' }),
          openRecentServer: (index) => run('Could not connect to the server', () => s.handlers['db.connect']({ source: 'recent', index }))(),
          clearRecent: run('Could not clear the recent list', async () => {
            new RecentFiles(userFile('recent.json')).clear();
            new RecentServers(userFile('recent-servers.json')).clear();
            new ServerCredentials(userFile('server-credentials.json'), safeStorage).clear();
          }),
          exportSnapshot: () => s.events.emit('app.command', { command: 'export-snapshot' }),
          importFrom: (system) => {
            if (engineHost) void importFromMenu(system, engineHost, nativeImportDialogs());
          },
          showShortcuts: () => s.events.emit('app.command', { command: 'show-shortcuts' }),
          reload: () => mainWindow?.webContents.reload(),
          quit: () => app.quit(),
        },
      }),
    ),
  );
}

/** The import's dialogs: Electron's, on the main window. */
function nativeImportDialogs(): ImportDialogs {
  const win = (): BrowserWindow | undefined => (mainWindow && !mainWindow.isDestroyed() ? mainWindow : undefined);
  return {
    async chooseFile(source) {
      const opts: Electron.OpenDialogOptions = {
        title: source.title,
        properties: ['openFile'],
        filters: source.filters.map((f) => ({ name: f.name, extensions: [...f.extensions] })),
      };
      const w = win();
      const result = w ? await dialog.showOpenDialog(w, opts) : await dialog.showOpenDialog(opts);
      return result.canceled ? null : (result.filePaths[0] ?? null);
    },
    async showMessage(m) {
      const w = win();
      if (w) await dialog.showMessageBox(w, { type: m.type, title: m.title, message: m.message, detail: m.detail });
      else dialog.showErrorBox(m.title, `${m.message}\n${m.detail}`);
    },
    setProgress: (fraction) => win()?.setProgressBar(fraction === null ? -1 : fraction),
  };
}

/** Opens the database a launch named (`statelens open FILE`) and remembers it as recent. */
async function openNamedDatabase(engine: EngineHost, recent: RecentFiles, file: string): Promise<void> {
  await engine.call('db.openPath', { path: path.resolve(file), create: false, readonly: false });
  recent.remember(path.resolve(file));
  await updateTitle();
}

/** The database named on the command line; else the last one opened, if it still exists;
 * otherwise the embedded default. */
async function openInitialDatabase(s: AppServices, engine: EngineHost, recentFiles: RecentFiles): Promise<void> {
  const named = databaseFromArgv(process.argv);
  if (named) {
    try {
      await openNamedDatabase(engine, recentFiles, named);
      return;
    } catch (e) {
      showError(`Could not open ${named}`, e);
    }
  }
  const recent = (await s.handlers['db.recent']({})).entries.find((e) => e.exists);
  if (recent) {
    try {
      await s.handlers['db.open']({ source: 'recent', index: recent.index });
      return;
    } catch (e) {
      log(`statelens: could not reopen ${recent.path}: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  await s.handlers['db.open']({ source: 'default' });
}

async function start(): Promise<void> {
  const security = { devOrigin, log };
  hardenSession(session.defaultSession, security);
  app.on('web-contents-created', (_event, contents) => hardenWebContents(contents, security));
  serveAppProtocol(session.defaultSession, path.join(here, '..', 'renderer'));

  const nativeBinding = electronNativeBinding({
    repoRoot,
    electronVersion: process.versions.electron,
    packaged: app.isPackaged,
    resourcesPath: process.resourcesPath,
  });
  if (!nativeBinding) {
    dialog.showErrorBox(
      'better-sqlite3 is not built for Electron',
      app.isPackaged
        ? 'This package lacks resources/native/better_sqlite3.node; rebuild it with `npm run package`.'
        : 'Run `node electron/build/electron-native.mjs` (it needs internet once) or simply `npm start`, which does it first.',
    );
    app.quit();
    return;
  }
  const engine = new EngineHost({ workerPath: path.join(here, 'engine-worker.js'), nativeBinding, actor: localActor('desktop app') });
  engine.on('crashed', (e) => log(`statelens: the engine worker stopped (${e.message}); it restarts on the next call`));
  const recent = new RecentFiles(userFile('recent.json'));
  const s = createAppServices(
    engine,
    desktopShell({
      recent,
      defaultDatabase: defaultDatabaseIn(app.getPath('userData')),
      documentsDir: app.getPath('documents'),
      // Passwords go through the system's encryption (safeStorage); only ciphertext is written.
      servers: serverShell(new RecentServers(userFile('recent-servers.json')), new ServerCredentials(userFile('server-credentials.json'), safeStorage)),
    }),
    {
      validate: isDev,
      log,
    },
  );
  services = s;
  engineHost = engine;
  registerContract(ipcMain, s.dispatch, { isOurWebContents: (id) => ourContents.has(id), devOrigin }, log);
  s.events.subscribe((event, payload) => {
    for (const win of BrowserWindow.getAllWindows()) {
      if (!win.isDestroyed() && ourContents.has(win.webContents.id)) win.webContents.send(ipcEventChannel(event), payload);
    }
    if (event === 'data.changed' && (payload as { what: string[] }).what.includes('database')) void updateTitle().then(() => rebuildMenu());
  });

  openNamed = (file) => openNamedDatabase(engine, recent, file);
  mainWindow = createWindow();
  await rebuildMenu();
  try {
    await openInitialDatabase(s, engine, recent);
  } catch (e) {
    showError('Could not open a database', e);
  }
  await updateTitle();
}

let openNamed: ((file: string) => Promise<void>) | undefined;

app.on('second-instance', (_event, argv) => {
  // `statelens open FILE` while the app runs: the running window opens FILE.
  const named = databaseFromArgv(argv);
  if (named && openNamed) void openNamed(named).catch((e: unknown) => showError(`Could not open ${named}`, e));
  if (mainWindow) {
    if (mainWindow.isMinimized()) mainWindow.restore();
    mainWindow.focus();
  }
});

app.on('window-all-closed', () => {
  if (process.platform !== 'darwin') app.quit();
});

app.on('activate', () => {
  if (services && BrowserWindow.getAllWindows().length === 0) mainWindow = createWindow();
});

let quitting = false;
app.on('will-quit', (event) => {
  if (quitting || !services) return;
  event.preventDefault();
  quitting = true;
  void services.close().finally(() => app.quit());
});

if (primaryInstance) {
  app
    .whenReady()
    .then(start)
    .catch((e: unknown) => showError('Statelens could not start', e));
}
