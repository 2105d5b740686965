// End to end on a `statelens demo` database (made by the CLI, as a user would): the supersession
// chain (late versions in their own lane, no arrow behind a card, no hidden label, labels that
// say what happened with the full reason and the value diff, scrolled to the selection) and the
// dependency graph (directed edges with arrowheads named on hover, the upstream change with its
// new value, a needs_review ring that stays visible, draggable nodes, labels beside their node,
// zoom that reveals detail, and the canvas at 2,000 nodes with frame times printed while a node
// is dragged). Screenshots in light and dark themes go to test-results/screenshots/.
import Database from 'better-sqlite3';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SVG_NODE_LIMIT, type ProbedNode } from '../../renderer/graph/canvas-hit';
import { CARD_H, CARD_W, segmentCrossesBox } from '../../renderer/chain/layout';
import { readableReason } from '../../renderer/chain/readable';
import { unnamedControls } from './helpers/accessibility';
import { chromiumMissing, pageErrors, screenshot, screenshotBothSchemes } from './helpers/browser';
import { demoDatabase, type DemoDatabase } from './helpers/demo';
import { frameLine, probe, settled, startFrameGaps, stopFrameGaps } from './helpers/graph';
import { openInspector, onFailure, type Inspector } from './helpers/inspector';

const missing = chromiumMissing();
if (missing) console.log(`e2e chain and graph skipped: ${missing}`);

const DEMO_FACTS = 12_000;

interface Ids {
  /** Partition and head of a chain with versions that arrived late. */
  late: { partition: number; head: string; key: string; lateReasons: string[] };
  /** The head of the longest chain (taller than the panel). */
  long: { partition: number; head: string; first: string; versions: number };
  /** The organisation partition with the dependency web. */
  web: number;
  budget: string;
  flaggedForecast: string;
  fleetAllocationOld: string;
  reviewInBudgetHood: number;
}

function findIds(file: string): Ids {
  const db = new Database(file, { readonly: true });
  try {
    const one = <T>(sql: string, ...args: unknown[]): T => {
      const row = db.prepare(sql).get(...args) as T | undefined;
      if (row === undefined) throw new Error(`demo database: nothing for ${sql}`);
      return row;
    };
    const lateKey = one<{ partition_id: number; key: string }>(
      `SELECT partition_id, key FROM facts WHERE status != 'proposal' GROUP BY partition_id, key
       HAVING sum(supersession_reason LIKE 'arrived late%') >= 1 AND count(*) BETWEEN 4 AND 8 AND sum(is_valid) = 1
       ORDER BY sum(supersession_reason LIKE 'arrived late%') DESC, count(*) DESC, partition_id, key LIMIT 1`,
    );
    const lateHead = one<{ id: string }>('SELECT id FROM facts WHERE partition_id = ? AND key = ? AND is_valid = 1', lateKey.partition_id, lateKey.key);
    const lateReasons = db
      .prepare("SELECT supersession_reason FROM facts WHERE partition_id = ? AND key = ? AND supersession_reason LIKE 'arrived late%' ORDER BY ts")
      .pluck()
      .all(lateKey.partition_id, lateKey.key) as string[];
    const longKey = one<{ partition_id: number; key: string; n: number }>(
      `SELECT partition_id, key, count(*) AS n FROM facts WHERE status != 'proposal' GROUP BY partition_id, key HAVING sum(is_valid) = 1 ORDER BY n DESC, partition_id, key LIMIT 1`,
    );
    const longHead = one<{ id: string }>('SELECT id FROM facts WHERE partition_id = ? AND key = ? AND is_valid = 1', longKey.partition_id, longKey.key);
    const longFirst = one<{ id: string }>(
      "SELECT id FROM facts WHERE partition_id = ? AND key = ? AND status != 'proposal' ORDER BY ts LIMIT 1",
      longKey.partition_id,
      longKey.key,
    );
    const web = one<{ id: number }>("SELECT id FROM partitions WHERE org_id = 'northwind' AND kind = 'organizational'").id;
    const idOf = (key: string, valid = true) =>
      one<{ id: string }>(
        `SELECT id FROM facts WHERE partition_id = ? AND key = ? AND status ${valid ? "= 'active'" : "= 'superseded'"} ORDER BY ts LIMIT 1`,
        web,
        key,
      ).id;
    return {
      late: { partition: lateKey.partition_id, head: lateHead.id, key: lateKey.key, lateReasons },
      long: { partition: longKey.partition_id, head: longHead.id, first: longFirst.id, versions: longKey.n },
      web,
      budget: idOf('plan.atlas.budget'),
      flaggedForecast: idOf('forecast.atlas.fleet.spend'),
      fleetAllocationOld: idOf('plan.atlas.fleet.allocation', false),
      reviewInBudgetHood: one<{ n: number }>('SELECT count(*) AS n FROM facts WHERE partition_id = ? AND needs_review = 1', web).n,
    };
  } finally {
    db.close();
  }
}

describe.skipIf(missing !== undefined)('supersession chain and dependency graph on a demo database, in Chromium', () => {
  let demo: DemoDatabase | undefined;
  let ids: Ids;
  let ui: Inspector | undefined;
  let base: string;
  let page: Page;

  const open = async (partition: number, fact: string, tab: 'Chain' | 'Graph') => {
    // A fresh load, so the panel opens afresh (and scrolls itself) whatever was open before.
    await page.goto(`${base}#/memories/${partition}/${fact}`);
    await page.reload();
    await page.waitForSelector('.fact-panel');
    await page.click(`role=tab[name="${tab}"]`);
  };
  const both = (name: string, ready: () => Promise<void>) =>
    screenshotBothSchemes(page, name, async () => {
      // The canvas re-reads its colours on the next tick after the theme changed.
      await page.waitForTimeout(150);
      await ready();
    });

  beforeAll(async () => {
    demo = demoDatabase(DEMO_FACTS, 'graph');
    ids = findIds(demo.file);
    ui = await openInspector(demo.file, { waitFor: '[role="grid"][aria-label="Memories"]' });
    ({ page, base } = ui);
  });

  afterEach(onFailure(() => page, 'chain-graph-'));

  afterAll(async () => {
    await ui?.close();
    demo?.remove();
  });

  it('chain: a late version has its own lane, no arrow passes behind a card and no label is hidden', async () => {
    await open(ids.late.partition, ids.late.head, 'Chain');
    await page.waitForSelector('[data-testid="chain-svg"] .chain-card');
    const late = await page.$$eval('[data-testid="chain-svg"] .chain-card[data-kind="late"]', (cs) => cs.length);
    expect(late).toBe(ids.late.lateReasons.length);
    const geometry = await page.$eval('[data-testid="chain-svg"]', (svg) => {
      const xy = (el: Element) => {
        const m = /translate\(([-\d.]+),([-\d.]+)\)/.exec(el.getAttribute('transform') ?? '');
        return { x: Number(m?.[1] ?? NaN), y: Number(m?.[2] ?? NaN) };
      };
      const cards = [...svg.querySelectorAll('.chain-card')].map((c) => ({
        id: c.getAttribute('data-fact-id') ?? '',
        kind: c.getAttribute('data-kind') ?? '',
        ...xy(c),
      }));
      const arrows = [...svg.querySelectorAll('.chain-arrow path')].map((p) =>
        [...(p.getAttribute('d') ?? '').matchAll(/[ML]\s*([-\d.]+)[ ,]([-\d.]+)/g)].map((m) => ({ x: Number(m[1]), y: Number(m[2]) })),
      );
      // A label is visible when the element drawn at the centre of its text is part of it.
      const labels = [...svg.querySelectorAll('.chain-label')].map((g) => {
        const text = g.querySelector('text');
        const r = (text ?? g).getBoundingClientRect();
        const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
        return { text: text?.textContent ?? '', onTop: !!top && g.contains(top), width: r.width };
      });
      return { cards, arrows, labels };
    });
    const laneX = new Set(geometry.cards.filter((c) => c.kind === 'version').map((c) => c.x));
    expect(laneX.size).toBe(1);
    for (const c of geometry.cards.filter((k) => k.kind === 'late')) expect(c.x).toBeGreaterThanOrEqual(([...laneX][0] as number) + CARD_W);
    expect(geometry.arrows.length).toBeGreaterThan(0);
    for (const [i, pts] of geometry.arrows.entries()) {
      for (let s = 1; s < pts.length; s++) {
        for (const c of geometry.cards) {
          expect(
            segmentCrossesBox(pts[s - 1] as { x: number; y: number }, pts[s] as { x: number; y: number }, { x: c.x, y: c.y, w: CARD_W, h: CARD_H }),
            `arrow ${i + 1} passes behind card ${c.id}`,
          ).toBe(false);
        }
      }
    }
    // Scroll each label into view before asking what is drawn at its centre.
    for (let i = 0; i < geometry.labels.length; i++) {
      await page.$$eval('[data-testid="chain-svg"] .chain-label', (ls, n) => ls[n]?.scrollIntoView({ block: 'nearest', inline: 'nearest' }), i);
      const onTop = await page.$$eval(
        '[data-testid="chain-svg"] .chain-label',
        (ls, n) => {
          const g = ls[n];
          const r = (g?.querySelector('text') ?? g)?.getBoundingClientRect();
          if (!g || !r) return false;
          const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
          return !!top && g.contains(top);
        },
        i,
      );
      expect(onTop, `label "${geometry.labels[i]?.text}" is hidden`).toBe(true);
    }
    // Back to where the app put it (the selected version in view), then a picture of each theme.
    await open(ids.late.partition, ids.late.head, 'Chain');
    await both('chain-late-lane', () => page.waitForSelector('[data-testid="chain-svg"] .chain-card[data-kind="late"]').then(() => undefined));
    expect(pageErrors(page)).toEqual([]);
  });

  it('chain: each arrow says what happened, with the full reason and the value diff', async () => {
    await open(ids.late.partition, ids.late.head, 'Chain');
    await page.waitForSelector('.chain-steps');
    const steps = await page.$$eval('.chain-step', (ls) =>
      ls.map((l) => ({
        kind: [...l.classList].find((c) => c.startsWith('chain-step-'))?.replace('chain-step-', '') ?? '',
        head: l.querySelector('.chain-step-head')?.textContent ?? '',
        reason: l.querySelector('.chain-step-reason')?.textContent ?? '',
        del: l.querySelector('del')?.textContent ?? '',
        ins: l.querySelector('ins')?.textContent ?? '',
      })),
    );
    const lateSteps = steps.filter((s) => s.reason.startsWith('arrived late'));
    expect(lateSteps.map((s) => s.reason).sort()).toEqual(ids.late.lateReasons.map(readableReason).sort());
    for (const s of lateSteps) {
      expect(s.kind).toBe('late');
      expect(s.head).toContain('arrived late');
      expect(s.head).not.toContain('newer time');
      expect(s.del.length + s.ins.length).toBeGreaterThan(0);
    }
    // The arrow labels in the diagram agree with the steps below it.
    const labels = await page.$$eval('[data-testid="chain-svg"] .chain-label text', (ts) => ts.map((t) => t.textContent ?? ''));
    expect(labels.filter((l) => l.includes('arrived late'))).toHaveLength(lateSteps.length);
    for (const s of steps.filter((x) => x.reason.startsWith('newer timestamp'))) expect(s.head).toContain('newer time');
    await page.$eval('.chain-steps', (el) => {
      const panel = el.closest('.tab-panel');
      if (panel) panel.scrollTop += el.getBoundingClientRect().top - panel.getBoundingClientRect().top - 8;
    });
    await both('chain-steps', async () => {
      await page.waitForSelector('.chain-step del, .chain-step ins');
    });
  });

  it('chain: scrolls to the selected version', async () => {
    expect(ids.long.versions).toBeGreaterThanOrEqual(8);
    const visible = (id: string) =>
      page.$eval(`[data-testid="chain-svg"] .chain-card[data-fact-id="${id}"]`, (card) => {
        const r = card.getBoundingClientRect();
        let el: Element | null = card.parentElement;
        let box = { top: 0, bottom: window.innerHeight };
        while (el) {
          const s = getComputedStyle(el);
          if (/(auto|scroll)/.test(s.overflowY) && el.scrollHeight > el.clientHeight) {
            const b = el.getBoundingClientRect();
            box = { top: Math.max(box.top, b.top), bottom: Math.min(box.bottom, b.bottom) };
          }
          el = el.parentElement;
        }
        return r.top >= box.top - 1 && r.bottom <= box.bottom + 1;
      });
    await open(ids.long.partition, ids.long.head, 'Chain');
    await page.waitForSelector(`[data-testid="chain-svg"] .chain-card[data-fact-id="${ids.long.head}"]`);
    await page.waitForFunction(
      (id) => document.querySelector(`[data-testid="chain-svg"] .chain-card[data-fact-id="${id}"]`)?.classList.contains('selected'),
      ids.long.head,
    );
    await page.waitForTimeout(300);
    expect(await visible(ids.long.head), 'the newest version, at the bottom of a long chain, is in view').toBe(true);
    await page.click(`[data-testid="chain-svg"] .chain-card[data-fact-id="${ids.long.head}"]`);
    // Select the oldest through a link to its chain (a fact link without ?tab= opens Detail): the chain scrolls back up to it.
    await page.goto(`${base}#/memories/${ids.long.partition}/${ids.long.first}?tab=chain`);
    await page.waitForFunction(
      (id) => document.querySelector(`[data-testid="chain-svg"] .chain-card[data-fact-id="${id}"]`)?.classList.contains('selected'),
      ids.long.first,
    );
    await page.waitForTimeout(300);
    expect(await visible(ids.long.first)).toBe(true);
    await screenshot(page, 'chain-long-scrolled-light');
  });

  it('graph: directed edges named on hover, the upstream change with its new value, the review ring, labels beside their node', async () => {
    await open(ids.web, ids.flaggedForecast, 'Graph');
    await page.waitForSelector('[data-testid="graph-svg"]');
    await settled(page);
    const frame = await probe.frame(page);
    if (!frame) throw new Error('no frame');
    expect(frame.nodes).toBeLessThanOrEqual(SVG_NODE_LIMIT);
    // The centre is selected, on the propagation path and flagged: its review ring is still drawn.
    expect(frame.selectedId).toBe(ids.flaggedForecast);
    expect(frame.pathNodes).toContain(ids.flaggedForecast);
    expect(frame.reviewRings).toContain(ids.flaggedForecast);
    const ring = await page.$eval(`[data-testid="graph-svg"] .graph-node[data-fact-id="${ids.flaggedForecast}"] .review-ring`, (c) => {
      const s = getComputedStyle(c);
      const review = getComputedStyle(document.documentElement).getPropertyValue('--st-review').trim();
      const probeEl = document.createElement('span');
      probeEl.style.color = review;
      document.body.appendChild(probeEl);
      const want = getComputedStyle(probeEl).color;
      probeEl.remove();
      return { stroke: s.stroke, want, width: parseFloat(s.strokeWidth), visible: s.visibility !== 'hidden' && s.display !== 'none' && s.opacity !== '0' };
    });
    expect(ring.stroke).toBe(ring.want);
    expect(ring.width).toBeGreaterThan(1);
    expect(ring.visible).toBe(true);

    // Every drawn edge has an arrowhead, at the dependent's end.
    const edges = await probe.edges(page);
    const nodes = new Map((await probe.nodes(page)).map((n) => [n.id, n]));
    expect(edges.length).toBeGreaterThan(5);
    expect(frame.arrowheads).toBe(edges.length);
    const markers = await page.$$eval('[data-testid="graph-svg"] line.graph-link', (ls) =>
      ls.filter((l) => l.getAttribute('visibility') !== 'hidden').map((l) => l.getAttribute('marker-end') ?? ''),
    );
    expect(markers.every((m) => /^url\(#.+\)$/.test(m))).toBe(true);
    for (const e of edges) {
      const dependent = nodes.get(e.from);
      const upstream = nodes.get(e.to);
      if (!dependent || !upstream) continue;
      expect(Math.hypot(e.x2 - dependent.x, e.y2 - dependent.y)).toBeLessThan(Math.hypot(e.x2 - upstream.x, e.y2 - upstream.y));
    }

    // Hovering an edge names it.
    const long = [...edges].sort((a, b) => Math.hypot(b.x2 - b.x1, b.y2 - b.y1) - Math.hypot(a.x2 - a.x1, a.y2 - a.y1));
    let named = '';
    for (const e of long.slice(0, 10)) {
      const mx = (e.x1 + e.x2) / 2;
      const my = (e.y1 + e.y2) / 2;
      if (await probe.nodeAt(page, mx, my)) continue;
      await page.mouse.move(mx, my);
      await page.waitForTimeout(80);
      const tip = await page.$eval('[data-testid="graph-tip"]', (t) => ((t as HTMLElement).hidden ? '' : (t.textContent ?? '')));
      if (tip.includes('depends on')) {
        named = tip;
        break;
      }
    }
    expect(named).toMatch(/^\S+ depends on \S+/);
    await screenshot(page, 'graph-edge-hover-light');
    await page.mouse.move(5, 5);

    // The upstream change, with its new value: in the note above the graph and beside its node.
    const upstream = await page.textContent('[data-testid="upstream-change"]');
    expect(upstream).toContain('plan.atlas.fleet.allocation');
    expect(upstream).toMatch(/now Correction: Fleet receives/);
    const labels = await probe.labels(page);
    const causeLabel = labels.find((l) => l.id === ids.fleetAllocationOld);
    expect(causeLabel?.text).toMatch(/^plan\.atlas\.fleet\.allocation → Correction: Fleet/);

    // Labels sit beside their node, and never on one another.
    for (const l of labels) {
      const n = nodes.get(l.id);
      if (!n) continue;
      const cx = Math.max(l.left, Math.min(n.x, l.right));
      const cy = Math.max(l.top, Math.min(n.y, l.bottom));
      expect(Math.hypot(n.x - cx, n.y - cy), `label of ${l.text} overlaps its node`).toBeGreaterThanOrEqual(n.r);
      for (const o of labels)
        if (o !== l) expect(l.left < o.right && o.left < l.right && l.top < o.bottom && o.top < l.bottom, `labels ${l.text} / ${o.text}`).toBe(false);
    }
    await both('graph-svg-review', () => settled(page));
  });

  it('graph: nodes drag (the view does not pan) and zooming in reveals detail at the same text size', async () => {
    await open(ids.web, ids.flaggedForecast, 'Graph');
    await page.waitForSelector('[data-testid="graph-svg"]');
    await settled(page);
    const before = new Map((await probe.nodes(page)).map((n) => [n.id, n]));
    const focus = before.get(ids.flaggedForecast);
    const box = await page.$eval(
      '[data-testid="graph-svg"]',
      (s) => s.getBoundingClientRect().toJSON() as { x: number; y: number; width: number; height: number },
    );
    const target = [...before.values()].find(
      (n) => n.id !== ids.flaggedForecast && n.x > box.x + 60 && n.x < box.x + box.width - 200 && n.y > box.y + 60 && n.y < box.y + box.height - 140,
    );
    if (!focus || !target) throw new Error('no node to drag');
    const hash = await page.evaluate(() => location.hash);
    await page.mouse.move(target.x, target.y);
    await page.mouse.down();
    for (let i = 1; i <= 12; i++) await page.mouse.move(target.x + i * 8, target.y + i * 6);
    await page.mouse.up();
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    const after = new Map((await probe.nodes(page)).map((n) => [n.id, n]));
    expect(Math.hypot((after.get(target.id)?.x ?? 0) - (target.x + 96), (after.get(target.id)?.y ?? 0) - (target.y + 72))).toBeLessThan(3);
    expect(Math.hypot((after.get(focus.id)?.x ?? 0) - focus.x, (after.get(focus.id)?.y ?? 0) - focus.y)).toBeLessThan(1);
    // A drag is not a click: the selection did not move.
    expect(await page.evaluate(() => location.hash)).toBe(hash);
    await settled(page);

    const fontPx = () => page.$eval('[data-testid="graph-svg"] .graph-labels text', (t) => t.getBoundingClientRect().height);
    const f0 = await probe.frame(page);
    const h0 = await fontPx();
    await page.mouse.move(focus.x, focus.y);
    for (let i = 0; i < 8; i++) await page.mouse.wheel(0, -200);
    await page.waitForTimeout(400);
    await settled(page);
    const f1 = await probe.frame(page);
    const h1 = await fontPx();
    console.log(
      `e2e graph zoom: ${f0?.zoom.toFixed(2)}x (${f0?.labels} labels, ${f0?.labelDetail}) -> ${f1?.zoom.toFixed(2)}x (${f1?.labels} labels, ${f1?.labelDetail}); label height ${h0.toFixed(1)} -> ${h1.toFixed(1)} px`,
    );
    expect(f1?.zoom ?? 0).toBeGreaterThan((f0?.zoom ?? 0) * 2);
    expect(Math.abs(h1 - h0)).toBeLessThan(1.5);
    expect(f1?.labelDetail).toBe('value');
    const texts = await page.$$eval('[data-testid="graph-svg"] .graph-labels text', (ts) => ts.map((t) => t.textContent ?? ''));
    expect(texts.some((t) => t.includes(' = '))).toBe(true);
    await both('graph-svg-zoomed', () => settled(page));
  });

  it('graph: the canvas at 2,000 nodes (review rings, arrowheads, semantic zoom) stays interactive while a node is dragged (frame times printed)', async () => {
    await open(ids.web, ids.budget, 'Graph');
    await page.waitForSelector('[data-testid="graph-stats"]');
    await page.selectOption('select:near(:text("Neighbourhood"))', '3');
    await page.waitForFunction(
      () => /^2,000 facts, [\d,]+ edges · canvas/.test(document.querySelector('[data-testid="graph-stats"]')?.textContent ?? ''),
      undefined,
      { timeout: 120_000 },
    );
    await page.waitForSelector('[data-testid="graph-canvas"]');
    await settled(page);
    const f0 = await probe.frame(page);
    if (!f0) throw new Error('no frame');
    expect(f0.nodes).toBe(2000);
    expect(f0.arrowheads).toBeGreaterThan(100);
    expect(f0.reviewRings.length).toBeGreaterThan(100);
    expect(f0.reviewRings.length).toBeLessThanOrEqual(ids.reviewInBudgetHood);
    await both('graph-2000-canvas', () => settled(page));

    const box = await page.$eval(
      '[data-testid="graph-canvas"]',
      (s) => s.getBoundingClientRect().toJSON() as { x: number; y: number; width: number; height: number },
    );
    const cx = box.x + box.width / 2;
    const cy = box.y + box.height / 2;
    const candidates = (await probe.nodes(page))
      .filter((n) => n.id !== ids.budget && Math.hypot(n.x - cx, n.y - cy) < 160)
      .sort((a, b) => Math.hypot(a.x - cx, a.y - cy) - Math.hypot(b.x - cx, b.y - cy));
    let grab: ProbedNode | undefined;
    for (const c of candidates) {
      if ((await probe.nodeAt(page, c.x, c.y)) === c.id) {
        grab = c;
        break;
      }
    }
    if (!grab) throw new Error('no node near the centre can be grabbed');
    const budgetBefore = (await probe.nodes(page)).find((n) => n.id === ids.budget);
    await startFrameGaps(page);
    await page.mouse.move(grab.x, grab.y);
    await page.mouse.down();
    const moves = 120;
    for (let i = 1; i <= moves; i++) await page.mouse.move(grab.x + Math.sin(i / 10) * 180, grab.y + (1 - Math.cos(i / 10)) * 90, { steps: 1 });
    const end = { x: grab.x + Math.sin(moves / 10) * 180, y: grab.y + (1 - Math.cos(moves / 10)) * 90 };
    await page.mouse.up();
    console.log(frameLine('e2e graph drag of one node at 2,000 nodes (canvas)', await stopFrameGaps(page)));
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    const after = new Map((await probe.nodes(page)).map((n) => [n.id, n]));
    expect(Math.hypot((after.get(grab.id)?.x ?? 0) - end.x, (after.get(grab.id)?.y ?? 0) - end.y)).toBeLessThan(3);
    const budgetAfter = after.get(ids.budget);
    expect(Math.hypot((budgetAfter?.x ?? 0) - (budgetBefore?.x ?? 0), (budgetAfter?.y ?? 0) - (budgetBefore?.y ?? 0))).toBeLessThan(1);
    await screenshot(page, 'graph-2000-dragged-light');

    // Zoomed out, only the important labels; zoomed in, keys and then values, at the same size.
    await settled(page);
    const zoomOut = await probe.frame(page);
    await page.mouse.move(cx, cy);
    for (let i = 0; i < 12; i++) await page.mouse.wheel(0, -240);
    await page.waitForTimeout(400);
    await settled(page);
    const zoomIn = await probe.frame(page);
    console.log(
      `e2e graph canvas zoom: ${zoomOut?.zoom.toFixed(2)}x ${zoomOut?.labels} labels (${zoomOut?.labelDetail}) -> ${zoomIn?.zoom.toFixed(2)}x ${zoomIn?.labels} labels (${zoomIn?.labelDetail})`,
    );
    expect(zoomOut?.labelDetail).toBe('none');
    expect(zoomIn?.labelDetail).not.toBe('none');
    expect(zoomIn?.labels ?? 0).toBeGreaterThan(zoomOut?.labels ?? 0);
    expect(zoomIn?.labelFontPx).toBe(zoomOut?.labelFontPx);
    await both('graph-2000-zoomed', () => settled(page));
    expect(pageErrors(page)).toEqual([]);
  });

  it('names every control in the chain and graph views', async () => {
    const cdp = await page.context().newCDPSession(page);
    const problems: string[] = [];
    await open(ids.late.partition, ids.late.head, 'Chain');
    await page.waitForSelector('.chain-steps');
    problems.push(...(await unnamedControls(cdp, 'chain view')));
    await open(ids.web, ids.flaggedForecast, 'Graph');
    await page.waitForSelector('[data-testid="graph-svg"]');
    await settled(page);
    problems.push(...(await unnamedControls(cdp, 'graph view (SVG)')));
    await open(ids.web, ids.budget, 'Graph');
    await page.selectOption('select:near(:text("Neighbourhood"))', '3');
    await page.waitForSelector('[data-testid="graph-canvas"]', { timeout: 120_000 });
    problems.push(...(await unnamedControls(cdp, 'graph view (canvas)')));
    await cdp.detach();
    expect(problems).toEqual([]);
  });
});
