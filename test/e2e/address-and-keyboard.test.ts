// End to end in Chromium, against `statelens serve`: every view has an address. Search, filters,
// sort, as-of time, the open fact and tab, the graph's hops and the context preview's query,
// strategies and budget are in the URL; a copied link opened in a new tab (no token asked again)
// reopens that state and scrolls the linked row into view; Back and Forward walk through the moves;
// a link with bad parts says so and keeps the rest; the search field and the palette find facts
// in every partition; Escape, ↓, the skip link and real fact links work from the keyboard. The
// review queue's arrangement and selection and the table's hidden columns are in the address too;
// the table's keys are links; the palette keeps a long key's distinguishing tail and its marks.
// Light and dark, 1280×720 and 1920×1080, with screenshots.
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Store } from '../../electron/engine/store';
import { externalWrite } from './helpers/backend';
import { chromiumMissing, pageErrors, screenshot, screenshotBothSchemes } from './helpers/browser';
import { seededDatabase } from './helpers/database';
import { openInspector, onFailure, type Inspector } from './helpers/inspector';

const missing = chromiumMissing();
if (missing) console.log(`e2e address and keyboard skipped: ${missing}`);

const GRID = '[role="grid"][aria-label="Memories"]';
const ROW = `${GRID} [role="row"][data-fact-id]`;
const SEARCH = 'role=searchbox[name="Search memories"]';
const NOTICE = '[data-testid="link-notice"]';
const SIZES = [
  { width: 1280, height: 720 },
  { width: 1920, height: 1080 },
] as const;

/** A key long enough to be cut in the palette; the search word sits in its beginning. */
const LONG_KEY = 'org.department.finance.procurement_committee.quarterly_review.regional_office_emea.northern_cluster.head_of_purchasing';

const hashOf = (page: Page) => page.evaluate(() => decodeURIComponent(location.hash));

/** Whether the row of `factId` is on screen inside the grid's scroll area. */
async function rowVisible(page: Page, factId: string): Promise<boolean> {
  return page.evaluate(
    ([grid, id]) => {
      const scroller = document.querySelector(grid);
      const row = scroller?.querySelector(`[role="row"][data-fact-id="${CSS.escape(id)}"]`);
      if (!scroller || !row) return false;
      const a = scroller.getBoundingClientRect();
      const b = row.getBoundingClientRect();
      return b.top >= a.top && b.bottom <= a.bottom + 1;
    },
    [GRID, factId] as const,
  );
}

describe.skipIf(missing !== undefined)('every view has an address, find everywhere, keyboard', () => {
  let db: ReturnType<typeof seededDatabase>;
  let ui: Inspector | undefined;
  let page: Page;
  let pid: number;
  let bobPid: number;
  /** A "routine" fact far down the key-sorted list (beyond the first page of rows). */
  let deepFact: { id: string; key: string };

  beforeAll(async () => {
    db = seededDatabase({ bulk: 900, graph: 10 });
    pid = db.info.mainPartition;
    // The same word in two partitions: find everywhere must reach both.
    externalWrite(db.file, { key: 'quote.pallet_cost', value: 'The pallet cost is 40 EUR', ts: '2026-01-02T00:00:00.000Z' });
    for (let i = 0; i < 3; i++)
      externalWrite(
        db.file,
        { key: `quote.pallet_offer_${i}`, value: `Pallet offer ${i} from the globex depot`, ts: '2026-01-02T00:00:00.000Z' },
        { kind: 'user', org: 'globex', user: 'bob' },
      );
    externalWrite(db.file, { key: LONG_KEY, value: 'Marigold Okafor heads purchasing for the northern cluster', ts: '2026-01-02T00:00:00.000Z' });
    const store = Store.open(db.file);
    try {
      bobPid = store.listPartitions().find((p) => p.label.includes('bob'))?.id ?? -1;
      const rows = store
        .scope({ kind: 'user', org: 'acme', user: 'ana' })
        .listFacts({ filter: { search: 'routine', validity: 'valid' }, sort: { column: 'key', direction: 'asc' }, page: { limit: 500 } }).rows;
      const deep = rows[420];
      if (!deep) throw new Error(`the seed has only ${rows.length} routine facts`);
      deepFact = { id: deep.id, key: deep.key };
    } finally {
      store.close();
    }
    ui = await openInspector(db.file, { hash: `#/memories/${pid}`, waitFor: ROW });
    page = ui.page;
  }, 180_000);

  afterEach(onFailure(() => page, 'address-'));

  afterAll(async () => {
    await ui?.close();
    db?.remove();
  });

  it('a copied link, opened in a new tab, reopens search, filter, sort, fact and tab, and scrolls to the row', async () => {
    const link = `${ui!.base}#/memories/${pid}/${encodeURIComponent(deepFact.id)}?tab=chain&q=routine&validity=valid&sort=key`;
    for (const size of SIZES) {
      // A new tab of the same browser: it has no session storage of its own, and asks for no token.
      const tab = await ui!.browser.newPage(size);
      try {
        await tab.goto(link);
        await tab.waitForSelector(`${ROW}[data-fact-id="${deepFact.id}"]`);
        expect(await tab.inputValue(SEARCH)).toBe('routine');
        expect(await tab.inputValue('role=combobox[name="Validity"]')).toBe('valid');
        expect(await tab.getAttribute('role=columnheader[name=/^Key/]', 'aria-sort')).toBe('ascending');
        await tab.waitForSelector('role=tab[name="Chain"][selected]');
        await tab.waitForFunction(
          ([grid, id]) => {
            const s = document.querySelector(grid);
            const r = s?.querySelector(`[role="row"][data-fact-id="${id}"]`);
            if (!s || !r) return false;
            const a = s.getBoundingClientRect();
            const b = r.getBoundingClientRect();
            return b.top >= a.top && b.bottom <= a.bottom + 1;
          },
          [GRID, deepFact.id] as const,
        );
        expect(await rowVisible(tab, deepFact.id)).toBe(true);
        expect(await tab.$(NOTICE)).toBeNull();
        await screenshotBothSchemes(tab, `address-copied-link-${size.width}`);
        expect(pageErrors(tab)).toEqual([]);
      } catch (e) {
        await screenshot(tab, `FAILED-address-copied-link-tab-${size.width}`);
        throw e;
      } finally {
        await tab.close();
      }
    }
  });

  it('Back and Forward walk through view, search, fact, tab and time; each step is in the address', async () => {
    await page.setViewportSize(SIZES[0]);
    await page.goto(`${ui!.base}#/memories/${pid}`);
    await page.waitForSelector(ROW);
    await page.keyboard.press('5');
    await page.waitForSelector('role=heading[name="Audit log"]');
    await page.keyboard.press('1');
    await page.fill(SEARCH, 'zebra');
    await page.waitForFunction(() => location.hash.includes('q=zebra'));
    await page.waitForSelector(`[data-testid="fact-count"]:has-text("${db.info.zebraCount} facts")`);
    await page.click(`${ROW}:nth-child(2) [role="gridcell"]:nth-child(3)`);
    await page.click('role=tab[name="Graph"]');
    await page.waitForFunction(() => location.hash.includes('tab=graph'));
    expect(await hashOf(page)).toMatch(new RegExp(`^#/memories/${pid}/[^?]+\\?tab=graph&q=zebra$`));
    // Back: the detail tab, then no fact, then no search, then the audit log; Forward again.
    await page.goBack();
    await page.waitForSelector('role=tab[name="Detail"][selected]');
    await page.goBack();
    await page.waitForSelector('.fact-panel', { state: 'detached' });
    await page.goBack();
    await page.waitForFunction(() => !location.hash.includes('q='));
    expect(await page.inputValue(SEARCH)).toBe('');
    await page.goBack();
    await page.waitForSelector('role=heading[name="Audit log"]');
    await page.goForward();
    await page.goForward();
    await page.waitForFunction(() => location.hash.includes('q=zebra'));
    expect(await page.inputValue(SEARCH)).toBe('zebra');
    await page.goForward();
    await page.goForward();
    await page.waitForSelector('role=tab[name="Graph"][selected]');
    await screenshotBothSchemes(page, 'address-back-forward-1280');
  });

  it('the context preview and the graph keep their inputs in the address; a reload brings them back', async () => {
    await page.goto(`${ui!.base}#/context/${pid}?query=${encodeURIComponent('where does Ana live')}&strategies=recent,state_based&budget=1234`);
    await page.waitForSelector('role=textbox[name="Query"]');
    await page.reload();
    await page.waitForSelector('role=spinbutton[name="Budget (tokens)"]');
    expect(await page.inputValue('role=spinbutton[name="Budget (tokens)"]')).toBe('1234');
    const values = await page.$$eval('textarea, input[type="text"], input[type="search"]', (els) => els.map((e) => (e as HTMLInputElement).value));
    expect(values).toContain('where does Ana live');
    await page.fill('role=spinbutton[name="Budget (tokens)"]', '900');
    await page.waitForFunction(() => location.hash.includes('budget=900'));
    expect(await hashOf(page)).toContain('strategies=recent,state_based');
    await screenshotBothSchemes(page, 'address-context-1280');
    // The graph's hops.
    await page.goto(`${ui!.base}#/memories/${pid}/${encodeURIComponent(db.info.homeCityHead)}?tab=graph&hops=1`);
    await page.waitForSelector('role=tab[name="Graph"][selected]');
    expect(await page.inputValue('role=combobox[name="Neighbourhood"]')).toBe('1');
    await page.selectOption('role=combobox[name="Neighbourhood"]', '3');
    await page.waitForFunction(() => location.hash.includes('hops=3'));
    await page.setViewportSize(SIZES[1]);
    await screenshotBothSchemes(page, 'address-graph-hops-1920');
    await page.setViewportSize(SIZES[0]);
  });

  it('a link with bad parts says what is wrong and keeps the rest; an old link opens as before', async () => {
    await page.goto(`${ui!.base}#/memories/${pid}?q=zebra&validity=maybe&hops=99&asof=yesterday`);
    const notice = await page.waitForSelector(NOTICE);
    const text = (await notice.textContent()) ?? '';
    expect(text).toContain('validity "maybe"');
    expect(text).toContain('graph hops "99"');
    expect(text).toContain('as-of time "yesterday"');
    expect(await page.inputValue(SEARCH)).toBe('zebra');
    await page.waitForSelector(`[data-testid="fact-count"]:has-text("${db.info.zebraCount} facts")`);
    await screenshotBothSchemes(page, 'address-bad-params-1280');
    // An as-of time in the address is time travel.
    await page.goto(`${ui!.base}#/memories/${pid}?asof=2025-12-01T00:00:00.000Z`);
    await page.waitForSelector('[data-testid="time-banner"]');
    // The link format of earlier versions.
    await page.goto(`${ui!.base}#/memories/${pid}/${encodeURIComponent(db.info.homeCityHead)}?tab=chain`);
    await page.waitForSelector('role=tab[name="Chain"][selected]');
    expect(await page.$(NOTICE)).toBeNull();
  });

  it('the search field and the palette find facts in every partition, grouped, this partition first', async () => {
    for (const size of SIZES) {
      await page.setViewportSize(size);
      await page.goto(`${ui!.base}#/memories/${pid}?q=pallet`);
      const elsewhere = await page.waitForSelector('[data-testid="matches-elsewhere"]');
      expect(await elsewhere.textContent()).toContain('globex / user bob');
      expect(await page.locator(`[data-testid="matches-elsewhere"] a[href*="#/memories/${bobPid}/"]`).count()).toBe(3);
      await page.waitForSelector(`${ROW}:has-text("quote.pallet_cost")`);
      await screenshotBothSchemes(page, `find-everywhere-table-${size.width}`);
      await page.keyboard.press('Control+k');
      await page.keyboard.type('pallet');
      await page.waitForSelector('[data-testid="palette-group"] >> nth=1');
      const groups = await page.$$eval('[data-testid="palette-group"]', (els) => els.map((e) => e.textContent ?? ''));
      expect(groups[0]).toMatch(/\(this partition\)$/);
      expect(groups[1]).toContain('globex / user bob');
      await screenshotBothSchemes(page, `find-everywhere-palette-${size.width}`);
      await page.keyboard.press('Escape');
    }
    // Choosing a match in another partition goes there and opens it.
    await page.keyboard.press('Control+k');
    await page.keyboard.type('pallet offer 2');
    await page.waitForSelector('role=option[name=/quote.pallet_offer_2/]');
    await page.click('role=option[name=/quote.pallet_offer_2/]');
    await page.waitForFunction((b) => location.hash.startsWith(`#/memories/${b}/`), bobPid);
    await page.waitForSelector('.fact-panel :text("Pallet offer 2 from the globex depot")');
    await page.setViewportSize(SIZES[0]);
  });

  it('keyboard: the skip link, Escape that keeps the text, ↓ into the results, and fact links that open in a new tab', async () => {
    await page.goto(`${ui!.base}#/memories/${pid}`);
    await page.waitForSelector(ROW);
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Skip to the main content');
    await screenshotBothSchemes(page, 'keyboard-skip-link-1280');
    await page.keyboard.press('Enter');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('main');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.closest('main') !== null)).toBe(true);
    expect(await hashOf(page)).toBe(`#/memories/${pid}`);

    await page.focus(SEARCH);
    await page.keyboard.type('zebra');
    await page.keyboard.press('Escape');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('role'))).not.toBe('searchbox');
    expect(await page.inputValue(SEARCH)).toBe('zebra');
    await page.keyboard.press('Escape');
    expect(await page.inputValue(SEARCH)).toBe('');
    await page.focus(SEARCH);
    await page.keyboard.type('zebra');
    await page.keyboard.press('ArrowDown');
    await page.waitForSelector('.fact-panel');
    expect(await page.evaluate((g) => document.activeElement === document.querySelector(g), GRID)).toBe(true);
    await page.keyboard.press('ArrowDown');
    await page.waitForFunction(() => document.querySelector('[role="grid"]')?.getAttribute('aria-activedescendant') === 'fact-row-1');
    await screenshotBothSchemes(page, 'keyboard-down-into-results-1280');

    // A fact reference is a link with the fact's address; a middle click opens it in a new tab.
    await page.goto(`${ui!.base}#/memories/${pid}/${encodeURIComponent(db.info.homeCityHead)}`);
    const ref = page.locator('.fact-panel a.fact-ref-key').first();
    await ref.waitFor();
    const href = (await ref.getAttribute('href')) ?? '';
    expect(href).toMatch(new RegExp(`^#/memories/${pid}/.+`));
    const opened = ui!.browser.context.waitForEvent('page');
    await ref.click({ button: 'middle' });
    const tab = await opened;
    try {
      await tab.waitForSelector('.fact-panel');
      expect(decodeURIComponent(new URL(tab.url()).hash)).toBe(decodeURIComponent(href));
      expect(await tab.$('text=needs the session token')).toBeNull();
      await screenshot(tab, 'keyboard-fact-link-new-tab');
    } finally {
      await tab.close();
    }
    // A plain click opens it here.
    await ref.click();
    await page.waitForFunction((h) => decodeURIComponent(location.hash) === decodeURIComponent(h), href);
  });

  it("the review queue's arrangement and selection and the table's hidden columns are in the address: Back, Forward and a copied link", async () => {
    await page.setViewportSize(SIZES[0]);
    await page.goto(`${ui!.base}#/review/${pid}`);
    await page.waitForSelector('.review-group');
    await page.click('role=button[name="Flat list"]');
    await page.waitForFunction(() => location.hash.includes('queue=flat'));
    const card = page.locator('.review-card').first();
    await card.waitFor();
    const picked = (await card.getAttribute('data-fact-id')) ?? '';
    await card.locator('input[type="checkbox"]').check();
    await page.waitForFunction((id) => decodeURIComponent(location.hash).includes(`picked=${id}`), picked);
    const link = `${ui!.base}${await page.evaluate(() => location.hash)}`;
    expect(await hashOf(page)).toBe(`#/review/${pid}?queue=flat&picked=${picked}`);
    // Back: the selection, then the arrangement; Forward brings both again.
    await page.goBack();
    await page.waitForFunction(() => !location.hash.includes('picked='));
    expect(await page.locator('[data-testid="review-selected"]').count()).toBe(0);
    await page.goBack();
    await page.waitForSelector('role=button[name="By cause"][pressed]');
    await page.goForward();
    await page.waitForSelector('role=button[name="Flat list"][pressed]');
    await page.goForward();
    await page.waitForSelector(`.review-card[data-fact-id="${picked}"] input[type="checkbox"]:checked`);
    // A copied link, in a new tab, opens the flat list with that fact selected.
    for (const size of SIZES) {
      const tab = await ui!.browser.newPage(size);
      try {
        await tab.goto(link);
        await tab.waitForSelector(`.review-card[data-fact-id="${picked}"] input[type="checkbox"]:checked`);
        expect(await tab.getAttribute('role=button[name="Flat list"]', 'aria-pressed')).toBe('true');
        expect(await tab.textContent('[data-testid="review-selected"]')).toBe('1 fact selected');
        await screenshotBothSchemes(tab, `address-review-queue-${size.width}`);
      } finally {
        await tab.close();
      }
    }

    // The table's columns: showing Importance and hiding Scope is in the address, and Back undoes it.
    await page.goto(`${ui!.base}#/memories/${pid}`);
    await page.waitForSelector(ROW);
    const header = (name: string) => page.locator(`role=columnheader[name=/^${name}/]`).count();
    expect(await header('Importance')).toBe(0);
    await page.click('role=button[name=/columns/i]');
    await page.click('role=checkbox[name="Importance"]');
    await page.waitForFunction(() => location.hash.includes('hide='));
    await page.click('role=checkbox[name="Scope"]');
    await page.waitForFunction(() => /hide=[^&]*scope/.test(location.hash));
    await page.keyboard.press('Escape');
    expect(await header('Importance')).toBe(1);
    expect(await header('Scope')).toBe(0);
    const columnsLink = `${ui!.base}${await page.evaluate(() => location.hash)}`;
    await page.goBack();
    await page.waitForFunction(() => !/hide=[^&]*scope/.test(location.hash));
    expect(await header('Scope')).toBe(1);
    const tab = await ui!.browser.newPage(SIZES[0]);
    try {
      await tab.goto(columnsLink);
      await tab.waitForSelector(ROW);
      expect(await tab.locator('role=columnheader[name=/^Importance/]').count()).toBe(1);
      expect(await tab.locator('role=columnheader[name=/^Scope/]').count()).toBe(0);
      await screenshot(tab, 'address-hidden-columns-light');
    } finally {
      await tab.close();
    }
    expect(pageErrors(page)).toEqual([]);
  });

  it("the table's keys are real links: middle-click opens the fact in a new tab, a click still selects and the keyboard still moves", async () => {
    await page.setViewportSize(SIZES[0]);
    await page.goto(`${ui!.base}#/memories/${pid}?q=zebra`);
    await page.waitForSelector(ROW);
    const row = page.locator(ROW).nth(1);
    const factId = (await row.getAttribute('data-fact-id')) ?? '';
    const key = row.locator('a.key-link');
    expect(decodeURIComponent((await key.getAttribute('href')) ?? '')).toBe(`#/memories/${pid}/${factId}`);
    expect(await key.getAttribute('tabindex')).toBe('-1');
    const opened = ui!.browser.context.waitForEvent('page');
    await key.click({ button: 'middle' });
    const tab = await opened;
    try {
      await tab.waitForSelector(`.fact-panel`);
      expect(decodeURIComponent(new URL(tab.url()).hash)).toBe(`#/memories/${pid}/${factId}`);
      await screenshot(tab, 'table-key-link-new-tab');
    } finally {
      await tab.close();
    }
    // The middle-click changed nothing here; a plain click on the key opens the row as before.
    expect(await hashOf(page)).toBe(`#/memories/${pid}?q=zebra`);
    await key.click();
    await page.waitForFunction(([p, id]) => decodeURIComponent(location.hash).startsWith(`#/memories/${p}/${id}`), [pid, factId] as const);
    await page.waitForSelector('.fact-panel');
    await page.focus(GRID);
    await page.keyboard.press('ArrowDown');
    await page.waitForFunction((id) => !decodeURIComponent(location.hash).includes(`/${id}?`), factId);
    for (const size of SIZES) {
      await page.setViewportSize(size);
      await screenshotBothSchemes(page, `table-key-links-${size.width}`);
    }
    await page.setViewportSize(SIZES[0]);
  });

  it('the palette shows a long key with its distinguishing tail, and a search mark in the cut beginning keeps the middle ellipsis', async () => {
    for (const size of SIZES) {
      await page.setViewportSize(size);
      await page.goto(`${ui!.base}#/memories/${pid}`);
      await page.waitForSelector(ROW);
      await page.keyboard.press('Control+k');
      await page.keyboard.type('procurement');
      const keyText = page.locator(`.palette-option .key-text[data-key-text="${LONG_KEY}"]`);
      await keyText.waitFor();
      const shape = await keyText.evaluate((el) => {
        const head = el.querySelector('.key-text-head') as HTMLElement;
        const tail = el.querySelector('.key-text-tail') as HTMLElement;
        const mark = head.querySelector('mark');
        return {
          headCut: head.scrollWidth > head.clientWidth,
          headEllipsis: getComputedStyle(head).textOverflow,
          // The distinguishing end is on screen: the tail shows at least its last part.
          tailEnd: (() => {
            const c = document.createElement('canvas').getContext('2d') as CanvasRenderingContext2D;
            c.font = getComputedStyle(tail).font;
            return tail.clientWidth + 1 >= c.measureText('head_of_purchasing').width;
          })(),
          tail: tail.textContent,
          mark: mark?.textContent ?? null,
          markDisplay: mark ? getComputedStyle(mark).display : null,
          title: el.getAttribute('title'),
        };
      });
      expect(shape).toEqual({
        headCut: true,
        headEllipsis: 'ellipsis',
        tailEnd: true,
        tail: 'northern_cluster.head_of_purchasing',
        mark: 'procurement',
        markDisplay: 'inline',
        title: LONG_KEY,
      });
      await screenshotBothSchemes(page, `palette-key-tail-${size.width}`);
      await page.keyboard.press('Escape');
    }
    await page.setViewportSize(SIZES[0]);
  });
});
