import { describe, expect, it } from 'vitest';
import { labelDetail, LABEL_FONT_PX, planLabels } from './labels';
import type { ScreenNode } from './scene';
import type { SimNode } from './simulation';

function sn(id: string, x: number, y: number, over: Partial<SimNode> = {}): ScreenNode {
  return {
    node: { id, key: `decision.${id}`, value: `value of ${id}`, status: 'active', isValid: true, needsReview: false, memoryType: 'user', hop: 1, ...over },
    x,
    y,
    r: 5,
  };
}

const ctx = { width: 800, height: 600, k: 1, focusId: 'f', selectedId: null, pathNodes: new Set<string>(), annotations: new Map<string, string>() };

describe('graph labels (pure)', () => {
  it('start beside their disc, never on it', () => {
    const { labels } = planLabels([sn('a', 100, 100)], ctx);
    const l = labels[0];
    if (!l) throw new Error('no label');
    expect(l.x).toBeGreaterThanOrEqual(100 + 5 + 2);
    const top = l.y - LABEL_FONT_PX;
    const disc = { x0: 95, y0: 95, x1: 105, y1: 105 };
    expect(l.x > disc.x1 || l.x + l.w < disc.x0 || top > disc.y1 || l.y < disc.y0).toBe(true);
  });

  it('go to the left of a node at the right edge, so they stay in view', () => {
    const { labels } = planLabels([sn('edge', 790, 100)], ctx);
    const l = labels[0];
    if (!l) throw new Error('no label');
    expect(l.x + l.w).toBeLessThanOrEqual(790 - 5);
    expect(l.x).toBeGreaterThanOrEqual(0);
  });

  it('are cut to fit beside a node in the middle of a narrow view, never running out of it', () => {
    const long = sn('mid', 150, 100, { key: 'commute_plan', value: 'Takes the TER train from Lyon Part-Dieu every Monday' });
    const narrow = { ...ctx, width: 300 };
    const { labels } = planLabels([long], narrow);
    const l = labels[0];
    if (!l) throw new Error('no label');
    expect(l.text.endsWith('…')).toBe(true);
    expect(l.x).toBeGreaterThanOrEqual(0);
    expect(l.x + l.w).toBeLessThanOrEqual(narrow.width - 4);
  });

  it('never overlap one another; the more important label wins the place', () => {
    const nodes = [sn('a', 100, 100), sn('b', 104, 102, { needsReview: true }), sn('c', 100, 300)];
    const { labels } = planLabels(nodes, ctx);
    expect(labels.map((l) => l.id).sort()).toEqual(['b', 'c']);
    for (const a of labels)
      for (const b of labels) if (a !== b) expect(a.x < b.x + b.w && b.x < a.x + a.w && a.y - LABEL_FONT_PX < b.y && b.y - LABEL_FONT_PX < a.y).toBe(false);
  });

  it('reveal more as the view zooms in, at the same font size', () => {
    expect(labelDetail(2000, 0.5)).toBe('none');
    expect(labelDetail(2000, 1.6)).toBe('key');
    expect(labelDetail(2000, 3.2)).toBe('value');
    expect(labelDetail(100, 1)).toBe('key');
    expect(labelDetail(20, 1)).toBe('value');
    const crowd = Array.from({ length: 400 }, (_, i) => sn(`n${i}`, (i % 20) * 40, Math.floor(i / 20) * 30));
    const out = planLabels(crowd, { ...ctx, focusId: 'n0' });
    expect(out.detail).toBe('none');
    expect(out.labels.map((l) => l.id)).toEqual(['n0']);
    const zoomed = planLabels(crowd, { ...ctx, focusId: 'n0', k: 3.5 });
    expect(zoomed.detail).toBe('value');
    expect(zoomed.labels.length).toBeGreaterThan(20);
    expect(zoomed.labels[0]?.text).toBe('decision.n0 = value of n0');
  });

  it('always show the upstream change with its new value', () => {
    const crowd = Array.from({ length: 400 }, (_, i) => sn(`n${i}`, (i % 20) * 40, Math.floor(i / 20) * 30));
    const { labels } = planLabels(crowd, { ...ctx, annotations: new Map([['n7', '$120,000 total budget']]) });
    expect(labels.find((l) => l.id === 'n7')?.text).toBe('decision.n7 → $120,000 total budget');
  });

  it('skip nodes out of view', () => {
    const { labels } = planLabels([sn('in', 10, 10), sn('out', 5000, 10)], ctx);
    expect(labels.map((l) => l.id)).toEqual(['in']);
  });
});
