// Hit-testing for the dependency graph: which node or edge a pointer is over, from the
// simulation's node positions and the zoom transform. Pure (no canvas, no DOM), so jsdom tests
// cover it; the drawing surface also exposes a read-only probe (node and edge positions on
// screen, what the last frame drew) that browser tests use to act where things are drawn.
import { distanceToSegment, type Segment } from './edges';

export interface PlacedNode {
  readonly id: string;
  readonly x?: number | undefined;
  readonly y?: number | undefined;
}

/** A d3 zoom transform: screen = graph * k + (x, y). */
export interface ViewTransform {
  readonly x: number;
  readonly y: number;
  readonly k: number;
}

/** Above this many nodes the graph is drawn on a canvas rather than as SVG elements. */
export const SVG_NODE_LIMIT = 300;

/** How far from a node's centre, in screen pixels, a click still selects it (at any zoom). */
export const HIT_RADIUS_PX = 14;

export function toGraphPoint(t: ViewTransform, sx: number, sy: number): [number, number] {
  return [(sx - t.x) / t.k, (sy - t.y) / t.k];
}

export function toScreenPoint(t: ViewTransform, x: number, y: number): [number, number] {
  return [x * t.k + t.x, y * t.k + t.y];
}

/**
 * The node nearest to the screen point (sx, sy), relative to the canvas's top-left corner, when
 * one lies strictly within `radiusPx` screen pixels of it; the first of equally near nodes wins
 * (as d3's simulation.find).
 */
export function nodeAtPoint<N extends PlacedNode>(nodes: Iterable<N>, t: ViewTransform, sx: number, sy: number, radiusPx = HIT_RADIUS_PX): N | undefined {
  const [gx, gy] = toGraphPoint(t, sx, sy);
  const r = radiusPx / t.k;
  let best: N | undefined;
  let bestD2 = r * r;
  for (const n of nodes) {
    const dx = gx - (n.x ?? 0);
    const dy = gy - (n.y ?? 0);
    const d2 = dx * dx + dy * dy;
    if (d2 < bestD2) {
      best = n;
      bestD2 = d2;
    }
  }
  return best;
}

/** How far from an edge, in screen pixels, the pointer still shows its label. */
export const EDGE_HIT_PX = 5;

/** The edge nearest to a screen point, when one lies within `radiusPx` of it. */
export function edgeAtPoint<E extends { readonly seg: Segment | null }>(edges: Iterable<E>, sx: number, sy: number, radiusPx = EDGE_HIT_PX): E | undefined {
  let best: E | undefined;
  let bestD = radiusPx;
  for (const e of edges) {
    if (!e.seg) continue;
    const d = distanceToSegment(sx, sy, e.seg);
    if (d < bestD) {
      best = e;
      bestD = d;
    }
  }
  return best;
}

/** What one frame of the canvas renderer drew (counted while drawing it). */
export interface DrawnFrame {
  /** Frames drawn so far by this canvas. */
  readonly frame: number;
  readonly nodes: number;
  /** The node drawn with the selection ring, if it is in the graph. */
  readonly selectedId: string | null;
  /** Nodes drawn with the propagation-path ring. */
  readonly pathNodes: readonly string[];
  /** Edges drawn in the propagation-path stroke (direction-free keys, see edges.ts). */
  readonly pathEdges: readonly string[];
  /** The colour the path was stroked with. */
  readonly pathColour: string;
  /** Nodes drawn with the needs_review ring (whatever else marks them). */
  readonly reviewRings: readonly string[];
  /** Edges drawn with an arrowhead at the dependent fact. */
  readonly arrowheads: number;
  /** Labels drawn, and their font size on screen (the same at every zoom). */
  readonly labels: number;
  readonly labelFontPx: number;
  /** What the labels said: nothing, keys, or keys and values. */
  readonly labelDetail: 'none' | 'key' | 'value';
  /** The zoom factor of the frame. */
  readonly zoom: number;
}

export interface ProbedEdge {
  /** The dependent fact and the fact it depends on. */
  readonly from: string;
  readonly to: string;
  /** Client coordinates of the drawn segment, from the upstream fact to the dependent. */
  readonly x1: number;
  readonly y1: number;
  readonly x2: number;
  readonly y2: number;
}

export interface ProbedLabel {
  readonly id: string;
  readonly text: string;
  /** Client coordinates of the label's box. */
  readonly left: number;
  readonly top: number;
  readonly right: number;
  readonly bottom: number;
}

export interface ProbedNode {
  readonly id: string;
  readonly hop: number | null;
  /** Viewport (client) coordinates of the node's centre under the current zoom. */
  readonly x: number;
  readonly y: number;
  /** Radius of its disc on screen, in CSS pixels. */
  readonly r: number;
}

/** A read-only view of a graph canvas for tests and diagnostics. */
export interface GraphCanvasProbe {
  /** Every node with its on-screen centre in client coordinates. */
  nodes(): ProbedNode[];
  /** Every drawn edge with its on-screen segment in client coordinates. */
  edges(): ProbedEdge[];
  /** Every label of the last frame, in client coordinates. */
  labels(): ProbedLabel[];
  /** The id a click at these client coordinates selects, or null. */
  nodeAt(clientX: number, clientY: number): string | null;
  /** True once the layout has come to rest (positions no longer change between frames). */
  settled(): boolean;
  /** What the most recent frame drew; null before the first one. */
  lastFrame(): DrawnFrame | null;
}

/** The property of the canvas element that holds its probe (`el[Symbol.for(...)]` in a page). */
export const GRAPH_PROBE = Symbol.for('statelens.graphProbe');

export function attachGraphProbe(el: Element, probe: GraphCanvasProbe): void {
  Object.defineProperty(el, GRAPH_PROBE, { value: probe, configurable: true, enumerable: false, writable: false });
}

export function graphProbeOf(el: Element | null | undefined): GraphCanvasProbe | undefined {
  return el ? (el as unknown as Record<symbol, GraphCanvasProbe | undefined>)[GRAPH_PROBE] : undefined;
}
