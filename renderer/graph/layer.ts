// What a graph renderer (canvas or SVG) is given for one frame and reports back, so the
// component can swap one for the other.
import type { PlacedLabel } from './labels';
import type { Palette } from './palette';
import type { Scene } from './scene';

export interface FrameInput {
  readonly scene: Scene;
  readonly labels: readonly PlacedLabel[];
  readonly focusId: string;
  readonly selectedId: string | null;
  readonly pathNodes: ReadonlySet<string>;
  readonly pathEdges: ReadonlySet<string>;
  /** The edge under the pointer (its key), drawn emphasised. */
  readonly hoverEdge: string | null;
  readonly palette: Palette;
}

/** What the frame drew, counted while drawing it. */
export interface FrameDrawn {
  readonly selectedId: string | null;
  readonly pathNodes: string[];
  readonly pathEdges: string[];
  readonly reviewRings: string[];
  readonly arrowheads: number;
}

export interface GraphLayer {
  readonly surface: HTMLCanvasElement | SVGSVGElement;
  resize(width: number, height: number): void;
  draw(frame: FrameInput): FrameDrawn;
  /** Draws the last frame again moved by (dx, dy) screen pixels, from what it cached (a pan:
   * nothing moved but the view). Absent when the renderer keeps no such cache. */
  replay?(dx: number, dy: number): void;
  /** Keeps what is on screen as a still picture (a drag: everything but the dragged node). */
  snapshot?(): void;
  /** Draws the still picture and `frame` over it (the dragged node and its edges), so a drag
   * frame costs a copy and a few shapes, not the whole graph. */
  overlay?(frame: FrameInput): void;
  destroy(): void;
}

/** Node rings, in screen pixels outside the disc: path on the disc's edge, review just outside
 * it, selection outermost, so none hides another. */
export const REVIEW_RING_GAP = 3;
export const SELECTED_RING_GAP = 6.5;
export const ARROW_PX = 7;
