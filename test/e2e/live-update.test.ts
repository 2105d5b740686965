// End to end, live updates: a second process (an agent writing through the engine) changes the
// database while the inspector is open in Chromium; the open views refresh on their own,
// keeping the open fact, the selection and the scroll position. The delay is printed.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { chromiumMissing, pageErrors, screenshot } from './helpers/browser';
import { seededDatabase } from './helpers/database';
import { openInspector, onFailure, type Inspector } from './helpers/inspector';
import { repoRoot } from '../helpers/paths';

const missing = chromiumMissing();
if (missing) console.log(`e2e live update skipped: ${missing}`);

const GRID = '[role="grid"][aria-label="Memories"]';
const ROW = `${GRID} [role="row"][data-fact-id]`;

interface Writer {
  write(text: string): Promise<{ factId: string; at: number }>;
  stop(): Promise<void>;
}

/** The second agent process: `helpers/live-writer.ts` under tsx, one fact per line sent. */
async function startWriter(db: string): Promise<Writer> {
  const proc = spawn(process.execPath, ['--import', 'tsx', path.join(repoRoot, 'test', 'e2e', 'helpers', 'live-writer.ts'), '--db', db], {
    cwd: repoRoot,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let err = '';
  proc.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const waiting: Array<(m: Record<string, unknown>) => void> = [];
  createInterface({ input: proc.stdout }).on('line', (line) => {
    if (!line.startsWith('{')) return;
    const msg = JSON.parse(line) as Record<string, unknown>;
    waiting.shift()?.(msg);
  });
  const next = () =>
    new Promise<Record<string, unknown>>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the writer process did not answer:\n${err}`)), 30_000);
      waiting.push((m) => {
        clearTimeout(timer);
        resolve(m);
      });
    });
  const ready = await next();
  if (ready.type !== 'ready') throw new Error(`writer said ${JSON.stringify(ready)}`);
  return {
    async write(text) {
      const answer = next();
      proc.stdin.write(`${text}\n`);
      const m = await answer;
      return { factId: String(m.factId), at: Number(m.at) };
    },
    async stop() {
      const done = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
      proc.stdin.end('quit\n');
      await done;
    },
  };
}

describe.skipIf(missing !== undefined)('live updates from another process', () => {
  let db: ReturnType<typeof seededDatabase>;
  let ui: Inspector | undefined;
  let page: Page;
  let writer: Writer | undefined;

  beforeAll(async () => {
    db = seededDatabase({ bulk: 600, graph: 20 });
    ui = await openInspector(db.file, { hash: `#/memories/${db.info.mainPartition}`, waitFor: ROW });
    page = ui.page;
  });

  afterEach(onFailure(() => page, 'live-update-'));

  afterAll(async () => {
    await writer?.stop();
    await ui?.close();
    db?.remove();
  });

  it('shows facts written by another process within about a second, keeping selection and scroll', async () => {
    // Scroll a little, open a fact, tick another: all of it must survive the refresh.
    await page.$eval(GRID, (g) => {
      g.scrollTop = 150;
    });
    await page.waitForTimeout(200);
    const rows = await page.$$eval(ROW, (rs) => rs.map((r) => r.getAttribute('data-fact-id') ?? ''));
    const openId = rows[8] ?? '';
    const tickedId = rows[10] ?? '';
    await page.click(`${ROW}[data-fact-id="${openId}"] [role="gridcell"]:nth-child(3)`);
    await page.click(`${ROW}[data-fact-id="${tickedId}"] input[type="checkbox"]`);
    await page.waitForSelector('.fact-detail');
    const scrollBefore = await page.$eval(GRID, (g) => g.scrollTop);
    const labelBefore = (await page.getAttribute('nav[aria-label="Partitions"] button[aria-current="true"]', 'aria-label')) ?? '';
    const factsBefore = Number(/of (\d+) facts/.exec(labelBefore)?.[1]);

    writer = await startWriter(ui?.store.db ?? '');
    const delays: number[] = [];
    for (let i = 1; i <= 3; i++) {
      const text = `live fact ${i} from another process`;
      const { factId, at } = await writer.write(text);
      await page.waitForSelector(`${ROW}[data-fact-id="${factId}"]`, { state: 'attached', timeout: 15_000 });
      delays.push(Date.now() - at);
    }
    console.log(
      `e2e live update: another process's facts appeared in the open table after ${delays.map((d) => `${d} ms`).join(', ')} (server polls data_version, pushes data.changed over SSE, the table re-reads its pages)`,
    );

    const after = await page.evaluate(
      ({ grid, open, ticked }) => {
        const g = document.querySelector(grid) as HTMLElement;
        return {
          scrollTop: g.scrollTop,
          active: g.querySelector('.grid-row.active')?.getAttribute('data-fact-id'),
          tickedSelected: g.querySelector(`[data-fact-id="${ticked}"]`)?.getAttribute('aria-selected'),
          openStillShown: document.querySelector('.fact-detail')?.getAttribute('aria-label') ?? '',
          open,
        };
      },
      { grid: GRID, open: openId, ticked: tickedId },
    );
    expect(after.scrollTop).toBe(scrollBefore);
    expect(after.active).toBe(openId);
    expect(after.tickedSelected).toBe('true');
    expect(after.openStillShown).toMatch(/^Fact /);
    expect(await page.textContent('[data-testid="selection-count"]')).toBe('1 selected');
    await page.waitForFunction(
      (n) => (document.querySelector('nav[aria-label="Partitions"] button[aria-current="true"]')?.getAttribute('aria-label') ?? '').includes(`of ${n} facts`),
      factsBefore + 3,
    );
    expect(await page.textContent('[data-testid="live-indicator"]')).toContain('another process');
    await page.$eval(GRID, (g) => {
      g.scrollTop = 0;
    });
    await page.waitForSelector(`${ROW}:has-text("live fact 3 from another process")`);
    await screenshot(page, 'live-update');
    expect(pageErrors(page)).toEqual([]);
  });

  it('updates the open chain and the review queue when the other process corrects a fact', async () => {
    if (!writer) throw new Error('the writer process is not running');
    const offsite = await writer.write(
      JSON.stringify({
        key: 'team_offsite',
        value: 'Offsite in Lisbon, paid from the Q3 travel budget',
        ts: '2031-02-01T00:00:00.000Z',
        dependsOn: ['q3_budget'],
      }),
    );
    const q3 = await page.evaluate(() => location.hash);
    expect(q3).toContain('#/memories/');
    // Open the budget fact's chain, then let the other process correct the budget.
    await page.fill('input[type="search"]', 'travel budget capped');
    await page.click(`${ROW}:has-text("q3_budget")`);
    await page.click('role=tab[name="Chain"]');
    await page.waitForSelector('[data-testid="chain-svg"] .chain-card');
    expect(await page.$$('[data-testid="chain-svg"] .chain-card')).toHaveLength(1);
    const correction = await writer.write(
      JSON.stringify({
        key: 'q3_budget',
        value: 'Correction: the Q3 travel budget is $35,000',
        ts: '2031-02-02T00:00:00.000Z',
        supersedes: 'q3_budget',
        source: { type: 'user', identity: 'ana', authority: 'manager' },
      }),
    );
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="chain-svg"] .chain-card').length === 2, undefined, { timeout: 15_000 });
    console.log(`e2e live update: the open chain showed the other process's correction ${Date.now() - correction.at} ms after its commit`);
    await screenshot(page, 'live-update-chain');

    await page.keyboard.press('2');
    await page.waitForSelector(`.review-card[data-fact-id="${offsite.factId}"]`, { timeout: 15_000 });
    expect(await page.textContent(`.review-card[data-fact-id="${offsite.factId}"]`)).toContain('Upstream change: q3_budget');
    expect(await page.textContent('[data-testid="review-total"]')).toBe('4 facts need review');
    await screenshot(page, 'live-update-review');
  });
});
