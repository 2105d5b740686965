// The force layout of a dependency neighbourhood, without any drawing: the simulated nodes and
// links, a warm start so the first frame already shows structure, positions carried over from
// the previous layout (a live refresh does not make the picture jump), and the zoom that fits
// the whole graph. Pure d3-force: no DOM, so it is unit-tested directly.
import { forceLink, forceManyBody, forceSimulation, forceX, forceY, type Simulation, type SimulationLinkDatum, type SimulationNodeDatum } from 'd3';
import type { AsOfState } from '../../shared/inspect';
import type { ViewTransform } from './canvas-hit';
import { edgeKey } from './edges';

export interface GraphNodeData {
  readonly id: string;
  readonly key: string;
  readonly value: string;
  readonly status: string;
  readonly isValid: boolean;
  readonly needsReview: boolean;
  readonly memoryType: string;
  readonly hop: number | null;
  /** In time travel: how the fact stood at the as-of instant. */
  readonly asOf?: AsOfState | undefined;
}

export interface SimNode extends SimulationNodeDatum, GraphNodeData {}

/** `source` depends on `target` (the graph's edge `from` -> `to`); once the simulation has
 * started both are the node objects. */
export interface SimLink extends SimulationLinkDatum<SimNode> {
  readonly key: string;
  source: SimNode;
  target: SimNode;
}

export interface GraphModel {
  readonly nodes: SimNode[];
  readonly links: SimLink[];
  readonly byId: ReadonlyMap<string, SimNode>;
  readonly sim: Simulation<SimNode, SimLink>;
  /** Most positions came from the previous layout: no warm start, no refit, a gentle restart. */
  readonly settled: boolean;
  /** Big enough for the lighter forces. */
  readonly many: boolean;
}

export type Positions = Map<string, { x: number; y: number }>;

/** Disc radius in screen pixels (it does not grow with zoom: zooming spreads nodes apart). */
export function nodeRadius(count: number, isFocus: boolean): number {
  const base = count > 1000 ? 4 : count > 300 ? 5 : 7;
  return isFocus ? base + 4 : base;
}

/** Builds the simulation (stopped) and runs the warm start. The focus is pinned at the origin. */
export function buildModel(nodes: readonly GraphNodeData[], edges: ReadonlyArray<{ from: string; to: string }>, focusId: string, known: Positions): GraphModel {
  const simNodes: SimNode[] = nodes.map((n) => ({ ...n, ...known.get(n.id) }));
  const reused = simNodes.filter((n) => known.has(n.id)).length;
  const settled = simNodes.length > 0 && reused / simNodes.length > 0.8;
  const byId = new Map(simNodes.map((n) => [n.id, n]));
  const focus = byId.get(focusId);
  if (focus) {
    focus.fx = focus.x ?? 0;
    focus.fy = focus.y ?? 0;
  }
  const links = edges
    .filter((e) => byId.has(e.from) && byId.has(e.to) && e.from !== e.to)
    .map((e) => ({ source: byId.get(e.from) as SimNode, target: byId.get(e.to) as SimNode, key: edgeKey(e.from, e.to) }));
  const many = simNodes.length > 800;
  const sim: Simulation<SimNode, SimLink> = forceSimulation(simNodes)
    .force(
      'link',
      forceLink<SimNode, SimLink>(links)
        .id((d) => d.id)
        .distance(many ? 22 : 42)
        .strength(0.6),
    )
    .force(
      'charge',
      forceManyBody<SimNode>()
        .strength(many ? -14 : -70)
        .theta(0.95)
        .distanceMax(many ? 220 : 420),
    )
    .force('x', forceX<SimNode>(0).strength(0.05))
    .force('y', forceY<SimNode>(0).strength(0.05))
    .alphaDecay(many ? 0.045 : 0.03)
    .stop();
  const warm = settled ? 0 : many ? 40 : 60;
  for (let i = 0; i < warm; i++) sim.tick();
  return { nodes: simNodes, links, byId, sim, settled, many };
}

/** Starts the simulation running (after the first frame is drawn). */
export function startModel(m: GraphModel): void {
  m.sim.alpha(m.settled ? 0.05 : m.many ? 0.5 : 0.6).restart();
}

/** Records every node's position, so the next layout of an overlapping graph starts there. */
export function rememberPositions(m: GraphModel, into: Positions): void {
  for (const n of m.nodes) into.set(n.id, { x: n.x ?? 0, y: n.y ?? 0 });
}

/** Pins a node where the pointer has dragged it. Only that node moves (its edges follow): the
 * rest of the layout stays where the reader has learnt it, and no simulation runs per frame. */
export function dragNodeTo(m: GraphModel, n: SimNode, x: number, y: number): void {
  n.fx = x;
  n.fy = y;
  n.x = x;
  n.y = y;
  n.vx = 0;
  n.vy = 0;
  // A layout still settling when the drag began keeps settling, with the node pinned.
  if (m.sim.alpha() < m.sim.alphaMin()) m.sim.stop();
}

/** The dragged node stays pinned where it was dropped. */
export function endDrag(m: GraphModel): void {
  m.sim.alphaTarget(0);
}

/** How far a fit may zoom in: a small neighbourhood fills a good part of the view (discs and text
 * keep their size on screen, so this only spreads the nodes apart) without a pair of nodes
 * flying to opposite edges. */
export const FIT_MAX_ZOOM = 4;

/** The transform that shows every node, centred, no larger than `maxK`. */
export function fitTransform(
  nodes: Iterable<{ x?: number | undefined; y?: number | undefined }>,
  width: number,
  height: number,
  maxK: number,
  pad = 40,
): ViewTransform {
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  for (const n of nodes) {
    x0 = Math.min(x0, n.x ?? 0);
    y0 = Math.min(y0, n.y ?? 0);
    x1 = Math.max(x1, n.x ?? 0);
    y1 = Math.max(y1, n.y ?? 0);
  }
  if (!Number.isFinite(x0)) return { x: width / 2, y: height / 2, k: 1 };
  const k = Math.max(0.05, Math.min(maxK, (width - pad * 2) / Math.max(1, x1 - x0), (height - pad * 2) / Math.max(1, y1 - y0)));
  return { x: width / 2 - (k * (x0 + x1)) / 2, y: height / 2 - (k * (y0 + y1)) / 2, k };
}
