// The dependency graph in a browser test: its read-only probe (renderer/graph/canvas-hit.ts) read
// inside the page, waiting until the layout rests, and frame times recorded with
// requestAnimationFrame while a pointer pans or drags (printed by the benchmarks, never asserted).
import type { Page } from 'playwright-core';
import { GRAPH_PROBE, type DrawnFrame, type GraphCanvasProbe, type ProbedEdge, type ProbedLabel, type ProbedNode } from '../../../renderer/graph/canvas-hit';

export const PROBE_KEY = GRAPH_PROBE.description ?? '';
/** The graph's drawing surface, whichever renderer drew it. */
export const SURFACE = '[data-testid="graph-canvas"], [data-testid="graph-svg"]';

type Probe = Record<symbol, GraphCanvasProbe> | null;

export const probe = {
  frame: (page: Page) =>
    page.evaluate(([sel, key]) => (document.querySelector(sel) as unknown as Probe)?.[Symbol.for(key)]?.lastFrame() ?? null, [
      SURFACE,
      PROBE_KEY,
    ] as const) as Promise<DrawnFrame | null>,
  nodes: (page: Page) =>
    page.evaluate(([sel, key]) => (document.querySelector(sel) as unknown as Probe)?.[Symbol.for(key)]?.nodes() ?? [], [
      SURFACE,
      PROBE_KEY,
    ] as const) as Promise<ProbedNode[]>,
  edges: (page: Page) =>
    page.evaluate(([sel, key]) => (document.querySelector(sel) as unknown as Probe)?.[Symbol.for(key)]?.edges() ?? [], [
      SURFACE,
      PROBE_KEY,
    ] as const) as Promise<ProbedEdge[]>,
  labels: (page: Page) =>
    page.evaluate(([sel, key]) => (document.querySelector(sel) as unknown as Probe)?.[Symbol.for(key)]?.labels() ?? [], [
      SURFACE,
      PROBE_KEY,
    ] as const) as Promise<ProbedLabel[]>,
  nodeAt: (page: Page, x: number, y: number) =>
    page.evaluate(([sel, key, px, py]) => (document.querySelector(sel) as unknown as Probe)?.[Symbol.for(key)]?.nodeAt(px, py) ?? null, [
      SURFACE,
      PROBE_KEY,
      x,
      y,
    ] as const),
};

/** Waits until the layout rests and a frame is drawn, then two more animation frames. */
export async function settled(page: Page): Promise<void> {
  await page.waitForFunction(
    ([sel, key]) => {
      const p = (document.querySelector(sel) as unknown as Probe)?.[Symbol.for(key)];
      return !!p && p.settled() && p.lastFrame() !== null;
    },
    [SURFACE, PROBE_KEY] as const,
    { timeout: 90_000 },
  );
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
}

/** The surface's box on the page. */
export function surfaceBox(page: Page, selector = SURFACE): Promise<{ x: number; y: number; width: number; height: number }> {
  return page.$eval(selector, (s) => s.getBoundingClientRect().toJSON() as { x: number; y: number; width: number; height: number });
}

// Frame gaps recorded in the page (plain strings: nothing of the test's transpiler reaches the browser).
const START_GAPS = `window.__gaps = (() => { const s = { gaps: [], last: performance.now(), on: true }; const f = (t) => { if (!s.on) return; s.gaps.push(t - s.last); s.last = t; requestAnimationFrame(f); }; requestAnimationFrame(f); return s; })()`;
const STOP_GAPS = `(() => { window.__gaps.on = false; return window.__gaps.gaps.slice(1); })()`;

/** Starts recording the time between animation frames. */
export async function startFrameGaps(page: Page): Promise<void> {
  await page.evaluate(START_GAPS);
}

/** Stops recording; the gaps in milliseconds, in order. */
export async function stopFrameGaps(page: Page): Promise<number[]> {
  return (await page.evaluate(STOP_GAPS)) as number[];
}

export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] as number;
}

/** One printed line of frame times: count, median, p95 (against the 33 ms target) and worst. */
export function frameLine(what: string, gaps: readonly number[]): string {
  const sorted = [...gaps].sort((a, b) => a - b);
  const total = sorted.reduce((a, b) => a + b, 0);
  return `${what}: ${sorted.length} frames in ${(total / 1000).toFixed(1)} s, frame time median ${percentile(sorted, 50).toFixed(1)} ms, p95 ${percentile(sorted, 95).toFixed(1)} ms (target ≤ 33 ms), worst ${(sorted[sorted.length - 1] ?? NaN).toFixed(1)} ms`;
}
