// The application menu and its shortcuts: Open database..., Open recent (files and servers),
// Connect to server..., Import from (other memory systems' files), Export snapshot...,
// Reload, Quit (plus the usual Edit / View / Window roles). Built from plain data so it can be
// rebuilt whenever the recent list changes.
import type { MenuItemConstructorOptions } from 'electron';
import type { RecentEntry, RecentServer } from '../../shared/contract';
import type { ForeignSystem } from '../engine/import/foreign/plan';
import { IMPORT_SOURCES } from './foreign-import';

export interface MenuActions {
  openDatabase(): void;
  openRecent(index: number): void;
  openDefault(): void;
  /** Opens the renderer's server dialog (URL, password, schema, organisation). */
  connectServer(): void;
  openRecentServer(index: number): void;
  clearRecent(): void;
  exportSnapshot(): void;
  /** File › Import from › one system's file (main runs it: see foreign-import.ts). */
  importFrom(system: ForeignSystem): void;
  showShortcuts(): void;
  reload(): void;
  quit(): void;
}

export function menuTemplate(options: {
  recent: readonly RecentEntry[];
  recentServers?: readonly RecentServer[];
  isMac: boolean;
  devTools: boolean;
  actions: MenuActions;
}): MenuItemConstructorOptions[] {
  const { actions, recent } = options;
  const recentItems: MenuItemConstructorOptions[] =
    recent.length === 0
      ? [{ label: 'No recent databases', enabled: false }]
      : recent.map((e) => ({
          label: e.exists ? `${e.name}  —  ${e.path}` : `${e.name} (missing)`,
          enabled: e.exists,
          click: () => actions.openRecent(e.index),
        }));
  const servers = options.recentServers ?? [];
  const serverItems: MenuItemConstructorOptions[] = servers.map((s) => ({
    label: `${s.org} · ${s.schema}  —  ${s.url}`,
    click: () => actions.openRecentServer(s.index),
  }));
  const file: MenuItemConstructorOptions = {
    label: '&File',
    submenu: [
      { label: 'Open Database…', accelerator: 'CmdOrCtrl+O', click: () => actions.openDatabase() },
      {
        label: 'Open Recent',
        submenu: [
          ...recentItems,
          ...(serverItems.length > 0 ? ([{ type: 'separator' }, { label: 'Servers', enabled: false }, ...serverItems] as MenuItemConstructorOptions[]) : []),
          { type: 'separator' },
          { label: 'Clear Recent', enabled: recent.length + servers.length > 0, click: () => actions.clearRecent() },
        ],
      },
      { label: 'Open Demo Database', click: () => actions.openDefault() },
      { label: 'Connect to Server…', accelerator: 'CmdOrCtrl+Shift+O', click: () => actions.connectServer() },
      { type: 'separator' },
      { label: 'Import From', submenu: IMPORT_SOURCES.map((s) => ({ label: s.label, click: () => actions.importFrom(s.system) })) },
      { label: 'Export Snapshot…', accelerator: 'CmdOrCtrl+E', click: () => actions.exportSnapshot() },
      { type: 'separator' },
      options.isMac ? { role: 'close' } : { label: 'Quit', accelerator: 'CmdOrCtrl+Q', click: () => actions.quit() },
    ],
  };
  const view: MenuItemConstructorOptions = {
    label: '&View',
    submenu: [
      { label: 'Reload', accelerator: 'CmdOrCtrl+R', click: () => actions.reload() },
      ...(options.devTools ? ([{ role: 'toggleDevTools' }] as MenuItemConstructorOptions[]) : []),
      { type: 'separator' },
      { role: 'resetZoom' },
      { role: 'zoomIn' },
      { role: 'zoomOut' },
      { type: 'separator' },
      { role: 'togglefullscreen' },
    ],
  };
  const help: MenuItemConstructorOptions = {
    role: 'help',
    submenu: [{ label: 'Keyboard Shortcuts', accelerator: 'CmdOrCtrl+/', click: () => actions.showShortcuts() }],
  };
  const mac: MenuItemConstructorOptions[] = options.isMac
    ? [
        {
          label: 'Statelens',
          submenu: [
            { role: 'about' },
            { type: 'separator' },
            { role: 'hide' },
            { role: 'hideOthers' },
            { role: 'unhide' },
            { type: 'separator' },
            { label: 'Quit Statelens', accelerator: 'Cmd+Q', click: () => actions.quit() },
          ],
        },
      ]
    : [];
  return [...mac, file, { role: 'editMenu' }, view, { role: 'windowMenu' }, help];
}
