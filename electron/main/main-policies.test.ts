// The main process's Electron-free policies: who may call, which links may leave the app, the
// recent-files list, the remembered window state, the menu and the native binding's location.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { MenuItemConstructorOptions } from 'electron';
import { MAX_RECENT } from '../../shared/contract';
import { safeExternalUrl } from './external-links';
import { menuTemplate, type MenuActions } from './menu';
import { electronNativeBinding } from './native-binding';
import { RecentFiles } from './recent-files';
import { APP_ORIGIN, checkSender, type SenderEvent } from './sender-policy';
import { loadWindowState, saveWindowState, visibleOn } from './window-state';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'statelens-main-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function event(url: string, opts: { sub?: boolean; id?: number; frame?: null } = {}): SenderEvent {
  const main = { url: `${APP_ORIGIN}/index.html`, parent: null, frameTreeNodeId: 1, processId: 3 };
  const frame = opts.frame === null ? null : opts.sub ? { url, parent: main, frameTreeNodeId: 2, processId: 3 } : { ...main, url };
  return { sender: { id: opts.id ?? 5, mainFrame: main }, senderFrame: frame } as unknown as SenderEvent;
}

describe('checkSender', () => {
  const policy = { isOurWebContents: (id: number) => id === 5 };
  it("accepts only our window's main frame on app://statelens", () => {
    expect(checkSender(event(`${APP_ORIGIN}/index.html#/facts`), policy)).toEqual({ ok: true });
    expect(checkSender(event(`${APP_ORIGIN}/index.html`, { sub: true }), policy).ok).toBe(false);
    expect(checkSender(event(`${APP_ORIGIN}/index.html`, { id: 6 }), policy).ok).toBe(false);
    expect(checkSender(event('', { frame: null }), policy).ok).toBe(false);
    for (const url of [
      'https://statelens',
      'app://statelens.evil/',
      'app://evil',
      'file:///index.html',
      'http://localhost:5173/',
      'about:blank',
      'data:text/html,x',
    ]) {
      expect(checkSender(event(url), policy).ok, url).toBe(false);
    }
  });
  it('accepts the dev server origin only when one is configured', () => {
    expect(checkSender(event('http://localhost:5173/'), { ...policy, devOrigin: 'http://localhost:5173' })).toEqual({ ok: true });
    expect(checkSender(event('http://localhost:5174/'), { ...policy, devOrigin: 'http://localhost:5173' }).ok).toBe(false);
  });
});

describe('safeExternalUrl', () => {
  it('lets only well-formed https links out', () => {
    expect(safeExternalUrl('https://example.com/docs?a=1')).toBe('https://example.com/docs?a=1');
    for (const u of [
      'http://example.com',
      'file:///etc/passwd',
      'javascript:alert(1)',
      'smb://host/share',
      'https://user:pw@example.com',
      'notaurl',
      'ms-msdt:/id',
      'https:',
    ]) {
      expect(safeExternalUrl(u), u).toBeUndefined();
    }
  });
});

describe('RecentFiles', () => {
  it('keeps the newest first, without duplicates, capped, and survives a damaged file', () => {
    const file = path.join(dir, 'recent.json');
    let t = 0;
    const recent = new RecentFiles(file, () => `2026-01-01T00:00:${String(t++).padStart(2, '0')}.000Z`);
    const a = path.join(dir, 'a.db');
    fs.writeFileSync(a, '');
    recent.remember(a);
    recent.remember(path.join(dir, 'b.db'));
    recent.remember(a);
    expect(recent.list().map((e) => [e.index, e.name, e.exists])).toEqual([
      [0, 'a.db', true],
      [1, 'b.db', false],
    ]);
    for (let i = 0; i < 20; i++) recent.remember(path.join(dir, `${i}.db`));
    expect(recent.list()).toHaveLength(MAX_RECENT);
    fs.writeFileSync(file, '{not json');
    expect(recent.list()).toEqual([]);
    fs.writeFileSync(file, JSON.stringify([{ path: 'relative.db', openedAt: 'x' }, { path: 42 }]));
    expect(recent.list()).toEqual([]);
  });
});

describe('window state', () => {
  const displays = [{ x: 0, y: 0, width: 1920, height: 1080 }];
  it('restores a saved window that is still on screen, and not one that is off screen', () => {
    const file = path.join(dir, 'window.json');
    saveWindowState(file, { bounds: { x: 100, y: 80, width: 1200, height: 800 }, maximized: true });
    expect(loadWindowState(file, displays)).toEqual({ bounds: { x: 100, y: 80, width: 1200, height: 800 }, maximized: true, positioned: true });
    saveWindowState(file, { bounds: { x: 5000, y: 80, width: 1200, height: 800 }, maximized: false });
    expect(loadWindowState(file, displays)).toMatchObject({ positioned: false, bounds: { width: 1200, height: 800 } });
    fs.writeFileSync(file, 'garbage');
    expect(loadWindowState(file, displays)).toMatchObject({ positioned: false, bounds: { width: 1400, height: 900 } });
    expect(visibleOn({ x: -1150, y: 0, width: 1200, height: 800 }, displays)).toBe(false);
  });
});

describe('menu', () => {
  const calls: string[] = [];
  const actions: MenuActions = {
    openDatabase: () => calls.push('open'),
    openRecent: (i) => calls.push(`recent ${i}`),
    openDefault: () => calls.push('default'),
    connectServer: () => calls.push('connect'),
    openRecentServer: (i) => calls.push(`server ${i}`),
    clearRecent: () => calls.push('clear'),
    exportSnapshot: () => calls.push('export'),
    importFrom: (system) => calls.push(`import ${system}`),
    showShortcuts: () => calls.push('shortcuts'),
    reload: () => calls.push('reload'),
    quit: () => calls.push('quit'),
  };
  const flat = (items: MenuItemConstructorOptions[]): MenuItemConstructorOptions[] =>
    items.flatMap((i) => [i, ...(Array.isArray(i.submenu) ? flat(i.submenu) : [])]);

  it('has Open database, Open recent, Export snapshot, Reload and Quit with shortcuts', () => {
    const items = flat(
      menuTemplate({ recent: [{ index: 0, path: '/x/a.db', name: 'a.db', openedAt: '', exists: true }], isMac: false, devTools: false, actions }),
    );
    const byLabel = new Map(items.filter((i) => i.label).map((i) => [i.label, i]));
    expect(byLabel.get('Open Database…')?.accelerator).toBe('CmdOrCtrl+O');
    expect(byLabel.get('Export Snapshot…')?.accelerator).toBe('CmdOrCtrl+E');
    expect(byLabel.get('Reload')?.accelerator).toBe('CmdOrCtrl+R');
    expect(byLabel.get('Quit')?.accelerator).toBe('CmdOrCtrl+Q');
    expect(byLabel.has('Open Recent')).toBe(true);
    for (const i of items) (i.click as (() => void) | undefined)?.();
    expect(calls).toEqual(expect.arrayContaining(['open', 'recent 0', 'export', 'reload', 'quit', 'shortcuts']));
    expect(items.some((i) => i.role === 'toggleDevTools')).toBe(false);
    expect(flat(menuTemplate({ recent: [], isMac: false, devTools: true, actions })).some((i) => i.role === 'toggleDevTools')).toBe(true);
  });

  it('has Connect to Server… and lists recent servers beside recent files, never with a password', () => {
    calls.length = 0;
    const server = { index: 0, url: 'postgres://ana@db.example:5432/memory', schema: 'statelens', org: 'acme', openedAt: '', hasPassword: true };
    const items = flat(menuTemplate({ recent: [], recentServers: [server], isMac: false, devTools: false, actions }));
    const byLabel = new Map(items.filter((i) => i.label).map((i) => [i.label, i]));
    expect(byLabel.get('Connect to Server…')?.accelerator).toBe('CmdOrCtrl+Shift+O');
    const entry = items.find((i) => i.label?.includes('db.example'));
    expect(entry?.label).toBe('acme · statelens  —  postgres://ana@db.example:5432/memory');
    expect(byLabel.get('Clear Recent')?.enabled).toBe(true);
    for (const i of items) (i.click as (() => void) | undefined)?.();
    expect(calls).toEqual(expect.arrayContaining(['connect', 'server 0']));
  });
});

describe('electronNativeBinding', () => {
  it('finds the Electron build beside the repo, never node_modules', () => {
    expect(electronNativeBinding({ repoRoot: dir, electronVersion: '45.0.0', packaged: false, resourcesPath: dir })).toBeUndefined();
    const file = path.join(dir, '.electron-native', 'electron-45.0.0', 'better_sqlite3.node');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, '');
    expect(electronNativeBinding({ repoRoot: dir, electronVersion: '45.0.0', packaged: false, resourcesPath: dir })).toBe(file);
    expect(electronNativeBinding({ repoRoot: dir, electronVersion: '45.0.0', packaged: true, resourcesPath: path.join(dir, 'none') })).toBeUndefined();
  });
});
