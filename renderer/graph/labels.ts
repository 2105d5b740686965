// Which nodes get a text label, and where, for the current zoom: the closer the view, the more
// labels and the more each says (key, then key and value). Labels start beside their disc,
// never on it, keep their size on screen, and are placed most important first (focus, upstream
// change, selection, propagation path, review flags, then by hop), skipping any that would
// overlap one already placed. Pure, so it is unit-tested.
import { middleEllipsis } from '../ui/key-text';
import type { ScreenNode } from './scene';

export const LABEL_FONT_PX = 11;
/** Average advance of a character at LABEL_FONT_PX (system sans-serif; DejaVu Sans, the
 * widest common default, sets about 6.6). */
export const LABEL_CHAR_PX = 6.6;
export const LABEL_LINE_PX = 14;

export interface PlacedLabel {
  readonly id: string;
  readonly text: string;
  /** Left end of the text's baseline, screen pixels. */
  readonly x: number;
  readonly y: number;
  readonly w: number;
  /** Key only, or key and value. */
  readonly detail: 'key' | 'value';
}

export interface LabelContext {
  readonly width: number;
  readonly height: number;
  /** Zoom factor of the view. */
  readonly k: number;
  readonly focusId: string;
  readonly selectedId: string | null;
  readonly pathNodes: ReadonlySet<string>;
  /** Extra words for a node, always shown (the upstream change's new value). */
  readonly annotations: ReadonlyMap<string, string>;
}

function clip(text: string, n: number): string {
  return text.length > n ? `${text.slice(0, n - 1)}…` : text;
}

function priority(n: ScreenNode, c: LabelContext): number {
  const id = n.node.id;
  if (c.annotations.has(id)) return 0;
  if (id === c.focusId) return 1;
  if (id === c.selectedId) return 2;
  if (c.pathNodes.has(id)) return 3;
  if (n.node.needsReview) return 4;
  return 5 + (n.node.hop ?? 9);
}

/** How much each label says, from how many nodes are in view and how far the view is zoomed in. */
export function labelDetail(visible: number, k: number): 'none' | 'key' | 'value' {
  if (visible <= 30 || k >= 3) return 'value';
  if (visible <= 160 || k >= 1.5) return 'key';
  return 'none';
}

export function planLabels(nodes: readonly ScreenNode[], c: LabelContext): { labels: PlacedLabel[]; detail: 'none' | 'key' | 'value' } {
  const inView = nodes.filter((n) => n.x >= -20 && n.y >= -20 && n.x <= c.width + 20 && n.y <= c.height + 20);
  const level = labelDetail(inView.length, c.k);
  const candidates = (level === 'none' ? inView.filter((n) => priority(n, c) <= 3) : inView).slice().sort((a, b) => priority(a, c) - priority(b, c));
  const placed: PlacedLabel[] = [];
  // A coarse grid of placed boxes keeps the overlap check cheap at thousands of nodes.
  const CELL = 64;
  const grid = new Map<string, Array<{ x0: number; y0: number; x1: number; y1: number }>>();
  const cells = (x0: number, y0: number, x1: number, y1: number): string[] => {
    const out: string[] = [];
    for (let gx = Math.floor(x0 / CELL); gx <= Math.floor(x1 / CELL); gx++)
      for (let gy = Math.floor(y0 / CELL); gy <= Math.floor(y1 / CELL); gy++) out.push(`${gx},${gy}`);
    return out;
  };
  for (const n of candidates) {
    const note = c.annotations.get(n.node.id);
    const detail = level === 'value' || note ? 'value' : 'key';
    // Keys give way in the middle, so versions of one key stay told apart.
    const key = middleEllipsis(n.node.key, 32);
    const full = note ? clip(`${key} → ${note}`, 64) : detail === 'value' ? clip(`${key} = ${n.node.value}`, 48) : key;
    // Where neither side of the disc has room for the whole label, it is cut to the roomier side.
    const room = Math.max(c.width - 4 - (n.x + n.r + 4), n.x - n.r - 4 - 4);
    const fit = Math.max(4, Math.floor(room / LABEL_CHAR_PX));
    const text = full.length * LABEL_CHAR_PX > room ? (detail === 'key' && !note ? middleEllipsis(n.node.key, fit) : clip(full, fit)) : full;
    const w = text.length * LABEL_CHAR_PX;
    // Beside the disc on the right, or on the left where the right would run out of the view.
    const x = n.x + n.r + 4 + w > c.width - 4 && n.x - n.r - 4 - w >= 4 ? n.x - n.r - 4 - w : n.x + n.r + 4;
    const y = n.y + LABEL_FONT_PX / 2 - 1;
    const box = { x0: x - 1, y0: y - LABEL_FONT_PX, x1: x + w + 1, y1: y + 3 };
    const keys = cells(box.x0, box.y0, box.x1, box.y1);
    const clash = keys.some((k) => grid.get(k)?.some((b) => b.x0 < box.x1 && box.x0 < b.x1 && b.y0 < box.y1 && box.y0 < b.y1));
    if (clash) continue;
    for (const k of keys) {
      const list = grid.get(k);
      if (list) list.push(box);
      else grid.set(k, [box]);
    }
    placed.push({ id: n.node.id, text, x, y, w, detail });
  }
  return { labels: placed, detail: level };
}
