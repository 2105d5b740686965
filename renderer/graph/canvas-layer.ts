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

  const strokeEdges = (edges: readonly ScreenEdge[], style: string, lineWidth: number, alpha: number): number => {
    if (!ctx || edges.length === 0) return 0;
    ctx.globalAlpha = alpha;
    ctx.strokeStyle = style;
    ctx.lineWidth = lineWidth;
    ctx.beginPath();
    for (const e of edges) {
      if (!e.seg) continue;
      ctx.moveTo(e.seg.x1, e.seg.y1);
      ctx.lineTo(e.seg.x2, e.seg.y2);
    }
    ctx.stroke();
    ctx.fillStyle = style;
    ctx.beginPath();
    let heads = 0;
    for (const e of edges) {
      if (!e.seg) continue;
      const [x0, y0, x1, y1, x2, y2] = arrowHead(e.seg, ARROW_PX + lineWidth);
      ctx.moveTo(x0, y0);
      ctx.lineTo(x1, y1);
      ctx.lineTo(x2, y2);
      ctx.closePath();
      heads++;
    }
    ctx.fill();
    ctx.globalAlpha = 1;
    return heads;
  };

  const ring = (x: number, y: number, r: number, style: string, lineWidth: number) => {
    if (!ctx) return;
    ctx.beginPath();
    ctx.arc(x, y, r, 0, Math.PI * 2);
    ctx.strokeStyle = style;
    ctx.lineWidth = lineWidth;
    ctx.stroke();
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
    draw(f: FrameInput): FrameDrawn {
      const drawn: FrameDrawn = { selectedId: null, pathNodes: [], pathEdges: [], reviewRings: [], arrowheads: 0 };
      if (!ctx) return drawn;
      const p = f.palette;
      const dpr = window.devicePixelRatio || 1;
      ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
      ctx.clearRect(0, 0, width, height);
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
        if (s.x < -s.r || s.y < -s.r || s.x > width + s.r || s.y > height + s.r) continue;
        const fill = fillOf(s.node, p);
        const list = byFill.get(fill);
        if (list) list.push(s);
        else byFill.set(fill, [s]);
      }
      for (const [fill, list] of byFill) {
        ctx.beginPath();
        for (const s of list) {
          ctx.moveTo(s.x + s.r, s.y);
          ctx.arc(s.x, s.y, s.r, 0, Math.PI * 2);
        }
        ctx.fillStyle = fill;
        ctx.fill();
      }
      // Review rings: one path for all of them, outside the disc and any path ring.
      ctx.beginPath();
      for (const s of f.scene.nodes) {
        if (!s.node.needsReview) continue;
        ctx.moveTo(s.x + s.r + REVIEW_RING_GAP, s.y);
        ctx.arc(s.x, s.y, s.r + REVIEW_RING_GAP, 0, Math.PI * 2);
        drawn.reviewRings.push(s.node.id);
      }
      ctx.strokeStyle = p.review;
      ctx.lineWidth = 2;
      if (drawn.reviewRings.length > 0) ctx.stroke();
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
        ctx.font = `${LABEL_FONT_PX}px system-ui, sans-serif`;
        ctx.lineWidth = 3;
        ctx.strokeStyle = p.bg;
        ctx.fillStyle = p.selected;
        for (const l of f.labels) {
          ctx.strokeText(l.text, l.x, l.y);
          ctx.fillText(l.text, l.x, l.y);
        }
      }
      return drawn;
    },
    destroy() {
      canvas.remove();
    },
  };
}
