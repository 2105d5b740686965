// The canvas renderer of the dependency graph (thousands of nodes): directed edges with
// arrowheads, discs, rings and labels, all in screen pixels, in a few batched paths per frame.
import { arrowHead } from './edges';
import { LABEL_FONT_PX } from './labels';
import { ARROW_PX, REVIEW_RING_GAP, SELECTED_RING_GAP, type FrameDrawn, type FrameInput, type GraphLayer } from './layer';
import { fillOf } from './palette';
import type { ScreenEdge } from './scene';

export function createCanvasLayer(host: HTMLElement, nodeCount: number): GraphLayer {
  const canvas = document.createElement('canvas');
  canvas.className = 'graph-surface';
  canvas.setAttribute('role', 'img');
  canvas.setAttribute('aria-label', `Dependency graph of ${nodeCount} facts (canvas); use the list below to open a fact`);
  canvas.tabIndex = 0;
  canvas.dataset.testid = 'graph-canvas';
  host.appendChild(canvas);
  const ctx = canvas.getContext('2d');
  let width = 0;
  let height = 0;
  /** The still picture under a drag (see snapshot). */
  let still: HTMLCanvasElement | null = null;
  /** The last full frame as paths and labels in screen pixels, replayed while the view pans. */
  let cache: Array<(c: CanvasRenderingContext2D) => void> = [];

  /** Runs a drawing step now and keeps it for replays. */
  const op = (f: (c: CanvasRenderingContext2D) => void) => {
    if (!ctx) return;
    f(ctx);
    cache.push(f);
  };
  /** Far outside the view nothing is drawn; within a view's size of it, it is, so a pan replays
   * a frame without holes. */
  let margin = 0;
  const offView = (x: number, y: number) => x < -margin || y < -margin || x > width + margin || y > height + margin;

  const strokeEdges = (edges: readonly ScreenEdge[], style: string, lineWidth: number, alpha: number): number => {
    if (!ctx || edges.length === 0) return 0;
    const lines = new Path2D();
    const heads = new Path2D();
    let count = 0;
    for (const e of edges) {
      if (!e.seg) continue;
      count++;
      if (offView(e.seg.x1, e.seg.y1) && offView(e.seg.x2, e.seg.y2)) continue;
      lines.moveTo(e.seg.x1, e.seg.y1);
      lines.lineTo(e.seg.x2, e.seg.y2);
      const [x0, y0, x1, y1, x2, y2] = arrowHead(e.seg, ARROW_PX + lineWidth);
      heads.moveTo(x0, y0);
      heads.lineTo(x1, y1);
      heads.lineTo(x2, y2);
      heads.closePath();
    }
    op((c) => {
      c.globalAlpha = alpha;
      c.strokeStyle = style;
      c.lineWidth = lineWidth;
      c.stroke(lines);
      c.fillStyle = style;
      c.fill(heads);
      c.globalAlpha = 1;
    });
    return count;
  };

  const ring = (x: number, y: number, r: number, style: string, lineWidth: number) => {
    const p = new Path2D();
    p.arc(x, y, r, 0, Math.PI * 2);
    op((c) => {
      c.strokeStyle = style;
      c.lineWidth = lineWidth;
      c.stroke(p);
    });
  };

  /** One frame; `fresh` clears the canvas first (and starts a new replay cache), otherwise it is
   * drawn over what is there (a drag's moving part). */
  const paint = (f: FrameInput, fresh: boolean): FrameDrawn => {
    const drawn: FrameDrawn = { selectedId: null, pathNodes: [], pathEdges: [], reviewRings: [], arrowheads: 0 };
    if (!ctx) return drawn;
    const p = f.palette;
    const dpr = window.devicePixelRatio || 1;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    if (fresh) ctx.clearRect(0, 0, width, height);
    cache = [];
    margin = Math.max(width, height);
    const plain: ScreenEdge[] = [];
    const onPath: ScreenEdge[] = [];
    let hovered: ScreenEdge | undefined;
    for (const e of f.scene.edges) {
      if (f.pathEdges.has(e.link.key)) onPath.push(e);
      else plain.push(e);
      if (e.link.key === f.hoverEdge) hovered = e;
    }
    let heads = strokeEdges(plain, p.edge, 1, 0.75);
    heads += strokeEdges(onPath, p.path, 3, 1);
    for (const e of onPath) drawn.pathEdges.push(e.link.key);
    if (hovered) strokeEdges([hovered], p.selected, 2, 1);
    (drawn as { arrowheads: number }).arrowheads = heads;

    // Discs: one path per colour (a handful of fills per frame, not one per node).
    const byFill = new Map<string, typeof f.scene.nodes>();
    for (const s of f.scene.nodes) {
      if (offView(s.x, s.y)) continue;
      const fill = fillOf(s.node, p);
      const list = byFill.get(fill);
      if (list) list.push(s);
      else byFill.set(fill, [s]);
    }
    for (const [fill, list] of byFill) {
      const discs = new Path2D();
      for (const s of list) {
        discs.moveTo(s.x + s.r, s.y);
        discs.arc(s.x, s.y, s.r, 0, Math.PI * 2);
      }
      op((c) => {
        c.fillStyle = fill;
        c.fill(discs);
      });
    }
    // Review rings: one path for all of them, outside the disc and any path ring.
    const rings = new Path2D();
    for (const s of f.scene.nodes) {
      if (!s.node.needsReview) continue;
      drawn.reviewRings.push(s.node.id);
      if (offView(s.x, s.y)) continue;
      rings.moveTo(s.x + s.r + REVIEW_RING_GAP, s.y);
      rings.arc(s.x, s.y, s.r + REVIEW_RING_GAP, 0, Math.PI * 2);
    }
    if (drawn.reviewRings.length > 0)
      op((c) => {
        c.strokeStyle = p.review;
        c.lineWidth = 2;
        c.stroke(rings);
      });
    for (const s of f.scene.nodes) {
      const id = s.node.id;
      if (f.pathNodes.has(id)) {
        ring(s.x, s.y, s.r, p.path, 2);
        drawn.pathNodes.push(id);
      }
      if (id === f.selectedId) {
        ring(s.x, s.y, s.r + SELECTED_RING_GAP, p.selected, 2.5);
        (drawn as { selectedId: string | null }).selectedId = id;
      }
    }
    if (f.labels.length > 0) {
      const labels = f.labels;
      op((c) => {
        c.font = `${LABEL_FONT_PX}px system-ui, sans-serif`;
        c.lineWidth = 3;
        c.strokeStyle = p.bg;
        c.fillStyle = p.selected;
        for (const l of labels) {
          c.strokeText(l.text, l.x, l.y);
          c.fillText(l.text, l.x, l.y);
        }
      });
    }
    return drawn;
  };

  return {
    surface: canvas,
    resize(w, h) {
      width = w;
      height = h;
      const dpr = window.devicePixelRatio || 1;
      canvas.width = Math.round(w * dpr);
      canvas.height = Math.round(h * dpr);
      canvas.style.width = `${w}px`;
      canvas.style.height = `${h}px`;
    },
    draw: (f) => paint(f, true),
    snapshot() {
      still ??= document.createElement('canvas');
      still.width = canvas.width;
      still.height = canvas.height;
      still.getContext('2d')?.drawImage(canvas, 0, 0);
    },
    overlay(f) {
      if (!ctx || !still) return;
      ctx.setTransform(1, 0, 0, 1, 0, 0);
      ctx.clearRect(0, 0, canvas.width, canvas.height);
      ctx.drawImage(still, 0, 0);
      paint(f, false);
    },
    replay(dx, dy) {
      if (!ctx) return;
      const dpr = window.devicePixelRatio || 1;
      ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
      ctx.clearRect(0, 0, width, height);
      ctx.translate(dx, dy);
      for (const f of cache) f(ctx);
      ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    },
    destroy() {
      canvas.remove();
    },
  };
}
