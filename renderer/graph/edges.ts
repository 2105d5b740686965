// Edge identities and geometry: keys for highlighting the propagation path (the engine reports
// the path as fact ids from the upstream change to the flagged fact), and the directed segments
// and arrowheads both renderers draw.

export interface GraphEdge {
  readonly from: string;
  readonly to: string;
}

/** Edge keys ("a→b", direction-free) along a path, for highlighting. */
export function pathEdgeKeys(path: readonly string[]): Set<string> {
  const keys = new Set<string>();
  for (let i = 1; i < path.length; i++) {
    const a = path[i - 1] as string;
    const b = path[i] as string;
    keys.add(edgeKey(a, b));
  }
  return keys;
}

export function edgeKey(a: string, b: string): string {
  return a < b ? `${a}\u0000${b}` : `${b}\u0000${a}`;
}

export interface Segment {
  readonly x1: number;
  readonly y1: number;
  readonly x2: number;
  readonly y2: number;
}

/**
 * The visible part of a directed edge on screen, from the upstream fact's disc to the dependent
 * fact's: it starts outside the first disc and stops `gap` pixels outside the second, where the
 * arrowhead's tip goes. Null when the discs touch (nothing to draw).
 */
export function arrowSegment(ax: number, ay: number, ra: number, bx: number, by: number, rb: number, gap = 2): Segment | null {
  const dx = bx - ax;
  const dy = by - ay;
  const len = Math.hypot(dx, dy);
  const cut = ra + rb + gap + 1;
  if (len <= cut) return null;
  const ux = dx / len;
  const uy = dy / len;
  return { x1: ax + ux * (ra + 1), y1: ay + uy * (ra + 1), x2: bx - ux * (rb + gap), y2: by - uy * (rb + gap) };
}

/** The three corners of an arrowhead whose tip is the segment's end. */
export function arrowHead(s: Segment, size: number): [number, number, number, number, number, number] {
  const dx = s.x2 - s.x1;
  const dy = s.y2 - s.y1;
  const len = Math.hypot(dx, dy) || 1;
  const ux = dx / len;
  const uy = dy / len;
  const bx = s.x2 - ux * size;
  const by = s.y2 - uy * size;
  const w = size * 0.5;
  return [s.x2, s.y2, bx - uy * w, by + ux * w, bx + uy * w, by - ux * w];
}

/** Distance from a point to a segment (screen pixels). */
export function distanceToSegment(px: number, py: number, s: Segment): number {
  const dx = s.x2 - s.x1;
  const dy = s.y2 - s.y1;
  const len2 = dx * dx + dy * dy;
  const t = len2 === 0 ? 0 : Math.max(0, Math.min(1, ((px - s.x1) * dx + (py - s.y1) * dy) / len2));
  return Math.hypot(px - (s.x1 + t * dx), py - (s.y1 + t * dy));
}
