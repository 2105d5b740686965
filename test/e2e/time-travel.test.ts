// End to end in Chromium, time travel against `statelens serve` on a seeded database: picking
// a past instant changes the fact detail, the status bar and the sidebar counts with the table;
// the scrubber has date ticks and a change-density strip and is usable with the keyboard; two
// times compared list the facts that changed between them, each a link to its fact. Light and
// dark screenshots of the view go to test-results/screenshots/.
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { unnamedControls } from './helpers/accessibility';
import { chromiumMissing, pageErrors, screenshotBothSchemes } from './helpers/browser';
import { seededDatabase } from './helpers/database';
import { openInspector, onFailure, type Inspector } from './helpers/inspector';

const missing = chromiumMissing();
if (missing) console.log(`e2e time travel skipped: ${missing}`);

const ROW = '[role="grid"][aria-label="Memories"] [role="row"][data-fact-id]';
const BAR = 'role=group[name="Time travel"]';
const PANEL = '.fact-panel';
const AS_OF = 'input[aria-label="As of (UTC)"]';

describe.skipIf(missing !== undefined)('time travel in Chromium', () => {
  let db: ReturnType<typeof seededDatabase>;
  let ui: Inspector | undefined;
  let page: Page;

  const text = async (selector: string) => (await page.textContent(selector)) ?? '';

  beforeAll(async () => {
    db = seededDatabase({ bulk: 400, graph: 40 });
    ui = await openInspector(db.file, { hash: `#/memories/${db.info.mainPartition}/${db.info.homeCityFirst}`, waitFor: ROW });
    ({ page } = ui);
  });

  afterEach(onFailure(() => page, 'time-travel-'));

  afterAll(async () => {
    await ui?.close();
    db?.remove();
  });

  it('shows the fact detail, the status bar and the sidebar counts as of the instant picked', async () => {
    await page.waitForSelector(`${PANEL} article[aria-label="Fact home_city"]`);
    // Now: 400 bulk facts and 12 of Ana's, 5 of them no longer valid.
    expect(await text('[data-testid="status-counts"]')).toContain('acme / user ana: 407 valid of 412 facts');
    expect(await page.$('[data-testid="fact-asof"]')).toBeNull();

    await page.click('button[aria-label="Time travel"]');
    await page.waitForSelector(BAR);
    await page.fill(AS_OF, '2025-04-01T12:00');
    await page.waitForSelector('[data-testid="time-banner"]');

    // The detail: on 1 April Lyon had been replaced by Paris.
    await page.waitForSelector('[data-testid="fact-asof"][data-state="ended"]');
    const asOf = await text('[data-testid="fact-asof"]');
    expect(asOf).toContain('As of 2025-04-01 12:00:00 UTC: no longer valid then');
    expect(asOf).toContain('Valid then: home_cityAna lives in Paris now');
    // The status bar and the sidebar: facts recorded by then and valid then.
    await page.waitForFunction(() => document.querySelector('[data-testid="status-counts"]')?.textContent?.includes('as of 2025-04-01 12:00:00 UTC'));
    expect(await text('[data-testid="status-counts"]')).toContain('acme / user ana as of 2025-04-01 12:00:00 UTC: 406 valid of 407 facts recorded then');
    expect(await text('[data-testid="partition-asof"]')).toBe('Counts as of 2025-04-01 12:00:00 UTC');
    expect(await page.getAttribute('.partition-item[aria-current="true"]', 'aria-label')).toBe(
      'acme / user ana: 406 valid of 407 facts as of 2025-04-01 12:00:00 UTC',
    );
    expect((await text('.partition-item[aria-current="true"] .partition-count')).replace(/\s/g, '')).toBe('406/407');
    await screenshotBothSchemes(page, 'time-travel-detail');

    // The version valid then, opened from the table.
    await page.fill('role=searchbox[name="Search memories"]', 'lives');
    await page.waitForFunction(
      (sel) =>
        [...document.querySelectorAll(sel)]
          .map((r) => r.textContent ?? '')
          .join('|')
          .includes('Paris'),
      ROW,
    );
    await page.click(`${ROW}:has-text("Ana lives in Paris now")`);
    await page.waitForSelector('[data-testid="fact-asof"][data-state="valid"]');
    expect(await text('[data-testid="fact-asof"]')).toContain('It stayed valid until 2025-06-01 09:00:00 UTC.');
    await page.fill('role=searchbox[name="Search memories"]', '');
    expect(pageErrors(page)).toEqual([]);
  });

  it('draws date ticks and the change-density strip along the scrubber, and moves with the keyboard', async () => {
    const strip = await page.waitForSelector('[data-testid="time-density"][role="img"]');
    const stripBox = await strip.boundingBox();
    const slider = await page.waitForSelector(`${BAR} >> input[type="range"]`);
    const sliderBox = await slider.boundingBox();
    expect(stripBox && sliderBox).toBeTruthy();
    if (!stripBox || !sliderBox) return;
    // The strip spans the slider's track (inset by half the thumb on each side).
    expect(stripBox.width).toBeGreaterThan(300);
    expect(Math.abs(stripBox.x + stripBox.width / 2 - (sliderBox.x + sliderBox.width / 2))).toBeLessThan(2);
    expect(stripBox.y).toBeLessThan(sliderBox.y);
    // Bulk facts a minute apart in June 2024 make the densest slice; every change is counted.
    expect(await strip.getAttribute('aria-label')).toBe('Changes over time: 415 changes, most around 2024-06-15');
    const heights = await page.$$eval('[data-testid="time-density"] g', (gs) => gs.map((g) => Number(g.getAttribute('data-changes'))));
    expect(heights.reduce((a, b) => a + b, 0)).toBe(415);
    const drawn = await page.$$eval('[data-testid="time-density"] rect', (rs) => rs.filter((r) => r.getBoundingClientRect().height > 0).length);
    expect(drawn).toBeGreaterThan(5);

    // Month ticks below the slider, in order, none overlapping another.
    const ticks = await page.$$eval('[data-testid="time-ticks"] .time-tick', (ts) =>
      ts.map((t) => {
        const r = t.getBoundingClientRect();
        return { label: t.textContent ?? '', left: r.left, right: r.right, top: r.top };
      }),
    );
    expect(ticks.length).toBeGreaterThanOrEqual(4);
    for (const t of ticks) expect(t.label).toMatch(/^\d{4}-\d\d$/);
    for (let i = 1; i < ticks.length; i++) expect(ticks[i]!.left).toBeGreaterThan(ticks[i - 1]!.right);
    expect(ticks[0]!.top).toBeGreaterThan(sliderBox.y);

    // The keyboard: Home goes to the oldest fact's time, End back to now.
    await slider.focus();
    await page.keyboard.press('Home');
    await page.waitForFunction(() => document.querySelector('[data-testid="time-banner"]')?.textContent?.includes('as of 2024-06-15 09:00:00 UTC'));
    expect(await page.inputValue(AS_OF)).toBe('2024-06-15 09:00');
    await page.keyboard.press('End');
    await page.waitForSelector('[data-testid="time-banner"]', { state: 'detached' });
    expect(await slider.getAttribute('aria-valuetext')).toBe('now');

    const cdp = await page.context().newCDPSession(page);
    expect(await unnamedControls(cdp, 'time travel')).toEqual([]);
    await cdp.detach();
    await page.fill(AS_OF, '2025-04-01T12:00');
    await page.waitForSelector('[data-testid="time-banner"]');
    await screenshotBothSchemes(page, 'time-travel-scrubber');
    expect(pageErrors(page)).toEqual([]);
  });

  it('compares two times: the facts that became valid, were superseded or were deleted, each a link', async () => {
    // Delete one fact through the inspector, so the comparison has a deletion to show.
    await page.click(`${BAR} >> role=button[name="Now (leave time travel)"]`);
    await page.fill('role=searchbox[name="Search memories"]', 'hikes');
    await page.waitForFunction((sel) => document.querySelectorAll(sel).length === 1, ROW);
    await page.click(ROW);
    await page.click(`${PANEL} button:has-text("Delete…")`);
    const confirm = page.locator('role=dialog[name="Delete this fact"]');
    await confirm.locator('[data-testid="impact-delete-count"]').waitFor();
    await confirm.locator('[data-testid="confirm-delete"]').click();
    await confirm.locator('[data-testid="delete-summary"]').waitFor();
    await confirm.locator('button:has-text("Close")').last().click();
    await page.waitForSelector('role=dialog', { state: 'detached' });
    await page.fill('role=searchbox[name="Search memories"]', '');

    await page.click(`${BAR} >> role=button[name="What changed between two times"]`);
    const dialog = await page.waitForSelector('role=dialog[name="What changed between two times"]');
    // The exact-time fields of the dialog are reached and named for the keyboard.
    // They take the app's own 24-hour format (not the browser's locale picker).
    expect(await page.evaluate(() => document.activeElement?.getAttribute('placeholder'))).toBe('YYYY-MM-DD HH:MM');
    await page.fill('role=dialog >> input.input-datetime >> nth=0', '2025-02-01 00:00');
    const now = new Date(Date.now() + 3_600_000).toISOString().slice(0, 16).replace('T', ' ');
    await page.fill('role=dialog >> input.input-datetime >> nth=1', now);
    expect(await page.inputValue('role=dialog >> input.input-datetime >> nth=0')).toBe('2025-02-01 00:00');
    await page.waitForFunction(() => /1 deleted$/.test(document.querySelector('[data-testid="changes-summary"]')?.textContent ?? ''));
    // Each reference reads its fact after the list is drawn: wait until none is still loading.
    await page.waitForFunction(() => document.querySelector('.changes-list [aria-busy="true"]') === null);
    const summary = await text('[data-testid="changes-summary"]');
    // Since 1 Feb: the release date, deploy plan, Paris, the hostile note, the new release date,
    // Berlin and Munich took effect; Lyon, the first release date, Paris and Berlin were replaced.
    expect(summary).toMatch(/^Between 2025-02-01 00:00:00 UTC and .+: 7 became valid · 4 superseded · 0 invalidated · 1 deleted$/);
    const items = await page.$$eval('role=list[name="Changes"] >> li', (lis) =>
      lis.map((li) => ({ kind: li.getAttribute('data-kind'), text: (li.textContent ?? '').replace(/\s+/g, ' ') })),
    );
    expect(items).toHaveLength(12);
    expect(items.find((i) => i.kind === 'deleted')?.text).toContain('a fact that no longer exists');
    // Each a readable reference: time, what happened, key, value and status (now), and the successor.
    expect(items.filter((i) => i.kind === 'superseded').map((i) => i.text)).toContain(
      '2025-03-01 09:00:00 UTCsupersededhome_cityAna lives in Lyonsupersededby home_cityAna lives in Paris nowsuperseded',
    );
    const cdp = await page.context().newCDPSession(page);
    expect(await unnamedControls(cdp, 'what changed dialog')).toEqual([]);
    await cdp.detach();
    await dialog.evaluate((d) => d.querySelector('.changes-list')?.scrollTo(0, 0));
    await screenshotBothSchemes(page, 'time-travel-changes');

    // A reference opens its fact in the detail pane.
    await page.click('role=list[name="Changes"] >> role=link[name=/^Open home_city: HR record: Ana is based in Munich/]');
    await page.waitForSelector('role=dialog', { state: 'detached' });
    await page.waitForSelector(`${PANEL} article[aria-label="Fact home_city"]`);
    expect(await text(`${PANEL} .fact-value`)).toContain('HR record: Ana is based in Munich');
    expect(pageErrors(page)).toEqual([]);
  });
});
