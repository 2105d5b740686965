// The memories table on a partition of a million facts (STATELENS_E2E_MILLION_FACTS, default
// 1,000,000): time to the first page, then scrolling sorted by time and by key while keyset pages
// stream in. Frame rates and latencies are printed (figures, not assertions); what is asserted is
// that the table stays virtualised and keeps loading.
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { envInt } from '../helpers/child';
import { chromiumMissing, pageErrors, screenshot } from './helpers/browser';
import { seededDatabase } from './helpers/database';
import { openInspector, onFailure, type Inspector } from './helpers/inspector';
import type { Served } from './helpers/serve';
import { describeFrames, measureScroll } from './helpers/measure';
import { fileOnly } from './helpers/store';

const FACTS = envInt('STATELENS_E2E_MILLION_FACTS', 1_000_000);
const missing =
  chromiumMissing() ??
  // Copying a million facts into a server database takes longer than the whole rest of the pass;
  // the server's keyset paging is covered by the other tables of this pass.
  fileOnly(`copying ${FACTS.toLocaleString('en-US')} facts into a server database would take most of the pass`);
if (missing) console.log(`e2e million-fact scroll skipped: ${missing}`);

const GRID = '[role="grid"][aria-label="Memories"]';
const ROW = `${GRID} [role="row"][data-fact-id]`;

describe.skipIf(missing !== undefined)(`the memories table on ${FACTS.toLocaleString('en-US')} facts`, () => {
  let db: ReturnType<typeof seededDatabase>;
  let ui: Inspector | undefined;
  let served: Served;
  let page: Page;

  beforeAll(async () => {
    db = seededDatabase({ bulk: FACTS, graph: 100 });
    console.log(`e2e: seeded ${FACTS.toLocaleString('en-US')} facts in ${db.seconds.toFixed(1)} s`);
    // The test times the first visit itself.
    ui = await openInspector(db.file, { visit: false });
    ({ served, page } = ui);
    // Seeding a million facts through the engine takes minutes on a busy 2-core machine.
  }, 900_000);

  afterEach(onFailure(() => page, 'million-'));

  afterAll(async () => {
    await ui?.close();
    db?.remove();
  });

  async function scroll(label: string): Promise<void> {
    await page.$eval(GRID, (g) => {
      g.scrollLeft = 0;
    });
    const before = await page.$$eval(ROW, (rows) => rows.length);
    const stats = await measureScroll(page, GRID, 4000, 240);
    await page.waitForTimeout(300);
    const loaded = (await page.textContent('[data-testid="fact-count"]')) ?? '';
    console.log(
      `${describeFrames(`e2e table scroll on ${FACTS.toLocaleString('en-US')} facts, ${label} (240 px per frame)`, stats)}; scrolled ${Math.round(stats.scrolledPx).toLocaleString('en-US')} px; ${loaded}`,
    );
    expect(stats.scrolledPx).toBeGreaterThan(10_000);
    expect(await page.$$eval(ROW, (rows) => rows.length)).toBeLessThan(before + 60);
    expect(loaded).toMatch(/[\d,]+ loaded/);
  }

  it('opens on the first page and scrolls sorted by time and by key (figures printed)', async () => {
    const t0 = performance.now();
    await page.goto(`${served.url}#/memories/${db.info.mainPartition}`);
    await page.waitForSelector(ROW);
    console.log(
      `e2e first page of a ${FACTS.toLocaleString('en-US')}-fact partition: ${Math.round(performance.now() - t0)} ms after navigation (page load included)`,
    );
    await scroll('newest first');
    await screenshot(page, 'memories-million');

    const t1 = performance.now();
    const first = await page.$eval(ROW, (r) => r.getAttribute('data-fact-id'));
    await page.click(`${GRID} button[aria-label="Sort by Key"]`);
    await page.waitForFunction(([sel, id]) => document.querySelector(sel)?.getAttribute('data-fact-id') !== id, [ROW, first] as const);
    console.log(`e2e re-sort by key on ${FACTS.toLocaleString('en-US')} facts: first page in ${Math.round(performance.now() - t1)} ms`);
    await scroll('sorted by key');
    expect(pageErrors(page)).toEqual([]);
  });
});
