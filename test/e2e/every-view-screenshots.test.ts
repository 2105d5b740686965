// End to end in Chromium against `statelens serve`: every view and dialog of the inspector in
// the light and the dark theme, screenshotted into test-results/screenshots/ (every-view-*) for
// a person to look at, each checked on the way for controls without a name and for page errors.
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { unnamedControls } from './helpers/accessibility';
import { chromiumMissing, pageErrors, screenshot } from './helpers/browser';
import { seededDatabase } from './helpers/database';
import { onFailure, openInspector, type Inspector } from './helpers/inspector';

const missing = chromiumMissing();
if (missing) console.log(`e2e every-view screenshots skipped: ${missing}`);

const ROW = '[role="grid"][aria-label="Memories"] [role="row"][data-fact-id]';
const BACKGROUND = { light: 'rgb(244, 245, 247)', dark: 'rgb(21, 23, 28)' } as const;

describe.skipIf(missing !== undefined)('every view in both themes', () => {
  let db: ReturnType<typeof seededDatabase>;
  let ui: Inspector | undefined;
  let page: Page;
  let base: string;
  const shots: string[] = [];
  const problems: string[] = [];

  const settle = () => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));

  /** The screen as it is, in light then dark (the system scheme; no theme fixed by the user). */
  const bothThemes = async (name: string) => {
    const cdp = await page.context().newCDPSession(page);
    problems.push(...(await unnamedControls(cdp, name)));
    await cdp.detach();
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.waitForFunction((bg) => getComputedStyle(document.body).backgroundColor === bg, BACKGROUND[scheme]);
      await settle();
      shots.push(await screenshot(page, `every-view-${name}-${scheme}`));
    }
    await page.emulateMedia({ colorScheme: 'light' });
  };

  const go = async (hash: string, ready: string) => {
    await page.goto(`${base}${hash}`);
    await page.waitForSelector(ready);
  };

  beforeAll(async () => {
    db = seededDatabase({ bulk: 400, graph: 60 });
    ui = await openInspector(db.file, { hash: `#/memories/${db.info.mainPartition}`, waitFor: ROW });
    page = ui.page;
    base = ui.base;
  });

  afterEach(onFailure(() => page));

  afterAll(async () => {
    await ui?.close();
    db?.remove();
  });

  it('screenshots the memories table, detail, chain and graph, review, context, sessions and audit', async () => {
    const p = db.info.mainPartition;
    const head = db.info.homeCityHead;
    await go(`#/memories/${p}/${head}`, 'role=tab[name="Chain"]');
    await page.waitForSelector('role=tabpanel >> text=home_city');
    await bothThemes('memories-detail');
    await go(`#/memories/${p}/${head}?tab=chain`, 'role=tab[name="Chain"][selected=true]');
    await page.waitForSelector('text=Lyon');
    await bothThemes('chain');
    await go(`#/memories/${p}/${db.info.flaggedId}?tab=graph`, 'role=tab[name="Graph"][selected=true]');
    await page.waitForSelector('.graph-view svg, [data-testid="graph-canvas"]');
    await page.waitForTimeout(1200); // the force layout settles (a picture, not an assertion)
    await bothThemes('graph');
    await go(`#/review/${p}`, '.review-card');
    await bothThemes('review');
    await go(`#/sessions/${p}`, '[data-testid="agent-state"]');
    await bothThemes('sessions');
    await go(`#/audit/${p}`, 'role=region[name="Audit log"]');
    await page.waitForSelector('.audit-table tbody tr');
    await bothThemes('audit');

    // Context preview: two strategies with their ranked items, then the missing-document notice.
    await go(`#/context/${p}`, 'role=region[name="Context preview"]');
    await page.fill('role=textbox[name="Query"]', 'Where does Ana live now?');
    await page.fill('role=spinbutton[name="Budget (tokens)"]', '600');
    await page.click('role=button[name="Compare 2 strategies"]');
    await page.waitForSelector('role=list[name="Ranked items (balanced)"]');
    await bothThemes('context-preview');
    // The ranked items with their score parts, below the texts.
    await page.locator('role=list[name="Ranked items (balanced)"]').scrollIntoViewIfNeeded();
    await bothThemes('context-ranked-items');
    await page.click('role=button[name="state_based"]');
    await page.click('role=button[name="balanced"]');
    await page.click('role=button[name="context_document"]');
    await page.click('role=button[name="Assemble"]');
    await page.waitForSelector('[data-testid="missing-document"]');
    await bothThemes('context-missing-document');
    await page.click('role=list[name="Sessions with a context document"] >> role=button[name="sess-1"]');
    await page.waitForSelector('[data-testid="missing-document"]', { state: 'detached' });
    await page.waitForSelector('text=Train booked');
    await bothThemes('context-document');
    expect(pageErrors(page)).toEqual([]);
  });

  it('screenshots the command palette, the delete dialog and the export dialog', async () => {
    const p = db.info.mainPartition;
    await go(`#/memories/${p}/${db.info.homeCityHead}`, ROW);
    await page.keyboard.press('Control+k');
    await page.waitForSelector('role=dialog[name="Go to…"]');
    await page.keyboard.type('home');
    await page.waitForSelector('role=option[name=/home_city/]');
    await bothThemes('command-palette');
    await page.keyboard.press('Escape');
    await page.waitForSelector('role=dialog', { state: 'detached' });

    await page.fill('role=searchbox[name="Search memories"]', 'zebra');
    await page.keyboard.press('Enter');
    await page.waitForFunction((sel) => [...document.querySelectorAll(sel)].every((r) => /zebra/.test(r.textContent ?? '')), ROW);
    await page.click('[aria-label="Select all loaded facts"]');
    await page.click('button:has-text("Delete selected…")');
    const del = page.locator('role=dialog[name^="Delete "]');
    await del.locator('[data-testid="impact-delete-count"]').waitFor();
    await bothThemes('delete-dialog');
    await del.locator('button:has-text("Cancel")').click();
    await page.click('button:has-text("Clear selection")');

    await page.click('button:has-text("Export…")');
    const exp = page.locator('role=dialog[name="Export a snapshot"]');
    await exp.locator('text=Only the facts of the table').click();
    await exp.locator('text=The state as of a time').click();
    await exp.getByLabel('Export as of (UTC)').fill('2025-06-01T00:00');
    await bothThemes('export-dialog');
    await exp.locator('[data-testid="export-start"]').click();
    await exp.locator('[data-testid="export-download"]').waitFor({ timeout: 60_000 });
    await bothThemes('export-ready');
    await exp.locator('.dialog-footer button:has-text("Close")').click();
    await page.fill('role=searchbox[name="Search memories"]', '');
    expect(pageErrors(page)).toEqual([]);
  });

  it('every screen named its controls, and every screenshot was written in both themes', () => {
    expect(problems).toEqual([]);
    const names = shots.map((s) => s.replace(/^.*every-view-/, '').replace(/-(light|dark)\.png$/, ''));
    for (const view of [
      'memories-detail',
      'chain',
      'graph',
      'review',
      'context-preview',
      'context-ranked-items',
      'context-missing-document',
      'context-document',
      'sessions',
      'audit',
      'command-palette',
      'delete-dialog',
      'export-dialog',
    ]) {
      expect(
        names.filter((n) => n === view),
        view,
      ).toHaveLength(2);
    }
  });
});
