// End to end in Chromium (browser mode, `statelens serve`): "Connect to server…" from the command
// palette opens the server dialog; the contract's checks mark the refused fields; a good form is
// refused by serve with a clear message (its database is fixed on its command line). The dialog
// is screenshotted in the light and dark themes (test-results/screenshots/connect-server-*).
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { unnamedControls } from './helpers/accessibility';
import { chromiumMissing, pageErrors, screenshot } from './helpers/browser';
import { seededDatabase } from './helpers/database';
import { openInspector, onFailure, type Inspector } from './helpers/inspector';

const missing = chromiumMissing();
if (missing) console.log(`e2e connect to server skipped: ${missing}`);

const ROW = '[role="grid"][aria-label="Memories"] [role="row"][data-fact-id]';
const BACKGROUND = { light: 'rgb(244, 245, 247)', dark: 'rgb(21, 23, 28)' } as const;

describe.skipIf(missing !== undefined)('connect to a server (Chromium, browser mode)', () => {
  let db: ReturnType<typeof seededDatabase>;
  let ui: Inspector | undefined;
  let page: Page;
  let errors: string[];
  const shots: string[] = [];

  const settle = () => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  const bothThemes = async (name: string) => {
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.waitForFunction((bg) => getComputedStyle(document.body).backgroundColor === bg, BACKGROUND[scheme]);
      await settle();
      shots.push(await screenshot(page, `connect-server-${name}-${scheme}`));
    }
    await page.emulateMedia({ colorScheme: 'light' });
  };
  const dialog = () => page.getByRole('dialog', { name: 'Connect to a memory server' });

  beforeAll(async () => {
    db = seededDatabase({ bulk: 60, graph: 10 });
    ui = await openInspector(db.file, { hash: `#/memories/${db.info.mainPartition}`, waitFor: ROW });
    page = ui.page;
    errors = pageErrors(page);
    await page.setViewportSize({ width: 1280, height: 800 });
  });
  afterEach(onFailure(() => page, 'connect-'));
  afterAll(async () => {
    await ui?.close();
    db?.remove();
  });

  it('opens from the command palette with the schema filled in and the URL field focused', async () => {
    await page.keyboard.press('Control+k');
    await page.getByRole('combobox', { name: /Go to a view/ }).fill('connect');
    await page.getByRole('option', { name: /Connect to server/ }).waitFor();
    await page.keyboard.press('Enter');
    await dialog().waitFor();
    expect(await dialog().getByLabel('Schema').inputValue()).toBe('statelens');
    expect(await page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.placeholder)).toBe(
      'postgres://user@host:5432/db?sslmode=verify-full',
    );
    expect(await dialog().getByTestId('connect-browser-note').textContent()).toMatch(/cannot switch to a server/);
    const cdp = await page.context().newCDPSession(page);
    expect(await unnamedControls(cdp, 'connect dialog')).toEqual([]);
    await cdp.detach();
    await bothThemes('empty');
  });

  it('marks what the contract refuses, field by field', async () => {
    await dialog().getByLabel('Server URL').fill('postgres://ana:secret@db.example:5432/memory');
    await dialog().getByLabel('Schema').fill('Prod-Memory');
    await dialog().getByRole('button', { name: 'Connect' }).click();
    await dialog().getByTestId('problem-url').waitFor();
    expect(await dialog().getByTestId('problem-url').textContent()).toMatch(/password in its own field/);
    expect(await dialog().getByTestId('problem-schema').textContent()).toMatch(/lower-case/);
    expect(await dialog().getByTestId('problem-org').textContent()).toBe('the organisation is required');
    expect(await dialog().getByLabel('Server URL').getAttribute('aria-invalid')).toBe('true');
    // The first refused field has the focus, to be corrected at once.
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-field'))).toBe('url');
    await bothThemes('problems');
  });

  it('a good form is refused by serve, with a message saying why and where to connect instead', async () => {
    await dialog().getByLabel('Server URL').fill('postgres://ana@db.example:5432/memory?sslmode=verify-full');
    await dialog().getByLabel('Password', { exact: true }).fill('correct horse');
    await dialog().getByLabel('Schema').fill('statelens');
    await dialog().getByLabel('Organisation').fill('acme');
    await dialog().getByRole('button', { name: 'Connect' }).click();
    const alert = dialog().getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toMatch(/Could not connect\..*statelens serve.*cannot switch to a server.*desktop app/);
    expect(await dialog().getByTestId('problem-url').count()).toBe(0);
    await bothThemes('refused');
    // The inspector still shows the file it was started with.
    await page.keyboard.press('Escape');
    await dialog().waitFor({ state: 'detached' });
    expect(await page.locator(ROW).count()).toBeGreaterThan(0);
    expect(await page.title()).toMatch(/— Statelens$/);
  });

  it('wrote every screenshot and logged no page errors', () => {
    expect(shots).toHaveLength(6);
    // Chromium logs the refusal's HTTP status (403, the answer the dialog showed); nothing else.
    const unexpected = errors.filter((e) => !/status of 403 \(Forbidden\)/.test(e));
    expect(unexpected, unexpected.join('\n')).toEqual([]);
  });
});
