import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seededDatabase } from './helpers/database';
import { openInspector, type Inspector } from './helpers/inspector';

const GRID = '[role="grid"][aria-label="Memories"]';
const ROW = `${GRID} [role="row"][data-fact-id]`;

describe('race repro', () => {
  let db: ReturnType<typeof seededDatabase>;
  let ui: Inspector;
  let page: Page;
  beforeAll(async () => {
    db = seededDatabase({ bulk: 600, graph: 40 });
    ui = await openInspector(db.file, { hash: `#/memories/${db.info.mainPartition}`, waitFor: ROW });
    page = ui.page;
  });
  afterAll(async () => {
    await ui?.close();
    db?.remove();
  });
  it('loops', async () => {
    const p = db.info.mainPartition;
    const failures: string[] = [];
    await page.evaluate(() => {
      const t0 = performance.now();
      const w = window as unknown as { trace: string[] };
      w.trace = [];
      const log = (s: string) => w.trace.push(`TRACE ${(performance.now() - t0).toFixed(0)} ${s}`);
      for (const k of ['pushState', 'replaceState'] as const) {
        const orig = history[k].bind(history);
        history[k] = (d: unknown, u: string, url?: string | URL | null) => { log(`${k} ${String(url)} (was ${location.hash})`); orig(d, u, url); };
      }
      window.addEventListener('hashchange', () => log(`hashchange -> ${location.hash}`), true);
    });
    for (let i = 0; i < Number(process.env.N ?? 10); i++) {
      await page.fill('input[type="search"]', 'zebra crossing');
      await page.waitForFunction((sel) => {
        const rows = [...document.querySelectorAll(sel)];
        return rows.length > 0 && rows.every((r) => /zebra/i.test(r.textContent ?? ''));
      }, ROW);
      await page.fill('input[type="search"]', '');
      await page.waitForFunction((sel) => ![...document.querySelectorAll(sel)].every((r) => /zebra/i.test(r.textContent ?? '')), ROW);
      await page.goto(`${ui.base}#/memories/${p}/${db.info.homeCityHead}`);
      const ok = await page.waitForSelector('.fact-detail', { timeout: 8000 }).then(() => true, () => false);
      const hash = await page.evaluate(() => location.hash);
      console.log(`iteration ${i}: ${ok ? 'opened' : 'NOT opened'} hash=${hash} count=${await page.textContent('[data-testid="fact-count"]')}`);
      const trace = await page.evaluate(() => (window as unknown as { trace: string[] }).trace.splice(0));
      if (!ok) console.log(trace.join('\n'));
      if (!ok) failures.push(`${i}: ${hash}`);
      await page.goto(`${ui.base}#/memories/${p}`);
      await page.waitForSelector('.fact-panel', { state: 'detached' });
    }
    expect(failures).toEqual([]);
  });
});
