// End to end, a reviewer's corrections in Chromium against `statelens serve` on a seeded
// database: undoing a dismissed review flag, range and "all matching" selection with the count
// echoed before delete, delete lists that tell versions apart, rejecting a proposal, and exports
// whose names say what they hold, with a download link that goes once used.
import fs from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { chromiumMissing, pageErrors, screenshotBothSchemes } from './helpers/browser';
import { seededDatabase } from './helpers/database';
import { openInspector, onFailure, type Inspector } from './helpers/inspector';

const missing = chromiumMissing();
if (missing) console.log(`e2e review, selection and export skipped: ${missing}`);

const GRID = '[role="grid"][aria-label="Memories"]';
const ROW = `${GRID} [role="row"][data-fact-id]`;

describe.skipIf(missing !== undefined)('review, selection and export in Chromium', () => {
  let db: ReturnType<typeof seededDatabase>;
  let ui: Inspector | undefined;
  let page: Page;
  let base: string;

  const go = async (hash: string) => {
    await page.goto(`${base}${hash}`);
    await page.reload();
  };

  beforeAll(async () => {
    db = seededDatabase({ bulk: 3_000, graph: 10 });
    // The printed URL carries the session token; later visits reuse the session it starts.
    ui = await openInspector(db.file, { hash: `#/memories/${db.info.mainPartition}`, waitFor: ROW });
    ({ page, base } = ui);
  });

  afterEach(onFailure(() => page));

  afterAll(async () => {
    await ui?.close();
    db?.remove();
  });

  it('undoes a dismissed review flag from the toast: the flag comes back with its cause', async () => {
    await go(`#/review/${db.info.mainPartition}`);
    await page.waitForSelector('.review-card');
    const total = () => page.textContent('[data-testid="review-total"]');
    expect(await total()).toBe('3 facts need review');
    const card = page.locator(`.review-card[data-fact-id="${db.info.flaggedId}"]`);
    const causeBefore = await card.locator('.review-cause-line').allTextContents();
    await card.locator('button:has-text("Dismiss flag")').click();
    await page.waitForFunction(() => document.querySelector('[data-testid="review-total"]')?.textContent === '2 facts need review');
    const undo = page.locator('.toast button:has-text("Undo")');
    await undo.waitFor();
    await screenshotBothSchemes(page, 'review-undo-toast');
    await undo.click();
    await page.waitForFunction(() => document.querySelector('[data-testid="review-total"]')?.textContent === '3 facts need review');
    await card.waitFor();
    expect(await card.locator('.review-cause-line').allTextContents()).toEqual(causeBefore);
    await page.locator('.toast:has-text("Restored 1 review flag")').waitFor();

    // The undo is recorded, and the dismissal it undid stays in the log.
    await go(`#/audit/${db.info.mainPartition}`);
    await page.waitForSelector('.audit-table tbody tr');
    const actions = await page.$$eval('.audit-table tbody tr', (rows) => rows.map((r) => r.getAttribute('data-audit-action')));
    expect(actions.slice(0, 2)).toEqual(['restore_review', 'dismiss_review']);
  });

  it('Shift-click on checkboxes selects a range; "select all N matching" reaches past the loaded page and the dialog echoes N', async () => {
    await go(`#/memories/${db.info.mainPartition}`);
    await page.waitForSelector(ROW);
    await page.fill('input[type="search"]', 'routine detail');
    await page.waitForFunction(
      (sel) => [...document.querySelectorAll(sel)].length > 8 && [...document.querySelectorAll(sel)].every((r) => /routine/.test(r.textContent ?? '')),
      ROW,
    );
    const ids = await page.$$eval(ROW, (rows) => rows.slice(0, 8).map((r) => r.getAttribute('data-fact-id') ?? ''));
    await page.click(`${ROW}[data-fact-id="${ids[1]}"] input[type="checkbox"]`);
    await page.click(`${ROW}[data-fact-id="${ids[5]}"] input[type="checkbox"]`, { modifiers: ['Shift'] });
    expect(await page.textContent('[data-testid="selection-count"]')).toBe('5 selected');
    const checked = await page.$$eval(`${ROW} input[type="checkbox"]`, (boxes) => boxes.slice(0, 8).map((b) => (b as HTMLInputElement).checked));
    expect(checked).toEqual([false, true, true, true, true, true, false, false]);
    await screenshotBothSchemes(page, 'selection-range');

    await page.click('[aria-label="Select all loaded facts"]');
    const countText = (await page.textContent('[data-testid="fact-count"]')) ?? '';
    const matching = Number(/^([\d,]+) facts/.exec(countText)?.[1]?.replace(/,/g, ''));
    const loaded = await page.$$eval(`${ROW}`, (rows) => rows.length);
    expect(countText).toContain('loaded');
    expect(matching).toBeGreaterThan(loaded);
    const selectAll = page.locator('[data-testid="select-all-matching"]');
    expect(await selectAll.textContent()).toBe(`Select all ${matching.toLocaleString('en-US')} matching`);
    await selectAll.click();
    expect(await page.textContent('[data-testid="selection-count"]')).toBe(`all ${matching.toLocaleString('en-US')} matching selected`);
    await screenshotBothSchemes(page, 'selection-all-matching');
    await page.click(`button:has-text("Delete all ${matching.toLocaleString('en-US')}…")`);
    const dialog = page.locator('role=dialog[name="Delete every fact matching the filter"]');
    await dialog.locator('[data-testid="impact-delete-count"]').waitFor();
    expect(await dialog.locator('[data-testid="impact-delete-count"]').textContent()).toBe(`${matching.toLocaleString('en-US')} facts`);
    expect(await dialog.locator('[data-testid="selected-count-echo"]').textContent()).toContain(
      `You selected all ${matching.toLocaleString('en-US')} matching facts`,
    );
    expect(await dialog.locator('[data-testid="confirm-delete"]').textContent()).toBe(`Delete ${matching.toLocaleString('en-US')} facts`);
    await screenshotBothSchemes(page, 'delete-all-matching-echo');
    await dialog.locator('button:has-text("Cancel")').click();
    await page.click('button:has-text("Clear selection")');
    await page.fill('input[type="search"]', '');
  });

  it('the delete list tells versions of one key apart by value and time', async () => {
    await go(`#/memories/${db.info.mainPartition}`);
    await page.waitForSelector(ROW);
    await page.fill('input[type="search"]', 'home_city');
    await page.waitForFunction(
      (sel) => [...document.querySelectorAll(sel)].length >= 4 && [...document.querySelectorAll(sel)].every((r) => r.textContent?.includes('home_city')),
      ROW,
    );
    await page.click('[aria-label="Select all loaded facts"]');
    await page.click('button:has-text("Delete selected…")');
    const dialog = page.locator('role=dialog[name^="Delete "]');
    await dialog.locator('.impact-fact').first().waitFor();
    const items = await dialog.locator('.impact-fact').allTextContents();
    expect(items.length).toBeGreaterThanOrEqual(4);
    expect(items.every((t) => t.startsWith('home_city'))).toBe(true);
    expect(items.some((t) => t.includes('Ana lives in Lyon'))).toBe(true);
    expect(items.some((t) => t.includes('HR record: Ana is based in Munich'))).toBe(true);
    // Each line carries its time, and no two lines read the same.
    expect(items.every((t) => /\d{4}-\d{2}-\d{2}/.test(t))).toBe(true);
    expect(new Set(items).size).toBe(items.length);
    await screenshotBothSchemes(page, 'delete-list-versions');
    await dialog.locator('button:has-text("Cancel")').click();
    await page.click('button:has-text("Clear selection")');
    await page.fill('input[type="search"]', '');
  });

  it('rejecting a proposal is worded as a rejection, and leaves the current version', async () => {
    await go(`#/memories/${db.info.mainPartition}/${db.info.proposalId}`);
    const reject = page.locator('aside[aria-label="Fact detail"] button:has-text("Reject proposal…")');
    await reject.waitFor();
    await reject.click();
    const dialog = page.locator('role=dialog[name="Reject this proposal"]');
    await dialog.locator('[data-testid="reject-explainer"]').waitFor();
    expect(await dialog.locator('[data-testid="confirm-delete"]').textContent()).toBe('Reject proposal');
    await screenshotBothSchemes(page, 'reject-proposal');
    await dialog.locator('[data-testid="confirm-delete"]').click();
    await dialog.locator('[data-testid="delete-summary"]').waitFor();
    expect(await dialog.locator('[data-testid="delete-summary"]').textContent()).toContain('Rejected the proposal');
    await dialog.locator('.dialog-footer button:has-text("Close")').click();
    await page.fill('input[type="search"]', 'home_city');
    await page.waitForFunction((sel) => [...document.querySelectorAll(sel)].some((r) => r.textContent?.includes('Munich')), ROW);
    expect(await page.$(`${ROW}[data-fact-id="${db.info.proposalId}"]`)).toBeNull();
    await page.fill('input[type="search"]', '');
  });

  it('lays strategies side by side in columns that scroll sideways, and says where a budget does not apply', async () => {
    await go(`#/context/${db.info.mainPartition}`);
    await page.waitForSelector('textarea');
    await page.fill('textarea', 'Where does Ana live now?');
    for (const s of ['recent', 'important', 'reference']) await page.click(`button[aria-pressed="false"]:has-text("${s}")`);
    await page.click('button:has-text("Compare 5 strategies")');
    await page.waitForSelector('.assembly[data-strategy="reference"]', { timeout: 60_000 });
    const layout = await page.$eval('[aria-label="Strategies side by side"]', (row) => ({
      tops: [...row.querySelectorAll('.assembly')].map((a) => Math.round(a.getBoundingClientRect().top)),
      scrolls: row.scrollWidth > row.clientWidth,
      // The columns are seen whole, not clipped to a sliver by the scroll container.
      clipped: row.clientHeight < Math.max(...[...row.querySelectorAll('.assembly')].map((a) => a.getBoundingClientRect().height)) - 2,
    }));
    expect(layout.tops).toHaveLength(5);
    expect(new Set(layout.tops).size).toBe(1);
    expect(layout.scrolls).toBe(true);
    expect(layout.clipped).toBe(false);
    expect(await page.textContent('.assembly[data-strategy="reference"] [data-testid="no-budget"]')).toContain('does not apply');
    expect(await page.$('.assembly[data-strategy="state_based"] [data-testid="no-budget"]')).toBeNull();
    await screenshotBothSchemes(page, 'context-strategies-columns');
  });

  it('exports under names that say whose memory and what they hold; the download link goes once used', async () => {
    await go(`#/memories/${db.info.mainPartition}`);
    await page.waitForSelector(ROW);
    const dialog = page.locator('role=dialog[name="Export a snapshot"]');
    const exportAs = async (format: string): Promise<string> => {
      await page.click('button:has-text("Export…")');
      await dialog.locator('select').first().selectOption(format);
      await dialog.locator('[data-testid="export-start"]').click();
      const link = dialog.locator('[data-testid="export-download"]');
      await link.waitFor({ timeout: 60_000 });
      return (await link.getAttribute('download')) ?? '';
    };
    const json = await exportAs('json');
    await dialog.locator('.dialog-footer button:has-text("Close")').click();
    const statebench = await exportAs('statebench');
    expect(json).toMatch(/-acme-ana\.snapshot\.json$/);
    expect(statebench).toMatch(/-acme-ana\.statebench\.json$/);
    expect(json).not.toBe(statebench);
    await screenshotBothSchemes(page, 'export-link');
    const [download] = await Promise.all([page.waitForEvent('download'), dialog.locator('[data-testid="export-download"]').click()]);
    expect(download.suggestedFilename()).toBe(statebench);
    await dialog.locator('[data-testid="export-downloaded"]').waitFor();
    expect(await dialog.locator('[data-testid="export-download"]').count()).toBe(0);
    await screenshotBothSchemes(page, 'export-link-used');
    await dialog.locator('.dialog-footer button:has-text("Close")').click();

    // The table's filter as of a chosen time: the CSV holds what the table showed then.
    await page.fill('input[type="search"]', 'home_city');
    await page.waitForFunction((sel) => [...document.querySelectorAll(sel)].some((r) => r.textContent?.includes('home_city')), ROW);
    await page.click('button[aria-label="Time travel"]');
    await page.fill('input[aria-label="As of (UTC)"]', '2025-02-01T00:00');
    await page.waitForFunction((sel) => [...document.querySelectorAll(sel)].length === 1, ROW);
    await page.click('button:has-text("Export…")');
    await dialog.locator('select').first().selectOption('csv');
    await dialog.locator('text=Only the facts of the table').click();
    expect(await dialog.textContent()).toContain('as of 2025-02-01');
    await dialog.locator('[data-testid="export-start"]').click();
    await dialog.locator('[data-testid="export-download"]').waitFor({ timeout: 60_000 });
    const [csv] = await Promise.all([page.waitForEvent('download'), dialog.locator('[data-testid="export-download"]').click()]);
    expect(csv.suggestedFilename()).toMatch(/-acme-ana-filtered-as-of-20250201T000000Z\.csv$/);
    const text = fs.readFileSync(await csv.path(), 'utf8');
    expect(text).toContain('Ana lives in Lyon');
    expect(text).not.toContain('Munich');
    await dialog.locator('.dialog-footer button:has-text("Close")').click();
    expect(pageErrors(page)).toEqual([]);
  });
});
