// Smoke tests of the real desktop app through Playwright's Electron driver: the window opens on
// the embedded default database, the page sees only `window.statelens` (no Node, no ipcRenderer),
// the bridge stays isolated and new windows and navigation are refused. They need Electron's binary
// (node_modules/electron/dist, downloaded at install on a machine with internet) and the
// Electron build of better-sqlite3 (node electron/build/electron-native.mjs); without either
// they are skipped, saying which is missing.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { _electron, type ElectronApplication, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CALL_CHANNELS, splitChannel } from '../../shared/contract';
import { repoRoot } from '../helpers/paths';

const electronDist = path.join(repoRoot, 'node_modules', 'electron', 'dist');
const electronVersion = (JSON.parse(fs.readFileSync(path.join(repoRoot, 'node_modules', 'electron', 'package.json'), 'utf8')) as { version: string }).version;
const nativeBinding = path.join(repoRoot, '.electron-native', `electron-${electronVersion}`, 'better_sqlite3.node');

function missing(): string | undefined {
  if (!fs.existsSync(electronDist))
    return `no Electron binary at ${path.relative(repoRoot, electronDist)} (electron@${electronVersion} downloads it on install with internet)`;
  if (!fs.existsSync(nativeBinding))
    return `no Electron build of better-sqlite3 at ${path.relative(repoRoot, nativeBinding)} (run: node electron/build/electron-native.mjs, needs internet once)`;
  return undefined;
}
const reason = missing();
if (reason) console.log(`electron-smoke: SKIPPED — ${reason}`);

// The reason is in the suite's title too, so the test report itself says why it was skipped.
describe.skipIf(reason !== undefined)(reason ? `the desktop app (Electron), skipped: ${reason}` : 'the desktop app (Electron)', () => {
  let app: ElectronApplication;
  let page: Page;
  let home: string;

  beforeAll(async () => {
    const build = spawnSync(process.execPath, [path.join(repoRoot, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js'), 'build'], {
      cwd: repoRoot,
      encoding: 'utf8',
    });
    if (build.status !== 0) throw new Error(`electron-vite build failed:\n${build.stdout}\n${build.stderr}`);
    home = fs.mkdtempSync(path.join(os.tmpdir(), 'statelens-electron-'));
    const executablePath = (await import('electron')).default as unknown as string;
    app = await _electron.launch({
      executablePath,
      // Chromium refuses its own OS sandbox when run as root (CI containers); the renderer's
      // Electron sandbox and context isolation are unaffected.
      args: [...(process.getuid?.() === 0 ? ['--no-sandbox'] : []), path.join(repoRoot, 'out', 'main', 'index.js')],
      env: { ...process.env, HOME: home, XDG_CONFIG_HOME: path.join(home, '.config'), APPDATA: path.join(home, 'AppData') },
      timeout: 120_000,
    });
    page = await app.firstWindow();
    await page.waitForLoadState('domcontentloaded');
  }, 300_000);

  afterAll(async () => {
    await app?.close();
    if (home) fs.rmSync(home, { recursive: true, force: true });
  });

  it('loads the renderer from app://statelens with the CSP', async () => {
    expect(page.url()).toMatch(/^app:\/\/statelens\//);
    const csp = await page.evaluate(() => document.querySelector('meta[http-equiv="Content-Security-Policy"]')?.getAttribute('content') ?? '');
    expect(csp).toContain("script-src 'self'");
  });

  it('exposes window.statelens with one function per channel and nothing from Node', async () => {
    const shape = await page.evaluate(() => {
      const s = (window as unknown as { statelens: Record<string, unknown> }).statelens;
      return {
        keys: Object.keys(s).sort(),
        methods: Object.fromEntries(Object.entries(s).map(([k, v]) => [k, typeof v === 'object' && v ? Object.keys(v).sort() : typeof v])),
        node: [
          typeof (globalThis as { require?: unknown }).require,
          typeof (globalThis as { process?: unknown }).process,
          typeof (globalThis as { Buffer?: unknown }).Buffer,
        ],
      };
    });
    const namespaces = [...new Set(CALL_CHANNELS.map((c) => splitChannel(c)[0]))];
    expect(shape.keys).toEqual([...namespaces, 'on'].sort());
    for (const ns of namespaces)
      expect(shape.methods[ns]).toEqual(
        CALL_CHANNELS.filter((c) => c.startsWith(`${ns}.`))
          .map((c) => splitChannel(c)[1])
          .sort(),
      );
    expect(shape.node).toEqual(['undefined', 'undefined', 'undefined']);
  });

  it('opens the embedded default database, seeded with demo data', async () => {
    await expect
      .poll(
        async () =>
          page.evaluate(async () => {
            const s = (
              window as unknown as { statelens: { partitions: { list(): Promise<{ ok: boolean; value?: { partitions: Array<{ facts: number }> } }> } } }
            ).statelens;
            const r = await s.partitions.list();
            return r.ok ? (r.value?.partitions.reduce((n, p) => n + p.facts, 0) ?? 0) : 0;
          }),
        { timeout: 120_000 },
      )
      .toBeGreaterThan(1000);
    const info = await page.evaluate(async () => (window as unknown as { statelens: { db: { info(): Promise<unknown> } } }).statelens.db.info());
    expect(info).toMatchObject({ ok: true, value: { mode: 'desktop', db: { isDefault: true } } });
    expect(await app.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows()[0]?.getTitle())).toMatch(/Statelens/);
  });

  it('keeps the bridge in its isolated world: the page can neither replace nor extend it', async () => {
    const result = await page.evaluate(() => {
      const w = window as unknown as { statelens: Record<string, unknown> };
      const before = Object.keys(w.statelens).length;
      try {
        w.statelens = {};
      } catch {
        // non-writable in strict mode
      }
      try {
        (w.statelens as Record<string, unknown>).invoke = () => 1;
      } catch {
        // frozen
      }
      return {
        same: Object.keys(w.statelens).length === before,
        frozen: Object.isFrozen(w.statelens),
        invoke: typeof (w.statelens as Record<string, unknown>).invoke,
      };
    });
    expect(result).toEqual({ same: true, frozen: true, invoke: 'undefined' });
  });

  it('refuses new windows and navigation away from the app', async () => {
    expect(await page.evaluate(() => window.open('https://example.com') === null)).toBe(true);
    expect(await page.evaluate(() => window.open('file:///etc/passwd') === null)).toBe(true);
    await page.evaluate(() => {
      window.location.href = 'https://example.com/';
    });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(page.url()).toMatch(/^app:\/\/statelens\//);
    expect(app.windows()).toHaveLength(1);
    await page.screenshot({ path: path.join(repoRoot, 'test-results', 'electron-smoke.png') });
  });
});
