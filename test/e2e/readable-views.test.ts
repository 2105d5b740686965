// End to end on a `statelens demo` database, at 1280×720 and 1920×1080 in light and dark: keys
// give way in the middle (the distinguishing tail stays, the full key on hover), the detail pane
// never scrolls sideways, chain steps name versions by value and speaker with each reason said
// once, status badges are never cut and in time travel say how things stood then, and the
// dependency graph as a full view beside the fact's detail (fitted whenever the neighbourhood
// changes, the full size of a cut-short neighbourhood, a dragged node pinned without re-layout,
// tooltips that say "valid"). The canvas at 2,000 nodes prints pan and drag frame times and the
// time to open a 200-node neighbourhood (printed, never asserted).
import Database from 'better-sqlite3';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { GraphCanvasProbe, ProbedNode } from '../../renderer/graph/canvas-hit';
import { chromiumMissing, pageErrors, screenshot, screenshotBothSchemes } from './helpers/browser';
import { demoDatabase, type DemoDatabase } from './helpers/demo';
import { frameLine, probe, PROBE_KEY, settled, startFrameGaps, stopFrameGaps, SURFACE, surfaceBox } from './helpers/graph';
import { openInspector, onFailure, type Inspector } from './helpers/inspector';

const missing = chromiumMissing();
if (missing) console.log(`e2e readable views skipped: ${missing}`);

const DEMO_FACTS = 12_000;
const GRID = '[role="grid"][aria-label="Memories"]';
const WINDOWS = [
  [1280, 720],
  [1920, 1080],
] as const;

interface Ids {
  web: number;
  budget: string;
  flaggedForecast: string;
  /** A key and its `_corrected` twin in one partition. */
  twin: { partition: number; key: string; corrected: string };
  /** A version superseded by a higher authority, and the version that replaced it. */
  outranked: { partition: number; old: string; head: string; oldTs: string; headTs: string };
}

function findIds(file: string): Ids {
  const db = new Database(file, { readonly: true });
  try {
    const one = <T>(sql: string, ...args: unknown[]): T => {
      const row = db.prepare(sql).get(...args) as T | undefined;
      if (row === undefined) throw new Error(`demo database: nothing for ${sql}`);
      return row;
    };
    const web = one<{ id: number }>("SELECT id FROM partitions WHERE org_id = 'northwind' AND kind = 'organizational'").id;
    const idOf = (key: string) =>
      one<{ id: string }>("SELECT id FROM facts WHERE partition_id = ? AND key = ? AND status = 'active' ORDER BY ts LIMIT 1", web, key).id;
    const twin = one<{ partition: number; key: string; corrected: string }>(
      `SELECT a.partition_id AS partition, a.key AS key, b.key AS corrected FROM facts a JOIN facts b ON b.partition_id = a.partition_id AND b.key = a.key || '_corrected'
       WHERE length(a.key) > 18 ORDER BY length(a.key) DESC LIMIT 1`,
    );
    const outranked = one<{ partition: number; old: string; head: string; oldTs: string; headTs: string }>(
      `SELECT f.partition_id AS partition, f.id AS old, g.id AS head, f.ts AS oldTs, g.ts AS headTs FROM facts f JOIN facts g ON g.id = f.superseded_by
       WHERE f.supersession_rule = 'authority' AND f.supersession_reason LIKE '%) outranks %' AND g.is_valid = 1 AND g.ts > f.ts ORDER BY f.ts LIMIT 1`,
    );
    return { web, budget: idOf('plan.atlas.budget'), flaggedForecast: idOf('forecast.atlas.fleet.spend'), twin, outranked };
  } finally {
    db.close();
  }
}

/** Nodes drawn inside the graph's surface, of all nodes. */
async function nodesInView(page: Page): Promise<{ inside: number; all: number }> {
  const box = await surfaceBox(page);
  const nodes = await probe.nodes(page);
  const inside = nodes.filter((n) => n.x >= box.x && n.x <= box.x + box.width && n.y >= box.y && n.y <= box.y + box.height).length;
  return { inside, all: nodes.length };
}

describe.skipIf(missing !== undefined)('readable views and the graph as a full view, in Chromium', () => {
  let demo: DemoDatabase | undefined;
  let ids: Ids;
  let ui: Inspector | undefined;
  let base: string;
  let page: Page;

  const go = async (hash: string, ready: string, [w, h]: readonly [number, number] = [1280, 720]) => {
    await page.setViewportSize({ width: w, height: h });
    await page.goto(`${base}${hash}`);
    await page.reload();
    await page.waitForSelector(ready);
  };

  beforeAll(async () => {
    demo = demoDatabase(DEMO_FACTS, 'readable');
    ids = findIds(demo.file);
    ui = await openInspector(demo.file, { waitFor: GRID });
    ({ page, base } = ui);
  });

  afterEach(onFailure(() => page, 'readable-'));

  afterAll(async () => {
    await ui?.close();
    demo?.remove();
  });

  it('keys give way in the middle: the distinguishing tail stays, the full key is on hover', async () => {
    for (const size of WINDOWS) {
      await go(`#/memories/${ids.twin.partition}`, GRID, size);
      await page.fill('role=searchbox[name="Search memories"]', ids.twin.key);
      await page.waitForFunction((key) => document.querySelectorAll(`.key-text[data-key-text="${key}_corrected"]`).length > 0, ids.twin.key);
      // Narrow the key column step by step from its narrowest (about 280 px on the default font):
      // at some width the long keys are cut in their head while the shorter one's tail fits whole.
      // The exact width depends on the font and the search's marks, so it is found, not assumed.
      await page.focus('[role="separator"][aria-label="Key column width"]');
      await page.keyboard.press('Home');
      const measure = () =>
        page.$$eval(`${GRID} .key-text`, (els) =>
          els.map((el) => {
            const head = el.querySelector('.key-text-head') as HTMLElement | null;
            const tail = el.querySelector('.key-text-tail') as HTMLElement;
            return {
              key: el.getAttribute('data-key-text') ?? '',
              title: el.getAttribute('title') ?? '',
              headCut: !!head && head.scrollWidth > head.clientWidth + 1,
              headEllipsis: !!head && getComputedStyle(head).textOverflow === 'ellipsis',
              tail: tail.textContent ?? '',
              tailWhole: tail.scrollWidth <= tail.clientWidth + 1,
              // A tail cut too keeps its end: its ellipsis comes first.
              tailKeepsEnd: getComputedStyle(tail).direction === 'rtl',
              // Fits in its cell: nothing is cut off without an ellipsis.
              fits: el.getBoundingClientRect().right <= (el.closest('[role="gridcell"]')?.getBoundingClientRect().right ?? 0) + 1,
            };
          }),
        );
      let cut = await measure();
      for (let i = 0; i < 60 && !cut.some((c) => c.key.startsWith(ids.twin.key) && c.headCut && c.tailWhole); i++) {
        await page.keyboard.press('ArrowRight');
        cut = await measure();
      }
      const twins = cut.filter((c) => c.key.startsWith(ids.twin.key));
      expect(twins.length).toBeGreaterThan(1);
      expect(
        twins.some((c) => c.headCut && c.tailWhole),
        JSON.stringify(twins),
      ).toBe(true);
      for (const c of twins) {
        expect(c.title).toBe(c.key);
        if (c.headCut) expect(c.headEllipsis).toBe(true);
        if (!c.tailWhole) expect(c.tailKeepsEnd, c.key).toBe(true);
        expect(c.key.endsWith(c.tail)).toBe(true);
        expect(c.fits).toBe(true);
      }
      // The two keys read apart: their visible tails differ.
      expect(new Set(twins.map((c) => c.tail)).size).toBeGreaterThan(1);
      await screenshotBothSchemes(page, `readable-keys-${size[0]}`);
      await page.dblclick('[role="separator"][aria-label="Key column width"]');
    }
    expect(pageErrors(page)).toEqual([]);
  });

  it('the detail pane never scrolls sideways and status badges are never cut', async () => {
    for (const size of WINDOWS) {
      for (const fact of [ids.flaggedForecast, ids.outranked.old]) {
        const partition = fact === ids.flaggedForecast ? ids.web : ids.outranked.partition;
        await go(`#/memories/${partition}/${fact}`, '.fact-detail', size);
        await page.waitForSelector('.fact-detail [aria-label="Derived facts"]');
        const sideways = await page.$$eval('.fact-panel .tab-panel, .fact-panel .tab-panel *', (els) =>
          els.flatMap((el) => {
            if (!(el instanceof HTMLElement)) return [];
            const s = getComputedStyle(el);
            if (!/(auto|scroll)/.test(s.overflowX) || el.scrollWidth <= el.clientWidth + 1) return [];
            return [`${el.className}: ${el.scrollWidth} > ${el.clientWidth}`];
          }),
        );
        expect(sideways, `${size[0]} ${fact}`).toEqual([]);
        // Status badges (other badges in a narrow cell may give way with an ellipsis).
        const clipped = await page.$$eval('.app :is(.badge-valid, .badge-superseded, .badge-proposal)', (els) =>
          els.filter((b) => (b as HTMLElement).scrollWidth > (b as HTMLElement).clientWidth + 1).map((b) => b.textContent ?? ''),
        );
        expect(clipped).toEqual([]);
      }
      await screenshotBothSchemes(page, `readable-detail-${size[0]}`);
    }
  });

  it('chain steps name versions by value and speaker, say each reason once and show unrelated values on two lines', async () => {
    for (const size of WINDOWS) {
      await go(`#/memories/${ids.outranked.partition}/${ids.outranked.head}?tab=chain`, '.chain-steps', size);
      const steps = await page.$$eval('.chain-step', (ls) =>
        ls.map((l) => ({
          route: l.querySelector('.chain-step-route')?.textContent ?? '',
          reason: l.querySelector('.chain-step-reason')?.textContent ?? '',
          twoLines: l.querySelector('.chain-step-replaced') !== null,
          del: l.querySelector('del')?.textContent ?? '',
          ins: l.querySelector('ins')?.textContent ?? '',
        })),
      );
      expect(steps.length).toBeGreaterThan(0);
      for (const s of steps) {
        expect(s.route).toMatch(/“[^”]+” \([^)]+\)/);
        expect(s.route).not.toMatch(/\d{4}-\d\d-\d\d \d\d:\d\d/);
        expect(s.reason).not.toMatch(/\b([\w-]+) \(\1\)/);
        expect(s.reason).not.toMatch(/\d{4}-\d\d-\d\dT/);
        if (s.twoLines) expect(s.del.length * s.ins.length).toBeGreaterThan(0);
      }
      expect(steps.some((s) => / outranks /.test(s.reason))).toBe(true);
      // Cards show the value (or what changed), never a key line cut off.
      const cards = await page.$$eval('[data-testid="chain-svg"] .chain-card', (cs) =>
        cs.map((c) => [...c.querySelectorAll('.chain-card-value')].map((t) => t.textContent ?? '').join(' ')),
      );
      expect(cards.every((c) => c.trim().length > 0)).toBe(true);
      await page.$eval('.chain-steps', (el) => {
        const panel = el.closest('.tab-panel');
        if (panel) panel.scrollTop += el.getBoundingClientRect().top - panel.getBoundingClientRect().top - 8;
      });
      await screenshotBothSchemes(page, `readable-chain-steps-${size[0]}`);
    }
  });

  it('in time travel every badge says how things stood then (header, links, chain, graph)', async () => {
    const mid = new Date((Date.parse(ids.outranked.oldTs) + Date.parse(ids.outranked.headTs)) / 2).toISOString();
    const typed = mid.slice(0, 16).replace('T', ' ');
    for (const size of WINDOWS) {
      await go(`#/memories/${ids.outranked.partition}/${ids.outranked.old}`, '.fact-detail', size);
      await page.click('button[aria-label="Time travel"]');
      await page.fill('input[aria-label="As of (UTC)"]', typed);
      await page.waitForSelector('[data-testid="fact-asof"][data-state="valid"]');
      // The date field reads in the app's 24-hour format.
      expect(await page.inputValue('input[aria-label="As of (UTC)"]')).toBe(typed);
      expect(await page.textContent('.fact-detail header .badge')).toBe('valid then');
      await page.click('role=tab[name="Chain"]');
      await page.waitForSelector('[data-testid="chain-svg"] .chain-card');
      const statuses = await page.$$eval('[data-testid="chain-svg"] .chain-card', (cs) =>
        Object.fromEntries(cs.map((c) => [c.getAttribute('data-fact-id') ?? '', c.querySelector('.chain-card-status')?.textContent ?? ''])),
      );
      expect(statuses[ids.outranked.old]).toBe('valid then');
      expect(statuses[ids.outranked.head]).toBe('not yet written then');
      await screenshotBothSchemes(page, `readable-time-travel-chain-${size[0]}`);
    }
    // The graph: nodes coloured and named as they stood then.
    await go(`#/graph/${ids.web}/${ids.flaggedForecast}`, '[data-testid="graph-stats"]');
    await page.click('button[aria-label="Time travel"]');
    await page.fill('input[aria-label="As of (UTC)"]', '2020-01-01 00:00');
    await page.waitForFunction(() => /as of the time-travel instant/.test(document.querySelector('[data-testid="graph-stats"]')?.textContent ?? ''));
    await page.click('.graph-list summary');
    const listed = await page.$$eval('.graph-node-list li .faint', (ls) => ls.map((l) => l.textContent ?? ''));
    expect(listed.length).toBeGreaterThan(3);
    expect(listed.every((l) => / then/.test(l))).toBe(true);
    await screenshotBothSchemes(page, 'readable-time-travel-graph');
    await page.click('button[aria-label="Now (leave time travel)"]');
  });

  it('the graph as a full view beside the fact, fitted on every change of neighbourhood, its full size when cut short', async () => {
    for (const size of WINDOWS) {
      await go(`#/graph/${ids.web}/${ids.flaggedForecast}`, '[data-testid="graph-svg"]', size);
      await settled(page);
      const layout = await page.evaluate(() => {
        const g = document.querySelector('.graph-full-main')?.getBoundingClientRect();
        const d = document.querySelector('.graph-full-detail')?.getBoundingClientRect();
        return {
          graph: g?.width ?? 0,
          detail: d?.width ?? 0,
          side: (d?.left ?? 0) >= (g?.right ?? 0) - 1,
          key: document.querySelector('.graph-full-detail .fact-key')?.textContent,
        };
      });
      expect(layout.side).toBe(true);
      expect(layout.graph).toBeGreaterThan(layout.detail);
      expect(layout.key).toBe('forecast.atlas.fleet.spend');
      let view = await nodesInView(page);
      expect(view.inside).toBe(view.all);
      await screenshotBothSchemes(page, `graph-full-view-${size[0]}`, () => settled(page));

      // Zoomed far in (most nodes out of view), then other hops: the new neighbourhood is fitted.
      const box = await page.$eval(SURFACE, (s) => s.getBoundingClientRect().toJSON() as { x: number; y: number; width: number; height: number });
      await page.mouse.move(box.x + 20, box.y + 20);
      for (let i = 0; i < 10; i++) await page.mouse.wheel(0, -300);
      await page.waitForTimeout(300);
      view = await nodesInView(page);
      expect(view.inside).toBeLessThan(view.all);
      await page.selectOption('select:near(:text("Neighbourhood"))', '1');
      await page.waitForFunction(() => !/refreshing/.test(document.querySelector('[data-testid="graph-stats"]')?.textContent ?? ''));
      await settled(page);
      view = await nodesInView(page);
      expect(view.inside).toBe(view.all);
      await screenshot(page, `graph-full-view-refitted-${size[0]}-light`);
    }

    // Cut short by the limit: the whole neighbourhood's size is said.
    await go(`#/graph/${ids.web}/${ids.budget}`, '[data-testid="graph-stats"]');
    await page.selectOption('select:near(:text("Limit"))', '200');
    await page.selectOption('select:near(:text("Neighbourhood"))', '3');
    await page.waitForFunction(
      () => /showing 200 of [\d,]+ facts within 3 hops/.test(document.querySelector('[data-testid="graph-stats"]')?.textContent ?? ''),
      undefined,
      {
        timeout: 60_000,
      },
    );
    const stats = (await page.textContent('[data-testid="graph-stats"]')) ?? '';
    const full = Number(/of ([\d,]+) facts/.exec(stats)?.[1]?.replace(/,/g, '') ?? 0);
    expect(full).toBeGreaterThan(200);
    await screenshotBothSchemes(page, 'graph-full-view-truncated', () => settled(page));
    expect(pageErrors(page)).toEqual([]);
  });

  it('a small neighbourhood is fitted to fill a good part of the view, not left small in the middle', async () => {
    for (const size of WINDOWS) {
      await go(`#/graph/${ids.web}/${ids.flaggedForecast}?hops=1`, '[data-testid="graph-svg"]', size);
      await settled(page);
      const box = await surfaceBox(page);
      const nodes = await probe.nodes(page);
      const xs = nodes.map((n) => n.x);
      const ys = nodes.map((n) => n.y);
      // The larger of the two spans, as a share of the view in that direction.
      const share = Math.max((Math.max(...xs) - Math.min(...xs)) / box.width, (Math.max(...ys) - Math.min(...ys)) / box.height);
      const zoom = (await probe.frame(page))?.zoom ?? 0;
      console.log(`e2e graph fit at ${size[0]}×${size[1]}: ${nodes.length} nodes span ${(share * 100).toFixed(0)}% of the view at ${zoom.toFixed(2)}x`);
      expect(nodes.length).toBeLessThan(40);
      expect(share).toBeGreaterThan(0.3);
      expect((await nodesInView(page)).inside).toBe(nodes.length);
      await screenshotBothSchemes(page, `graph-small-fitted-${size[0]}`, () => settled(page));
    }
  });

  it('a dragged node is pinned and the rest stays put; tooltips say "valid"', async () => {
    await go(`#/graph/${ids.web}/${ids.flaggedForecast}`, '[data-testid="graph-svg"]', [1920, 1080]);
    await settled(page);
    const before = new Map((await probe.nodes(page)).map((n) => [n.id, n]));
    const box = await page.$eval(SURFACE, (s) => s.getBoundingClientRect().toJSON() as { x: number; y: number; width: number; height: number });
    const target = [...before.values()].find(
      (n) => n.id !== ids.flaggedForecast && n.x > box.x + 80 && n.x < box.x + box.width - 200 && n.y > box.y + 80 && n.y < box.y + box.height - 160,
    );
    if (!target) throw new Error('no node to drag');
    // Hovering names the node's status in the app's words.
    await page.mouse.move(target.x, target.y);
    await page.waitForSelector('[data-testid="graph-tip"]:not([hidden])');
    const tip = (await page.textContent('[data-testid="graph-tip"]')) ?? '';
    expect(tip).toMatch(/\((valid|superseded|proposal|expired)[,)]/);
    expect(tip).not.toMatch(/\bactive\b/);
    const title = await page.$eval(`[data-testid="graph-svg"] .graph-node[data-fact-id="${target.id}"] title`, (t) => t.textContent ?? '');
    expect(title).not.toMatch(/\nactive\b/);
    await screenshot(page, 'graph-tooltip-valid-light');

    await page.mouse.down();
    for (let i = 1; i <= 10; i++) await page.mouse.move(target.x + i * 10, target.y + i * 6);
    await page.mouse.up();
    await settled(page);
    await page.waitForTimeout(500);
    const after = new Map((await probe.nodes(page)).map((n) => [n.id, n]));
    const moved = after.get(target.id);
    expect(Math.hypot((moved?.x ?? 0) - (target.x + 100), (moved?.y ?? 0) - (target.y + 60))).toBeLessThan(3);
    let others = 0;
    for (const [id, n] of before) {
      if (id === target.id) continue;
      const a = after.get(id);
      expect(Math.hypot((a?.x ?? 0) - n.x, (a?.y ?? 0) - n.y), `node ${id} moved`).toBeLessThan(1);
      others++;
    }
    expect(others).toBeGreaterThan(5);
    await screenshotBothSchemes(page, 'graph-dragged-pinned', () => settled(page));
  });

  it('benchmark: 2,000-node canvas pan and drag frame times, and opening a 200-node 2-hop neighbourhood (printed)', async () => {
    await go(`#/graph/${ids.web}/${ids.budget}`, '[data-testid="graph-stats"]');
    // Opening a 2-hop neighbourhood of 200 nodes: from the change to the first frame that draws it.
    // A limit not asked for before, so nothing of the 2-hop answer is cached.
    await page.selectOption('select:near(:text("Neighbourhood"))', '1');
    await page.selectOption('select:near(:text("Limit"))', '500');
    await page.waitForSelector(SURFACE);
    await page.waitForFunction(() => /^\d+ facts/.test(document.querySelector('[data-testid="graph-stats"]')?.textContent ?? ''));
    await settled(page);
    const opened = (await page.evaluate(
      ([sel, key]) =>
        new Promise<{ ms: number; nodes: number }>((resolve, reject) => {
          const select = [...document.querySelectorAll('select')].find((s) => [...s.options].some((o) => o.textContent === '2 hops')) as HTMLSelectElement;
          const surface = () => (document.querySelector(sel) as unknown as Record<symbol, GraphCanvasProbe> | null)?.[Symbol.for(key)];
          const before = surface()?.lastFrame()?.nodes ?? -1;
          const t0 = performance.now();
          select.value = '2';
          select.dispatchEvent(new Event('change', { bubbles: true }));
          const poll = () => {
            const f = surface()?.lastFrame();
            if (f && f.nodes !== before) resolve({ ms: performance.now() - t0, nodes: f.nodes });
            else if (performance.now() - t0 > 30_000) reject(new Error('the 2-hop neighbourhood was never drawn'));
            else requestAnimationFrame(poll);
          };
          requestAnimationFrame(poll);
        }),
      [SURFACE, PROBE_KEY] as const,
    )) as { ms: number; nodes: number };
    console.log(`e2e graph: opening a 2-hop neighbourhood of ${opened.nodes} nodes took ${opened.ms.toFixed(0)} ms to its first frame (target ≤ 300 ms)`);
    expect(opened.nodes).toBeGreaterThan(50);

    await page.selectOption('select:near(:text("Limit"))', '2000');
    await page.selectOption('select:near(:text("Neighbourhood"))', '3');
    await page.waitForFunction(
      () => /^2,000 facts, [\d,]+ edges · canvas/.test(document.querySelector('[data-testid="graph-stats"]')?.textContent ?? ''),
      undefined,
      {
        timeout: 120_000,
      },
    );
    await settled(page);
    const f0 = await probe.frame(page);
    expect(f0?.nodes).toBe(2000);
    const box = await page.$eval(
      '[data-testid="graph-canvas"]',
      (s) => s.getBoundingClientRect().toJSON() as { x: number; y: number; width: number; height: number },
    );
    const cx = box.x + box.width / 2;
    const cy = box.y + box.height / 2;

    // Pan: drag the background (a point no node is under) around a circle.
    let start = { x: box.x + 12, y: box.y + box.height - 12 };
    for (const p of [
      [box.x + 12, box.y + box.height - 12],
      [box.x + box.width - 12, box.y + 12],
      [box.x + 12, box.y + 12],
    ] as const) {
      if (!(await probe.nodeAt(page, p[0], p[1]))) {
        start = { x: p[0], y: p[1] };
        break;
      }
    }
    await startFrameGaps(page);
    await page.mouse.move(start.x, start.y);
    await page.mouse.down();
    for (let i = 1; i <= 120; i++) await page.mouse.move(start.x + Math.sin(i / 10) * 160, start.y - (1 - Math.cos(i / 10)) * 80, { steps: 1 });
    await page.mouse.up();
    const pan = await stopFrameGaps(page);
    console.log(frameLine('e2e graph pan at 2,000 nodes (canvas)', pan));
    await settled(page);

    const near = (await probe.nodes(page)).filter((n) => n.id !== ids.budget).sort((a, b) => Math.hypot(a.x - cx, a.y - cy) - Math.hypot(b.x - cx, b.y - cy));
    let grab: ProbedNode | undefined;
    for (const c of near.slice(0, 40)) {
      if ((await probe.nodeAt(page, c.x, c.y)) === c.id) {
        grab = c;
        break;
      }
    }
    if (!grab) throw new Error('no node near the centre can be grabbed');
    await startFrameGaps(page);
    await page.mouse.move(grab.x, grab.y);
    await page.mouse.down();
    for (let i = 1; i <= 120; i++) await page.mouse.move(grab.x + Math.sin(i / 10) * 160, grab.y + (1 - Math.cos(i / 10)) * 80, { steps: 1 });
    await page.mouse.up();
    const drag = await stopFrameGaps(page);
    console.log(frameLine('e2e graph drag of one node at 2,000 nodes (canvas)', drag));
    await screenshotBothSchemes(page, 'graph-2000-full-view', () => settled(page));
    expect(pan.length).toBeGreaterThan(10);
    expect(drag.length).toBeGreaterThan(10);
    expect(pageErrors(page)).toEqual([]);
  });
});
