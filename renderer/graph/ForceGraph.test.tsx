import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { graphProbeOf, HIT_RADIUS_PX, nodeAtPoint, toGraphPoint, toScreenPoint } from './canvas-hit';
import { ForceGraph, type GraphNodeData } from './ForceGraph';
import { edgeKey, pathEdgeKeys } from './edges';

afterEach(cleanup);

function node(id: string, over: Partial<GraphNodeData> = {}): GraphNodeData {
  return { id, key: `key ${id}`, value: `value ${id}`, status: 'active', isValid: true, needsReview: false, memoryType: 'user', hop: 1, ...over };
}

describe('ForceGraph (SVG below the canvas threshold)', () => {
  const nodes = [
    node('root', { hop: 0, needsReview: true }),
    node('a', { memoryType: 'organizational' }),
    node('b', { status: 'superseded', isValid: false }),
    node('c', { status: 'proposal', isValid: false, hop: 2 }),
    node('<img src=x>', { key: '<img src=x onerror=alert(1)>', hop: 2 }),
  ];
  const edges = [
    { from: 'root', to: 'a' },
    { from: 'a', to: 'b' },
    { from: 'b', to: 'c' },
    { from: 'c', to: '<img src=x>' },
  ];

  it('draws each fact as a focusable node coloured by type, validity and review flag', async () => {
    const path = ['b', 'a', 'root'];
    const onSelect = vi.fn();
    render(
      <ForceGraph nodes={nodes} edges={edges} focusId="root" selectedId="root" pathNodes={new Set(path)} pathEdges={pathEdgeKeys(path)} onSelect={onSelect} />,
    );
    const svg = await screen.findByTestId('graph-svg');
    await waitFor(() => expect(svg.querySelector('[data-fact-id="root"]')?.getAttribute('class')).toContain('selected'));
    const cls = (id: string) => [...svg.querySelectorAll('[data-fact-id]')].find((e) => e.getAttribute('data-fact-id') === id)?.getAttribute('class') ?? '';
    expect(cls('root')).toContain('review');
    expect(cls('a')).toContain('mt-organizational');
    expect(cls('a')).toContain('on-path');
    expect(cls('b')).toContain('invalid');
    expect(cls('c')).toContain('st-proposal');
    expect(svg.querySelectorAll('line.on-path')).toHaveLength(2);
    expect(svg.querySelector('img')).toBeNull();
    expect(svg.textContent).toContain('<img src=x onerror=alert(1)>');
    fireEvent.click(svg.querySelector('[data-fact-id="a"]') as Element);
    expect(onSelect).toHaveBeenCalledWith('a');
    fireEvent.keyDown(svg.querySelector('[data-fact-id="c"]') as Element, { key: 'Enter' });
    expect(onSelect).toHaveBeenCalledWith('c');
  });

  it('names edges independently of direction', () => {
    expect(edgeKey('x', 'y')).toBe(edgeKey('y', 'x'));
    expect([...pathEdgeKeys(['a', 'b', 'c'])]).toEqual([edgeKey('a', 'b'), edgeKey('b', 'c')]);
  });
});

describe('canvas hit-testing (pure)', () => {
  const placed = [
    { id: 'a', x: 0, y: 0 },
    { id: 'b', x: 10, y: 0 },
    { id: 'c', x: 100, y: 100 },
  ];
  const identity = { x: 0, y: 0, k: 1 };

  it('finds the nearest node within the hit radius, in screen pixels', () => {
    expect(nodeAtPoint(placed, identity, 1, 1)?.id).toBe('a');
    expect(nodeAtPoint(placed, identity, 6, 0)?.id).toBe('b');
    expect(nodeAtPoint(placed, identity, 100 + HIT_RADIUS_PX - 1, 100)?.id).toBe('c');
    expect(nodeAtPoint(placed, identity, 100 + HIT_RADIUS_PX + 1, 100)).toBeUndefined();
    expect(nodeAtPoint(placed, identity, 50, 50)).toBeUndefined();
    expect(nodeAtPoint([], identity, 0, 0)).toBeUndefined();
    // Equally near: the first wins, as with d3's simulation.find.
    expect(nodeAtPoint(placed, identity, 5, 0)?.id).toBe('a');
  });

  it('undoes the zoom transform, and the radius stays the same on screen at any zoom', () => {
    const t = { x: 400, y: 260, k: 4 };
    const [sx, sy] = toScreenPoint(t, 100, 100);
    expect([sx, sy]).toEqual([800, 660]);
    expect(toGraphPoint(t, sx, sy)).toEqual([100, 100]);
    expect(nodeAtPoint(placed, t, sx, sy)?.id).toBe('c');
    // 13 screen pixels away is 3.25 graph units at 4x: still a hit; 15 pixels is not.
    expect(nodeAtPoint(placed, t, sx + 13, sy)?.id).toBe('c');
    expect(nodeAtPoint(placed, t, sx + 15, sy)).toBeUndefined();
    // Zoomed out, neighbours 10 graph units apart are 1 pixel apart: the nearer still wins.
    const out = { x: 0, y: 0, k: 0.1 };
    expect(nodeAtPoint(placed, out, 0.9, 0)?.id).toBe('b');
    expect(nodeAtPoint(placed, out, 0.1, 0)?.id).toBe('a');
  });
});

interface Stroke {
  readonly style: string;
  readonly width: number;
  readonly segments: number;
  readonly arcs: number;
}

/** A stand-in Path2D (jsdom has none) that counts what was added to it. */
class RecordingPath {
  segments = 0;
  arcs = 0;
  moveTo() {}
  lineTo() {
    this.segments++;
  }
  arc() {
    this.arcs++;
  }
  closePath() {}
}

/** A stand-in 2D context (jsdom has none) that records what each stroke() drew. */
function recordingContext(): { ctx: CanvasRenderingContext2D; frames: Stroke[][] } {
  vi.stubGlobal('Path2D', RecordingPath);
  const frames: Stroke[][] = [];
  let segments = 0;
  let arcs = 0;
  const state = { strokeStyle: '', fillStyle: '', lineWidth: 1, globalAlpha: 1, font: '' };
  const ctx = {
    ...state,
    setTransform() {},
    translate() {},
    scale() {},
    clearRect() {
      frames.push([]);
    },
    beginPath() {
      segments = 0;
      arcs = 0;
    },
    moveTo() {},
    lineTo() {
      segments++;
    },
    closePath() {},
    strokeText() {},
    arc() {
      arcs++;
    },
    fill() {},
    fillText() {},
    stroke(this: typeof state, path?: RecordingPath) {
      frames.at(-1)?.push({ style: this.strokeStyle, width: this.lineWidth, segments: path ? path.segments : segments, arcs: path ? path.arcs : arcs });
    },
  };
  return { ctx: ctx as unknown as CanvasRenderingContext2D, frames };
}

describe('ForceGraph (canvas above the threshold)', () => {
  const nodes = [node('root', { hop: 0, needsReview: true }), node('a'), node('b'), node('c', { hop: 2 }), node('d', { hop: 2 })];
  const edges = [
    { from: 'root', to: 'a' },
    { from: 'a', to: 'b' },
    { from: 'b', to: 'c' },
    { from: 'a', to: 'd' },
  ];
  const path = ['b', 'a', 'root'];
  // The fallback of --accent (jsdom computes no style sheet).
  const PATH_COLOUR = '#2a62d4';
  const REVIEW_COLOUR = '#d9342b';

  afterEach(() => {
    vi.restoreAllMocks();
    vi.unstubAllGlobals();
  });

  it('selects the node drawn under the pointer, not the selected one, and paints the propagation path', async () => {
    const { ctx, frames } = recordingContext();
    vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockImplementation(() => ctx as never);
    // Where the canvas sits in the page (jsdom lays nothing out): clicks arrive in page coordinates.
    vi.spyOn(HTMLCanvasElement.prototype, 'getBoundingClientRect').mockReturnValue({
      x: 37,
      y: 53,
      left: 37,
      top: 53,
      right: 837,
      bottom: 573,
      width: 800,
      height: 520,
      toJSON: () => ({}),
    });
    const onSelect = vi.fn();
    render(
      <ForceGraph
        nodes={nodes}
        edges={edges}
        focusId="root"
        selectedId="root"
        pathNodes={new Set(path)}
        pathEdges={pathEdgeKeys(path)}
        onSelect={onSelect}
        renderer="canvas"
      />,
    );
    const canvas = await screen.findByTestId('graph-canvas');
    const probe = graphProbeOf(canvas);
    if (!probe) throw new Error('the canvas exposes no probe');
    await waitFor(() => expect(probe.lastFrame()).not.toBeNull());

    // What the last frame drew: the path's two edges and three nodes, the selection ring on root.
    const frame = probe.lastFrame();
    expect(frame?.selectedId).toBe('root');
    expect([...(frame?.pathEdges ?? [])].sort()).toEqual([...pathEdgeKeys(path)].sort());
    expect([...(frame?.pathNodes ?? [])].sort()).toEqual(['a', 'b', 'root']);
    expect(frame?.pathColour).toBe(PATH_COLOUR);
    const strokes = frames.filter((f) => f.length > 0).at(-1) ?? [];
    const pathEdgeStroke = strokes.filter((s) => s.style === PATH_COLOUR && s.segments > 0 && s.arcs === 0);
    expect(pathEdgeStroke).toHaveLength(1);
    expect(pathEdgeStroke[0]?.segments).toBe(2);
    expect(pathEdgeStroke[0]?.width).toBeGreaterThan(strokes[0]?.width ?? 0);
    // The other two edges in the plain edge stroke; path rings on root, a and b.
    expect(strokes[0]?.segments).toBe(2);
    expect(strokes.filter((s) => s.style === PATH_COLOUR && s.arcs === 1)).toHaveLength(3);
    // Root is selected and on the path, and still has its needs_review ring (a stroke of its own).
    expect(frame?.reviewRings).toEqual(['root']);
    expect(strokes.filter((s) => s.style === REVIEW_COLOUR && s.arcs === 1)).toHaveLength(1);
    // Every edge has its arrowhead.
    expect(frame?.arrowheads).toBe(4);

    // Click where 'c' is drawn: c is selected, not root.
    const at = new Map(probe.nodes().map((n) => [n.id, n]));
    const c = at.get('c');
    if (!c) throw new Error('c is not drawn');
    expect(probe.nodeAt(c.x, c.y)).toBe('c');
    expect(c.x).not.toBe(at.get('root')?.x);
    fireEvent.click(canvas, { clientX: c.x, clientY: c.y });
    expect(onSelect).toHaveBeenCalledTimes(1);
    expect(onSelect).toHaveBeenLastCalledWith('c');
    const d = at.get('d');
    if (!d) throw new Error('d is not drawn');
    fireEvent.click(canvas, { clientX: d.x + 3, clientY: d.y - 3 });
    expect(onSelect).toHaveBeenLastCalledWith('d');
    // Far from every node: nothing is selected.
    fireEvent.click(canvas, { clientX: -5000, clientY: -5000 });
    expect(onSelect).toHaveBeenCalledTimes(2);
  });

  it('drags a node under the pointer instead of panning, and a drag is not a click', async () => {
    const { ctx } = recordingContext();
    vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockImplementation(() => ctx as never);
    vi.spyOn(HTMLCanvasElement.prototype, 'getBoundingClientRect').mockReturnValue({
      x: 0,
      y: 0,
      left: 0,
      top: 0,
      right: 800,
      bottom: 520,
      width: 800,
      height: 520,
      toJSON: () => ({}),
    });
    const onSelect = vi.fn();
    render(
      <ForceGraph
        nodes={nodes}
        edges={edges}
        focusId="root"
        selectedId="root"
        pathNodes={new Set()}
        pathEdges={new Set()}
        onSelect={onSelect}
        renderer="canvas"
      />,
    );
    const canvas = await screen.findByTestId('graph-canvas');
    const probe = graphProbeOf(canvas);
    if (!probe) throw new Error('no probe');
    await waitFor(() => expect(probe.lastFrame()).not.toBeNull());
    const before = new Map(probe.nodes().map((n) => [n.id, n]));
    const c = before.get('c');
    const root = before.get('root');
    if (!c || !root) throw new Error('not drawn');
    const zoomBefore = probe.lastFrame()?.zoom;
    fireEvent.pointerDown(canvas, { clientX: c.x, clientY: c.y, button: 0, pointerId: 1 });
    fireEvent.mouseDown(canvas, { clientX: c.x, clientY: c.y, button: 0 });
    for (let i = 1; i <= 8; i++) {
      fireEvent.pointerMove(canvas, { clientX: c.x + i * 20, clientY: c.y + i * 5, buttons: 1, pointerId: 1 });
      fireEvent.mouseMove(window, { clientX: c.x + i * 20, clientY: c.y + i * 5, buttons: 1 });
    }
    fireEvent.pointerUp(canvas, { clientX: c.x + 160, clientY: c.y + 40, pointerId: 1 });
    fireEvent.mouseUp(window, { clientX: c.x + 160, clientY: c.y + 40 });
    fireEvent.click(canvas, { clientX: c.x + 160, clientY: c.y + 40 });
    await waitFor(() => {
      const after = new Map(probe.nodes().map((n) => [n.id, n]));
      expect(after.get('c')?.x).toBeCloseTo(c.x + 160, 0);
      expect(after.get('c')?.y).toBeCloseTo(c.y + 40, 0);
    });
    // The view did not pan: the pinned root is where it was, the zoom unchanged.
    const after = new Map(probe.nodes().map((n) => [n.id, n]));
    expect(after.get('root')?.x).toBeCloseTo(root.x, 6);
    expect(after.get('root')?.y).toBeCloseTo(root.y, 6);
    expect(probe.lastFrame()?.zoom).toBe(zoomBefore);
    expect(onSelect).not.toHaveBeenCalled();
    // A plain click on it still selects it.
    const now = after.get('c');
    if (!now) throw new Error('c gone');
    fireEvent.click(canvas, { clientX: now.x, clientY: now.y });
    expect(onSelect).toHaveBeenCalledWith('c');
  });
});
