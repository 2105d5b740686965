// End to end in Chromium, against `statelens serve` on a seeded database with many partitions:
// Back and Forward walk the inspector's own history, deep links open the Chain and Graph tabs,
// the views stay on screen above a long partition list whose organisations collapse, the command
// palette reaches a fact by key with the keyboard alone, Escape leaves the search field, context
// previews and search edits survive looking elsewhere, and facts are referred to by key, value
// and status (never a raw id) in the detail pane, review queue, delete dialog and audit log.
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Store } from '../../electron/engine/store';
import { chromiumMissing, pageErrors, screenshotBothSchemes } from './helpers/browser';
import { seededDatabase } from './helpers/database';
import { openInspector, onFailure, type Inspector } from './helpers/inspector';

const missing = chromiumMissing();
if (missing) console.log(`e2e navigation and references skipped: ${missing}`);

const ROW = '[role="grid"][aria-label="Memories"] [role="row"][data-fact-id]';
const SEARCH = 'role=searchbox[name="Search memories"]';
const EXTRA_ORGS = ['initech', 'umbrella', 'hooli'];

/** Eight more users in each of three more organisations: a partition list longer than the window. */
function addPartitions(file: string): void {
  const store = Store.open(file);
  try {
    for (const org of EXTRA_ORGS)
      for (let i = 0; i < 8; i++) {
        const scope = store.scope({ kind: 'user', org, user: `user-${i}` }, { create: true });
        scope.writeFact({
          key: 'team',
          value: `${org} team ${i}`,
          ts: '2025-02-01T10:00:00.000Z',
          source: { type: 'user', identity: `user-${i}`, authority: 'employee' },
        });
      }
  } finally {
    store.close();
  }
}

const hash = (page: Page) => page.evaluate(() => decodeURIComponent(location.hash));

describe.skipIf(missing !== undefined)('navigation, state and readable references', () => {
  let db: ReturnType<typeof seededDatabase>;
  let ui: Inspector;
  let page: Page;
  let base: string;
  const go = async (h: string) => {
    await page.goto(`${base}${h}`);
  };

  beforeAll(async () => {
    db = seededDatabase({ bulk: 60, graph: 10 });
    addPartitions(db.file);
    ui = await openInspector(db.file, { hash: `#/memories/${db.info.mainPartition}`, waitFor: ROW });
    ({ page, base } = ui);
  });

  afterEach(onFailure(() => page, 'nav-'));

  afterAll(async () => {
    await ui?.close();
    db?.remove();
  });

  it('shows the views on first load above a long partition list, and organisations collapse', async () => {
    const fresh = await ui.browser.newPage();
    await fresh.goto(`${ui.served.url}#/memories/${db.info.mainPartition}`);
    await fresh.waitForSelector(ROW);
    expect(await fresh.locator('.partition-item').count()).toBeGreaterThanOrEqual(EXTRA_ORGS.length * 8);
    const views = fresh.locator('role=navigation[name="Views"]');
    const box = await views.boundingBox();
    expect(box && box.y + box.height).toBeLessThanOrEqual(900);
    for (const name of ['Memories', 'Review queue', 'Context preview', 'Sessions', 'Audit log'])
      expect(await views.locator(`role=button[name=/${name}/]`).isVisible()).toBe(true);
    // Only the organisation of the open partition starts open; another opens with a click.
    const initech = fresh.locator('details.partition-org:has(summary:has-text("initech"))');
    expect(await initech.evaluate((d) => (d as HTMLDetailsElement).open)).toBe(false);
    expect(await fresh.locator('details.partition-org:has(summary:has-text("acme"))').evaluate((d) => (d as HTMLDetailsElement).open)).toBe(true);
    await initech.locator('summary').click();
    await fresh.waitForSelector('role=button[name=/initech \\/ user user-3/]');
    await initech.locator('summary').click();
    await fresh.waitForSelector('role=button[name=/initech \\/ user user-3/]', { state: 'hidden' });
    const original = page;
    page = fresh;
    await screenshotBothSchemes(page, 'sidebar-views');
    page = original;
    await fresh.close();
  });

  it('Back and Forward walk through views, facts and tabs; deep links open the Chain and Graph tabs', async () => {
    const p = db.info.mainPartition;
    await go(`#/memories/${p}`);
    await page.waitForSelector(ROW);
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.keyboard.press('2');
    await page.waitForSelector('.review-card');
    await page.keyboard.press('5');
    await page.waitForSelector('role=heading[name="Audit log"]');
    await page.goBack();
    await page.waitForSelector('.review-card');
    expect(await hash(page)).toBe(`#/review/${p}`);
    await page.goBack();
    await page.waitForSelector(ROW);
    expect(await hash(page)).toBe(`#/memories/${p}`);
    await page.goForward();
    await page.waitForSelector('.review-card');
    // Deep links name the tab.
    await go(`#/memories/${p}/${db.info.homeCityHead}?tab=chain`);
    await page.waitForSelector('role=tab[name="Chain"][selected]');
    await go(`#/memories/${p}/${db.info.homeCityHead}?tab=graph`);
    await page.waitForSelector('role=tab[name="Graph"][selected]');
    await page.click('role=tab[name="Detail"]');
    await page.waitForSelector('role=tab[name="Detail"][selected]');
    expect(await hash(page)).toBe(`#/memories/${p}/${db.info.homeCityHead}`);
    await page.goBack();
    await page.waitForSelector('role=tab[name="Graph"][selected]');
    expect(pageErrors(page)).toEqual([]);
  });

  it('keyboard only: find a fact with the palette, open its chain, go Back', async () => {
    const p = db.info.mainPartition;
    await go(`#/memories/${p}`);
    await page.waitForSelector(ROW);
    await page.keyboard.press('Control+k');
    const box = page.locator('role=combobox[name=/Go to a view/]');
    await box.waitFor();
    expect(await box.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.type('q3_budget');
    await page.waitForSelector('role=option[name=/q3_budget/]');
    await screenshotBothSchemes(page, 'command-palette');
    for (let i = 0; i < 40; i++) {
      if ((await page.getAttribute('role=option[selected]', 'data-section')) === 'Facts') break;
      await page.keyboard.press('ArrowDown');
    }
    await page.keyboard.press('Enter');
    await page.waitForSelector('role=dialog', { state: 'detached' });
    await page.waitForSelector('role=complementary[name="Fact detail"] >> text=capped at $50,000');
    const factHash = await hash(page);
    expect(factHash).toMatch(new RegExp(`^#/memories/${p}/.+`));
    await page.keyboard.press(']');
    await page.waitForSelector('role=tab[name="Chain"][selected]');
    expect(await hash(page)).toBe(`${factHash}?tab=chain`);
    await page.keyboard.press('Alt+ArrowLeft').catch(() => undefined);
    if ((await hash(page)) !== factHash) await page.goBack();
    await page.waitForSelector('role=tab[name="Detail"][selected]');
    expect(await hash(page)).toBe(factHash);
    // Palette actions and views too: "audit" + Enter.
    await page.keyboard.press('Control+k');
    await page.keyboard.type('audit');
    await page.keyboard.press('Enter');
    await page.waitForSelector('role=heading[name="Audit log"]');
  });

  it('Escape leaves the search field so view keys work, and a cleared search never comes back', async () => {
    const p = db.info.mainPartition;
    await go(`#/memories/${p}`);
    await page.waitForSelector(ROW);
    const all = await page.textContent('[data-testid="fact-count"]');
    await page.keyboard.press('/');
    await page.keyboard.type('lyon');
    await page.waitForFunction((before) => document.querySelector('[data-testid="fact-count"]')?.textContent !== before, all);
    // Clear, leave the field and switch views inside the search's debounce.
    await page.keyboard.press('Control+a');
    await page.keyboard.press('Backspace');
    await page.keyboard.press('Escape');
    await page.keyboard.press('5');
    await page.waitForSelector('role=heading[name="Audit log"]');
    await page.keyboard.press('1');
    await page.waitForSelector(ROW);
    expect(await page.inputValue(SEARCH)).toBe('');
    await page.waitForFunction((before) => document.querySelector('[data-testid="fact-count"]')?.textContent === before, all);
  });

  it('context preview keeps its query, strategies and results per partition', async () => {
    const p = db.info.mainPartition;
    await go(`#/context/${p}`);
    await page.fill('role=textbox[name="Query"]', 'Where does Ana live?');
    await page.fill('role=spinbutton[name="Budget (tokens)"]', '1500');
    await page.click('role=button[name=/^Compare 2 strategies|^Assemble/]');
    await page.waitForSelector('.assemblies');
    await page.keyboard.press('1');
    await page.waitForSelector(ROW);
    await page.keyboard.press('3');
    await page.waitForSelector('.assemblies');
    expect(await page.inputValue('role=textbox[name="Query"]')).toBe('Where does Ana live?');
    expect(await page.inputValue('role=spinbutton[name="Budget (tokens)"]')).toBe('1500');
    // Another partition has its own (empty) preview; coming back finds this one again.
    await page.keyboard.press('Control+k');
    await page.keyboard.type('globex / user bob');
    await page.keyboard.press('Enter');
    await page.waitForSelector('text=Preview a context');
    expect(await page.inputValue('role=textbox[name="Query"]')).toBe('');
    await page.goBack();
    await page.waitForSelector('.assemblies');
    expect(await page.inputValue('role=textbox[name="Query"]')).toBe('Where does Ana live?');
  });

  it('refers to facts by key, value and status, as links, in detail, review, delete and audit', async () => {
    const p = db.info.mainPartition;
    // Superseded by: key, value snippet, status; clicking opens it.
    await go(`#/memories/${p}/${db.info.homeCityFirst}`);
    const fields = page.locator('role=region[name="Fields"]');
    const successor = fields.locator('.fact-ref').first();
    await successor.waitFor();
    expect(await successor.textContent()).toBe('home_cityAna lives in Paris nowsuperseded');
    await screenshotBothSchemes(page, 'fact-detail-references');
    await successor.locator('a').click();
    await page.waitForSelector('role=region[name="Value"] >> text=Ana lives in Paris now');
    // Review causes.
    await go(`#/review/${p}`);
    const card = page.locator('role=listitem[name="Review commute_plan"]');
    await card.locator('role=link[name=/^Open home_city: /]').first().waitFor();
    expect(await card.textContent()).not.toMatch(/f_[0-9a-f]{8}/);
    await screenshotBothSchemes(page, 'review-references');
    // Delete impact: flagged dependents and relinked chains by key.
    await go(`#/memories/${p}/${db.info.homeCityFirst}`);
    await page.click('role=button[name="Delete…"]');
    const dialog = page.locator('role=dialog');
    await dialog.locator('role=list[name="Facts to flag"] >> .fact-ref-key').first().waitFor();
    await dialog.locator('role=region[name="Chains relinked"] >> .fact-ref-key').first().waitFor();
    expect(await dialog.textContent()).not.toMatch(/f_[0-9a-f]{6}…/);
    expect(await dialog.textContent()).not.toContain('active');
    await screenshotBothSchemes(page, 'delete-references');
    await page.keyboard.press('Escape');
    // Audit: what happened in words, facts as references, no JSON.
    await go(`#/audit/${p}`);
    await page.waitForSelector('.audit-table .fact-ref-key');
    const stories = await page.locator('.audit-story').allTextContents();
    expect(stories.join(' ')).not.toMatch(/[{}"]/);
    await page.waitForSelector('.audit-story:has-text("flagged for review")');
    await screenshotBothSchemes(page, 'audit-references');
    // One time format: UTC with seconds, in the table and the footer.
    const when = await page.locator('.audit-table tbody tr td:first-child').first().textContent();
    expect(when).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC$/);
  });
});
