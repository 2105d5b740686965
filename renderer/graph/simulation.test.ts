import { describe, expect, it } from 'vitest';
import { edgeAtPoint, EDGE_HIT_PX } from './canvas-hit';
import { arrowHead, arrowSegment, distanceToSegment, edgeKey } from './edges';
import { projectScene, edgeLabel } from './scene';
import { buildModel, dragNodeTo, endDrag, fitTransform, nodeRadius, rememberPositions, type GraphNodeData, type Positions } from './simulation';

function node(id: string, over: Partial<GraphNodeData> = {}): GraphNodeData {
  return { id, key: `key.${id}`, value: `value ${id}`, status: 'active', isValid: true, needsReview: false, memoryType: 'user', hop: 1, ...over };
}

const star = (n: number) => ({
  nodes: [node('root', { hop: 0 }), ...Array.from({ length: n }, (_, i) => node(`n${i}`))],
  edges: Array.from({ length: n }, (_, i) => ({ from: `n${i}`, to: 'root' })),
});

describe('graph simulation (pure)', () => {
  it('pins the focus at the origin, resolves links to nodes and spreads the rest out in the warm start', () => {
    const { nodes, edges } = star(12);
    const m = buildModel(nodes, [...edges, { from: 'n0', to: 'missing' }, { from: 'n1', to: 'n1' }], 'root', new Map());
    expect(m.settled).toBe(false);
    expect(m.byId.get('root')).toMatchObject({ fx: 0, fy: 0 });
    expect(m.links).toHaveLength(12);
    expect(m.links[0]?.source.id).toBe('n0');
    expect(m.links[0]?.target.id).toBe('root');
    expect(m.links[0]?.key).toBe(edgeKey('n0', 'root'));
    const others = m.nodes.filter((n) => n.id !== 'root');
    for (const n of others) expect(Math.hypot(n.x ?? 0, n.y ?? 0)).toBeGreaterThan(5);
    m.sim.stop();
  });

  it('is deterministic for the same input', () => {
    const a = buildModel(star(30).nodes, star(30).edges, 'root', new Map());
    const b = buildModel(star(30).nodes, star(30).edges, 'root', new Map());
    expect(a.nodes.map((n) => [n.x, n.y])).toEqual(b.nodes.map((n) => [n.x, n.y]));
  });

  it('starts from remembered positions, and a mostly known graph counts as settled (no warm start)', () => {
    const { nodes, edges } = star(10);
    const first = buildModel(nodes, edges, 'root', new Map());
    const known: Positions = new Map();
    rememberPositions(first, known);
    const again = buildModel(nodes, edges, 'root', known);
    expect(again.settled).toBe(true);
    expect(again.nodes.map((n) => [n.x, n.y])).toEqual(first.nodes.map((n) => [n.x, n.y]));
  });

  it('moves a dragged node exactly under the pointer and keeps it there when dropped', () => {
    const { nodes, edges } = star(5);
    const m = buildModel(nodes, edges, 'root', new Map());
    const n = m.byId.get('n2');
    if (!n) throw new Error('n2');
    const others = m.nodes.filter((o) => o !== n).map((o) => [o.x, o.y]);
    const alpha = m.sim.alpha();
    dragNodeTo(m, n, 300, -120);
    expect([n.x, n.y, n.fx, n.fy]).toEqual([300, -120, 300, -120]);
    // The drag moves that node alone: nothing else moves and the layout is not reheated.
    expect(m.nodes.filter((o) => o !== n).map((o) => [o.x, o.y])).toEqual(others);
    expect(m.sim.alpha()).toBeLessThanOrEqual(alpha);
    endDrag(m);
    for (let i = 0; i < 50; i++) m.sim.tick();
    expect([n.x, n.y]).toEqual([300, -120]);
    m.sim.stop();
  });

  it('fits every node into the view, never zooming in beyond the cap', () => {
    const pts = [
      { x: -100, y: -50 },
      { x: 300, y: 150 },
    ];
    const t = fitTransform(pts, 800, 600, 1.5, 40);
    for (const p of pts) {
      const sx = p.x * t.k + t.x;
      const sy = p.y * t.k + t.y;
      expect(sx).toBeGreaterThanOrEqual(40 - 1e-9);
      expect(sx).toBeLessThanOrEqual(760 + 1e-9);
      expect(sy).toBeGreaterThanOrEqual(40 - 1e-9);
      expect(sy).toBeLessThanOrEqual(560 + 1e-9);
    }
    expect(
      fitTransform(
        [
          { x: 0, y: 0 },
          { x: 1, y: 1 },
        ],
        800,
        600,
        1.5,
      ).k,
    ).toBe(1.5);
  });

  it('keeps discs the same size on screen at any zoom; zoom moves nodes apart', () => {
    const { nodes, edges } = star(3);
    const m = buildModel(nodes, edges, 'root', new Map());
    const near = projectScene(m, { x: 0, y: 0, k: 1 }, 'root');
    const far = projectScene(m, { x: 0, y: 0, k: 4 }, 'root');
    expect(far.nodes.map((n) => n.r)).toEqual(near.nodes.map((n) => n.r));
    expect(near.byId.get('root')?.r).toBe(nodeRadius(4, true));
    const d = (s: typeof near) =>
      Math.hypot((s.byId.get('n0')?.x ?? 0) - (s.byId.get('root')?.x ?? 0), (s.byId.get('n0')?.y ?? 0) - (s.byId.get('root')?.y ?? 0));
    expect(d(far)).toBeCloseTo(d(near) * 4, 6);
    m.sim.stop();
  });
});

describe('directed edges (pure)', () => {
  it('run from the upstream disc to just outside the dependent disc, where the arrowhead tip is', () => {
    const s = arrowSegment(0, 0, 5, 100, 0, 7, 2);
    expect(s).toEqual({ x1: 6, y1: 0, x2: 91, y2: 0 });
    expect(arrowSegment(0, 0, 5, 10, 0, 5)).toBeNull();
    const head = arrowHead({ x1: 0, y1: 0, x2: 100, y2: 0 }, 8);
    expect(head.slice(0, 2)).toEqual([100, 0]);
    expect(head[2]).toBe(92);
    expect(Math.abs(head[3] - head[5])).toBe(8);
  });

  it('a scene edge points from the fact depended on to its dependent, and says so', () => {
    const m = buildModel([node('up', { hop: 0 }), node('down')], [{ from: 'down', to: 'up' }], 'up', new Map());
    const scene = projectScene(m, { x: 400, y: 300, k: 1 }, 'up');
    const e = scene.edges[0];
    const up = scene.byId.get('up');
    const down = scene.byId.get('down');
    if (!e?.seg || !up || !down) throw new Error('no segment');
    expect(Math.hypot(e.seg.x1 - up.x, e.seg.y1 - up.y)).toBeLessThan(Math.hypot(e.seg.x1 - down.x, e.seg.y1 - down.y));
    expect(Math.hypot(e.seg.x2 - down.x, e.seg.y2 - down.y)).toBeCloseTo(down.r + 2, 6);
    expect(edgeLabel(e.link)).toBe('key.down depends on key.up');
    m.sim.stop();
  });

  it('hit-tests edges by distance to the drawn segment', () => {
    const edges = [
      { id: 'h', seg: { x1: 0, y1: 0, x2: 100, y2: 0 } },
      { id: 'v', seg: { x1: 50, y1: 10, x2: 50, y2: 100 } },
      { id: 'none', seg: null },
    ];
    expect(distanceToSegment(50, 3, { x1: 0, y1: 0, x2: 100, y2: 0 })).toBe(3);
    expect(distanceToSegment(-4, 3, { x1: 0, y1: 0, x2: 100, y2: 0 })).toBe(5);
    expect(edgeAtPoint(edges, 20, 2)?.id).toBe('h');
    expect(edgeAtPoint(edges, 52, 60)?.id).toBe('v');
    expect(edgeAtPoint(edges, 20, EDGE_HIT_PX + 1)).toBeUndefined();
  });
});
