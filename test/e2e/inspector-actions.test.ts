// End to end, the user's writes: review (dismiss, delete), bulk delete through the impact
// preview and confirmation, export with download and cancel, and the audit log that records
// them, in Debian Chromium against `statelens serve` on a seeded database.
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Store } from '../../electron/engine/store';
import { chromiumMissing, pageErrors, screenshot } from './helpers/browser';
import { seededDatabase } from './helpers/database';
import { openInspector, onFailure, type Inspector } from './helpers/inspector';

const missing = chromiumMissing();
if (missing) console.log(`e2e inspector actions skipped: ${missing}`);

const GRID = '[role="grid"][aria-label="Memories"]';
const ROW = `${GRID} [role="row"][data-fact-id]`;
/** Facts of an archive partition: a JSON snapshot of the whole database takes serve about a
 * second, so a cancel reaches it while it writes. */
const ARCHIVE_FACTS = 60_000;

function addArchive(file: string): void {
  const store = Store.open(file);
  try {
    const archive = store.scope({ kind: 'user', org: 'acme', user: 'archive' }, { create: true });
    for (let i = 0; i < ARCHIVE_FACTS; i += 5000) {
      archive.writeFacts(
        Array.from({ length: Math.min(5000, ARCHIVE_FACTS - i) }, (_, j) => ({
          key: `archived_${i + j}`,
          value: `archived note ${i + j}: kept for the export cancel test`,
          ts: new Date(Date.UTC(2024, 0, 1) + (i + j) * 1000).toISOString(),
        })),
        { inferSupersession: false },
      );
    }
  } finally {
    store.close();
  }
}

describe.skipIf(missing !== undefined)('inspector actions in Chromium', () => {
  let db: ReturnType<typeof seededDatabase>;
  let ui: Inspector | undefined;
  let page: Page;
  let base: string;
  let serveTmp: string;

  const go = (hash: string) => page.goto(`${base}${hash}`);
  /** Every file in serve's export folders: exports waiting for their download, partial files. */
  const serverExportFiles = () =>
    fs
      .readdirSync(serveTmp)
      .filter((d) => d.startsWith('statelens-serve-exports-'))
      .flatMap((d) => fs.readdirSync(path.join(serveTmp, d)));
  const partitionButton = () => page.locator('nav[aria-label="Partitions"] button[aria-current="true"]');

  beforeAll(async () => {
    db = seededDatabase({ bulk: 3_000, graph: 100 });
    addArchive(db.file);
    // Serve keeps exports in a folder under TMPDIR until they are downloaded: one the test can see.
    serveTmp = path.join(db.dir, 'serve-tmp');
    fs.mkdirSync(serveTmp);
    ui = await openInspector(db.file, { hash: `#/memories/${db.info.mainPartition}`, waitFor: ROW, env: { TMPDIR: serveTmp } });
    ({ page, base } = ui);
  });

  afterEach(onFailure(() => page));

  afterAll(async () => {
    await ui?.close();
    db?.remove();
  });

  it('review queue: shows the upstream change, dismisses one flag and deletes another fact', async () => {
    await go(`#/review/${db.info.mainPartition}`);
    await page.waitForSelector('.review-card');
    expect(await page.textContent('[data-testid="review-total"]')).toBe('3 facts need review');
    const commute = page.locator(`.review-card[data-fact-id="${db.info.flaggedId}"]`);
    // The upstream fact is a readable reference: its key, a snippet of its value and its status.
    expect(await commute.textContent()).toMatch(/Upstream change: home_city\s*Ana lives in Lyon/);
    await screenshot(page, 'review-queue');

    await page.locator('.review-card:has-text("deploy_plan") button:has-text("Dismiss flag")').click();
    await page.waitForFunction(() => document.querySelector('[data-testid="review-total"]')?.textContent === '2 facts need review');
    await page.waitForSelector('.review-card:has-text("deploy_plan")', { state: 'detached' });

    await page.locator(`.review-card[data-fact-id="${db.info.flaggedTwoHopsId}"] button:has-text("Delete…")`).click();
    const dialog = page.locator('role=dialog[name="Delete this fact"]');
    await dialog.locator('[data-testid="impact-delete-count"]').waitFor();
    expect(await dialog.locator('[data-testid="impact-delete-count"]').textContent()).toBe('1 fact');
    await dialog.locator('[data-testid="confirm-delete"]').click();
    await dialog.locator('[data-testid="delete-summary"]').waitFor();
    await dialog.locator('button:has-text("Close")').last().click();
    await page.waitForFunction(() => document.querySelector('[data-testid="review-total"]')?.textContent === '1 fact need review');
    await screenshot(page, 'review-queue-after');
    expect(await partitionButton().getAttribute('aria-label')).toMatch(/1 need review/);
  });

  it('bulk delete by filter goes through the impact preview, the context change and a confirmation', async () => {
    await go(`#/memories/${db.info.mainPartition}`);
    await page.waitForSelector(ROW);
    const before = (await partitionButton().getAttribute('aria-label')) ?? '';
    const totalBefore = Number(/of ([\d,]+) facts/.exec(before)?.[1]?.replace(/,/g, ''));
    await page.fill('input[type="search"]', 'zebra');
    await page.waitForFunction((n) => document.querySelector('[data-testid="fact-count"]')?.textContent?.startsWith(`${n} facts`), String(db.info.zebraCount));
    await page.click('button:has-text("Delete all matching…")');
    const dialog = page.locator('role=dialog[name="Delete every fact matching the filter"]');
    await dialog.locator('[data-testid="impact-delete-count"]').waitFor();
    expect(await dialog.locator('[data-testid="impact-delete-count"]').textContent()).toBe(`${db.info.zebraCount} facts`);
    await dialog.locator('input:near(:text("Query"))').first().fill('zebra crossing near the office');
    await dialog.locator('button:has-text("Show context change")').click();
    await dialog.locator('[data-testid="context-impact"]').waitFor({ timeout: 60_000 });
    const impact = (await dialog.locator('[data-testid="context-impact"]').textContent()) ?? '';
    expect(impact).toMatch(/goes from [\d,]+ to [\d,]+ tokens/);
    expect(impact).toContain('Would leave it');
    await screenshot(page, 'delete-preview');

    const confirm = dialog.locator('[data-testid="confirm-delete"]');
    expect(await confirm.isDisabled()).toBe(true);
    await dialog.locator('[data-testid="confirm-tick"]').check();
    await dialog.locator('input:near(:text("Reason"))').first().fill('e2e: remove the zebra notes');
    await confirm.click();
    await dialog.locator('[data-testid="delete-summary"]').waitFor({ timeout: 60_000 });
    expect(await dialog.locator('[data-testid="delete-summary"]').textContent()).toContain(`Deleted ${db.info.zebraCount} facts`);
    await screenshot(page, 'delete-summary');
    await dialog.locator('.dialog-footer button:has-text("Close")').click();

    // The views update without a reload: the table, the counts in the partition picker.
    await page.waitForSelector('text=No fact matches these filters');
    const expected = `of ${totalBefore - db.info.zebraCount} facts`;
    await page
      .waitForFunction(
        (text) => (document.querySelector('nav[aria-label="Partitions"] button[aria-current="true"]')?.getAttribute('aria-label') ?? '').includes(text),
        expected,
        { timeout: 15_000 },
      )
      .catch(async (e: unknown) => {
        throw new Error(
          `partition label never said "${expected}" (before: "${before}", now: "${await partitionButton().getAttribute('aria-label')}"): ${String(e)}`,
        );
      });

    await page.fill('input[type="search"]', 'routine detail');
    await page.waitForFunction(
      (sel) => [...document.querySelectorAll(sel)].length > 8 && [...document.querySelectorAll(sel)].every((r) => /routine/.test(r.textContent ?? '')),
      ROW,
    );
    const ids = await page.$$eval(ROW, (rows) => rows.slice(5, 8).map((r) => r.getAttribute('data-fact-id') ?? ''));
    for (const id of ids) await page.click(`${ROW}[data-fact-id="${id}"] input[type="checkbox"]`);
    expect(await page.textContent('[data-testid="selection-count"]')).toBe('3 selected');
    await page.click('button:has-text("Delete selected…")');
    const d2 = page.locator('role=dialog[name="Delete 3 facts"]');
    await d2.locator('[data-testid="confirm-tick"]').check();
    await d2.locator('[data-testid="confirm-delete"]').click();
    await d2.locator('[data-testid="delete-summary"]').waitFor();
    await d2.locator('.dialog-footer button:has-text("Close")').click();
    for (const id of ids) await page.waitForSelector(`${ROW}[data-fact-id="${id}"]`, { state: 'detached' });
    expect(await page.$('[data-testid="selection-count"]')).toBeNull();
  });

  it('exports the partition as NDJSON and the filtered view as CSV, and can cancel an export', async () => {
    await go(`#/memories/${db.info.mainPartition}`);
    await page.waitForSelector(ROW);
    await page.keyboard.press('e');
    const dialog = page.locator('role=dialog[name="Export a snapshot"]');
    await dialog.locator('select').first().selectOption('ndjson');
    await screenshot(page, 'export-dialog');
    await dialog.locator('[data-testid="export-start"]').click();
    await dialog.locator('[data-testid="export-download"]').waitFor({ timeout: 60_000 });
    await screenshot(page, 'export-ready');
    const [download] = await Promise.all([page.waitForEvent('download'), dialog.locator('[data-testid="export-download"]').click()]);
    const file = await download.path();
    const lines = fs.readFileSync(file, 'utf8').trim().split('\n');
    const header = JSON.parse(lines[0] ?? '{}') as { type?: string; format?: string };
    expect(header).toMatchObject({ type: 'header', format: 'statelens-snapshot' });
    expect(JSON.parse(lines[lines.length - 1] ?? '{}')).toMatchObject({ type: 'end' });
    expect(lines.filter((l) => l.includes('"type":"fact"')).length).toBeGreaterThan(1000);
    await dialog.locator('.dialog-footer button:has-text("Close")').click();

    await page.fill('input[type="search"]', 'home_city');
    await page.waitForFunction(
      (sel) => [...document.querySelectorAll(sel)].length > 0 && [...document.querySelectorAll(sel)].every((r) => r.textContent?.includes('home_city')),
      ROW,
    );
    const shown = Number(/^(\d+) facts?/.exec((await page.textContent('[data-testid="fact-count"]')) ?? '')?.[1]);
    expect(shown).toBeGreaterThanOrEqual(4);
    await page.click('button:has-text("Export…")');
    await dialog.locator('select').first().selectOption('csv');
    await dialog.locator('text=Only the facts of the table').click();
    await dialog.locator('[data-testid="export-start"]').click();
    await dialog.locator('[data-testid="export-download"]').waitFor({ timeout: 60_000 });
    const [csv] = await Promise.all([page.waitForEvent('download'), dialog.locator('[data-testid="export-download"]').click()]);
    const csvText = fs.readFileSync(await csv.path(), 'utf8');
    const csvLines = csvText.trim().split('\n');
    expect(csvLines.length).toBe(1 + shown);
    expect(csvLines.slice(1).every((l) => l.includes('home_city'))).toBe(true);
    await dialog.locator('.dialog-footer button:has-text("Close")').click();
    await page.fill('input[type="search"]', '');

    // Cancel: the whole database as JSON (the archive makes it take a while), cancelled once the
    // engine reports records written. The server says it cancelled it and keeps no file.
    expect(serverExportFiles()).toEqual([]);
    await page.click('button:has-text("Export…")');
    await dialog.locator('select').first().selectOption('json');
    await dialog.locator('select').nth(1).selectOption('database');
    const started = page.waitForResponse((r) => r.url().endsWith('/api/export.start'));
    await dialog.locator('[data-testid="export-start"]').click();
    const bar = dialog.locator('[role="progressbar"][aria-label="Exporting"]');
    await page.waitForFunction(
      () => Number(document.querySelector('[role="progressbar"][aria-label="Exporting"]')?.getAttribute('aria-valuenow') ?? 0) > 0,
      undefined,
      { timeout: 30_000 },
    );
    const doneAtCancel = Number(await bar.getAttribute('aria-valuenow'));
    const total = Number(await bar.getAttribute('aria-valuemax'));
    expect(total).toBeGreaterThan(ARCHIVE_FACTS);
    const cancelAnswer = page.waitForResponse((r) => r.url().endsWith('/api/export.cancel'));
    await dialog.locator('[data-testid="export-cancel"]').click();
    expect(await (await cancelAnswer).json()).toEqual({ ok: true, value: { cancelled: true } });
    const startAnswer = (await (await started).json()) as { ok: boolean; value?: { status?: string } };
    expect(startAnswer).toMatchObject({ ok: true, value: { status: 'cancelled' } });
    const outcome = dialog.locator('[data-testid="export-outcome"]');
    await outcome.waitFor({ timeout: 60_000 });
    expect(await outcome.textContent()).toBe('The export was cancelled; no file was kept.');
    expect(await dialog.locator('[data-testid="export-download"]').count()).toBe(0);
    console.log(`e2e export cancel: cancelled at ${doneAtCancel.toLocaleString('en-US')} of ${total.toLocaleString('en-US')} records`);
    expect(serverExportFiles()).toEqual([]);
    await dialog.locator('.dialog-footer button:has-text("Close")').click();
  });

  it('records deletions, dismissals and supersessions in the audit log', async () => {
    await go(`#/audit/${db.info.mainPartition}`);
    await page.waitForSelector('.audit-table tbody tr');
    const actions = await page.$$eval('.audit-table tbody tr', (rows) => rows.map((r) => r.getAttribute('data-audit-action')));
    expect(actions).toContain('supersede');
    expect(actions.some((a) => a && /delet/.test(a))).toBe(true);
    expect(actions.some((a) => a && /dismiss/.test(a))).toBe(true);
    const text = (await page.textContent('.audit-table')) ?? '';
    expect(text).toContain('e2e: remove the zebra notes');
    // The log says who, when and why: never the deleted text.
    expect(text).not.toContain('zebra crossing near the office number');
    await screenshot(page, 'audit-log');
    expect(pageErrors(page)).toEqual([]);
  });
});
