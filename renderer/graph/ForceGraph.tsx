// A d3-force drawing of a dependency neighbourhood: SVG below a few hundred nodes (each node a
// focusable element), canvas above (thousands of nodes stay interactive). This component wires
// the parts together: the layout (simulation.ts), one frame in screen space (scene.ts, labels.ts),
// a renderer (svg-layer.ts or canvas-layer.ts) and the pointer (interaction.ts).
import { useEffect, useMemo, useRef } from 'react';
import { attachGraphProbe, nodeAtPoint, SVG_NODE_LIMIT, type DrawnFrame, type ViewTransform } from './canvas-hit';
import { createCanvasLayer } from './canvas-layer';
import { attachInteraction, type Hover } from './interaction';
import { LABEL_FONT_PX, LABEL_LINE_PX, planLabels, type PlacedLabel } from './labels';
import { readPalette } from './palette';
import { edgeLabel, nodeStatus, projectScene, sceneAround, type Scene } from './scene';
import { buildModel, FIT_MAX_ZOOM, fitTransform, rememberPositions, startModel, type GraphNodeData, type Positions } from './simulation';
import { createSvgLayer } from './svg-layer';

export { SVG_NODE_LIMIT };
export type { GraphNodeData };

export interface ForceGraphProps {
  readonly nodes: readonly GraphNodeData[];
  readonly edges: ReadonlyArray<{ from: string; to: string }>;
  readonly focusId: string;
  readonly selectedId: string | null;
  readonly pathNodes: ReadonlySet<string>;
  readonly pathEdges: ReadonlySet<string>;
  onSelect(id: string): void;
  /** Words always shown beside a node (the upstream change's new value). */
  readonly annotations?: ReadonlyMap<string, string>;
  /** Forces a renderer (tests); by default canvas above SVG_NODE_LIMIT nodes. */
  readonly renderer?: 'svg' | 'canvas';
  /** Changes when the theme does, so canvas colours are re-read. */
  readonly themeKey?: string;
  /** Bumped to fit the whole graph into view again. */
  readonly fitKey?: number;
}

const NO_ANNOTATIONS: ReadonlyMap<string, string> = new Map();

function hoverText(h: Hover, annotations: ReadonlyMap<string, string>): string {
  if (h.kind === 'edge') return `${edgeLabel(h.link)}\n(a change to ${h.link.target.key} flags ${h.link.source.key} for review)`;
  const n = h.node;
  const note = annotations.get(n.id);
  return `${n.key} = ${n.value.length > 140 ? `${n.value.slice(0, 140)}…` : n.value}${note ? `\nnow: ${note}` : ''} (${nodeStatus(n)}${n.needsReview ? ', needs review' : ''}, ${n.hop === null ? 'on the propagation path' : `hop ${n.hop}`})`;
}

export function ForceGraph(props: ForceGraphProps) {
  const { nodes, edges, focusId, renderer, themeKey } = props;
  const hostRef = useRef<HTMLDivElement>(null);
  const tipRef = useRef<HTMLDivElement>(null);
  const live = useRef(props);
  live.current = props;
  const redraw = useRef<() => void>(() => {});
  const refreshPalette = useRef<() => void>(() => {});
  const fitView = useRef<() => void>(() => {});
  /** Positions and zoom survive a refresh (live update), so the picture does not jump. */
  const positions = useRef<Positions>(new Map());
  const lastTransform = useRef<ViewTransform | null>(null);
  const lastFocus = useRef<string | null>(null);
  /** The ids of the graph last laid out: a live refresh of the same facts keeps the view. */
  const lastIds = useRef('');
  const signature = useMemo(
    () => `${nodes.map((n) => `${n.id}|${n.status}|${n.needsReview ? 1 : 0}|${n.hop}`).join(',')}#${edges.map((e) => `${e.from}>${e.to}`).join(',')}`,
    [nodes, edges],
  );

  useEffect(() => {
    const host = hostRef.current;
    if (!host) return;
    const { nodes, edges } = live.current;
    const useCanvas = (renderer ?? (nodes.length > SVG_NODE_LIMIT ? 'canvas' : 'svg')) === 'canvas';
    let width = host.clientWidth || 800;
    let height = host.clientHeight || 520;
    if (lastFocus.current !== focusId) {
      positions.current.clear();
      lastTransform.current = null;
    }
    lastFocus.current = focusId;
    // Another neighbourhood (other hops, limit or centre) is fitted into view; the same facts
    // refreshed keep the reader's zoom.
    const ids = nodes.map((n) => n.id).join(',');
    const sameFacts = ids === lastIds.current;
    lastIds.current = ids;
    const model = buildModel(nodes, edges, focusId, positions.current);
    const layer = useCanvas ? createCanvasLayer(host, nodes.length) : createSvgLayer(host, model, (id) => live.current.onSelect(id));
    layer.resize(width, height);
    let palette = readPalette();
    const fitted = () => fitTransform(model.nodes, width, height, FIT_MAX_ZOOM);
    let transform: ViewTransform = sameFacts && lastTransform.current ? lastTransform.current : fitted();
    /** Until the reader zooms, pans or drags, the view follows the settling layout so it always
     * shows the whole graph (never a blank canvas). */
    let autoFit = !(sameFacts && lastTransform.current);
    let scene: Scene = projectScene(model, transform, focusId);
    let labels: PlacedLabel[] = [];
    let hover: Hover | null = null;
    let frames = 0;
    let lastFrame: DrawnFrame | null = null;

    /** Set by anything but a pan: the next frame is drawn afresh rather than replayed. */
    let dirty = true;
    /** The transform of the last frame drawn afresh. */
    let drawnAt: ViewTransform = transform;
    let settleTimer: ReturnType<typeof setTimeout> | undefined;
    const PAN_SETTLE_MS = 120;
    /** The node being dragged, and whether the rest of the graph is kept as a still picture
     * (drawn once when the drag starts; each drag frame draws only the moving node over it). */
    let dragging: string | null = null;
    let stillReady = false;

    const frameInput = (sceneToDraw: Scene, labelsToDraw: readonly PlacedLabel[]) => ({
      scene: sceneToDraw,
      labels: labelsToDraw,
      focusId,
      selectedId: live.current.selectedId,
      pathNodes: live.current.pathNodes,
      pathEdges: live.current.pathEdges,
      hoverEdge: hover?.kind === 'edge' ? hover.link.key : null,
      palette,
    });

    /** A drag frame while the layout rests: the still picture and the moving node over it. */
    const drawDrag = (id: string): boolean => {
      if (!layer.snapshot || !layer.overlay || model.sim.alpha() >= model.sim.alphaMin()) return false;
      scene = projectScene(model, transform, focusId);
      const { moving, rest } = sceneAround(scene, id);
      if (!stillReady) {
        layer.draw(
          frameInput(
            rest,
            labels.filter((l) => l.id !== id),
          ),
        );
        layer.snapshot();
        stillReady = true;
      }
      layer.overlay(frameInput(moving, []));
      return true;
    };

    const draw = () => {
      if (dragging !== null && drawDrag(dragging)) {
        dirty = false;
        return;
      }
      stillReady = false;
      // A pan moves only the view: the last frame is replayed shifted (no layout, projection or
      // label placement per frame); once the pan rests, a fresh frame labels what came into view.
      if (!dirty && layer.replay && transform.k === drawnAt.k) {
        layer.replay(transform.x - drawnAt.x, transform.y - drawnAt.y);
        if (settleTimer) clearTimeout(settleTimer);
        settleTimer = setTimeout(() => {
          dirty = true;
          schedule();
        }, PAN_SETTLE_MS);
        return;
      }
      dirty = false;
      drawnAt = transform;
      const { selectedId, pathNodes, pathEdges } = live.current;
      const annotations = live.current.annotations ?? NO_ANNOTATIONS;
      scene = projectScene(model, transform, focusId);
      const plan = planLabels(scene.nodes, { width, height, k: transform.k, focusId, selectedId, pathNodes, annotations });
      labels = plan.labels;
      const drawn = layer.draw({
        scene,
        labels,
        focusId,
        selectedId,
        pathNodes,
        pathEdges,
        hoverEdge: hover?.kind === 'edge' ? hover.link.key : null,
        palette,
      });
      lastFrame = {
        frame: ++frames,
        nodes: model.nodes.length,
        ...drawn,
        pathColour: palette.path,
        labels: labels.length,
        labelFontPx: LABEL_FONT_PX,
        labelDetail: plan.detail,
        zoom: transform.k,
      };
    };
    let frame = 0;
    const schedule = () => {
      if (frame === 0) frame = requestAnimationFrame(() => ((frame = 0), draw()));
    };
    /** Something other than the view moved: draw afresh. */
    const redrawAll = () => {
      dirty = true;
      stillReady = false;
      schedule();
    };

    const showTip = (h: Hover | null) => {
      const changed = (h?.kind === 'edge' ? h.link.key : null) !== (hover?.kind === 'edge' ? hover.link.key : null);
      hover = h;
      if (changed) redrawAll();
      const tip = tipRef.current;
      if (!tip) return;
      if (!h) {
        tip.hidden = true;
        return;
      }
      tip.hidden = false;
      tip.dataset.kind = h.kind;
      tip.textContent = hoverText(h, live.current.annotations ?? NO_ANNOTATIONS);
      tip.style.transform = `translate(${h.x + 12}px, ${h.y + 12}px)`;
    };

    const interaction = attachInteraction({
      surface: layer.surface,
      model,
      size: () => [width, height],
      scene: () => scene,
      transform: () => transform,
      onTransform: (t, byUser) => {
        if (byUser) autoFit = false;
        if (t.k !== transform.k || t.x !== transform.x || t.y !== transform.y) stillReady = false;
        transform = t;
        lastTransform.current = t;
        schedule();
      },
      onSelect: (id) => live.current.onSelect(id),
      onHover: showTip,
      onDrag: (node) => {
        autoFit = false;
        if (dragging !== node.id) stillReady = false;
        dragging = node.id;
        dirty = true;
        schedule();
      },
      onDragEnd: () => {
        dragging = null;
        stillReady = false;
        redrawAll();
      },
    });
    interaction.setTransform(transform);
    fitView.current = () => {
      autoFit = true;
      interaction.setTransform(fitted());
    };

    const rect = () => layer.surface.getBoundingClientRect();
    // Read-only: where nodes, edges and labels are on screen and what the last frame drew
    // (browser tests act where things are drawn and check what was painted).
    attachGraphProbe(layer.surface, {
      nodes: () => {
        const r = rect();
        const scene = projectScene(model, transform, focusId);
        return scene.nodes.map((s) => ({ id: s.node.id, hop: s.node.hop, x: s.x + r.left, y: s.y + r.top, r: s.r }));
      },
      edges: () => {
        const r = rect();
        const scene = projectScene(model, transform, focusId);
        return scene.edges.flatMap((e) =>
          e.seg
            ? [{ from: e.link.source.id, to: e.link.target.id, x1: e.seg.x1 + r.left, y1: e.seg.y1 + r.top, x2: e.seg.x2 + r.left, y2: e.seg.y2 + r.top }]
            : [],
        );
      },
      labels: () => {
        // Labels as drawn: during a pan, moved with the replayed frame.
        const dx = transform.k === drawnAt.k ? transform.x - drawnAt.x : 0;
        const dy = transform.k === drawnAt.k ? transform.y - drawnAt.y : 0;
        const r = rect();
        return labels.map((l) => ({
          id: l.id,
          text: l.text,
          left: l.x + dx + r.left,
          top: l.y - LABEL_FONT_PX + dy + r.top,
          right: l.x + l.w + dx + r.left,
          bottom: l.y - LABEL_FONT_PX + LABEL_LINE_PX + dy + r.top,
        }));
      },
      nodeAt: (clientX, clientY) => {
        const r = rect();
        return nodeAtPoint(model.nodes, transform, clientX - r.left, clientY - r.top)?.id ?? null;
      },
      settled: () => model.sim.alpha() < model.sim.alphaMin(),
      lastFrame: () => lastFrame,
    });

    model.sim.on('tick', () => {
      rememberPositions(model, positions.current);
      dirty = true;
      if (autoFit) interaction.setTransform(fitted());
      else schedule();
    });
    startModel(model);
    redraw.current = redrawAll;
    redrawAll();

    let ro: ResizeObserver | undefined;
    if (typeof ResizeObserver === 'function') {
      ro = new ResizeObserver(() => {
        const w = host.clientWidth;
        const h = host.clientHeight;
        if (w > 0 && h > 0 && (w !== width || h !== height)) {
          width = w;
          height = h;
          layer.resize(w, h);
          dirty = true;
          if (autoFit) interaction.setTransform(fitted());
          else schedule();
        }
      });
      ro.observe(host);
    }
    refreshPalette.current = () => {
      palette = readPalette();
      redrawAll();
    };

    return () => {
      model.sim.stop();
      ro?.disconnect();
      if (frame) cancelAnimationFrame(frame);
      if (settleTimer) clearTimeout(settleTimer);
      interaction.destroy();
      layer.destroy();
      redraw.current = () => {};
      refreshPalette.current = () => {};
      fitView.current = () => {};
    };
  }, [signature, focusId, renderer]);

  useEffect(() => {
    redraw.current();
  }, [props.selectedId, props.pathNodes, props.pathEdges, props.annotations]);

  useEffect(() => {
    if (props.fitKey) fitView.current();
  }, [props.fitKey]);

  useEffect(() => {
    // Canvas colours come from CSS variables: re-read after the theme switched.
    const t = setTimeout(() => refreshPalette.current(), 0);
    return () => clearTimeout(t);
  }, [themeKey]);

  return (
    <div className="graph-host" ref={hostRef} data-testid="graph-host">
      <div className="graph-tip" ref={tipRef} hidden role="tooltip" data-testid="graph-tip" />
    </div>
  );
}
