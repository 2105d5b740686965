// Debian Chromium driven by playwright-core: headless, sandbox off (containers), a fresh
// profile per launch. Tests skip (saying why) when /usr/bin/chromium is absent.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { repoRoot } from '../../helpers/paths';
import { e2eStoreKind } from './store';

export const CHROMIUM = '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export function chromiumMissing(): string | undefined {
  return fs.existsSync(CHROMIUM) ? undefined : `${CHROMIUM} is not installed (apt-get install -y chromium); the end-to-end UI tests need it`;
}

export interface Browser {
  readonly context: BrowserContext;
  readonly profile: string;
  newPage(options?: { colorScheme?: 'light' | 'dark'; width?: number; height?: number }): Promise<Page>;
  close(): Promise<void>;
}

export async function launchChromium(): Promise<Browser> {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'statelens-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: { width: 1440, height: 900 },
    acceptDownloads: true,
  });
  return {
    context,
    profile,
    async newPage(options = {}) {
      const page = await context.newPage();
      await page.setViewportSize({ width: options.width ?? 1440, height: options.height ?? 900 });
      if (options.colorScheme) await page.emulateMedia({ colorScheme: options.colorScheme });
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      page.on('console', (m) => {
        if (m.type() === 'error') errors.push(m.text());
      });
      (page as Page & { jsErrors?: string[] }).jsErrors = errors;
      return page;
    },
    async close() {
      await context.close();
      fs.rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** Errors the page logged (uncaught exceptions and console.error), for assertions. */
export function pageErrors(page: Page): string[] {
  return (page as Page & { jsErrors?: string[] }).jsErrors ?? [];
}

/** The server pass keeps its screenshots apart, so neither pass overwrites the other's. */
export const SCREENSHOT_DIR = path.join(repoRoot, 'test-results', e2eStoreKind() === 'server' ? 'screenshots-server' : 'screenshots');

export async function screenshot(page: Page, name: string): Promise<string> {
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const file = path.join(SCREENSHOT_DIR, `${name}.png`);
  await page.screenshot({ path: file });
  return file;
}

/** The body's background in the dark theme: a page is drawn in the scheme asked for once its
 * body shows this colour (dark) or stops showing it (light). */
const DARK_BACKGROUND = 'rgb(21, 23, 28)';

/** Emulates the system colour scheme and waits until the page is drawn in it. */
export async function useColorScheme(page: Page, scheme: 'light' | 'dark'): Promise<void> {
  await page.emulateMedia({ colorScheme: scheme });
  await page.waitForFunction(([dark, bg]) => (getComputedStyle(document.body).backgroundColor === bg) === dark, [scheme === 'dark', DARK_BACKGROUND] as const);
}

/** Screenshots `${name}-light` and `${name}-dark` (`ready` runs in each scheme before its shot),
 * and leaves the page light. */
export async function screenshotBothSchemes(page: Page, name: string, ready?: () => Promise<void>): Promise<void> {
  for (const scheme of ['light', 'dark'] as const) {
    await useColorScheme(page, scheme);
    await ready?.();
    await screenshot(page, `${name}-${scheme}`);
  }
  await useColorScheme(page, 'light');
}
