// The desktop Shell: native open/save dialogs, main's own recent files and servers, and the embedded
// default database in the app's data folder.
import os from 'node:os';
import path from 'node:path';
import { BrowserWindow, dialog } from 'electron';
import type { ExportFormat } from '../../shared/contract';
import { EXPORT_EXTENSIONS, type DefaultDatabase, type ServerShell, type Shell } from '../handlers/shell';
import type { RecentFiles } from './recent-files';

const FORMAT_NAMES: Readonly<Record<ExportFormat, string>> = {
  json: 'Statelens snapshot (JSON)',
  ndjson: 'Statelens snapshot (NDJSON)',
  sqlite: 'SQLite database copy',
  markdown: 'Markdown report',
  csv: 'CSV of facts',
  statebench: 'StateBench initial state (JSON)',
};

export function desktopShell(options: { recent: RecentFiles; defaultDatabase: DefaultDatabase; documentsDir: string; servers: ServerShell }): Shell {
  const parent = () => BrowserWindow.getFocusedWindow() ?? BrowserWindow.getAllWindows()[0];
  return {
    mode: 'desktop',
    servers: options.servers,
    async chooseDatabase() {
      const win = parent();
      const opts: Electron.OpenDialogOptions = {
        title: 'Open a Statelens database',
        properties: ['openFile'],
        filters: [
          { name: 'Statelens databases and snapshots', extensions: ['db', 'sqlite', 'sqlite3', 'statelens', 'json', 'ndjson'] },
          { name: 'All files', extensions: ['*'] },
        ],
      };
      const result = win ? await dialog.showOpenDialog(win, opts) : await dialog.showOpenDialog(opts);
      return result.canceled ? null : (result.filePaths[0] ?? null);
    },
    recent: async () => options.recent.list(),
    rememberRecent: async (file) => options.recent.remember(file),
    defaultDatabase: () => options.defaultDatabase,
    async chooseExportTarget(format, suggestedName) {
      const win = parent();
      const opts: Electron.SaveDialogOptions = {
        title: 'Export snapshot',
        defaultPath: path.join(options.documentsDir || os.homedir(), suggestedName),
        filters: [{ name: FORMAT_NAMES[format], extensions: [EXPORT_EXTENSIONS[format]] }],
        properties: ['showOverwriteConfirmation', 'createDirectory'],
      };
      const result = win ? await dialog.showSaveDialog(win, opts) : await dialog.showSaveDialog(opts);
      return result.canceled || !result.filePath ? null : { kind: 'file', path: result.filePath };
    },
  };
}
