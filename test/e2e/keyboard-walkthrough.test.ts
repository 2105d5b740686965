// End to end in Chromium against `statelens serve`: the inspector's main flows with the
// keyboard alone (no mouse event at all): find a fact by searching, explain it through its
// chain, delete one through the confirmation dialog, preview a context and export a snapshot
// down to the one-time download link.
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { chromiumMissing, pageErrors, screenshot } from './helpers/browser';
import { seededDatabase } from './helpers/database';
import { onFailure, openInspector, type Inspector } from './helpers/inspector';
import { pointerEvents, recordPointerEvents } from './helpers/pointer';

const missing = chromiumMissing();
if (missing) console.log(`e2e keyboard walkthrough skipped: ${missing}`);

const GRID = '[role="grid"][aria-label="Memories"]';
const ROW = `${GRID} [role="row"][data-fact-id]`;

describe.skipIf(missing !== undefined)('the main flows by keyboard alone', () => {
  let db: ReturnType<typeof seededDatabase>;
  let ui: Inspector | undefined;
  let page: Page;

  /** Tabs forward until the focused element matches `selector` (as a person would); fails
   * after `max` presses. */
  const tabTo = async (selector: string, max = 60) => {
    for (let i = 0; i < max; i++) {
      if (await page.evaluate((sel) => document.activeElement?.matches(sel) ?? false, selector)) return;
      await page.keyboard.press('Tab');
    }
    throw new Error(`Tab never reached ${selector}; focus is on ${await page.evaluate(() => document.activeElement?.outerHTML.slice(0, 200))}`);
  };

  beforeAll(async () => {
    db = seededDatabase({ bulk: 200, graph: 10 });
    ui = await openInspector(db.file, { visit: false });
    page = ui.page;
    await recordPointerEvents(page);
    await page.goto(`${ui.served.url}#/memories/${db.info.mainPartition}`);
    await page.waitForSelector(ROW);
  });

  afterEach(onFailure(() => page));

  afterAll(async () => {
    await ui?.close();
    db?.remove();
  });

  it('finds, explains, deletes, previews and exports without a mouse', async () => {
    const total = async () => Number(/^([\d,]+) facts/.exec((await page.textContent('[data-testid="fact-count"]')) ?? '')?.[1]?.replace(/,/g, ''));

    // Find: '/' focuses the search, Enter applies it; Tab then Escape leave the fields.
    await page.keyboard.press('/');
    await page.keyboard.type('home_city');
    await page.keyboard.press('Enter');
    await page.waitForFunction((sel) => {
      const rows = [...document.querySelectorAll(sel)];
      return rows.length >= 4 && rows.every((r) => r.textContent?.includes('home_city'));
    }, ROW);
    await page.keyboard.press('Tab');
    await page.keyboard.press('Escape');

    // Explain: j, j opens the second match (the valid version, after the newer proposal), ']'
    // turns to its chain.
    await page.keyboard.press('j');
    await page.keyboard.press('j');
    await page.waitForSelector(`${GRID} .grid-row.active[aria-rowindex="3"]`);
    expect(await page.textContent(`${GRID} .grid-row.active`)).toContain('HR record');
    await page.waitForSelector('role=tab[name="Detail"][selected=true]');
    await page.keyboard.press(']');
    await page.waitForSelector('role=tab[name="Chain"][selected=true]');
    await page.waitForSelector('role=tabpanel >> text=4 · failed: lower authority');
    await screenshot(page, 'keyboard-chain');

    // Delete: a zebra note, found the same way, selected with x, Delete, then the dialog by Tab.
    await page.keyboard.press('/');
    await page.keyboard.press('Control+a');
    await page.keyboard.type('zebra');
    await page.keyboard.press('Enter');
    await page.waitForFunction((sel) => {
      const rows = [...document.querySelectorAll(sel)];
      return rows.length > 0 && rows.every((r) => r.textContent?.includes('zebra'));
    }, ROW);
    const before = await total();
    expect(before).toBe(db.info.zebraCount);
    await page.keyboard.press('Tab');
    await page.keyboard.press('Escape');
    await page.keyboard.press('j');
    await page.waitForSelector(`${GRID} .grid-row.active`);
    const victim = await page.getAttribute(`${GRID} .grid-row.active`, 'data-fact-id');
    await page.keyboard.press('x');
    await page.waitForSelector('[data-testid="selection-count"]');
    await page.keyboard.press('Delete');
    const dialog = page.locator('role=dialog[name="Delete this fact"]');
    await dialog.waitFor();
    await dialog.locator('[data-testid="confirm-delete"]:not([disabled])').waitFor();
    await tabTo('[data-testid="confirm-delete"]');
    await screenshot(page, 'keyboard-delete-dialog');
    await page.keyboard.press('Enter');
    await dialog.locator('text=Deleted').first().waitFor();
    await page.keyboard.press('Enter'); // Close has the focus once the deletion is done
    await dialog.waitFor({ state: 'detached' });
    await page.waitForFunction(
      (n) => Number(/^([\d,]+) facts/.exec(document.querySelector('[data-testid="fact-count"]')?.textContent ?? '')?.[1]) === n,
      before - 1,
    );
    expect(await page.locator(`${ROW}[data-fact-id="${victim}"]`).count()).toBe(0);

    // Preview: '3' opens the context preview; Tab to the query, type, Tab to Compare, Enter.
    await page.keyboard.press('3');
    await page.waitForSelector('role=region[name="Context preview"]');
    await tabTo('textarea');
    await page.keyboard.type('Where does Ana live now?');
    await tabTo('button[type="submit"]');
    await page.keyboard.press('Enter');
    const stateBased = page.locator('role=article[name="Context assembled by state_based"]');
    await stateBased.waitFor();
    expect(await stateBased.getByLabel('Assembled text (state_based)').textContent()).toContain('Munich');
    const ranked = page.locator('role=list[name="Ranked items (balanced)"] >> [data-testid="score-parts"]');
    expect(await ranked.first().textContent()).toMatch(/^imp [\d.]+ · rec [\d.]+$/);
    await screenshot(page, 'keyboard-context-preview');

    // Export: 'e', the format by typing its first letter, Tab to Export, Enter, Tab to the link.
    await page.keyboard.press('Escape');
    await page.keyboard.press('e');
    const exp = page.locator('role=dialog[name="Export a snapshot"]');
    await exp.waitFor();
    await tabTo('select');
    await page.keyboard.type('m');
    expect(await exp.locator('select').first().inputValue()).toBe('markdown');
    await tabTo('[data-testid="export-start"]');
    await page.keyboard.press('Enter');
    await exp.locator('[data-testid="export-download"]').waitFor({ timeout: 60_000 });
    await tabTo('[data-testid="export-download"]');
    const [download] = await Promise.all([page.waitForEvent('download'), page.keyboard.press('Enter')]);
    expect(download.suggestedFilename()).toMatch(/-acme-ana\.md$/);
    // The link served once and is gone.
    await exp.locator('[data-testid="export-downloaded"]').waitFor();
    expect(await exp.locator('[data-testid="export-download"]').count()).toBe(0);
    await screenshot(page, 'keyboard-export-downloaded');
    await page.keyboard.press('Escape');
    await exp.waitFor({ state: 'detached' });

    expect(await pointerEvents(page)).toEqual([]);
    expect(pageErrors(page)).toEqual([]);
  });
});
