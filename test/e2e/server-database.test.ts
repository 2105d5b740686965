// End to end on a PostgreSQL server: the seeded inspector database is built as a SQLite file,
// copied into a scratch server database (`statelens init`, then `statelens import snapshot`),
// and `statelens serve --db URL` is driven in Chromium: table and scrolling, search, detail and
// chain, graph, review, a write from another process appearing live, context preview, delete and
// the accessibility check. The table is screenshotted light and dark (server-database-table-*).
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Store } from '../../electron/engine/store';
import { statelens } from '../helpers/child';
import { SERVER_SKIP_REASON, SERVER_URL, serverScratchDatabase } from '../helpers/pg';
import { unnamedControls } from './helpers/accessibility';
import { chromiumMissing, pageErrors, screenshot, screenshotBothSchemes } from './helpers/browser';
import { seededDatabase } from './helpers/database';
import { openInspector, onFailure, type Inspector } from './helpers/inspector';

const missing = chromiumMissing() ?? (SERVER_URL ? undefined : SERVER_SKIP_REASON);
if (missing) console.log(`e2e on a server database skipped: ${missing}`);

const GRID = '[role="grid"][aria-label="Memories"]';
const ROW = `${GRID} [role="row"][data-fact-id]`;
const BULK = 600;

describe.skipIf(missing !== undefined)('the inspector on a PostgreSQL server database (Chromium)', () => {
  let db: ReturnType<typeof seededDatabase>;
  let server: ReturnType<typeof serverScratchDatabase> | undefined;
  let ui: Inspector | undefined;
  let page: Page;
  let p = 0;

  const go = async (hash: string, waitFor: string) => {
    await page.goto(`${ui?.base}${hash}`);
    await page.waitForSelector(waitFor);
  };

  beforeAll(async () => {
    db = seededDatabase({ bulk: BULK, graph: 40 });
    p = db.info.mainPartition;
    server = serverScratchDatabase('e2e');
    const init = await statelens(['init', '--db', server.url]);
    expect(init.code, init.stderr).toBe(0);
    const copied = await statelens(['import', 'snapshot', db.file, '--db', server.url, '--json']);
    expect(copied.code, copied.stderr).toBe(0);
    // The copy keeps the partition and fact ids, so the seed's ids name the same rows on the server.
    expect((JSON.parse(copied.stdout) as { partitionIds: number[] }).partitionIds).toContain(p);
    ui = await openInspector(server.url, { hash: `#/memories/${p}`, waitFor: ROW });
    page = ui.page;
    await page.setViewportSize({ width: 1280, height: 800 });
    expect(ui.served.log()).toContain(`statelens serve: ${server.url}`);
  });

  afterEach(onFailure(() => page, 'server-database-'));

  afterAll(async () => {
    await ui?.close();
    server?.drop();
    db?.remove();
  });

  it('lists the facts and pages through them as the table scrolls', async () => {
    await screenshotBothSchemes(page, 'server-database-table', () => page.waitForSelector(ROW).then(() => undefined));
    const first = await page.$$eval(ROW, (rows) => rows.map((r) => r.getAttribute('data-fact-id')));
    expect(first.length).toBeGreaterThan(10);
    // Scroll to the end, a page at a time, until every fact of the partition is loaded.
    await page.waitForFunction(
      (grid) => {
        const g = document.querySelector(grid);
        if (!g) return false;
        g.scrollTop = g.scrollHeight;
        return !/loaded/.test(document.querySelector('[data-testid="fact-count"]')?.textContent ?? 'loaded');
      },
      GRID,
      { polling: 200, timeout: 30_000 },
    );
    const count = (await page.textContent('[data-testid="fact-count"]')) ?? '';
    console.log(`e2e server database: the table says "${count}" after scrolling to its end`);
    expect(Number(/([\d,]+) facts/.exec(count)?.[1]?.replace(/,/g, ''))).toBeGreaterThan(BULK);
    const last = await page.$$eval(ROW, (rows) => rows.map((r) => r.getAttribute('data-fact-id')));
    expect(last.some((id) => !first.includes(id))).toBe(true);
    await page.$eval(GRID, (g) => {
      g.scrollTop = 0;
    });
  });

  it('finds a fact by full-text search', async () => {
    await page.fill('input[type="search"]', 'zebra crossing');
    await page.waitForFunction((sel) => {
      const rows = [...document.querySelectorAll(sel)];
      return rows.length > 0 && rows.every((r) => /zebra/i.test(r.textContent ?? ''));
    }, ROW);
    expect(await page.$$eval(`${GRID} mark`, (ms) => ms.length)).toBeGreaterThan(0);
    await page.fill('input[type="search"]', '');
    await page.waitForFunction((sel) => ![...document.querySelectorAll(sel)].every((r) => /zebra/i.test(r.textContent ?? '')), ROW);
  });

  it('shows the detail pane and the supersession chain, and renders the graph', async () => {
    await go(`#/memories/${p}/${db.info.homeCityHead}`, '.fact-detail');
    expect(await page.textContent('.fact-detail')).toContain('Supersedes');
    await page.click('role=tab[name="Chain"]');
    await page.waitForSelector('[data-testid="chain-svg"] .chain-card');
    const cards = await page.$$eval('[data-testid="chain-svg"] .chain-card', (cs) => cs.map((c) => c.getAttribute('class') ?? ''));
    expect(cards.filter((c) => c.includes('chain-proposal'))).toHaveLength(1);
    expect(cards.filter((c) => !c.includes('chain-proposal'))).toHaveLength(4);
    expect(await page.textContent('[data-testid="chain-svg"]')).toContain('explicit correction');
    await screenshot(page, 'server-database-chain');
    // The commute plan depends on the home city and has a dependent of its own.
    // A fresh load, so the panel opens afresh on the other fact.
    await page.goto(`${ui?.base}#/memories/${p}/${db.info.flaggedId}`);
    await page.reload();
    await page.waitForSelector('.fact-panel');
    await page.click('role=tab[name="Graph"]');
    await page.waitForSelector('[data-testid="graph-svg"]');
    await page.waitForFunction(() => /[1-9]\d* edges/.test(document.querySelector('[data-testid="graph-stats"]')?.textContent ?? ''));
    console.log(`e2e server database: graph of commute_plan: ${await page.textContent('[data-testid="graph-stats"]')}`);
    await screenshot(page, 'server-database-graph');
  });

  it('lists the facts flagged for review', async () => {
    await go(`#/review/${p}`, '.review-card');
    expect(await page.textContent('[data-testid="review-total"]')).toBe('3 facts need review');
    expect(await page.textContent(`.review-card[data-fact-id="${db.info.flaggedId}"]`)).toMatch(/Upstream change: home_city/);
  });

  it('shows a fact another process writes to the server in the open table', async () => {
    await go(`#/memories/${p}`, ROW);
    const writer = Store.openPostgres(server?.target ?? { kind: 'server', url: '' });
    let factId: string;
    const at = Date.now();
    try {
      factId = writer.scope({ kind: 'user', org: 'acme', user: 'ana' }).writeFact({
        key: 'live_server_write',
        value: 'written to the server by another process',
        ts: '2031-01-01T00:00:00.000Z',
        source: { type: 'agent', identity: 'e2e', authority: 'manager' },
      }).factId;
    } finally {
      writer.close();
    }
    await page.waitForSelector(`${ROW}[data-fact-id="${factId}"]`, { state: 'attached', timeout: 15_000 });
    console.log(`e2e server database: another process's write appeared in the open table after ${Date.now() - at} ms`);
  });

  it('previews the assembled context with its ranked items', async () => {
    await go(`#/context/${p}`, 'role=region[name="Context preview"]');
    await page.fill('role=textbox[name="Query"]', 'Where does Ana live now?');
    await page.fill('role=spinbutton[name="Budget (tokens)"]', '600');
    await page.click('role=button[name="Compare 2 strategies"]');
    const ranked = page.locator('role=list[name="Ranked items (balanced)"]');
    await ranked.waitFor({ timeout: 30_000 });
    await screenshot(page, 'server-database-context');
    expect(await page.locator('role=region[name="Context preview"] >> role=alert').count()).toBe(0);
    expect(await ranked.locator('role=listitem').count()).toBeGreaterThan(0);
  });

  it('deletes a fact after the impact preview', async () => {
    await go(`#/review/${p}`, '.review-card');
    await page.locator(`.review-card[data-fact-id="${db.info.flaggedTwoHopsId}"] button:has-text("Delete…")`).click();
    const dialog = page.locator('role=dialog[name="Delete this fact"]');
    await dialog.locator('[data-testid="impact-delete-count"]').waitFor();
    expect(await dialog.locator('[data-testid="impact-delete-count"]').textContent()).toBe('1 fact');
    await dialog.locator('[data-testid="confirm-delete"]').click();
    await dialog.locator('[data-testid="delete-summary"]').waitFor({ timeout: 30_000 });
    console.log('e2e server database: delete done');
    await screenshot(page, 'server-database-delete');
    await dialog.locator('button:has-text("Close")').last().click();
    await page.waitForFunction(() => document.querySelector('[data-testid="review-total"]')?.textContent === '2 facts need review');
  });

  it('names every control and logged no page errors', async () => {
    const cdp = await page.context().newCDPSession(page);
    const problems: string[] = [];
    await go(`#/memories/${p}`, ROW);
    problems.push(...(await unnamedControls(cdp, 'memories')));
    await go(`#/memories/${p}/${db.info.homeCityHead}`, 'role=tab[name="Chain"]');
    await page.click('role=tab[name="Chain"]');
    await page.waitForSelector('[data-testid="chain-svg"] .chain-card');
    problems.push(...(await unnamedControls(cdp, 'chain')));
    await go(`#/review/${p}`, '.review-card');
    problems.push(...(await unnamedControls(cdp, 'review')));
    await cdp.detach();
    expect(problems).toEqual([]);
    expect(pageErrors(page), pageErrors(page).join('\n')).toEqual([]);
  });
});
