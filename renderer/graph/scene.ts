// One frame of the graph in screen coordinates: where each disc is drawn and each directed edge
// runs, for the current zoom. Both renderers draw from it and the pointer is hit-tested against
// it. Zoom moves nodes apart; discs and text keep their size on screen.
import type { ViewTransform } from './canvas-hit';
import { arrowSegment, type Segment } from './edges';
import { statusWord } from '../ui/format';
import { nodeRadius, type GraphModel, type GraphNodeData, type SimLink, type SimNode } from './simulation';

export interface ScreenNode {
  readonly node: SimNode;
  readonly x: number;
  readonly y: number;
  readonly r: number;
}

export interface ScreenEdge {
  readonly link: SimLink;
  /** From the upstream fact to the one that depends on it; null when the discs touch. */
  readonly seg: Segment | null;
}

export interface Scene {
  readonly nodes: ScreenNode[];
  readonly edges: ScreenEdge[];
  readonly byId: ReadonlyMap<string, ScreenNode>;
}

export function projectScene(m: GraphModel, t: ViewTransform, focusId: string): Scene {
  const count = m.nodes.length;
  const nodes: ScreenNode[] = m.nodes.map((n) => ({ node: n, x: (n.x ?? 0) * t.k + t.x, y: (n.y ?? 0) * t.k + t.y, r: nodeRadius(count, n.id === focusId) }));
  const byId = new Map(nodes.map((s) => [s.node.id, s]));
  const edges: ScreenEdge[] = m.links.map((link) => {
    const up = byId.get(link.target.id);
    const down = byId.get(link.source.id);
    return { link, seg: up && down ? arrowSegment(up.x, up.y, up.r, down.x, down.y, down.r) : null };
  });
  return { nodes, edges, byId };
}

/** The words shown when the pointer rests on an edge. */
export function edgeLabel(link: SimLink): string {
  return `${link.source.key} depends on ${link.target.key}`;
}

/** A node's status in the app's words ("valid", never "active"); in time travel, as it stood then. */
export function nodeStatus(n: GraphNodeData): string {
  if (n.asOf === undefined) return statusWord(n.status, n.isValid);
  if (n.asOf === 'valid') return 'valid then';
  if (n.asOf === 'not-yet') return 'not yet written then';
  return n.status === 'proposal' ? 'proposal' : 'superseded then';
}

/** The part of a scene that a dragged node moves: the node, its neighbours and the edges between
 * them (drawn over a still picture of the rest while the drag lasts). */
export function sceneAround(scene: Scene, nodeId: string): { moving: Scene; rest: Scene } {
  const movingEdges = scene.edges.filter((e) => e.link.source.id === nodeId || e.link.target.id === nodeId);
  const ids = new Set<string>([nodeId]);
  for (const e of movingEdges) ids.add(e.link.source.id).add(e.link.target.id);
  const pick = (keep: (n: ScreenNode) => boolean) => scene.nodes.filter(keep);
  const movingNodes = pick((n) => ids.has(n.node.id));
  const restNodes = pick((n) => n.node.id !== nodeId);
  const restEdges = scene.edges.filter((e) => e.link.source.id !== nodeId && e.link.target.id !== nodeId);
  return {
    moving: { nodes: movingNodes, edges: movingEdges, byId: new Map(movingNodes.map((n) => [n.node.id, n])) },
    rest: { nodes: restNodes, edges: restEdges, byId: new Map(restNodes.map((n) => [n.node.id, n])) },
  };
}
