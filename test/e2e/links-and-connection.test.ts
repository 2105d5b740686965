// End to end, bad links and a dying server: a damaged or unknown link shows a clear message in
// Chromium and the inspector stays usable; when `statelens serve` is killed the footer stops
// saying "live", and when a server comes back on the same port (same session) it reconnects by
// itself and shows what changed meanwhile.
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { EngineHost } from '../../electron/engine-host/facade';
import { createAppServices, type AppServices } from '../../electron/handlers/app-services';
import { browserShell, DownloadRegistry } from '../../electron/server/browser-shell';
import { startServer, type RunningServer } from '../../electron/server/server';
import { externalWrite } from './helpers/backend';
import { chromiumMissing, pageErrors, screenshot } from './helpers/browser';
import { seededDatabase } from './helpers/database';
import { openInspector, onFailure, type Inspector } from './helpers/inspector';
import { E2E_RENDERER_DIR, type Served } from './helpers/serve';
import { repoRoot } from '../helpers/paths';

const missing = chromiumMissing();
if (missing) console.log(`e2e links and connection skipped: ${missing}`);

const ROW = '[role="grid"][aria-label="Memories"] [role="row"][data-fact-id]';
const NOTICE = '[data-testid="link-notice"]';
const INDICATOR = '[data-testid="live-indicator"]';

function connectionIs(page: Page, states: readonly string[], timeout = 30_000) {
  return page.waitForFunction(
    (want) => want.includes(document.querySelector('[data-testid="live-indicator"]')?.getAttribute('data-connection') ?? ''),
    states,
    { timeout },
  );
}

describe.skipIf(missing !== undefined)('bad links and a server that goes away', () => {
  let db: ReturnType<typeof seededDatabase>;
  let ui: Inspector | undefined;
  let served: Served;
  let page: Page;
  let second: { server: RunningServer; services: AppServices; downloads: DownloadRegistry } | undefined;

  beforeAll(async () => {
    db = seededDatabase({ bulk: 60, graph: 10 });
    // The tests make the first visits themselves (damaged links among them).
    ui = await openInspector(db.file, { visit: false });
    ({ served, page } = ui);
  });

  afterEach(onFailure(() => page, 'links-'));

  afterAll(async () => {
    // The second server first: closing the first drops a server copy of the database.
    await second?.server.close();
    await second?.services.close();
    second?.downloads.dispose();
    await ui?.close();
    db?.remove();
  });

  it('a damaged link opens the inspector with a message instead of a blank page', async () => {
    const pid = db.info.mainPartition;
    await page.goto(`${served.url}#/memories/${pid}/%E0%A4%A`);
    const notice = await page.waitForSelector(NOTICE);
    expect(await notice.textContent()).toContain('"%E0%A4%A" is not valid percent-encoding');
    await page.waitForSelector(ROW);
    await screenshot(page, 'link-damaged');
    // Still usable: open a fact, and the address is a good one again.
    await page.click(`${ROW}:nth-child(2) [role="gridcell"]:nth-child(3)`);
    await page.waitForSelector('.fact-detail');
    expect(await page.$(NOTICE)).toBeNull();
    expect(await page.evaluate(() => location.hash)).toMatch(new RegExp(`^#/memories/${pid}/.+`));
    expect(pageErrors(page).filter((e) => /URIError/.test(e))).toEqual([]);
  });

  it('an unknown partition or view in the address says so; a missing fact alert does not outlive its link', async () => {
    const pid = db.info.mainPartition;
    await page.evaluate(() => {
      location.hash = '#/memories/999';
    });
    await page.waitForSelector(`${NOTICE}:has-text("There is no partition 999")`);
    await page.waitForSelector(ROW);
    await page.evaluate(() => {
      location.hash = '#/memroies/1';
    });
    await page.waitForSelector(`${NOTICE}:has-text('view "memroies" that does not exist')`);
    await screenshot(page, 'link-unknown-view');
    await page.evaluate((p) => {
      location.hash = `#/memories/${p}/no_such_fact`;
    }, pid);
    await page.click('role=tab[name="Chain"]');
    await page.waitForSelector('text=No fact no_such_fact in this partition');
    await page.evaluate((p) => {
      location.hash = `#/memories/${p}`;
    }, pid);
    await page.waitForSelector('.fact-panel', { state: 'detached' });
    expect(await page.$('text=No fact no_such_fact in this partition')).toBeNull();
    await page.waitForSelector(ROW);
  });

  it('the footer stops saying live when the server dies, and reconnects when it is back', async () => {
    await connectionIs(page, ['live']);
    const port = Number(new URL(served.origin).port);
    served.proc.kill('SIGKILL');
    await new Promise((resolve) => served.proc.once('exit', resolve));
    await connectionIs(page, ['reconnecting', 'offline']);
    await connectionIs(page, ['offline']);
    expect(await page.textContent(INDICATOR)).toMatch(/^offline/);
    await screenshot(page, 'connection-offline');

    // Meanwhile another process writes; then a server for the same session comes back.
    externalWrite(served.store.db, { key: 'written_offline', value: 'written while the server was down', ts: '2032-01-01T00:00:00.000Z' });
    const engine = new EngineHost({ workerPath: path.join(repoRoot, 'electron', 'engine-host', 'worker-node.mjs') });
    const downloads = new DownloadRegistry();
    const services = createAppServices(engine, browserShell({ downloads, token: () => served.token }), { validate: true });
    await engine.call('db.openPath', served.store.openRequest);
    const server = await startServer({
      port,
      token: served.token,
      dispatch: services.dispatch,
      events: services.events,
      rendererDir: E2E_RENDERER_DIR,
      downloads,
    });
    second = { server, services, downloads };
    await connectionIs(page, ['live']);
    await page.waitForSelector(`${ROW}:has-text("written while the server was down")`, { state: 'attached', timeout: 30_000 });
    expect(await page.textContent(INDICATOR)).toMatch(/^live/);
    await screenshot(page, 'connection-back');
  });
});
