// Pointer and wheel handling for either graph renderer: the wheel zooms, dragging empty space
// pans, dragging a node moves it (the layout flows around it and it stays where it is dropped),
// a click selects the node under the pointer, and hovering names a node or an edge.
import { select, zoom, zoomIdentity, type ZoomTransform } from 'd3';
import { edgeAtPoint, nodeAtPoint, toGraphPoint, type ViewTransform } from './canvas-hit';
import type { Scene } from './scene';
import { dragNodeTo, endDrag, type GraphModel, type SimLink, type SimNode } from './simulation';

export type Hover =
  | { readonly kind: 'node'; readonly node: SimNode; readonly x: number; readonly y: number }
  | { readonly kind: 'edge'; readonly link: SimLink; readonly x: number; readonly y: number };

export interface InteractionHooks {
  readonly surface: HTMLCanvasElement | SVGSVGElement;
  readonly model: GraphModel;
  size(): [number, number];
  scene(): Scene;
  transform(): ViewTransform;
  /** `byUser`: the wheel or a pan moved the view (not a fit asked for by the program). */
  onTransform(t: ViewTransform, byUser: boolean): void;
  onSelect(id: string): void;
  onHover(h: Hover | null): void;
  /** A node moved under the pointer: draw again. */
  onDrag(node: SimNode): void;
  /** The dragged node was let go. */
  onDragEnd?(): void;
}

export interface Interaction {
  setTransform(t: ViewTransform): void;
  destroy(): void;
}

/** Pointer travel, in pixels, after which a press on a node is a drag rather than a click. */
export const DRAG_THRESHOLD_PX = 3;

export function attachInteraction(h: InteractionHooks): Interaction {
  const el = h.surface;
  const local = (e: MouseEvent): [number, number] => {
    const rect = el.getBoundingClientRect();
    return [e.clientX - rect.left, e.clientY - rect.top];
  };
  /** The node a pointer event is on: the SVG element it hit, else the nearest disc. */
  const nodeOf = (e: MouseEvent): SimNode | undefined => {
    const target = e.target instanceof Element ? e.target.closest('[data-fact-id]') : null;
    const id = target?.getAttribute('data-fact-id');
    if (id && target?.classList.contains('graph-node')) return h.model.byId.get(id);
    const [sx, sy] = local(e);
    return nodeAtPoint(h.model.nodes, h.transform(), sx, sy);
  };

  const z = zoom<HTMLCanvasElement | SVGSVGElement, unknown>()
    .extent(() => [[0, 0], h.size()])
    .scaleExtent([0.05, 12])
    // Presses on a node belong to the node (drag, click); the zoom gets the rest.
    .filter((e: Event) => {
      if (e.type === 'wheel') return true;
      const m = e as MouseEvent;
      if (m.button || m.ctrlKey) return false;
      return !(e.type === 'mousedown' && nodeOf(m));
    })
    .on('zoom', (e: { transform: ZoomTransform; sourceEvent: unknown }) =>
      h.onTransform({ x: e.transform.x, y: e.transform.y, k: e.transform.k }, e.sourceEvent !== null && e.sourceEvent !== undefined),
    );
  const sel = select(el as HTMLCanvasElement | SVGSVGElement);
  sel.call(z).on('dblclick.zoom', null);

  let drag: { node: SimNode; x: number; y: number; moved: boolean; pointer: number } | null = null;
  let swallowClick = false;

  const onDown = (e: PointerEvent) => {
    if (e.button !== 0) return;
    const node = nodeOf(e);
    if (!node) return;
    drag = { node, x: e.clientX, y: e.clientY, moved: false, pointer: e.pointerId };
    el.setPointerCapture?.(e.pointerId);
    h.onHover(null);
  };
  const onMove = (e: PointerEvent) => {
    if (drag) {
      if (!drag.moved && Math.hypot(e.clientX - drag.x, e.clientY - drag.y) < DRAG_THRESHOLD_PX) return;
      drag.moved = true;
      el.style.cursor = 'grabbing';
      const [sx, sy] = local(e);
      const [gx, gy] = toGraphPoint(h.transform(), sx, sy);
      dragNodeTo(h.model, drag.node, gx, gy);
      h.onDrag(drag.node);
      return;
    }
    if (e.buttons !== 0) return;
    const [sx, sy] = local(e);
    const node = nodeAtPoint(h.model.nodes, h.transform(), sx, sy);
    if (node) {
      el.style.cursor = 'grab';
      h.onHover({ kind: 'node', node, x: sx, y: sy });
      return;
    }
    const edge = edgeAtPoint(h.scene().edges, sx, sy);
    el.style.cursor = edge ? 'help' : '';
    h.onHover(edge ? { kind: 'edge', link: edge.link, x: sx, y: sy } : null);
  };
  const onUp = (e: PointerEvent) => {
    if (!drag || e.pointerId !== drag.pointer) return;
    if (drag.moved) {
      endDrag(h.model);
      swallowClick = true;
      h.onDragEnd?.();
    }
    el.releasePointerCapture?.(e.pointerId);
    el.style.cursor = '';
    drag = null;
  };
  const onClick = (e: MouseEvent) => {
    if (swallowClick) {
      swallowClick = false;
      return;
    }
    const node = nodeOf(e);
    if (node) h.onSelect(node.id);
  };
  const onLeave = () => {
    if (!drag) h.onHover(null);
  };
  el.addEventListener('pointerdown', onDown as EventListener);
  el.addEventListener('pointermove', onMove as EventListener);
  el.addEventListener('pointerup', onUp as EventListener);
  el.addEventListener('pointercancel', onUp as EventListener);
  el.addEventListener('click', onClick as EventListener);
  el.addEventListener('pointerleave', onLeave);

  return {
    setTransform(t) {
      sel.call(z.transform, zoomIdentity.translate(t.x, t.y).scale(t.k));
    },
    destroy() {
      sel.on('.zoom', null);
      el.removeEventListener('pointerdown', onDown as EventListener);
      el.removeEventListener('pointermove', onMove as EventListener);
      el.removeEventListener('pointerup', onUp as EventListener);
      el.removeEventListener('pointercancel', onUp as EventListener);
      el.removeEventListener('click', onClick as EventListener);
      el.removeEventListener('pointerleave', onLeave);
    },
  };
}
