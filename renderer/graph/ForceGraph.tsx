// A d3-force drawing of a dependency neighbourhood: SVG below a few hundred nodes (each node a
// focusable element), canvas above (thousands of nodes stay interactive). Zoom, pan, hover and
// click-to-select on both; the propagation path is drawn on top. Labels are drawn as text.
import { forceLink, forceManyBody, forceSimulation, forceX, forceY, select, zoom, zoomIdentity, type Simulation, type SimulationLinkDatum, type SimulationNodeDatum, type ZoomTransform } from 'd3';
import { useEffect, useMemo, useRef } from 'react';
import { cssVar } from '../theme/css-var';
import { attachGraphProbe, nodeAtPoint, SVG_NODE_LIMIT, toScreenPoint, type DrawnFrame } from './canvas-hit';
import { edgeKey } from './edges';

export { SVG_NODE_LIMIT };

export interface GraphNodeData {
  readonly id: string;
  readonly key: string;
  readonly value: string;
  readonly status: string;
  readonly isValid: boolean;
  readonly needsReview: boolean;
  readonly memoryType: string;
  readonly hop: number | null;
}

interface SimNode extends SimulationNodeDatum, GraphNodeData {}
interface SimLink extends SimulationLinkDatum<SimNode> {
  readonly key: string;
}

export interface ForceGraphProps {
  readonly nodes: readonly GraphNodeData[];
  readonly edges: ReadonlyArray<{ from: string; to: string }>;
  readonly focusId: string;
  readonly selectedId: string | null;
  readonly pathNodes: ReadonlySet<string>;
  readonly pathEdges: ReadonlySet<string>;
  onSelect(id: string): void;
  /** Forces a renderer (tests); by default canvas above SVG_NODE_LIMIT nodes. */
  readonly renderer?: 'svg' | 'canvas';
  /** Changes when the theme does, so canvas colours are re-read. */
  readonly themeKey?: string;
  /** Bumped to fit the whole graph into view again. */
  readonly fitKey?: number;
}

interface Palette {
  user: string;
  capability: string;
  organizational: string;
  superseded: string;
  proposal: string;
  review: string;
  edge: string;
  path: string;
  selected: string;
  text: string;
  bg: string;
}

function readPalette(): Palette {
  return {
    user: cssVar('--mt-user', '#2f6fe0'),
    capability: cssVar('--mt-capability', '#8b45d6'),
    organizational: cssVar('--mt-organizational', '#0f8f80'),
    superseded: cssVar('--st-superseded', '#8a909c'),
    proposal: cssVar('--st-proposal', '#c77700'),
    review: cssVar('--st-review', '#d9342b'),
    edge: cssVar('--border-strong', '#b6bac4'),
    path: cssVar('--accent', '#2a62d4'),
    selected: cssVar('--text', '#1b1e24'),
    text: cssVar('--muted', '#5b6270'),
    bg: cssVar('--surface', '#ffffff'),
  };
}

function fillOf(n: GraphNodeData, p: Palette): string {
  if (n.status === 'proposal') return p.proposal;
  if (!n.isValid) return p.superseded;
  return n.memoryType === 'capability' ? p.capability : n.memoryType === 'organizational' ? p.organizational : p.user;
}

function radiusOf(n: GraphNodeData, focusId: string, count: number): number {
  const base = count > 1000 ? 4 : count > SVG_NODE_LIMIT ? 5 : 7;
  return n.id === focusId ? base + 4 : base;
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
  /** Positions survive a refresh (live update), so the picture does not jump. */
  const positions = useRef(new Map<string, { x: number; y: number }>());
  const lastFocus = useRef<string | null>(null);
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
    let palette = readPalette();
    if (lastFocus.current !== focusId) positions.current.clear();
    lastFocus.current = focusId;
    const known = positions.current;
    const simNodes: SimNode[] = nodes.map((n) => ({ ...n, ...known.get(n.id) }));
    const reused = simNodes.filter((n) => known.has(n.id)).length;
    const settled = simNodes.length > 0 && reused / simNodes.length > 0.8;
    const byId = new Map(simNodes.map((n) => [n.id, n]));
    const focus = byId.get(focusId);
    if (focus) {
      focus.fx = 0;
      focus.fy = 0;
    }
    const links: SimLink[] = edges.filter((e) => byId.has(e.from) && byId.has(e.to)).map((e) => ({ source: e.from, target: e.to, key: edgeKey(e.from, e.to) }));
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
    // A warm start so the first frame already shows structure rather than a hairball.
    const warm = settled ? 0 : many ? 40 : 60;
    for (let i = 0; i < warm; i++) sim.tick();

    let transform: ZoomTransform = zoomIdentity.translate(width / 2, height / 2);
    let frame = 0;
    const schedule = () => {
      if (frame === 0) frame = requestAnimationFrame(() => ((frame = 0), draw()));
    };

    let draw: () => void;
    let surface: HTMLCanvasElement | SVGSVGElement;
    let resize: () => void;

    if (useCanvas) {
      const canvas = document.createElement('canvas');
      canvas.className = 'graph-surface';
      canvas.setAttribute('role', 'img');
      canvas.setAttribute('aria-label', `Dependency graph of ${nodes.length} facts (canvas); use the list below to open a fact`);
      canvas.tabIndex = 0;
      canvas.dataset.testid = 'graph-canvas';
      host.appendChild(canvas);
      surface = canvas;
      const ctx = canvas.getContext('2d');
      resize = () => {
        const dpr = window.devicePixelRatio || 1;
        canvas.width = Math.round(width * dpr);
        canvas.height = Math.round(height * dpr);
        canvas.style.width = `${width}px`;
        canvas.style.height = `${height}px`;
      };
      resize();
      let frames = 0;
      let lastFrame: DrawnFrame | null = null;
      draw = () => {
        if (!ctx) return;
        const { selectedId, pathNodes, pathEdges } = live.current;
        const drawnPathEdges: string[] = [];
        const drawnPathNodes: string[] = [];
        let drawnSelected: string | null = null;
        const dpr = window.devicePixelRatio || 1;
        ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
        ctx.clearRect(0, 0, width, height);
        ctx.translate(transform.x, transform.y);
        ctx.scale(transform.k, transform.k);
        ctx.lineWidth = 1 / transform.k;
        ctx.strokeStyle = palette.edge;
        ctx.globalAlpha = 0.6;
        ctx.beginPath();
        for (const l of links) {
          const s = l.source as SimNode;
          const t = l.target as SimNode;
          if (pathEdges.has(l.key)) continue;
          ctx.moveTo(s.x ?? 0, s.y ?? 0);
          ctx.lineTo(t.x ?? 0, t.y ?? 0);
        }
        ctx.stroke();
        ctx.globalAlpha = 1;
        if (pathEdges.size > 0) {
          ctx.strokeStyle = palette.path;
          ctx.lineWidth = 3 / transform.k;
          ctx.beginPath();
          for (const l of links) {
            if (!pathEdges.has(l.key)) continue;
            const s = l.source as SimNode;
            const t = l.target as SimNode;
            ctx.moveTo(s.x ?? 0, s.y ?? 0);
            ctx.lineTo(t.x ?? 0, t.y ?? 0);
            drawnPathEdges.push(l.key);
          }
          ctx.stroke();
        }
        for (const n of simNodes) {
          const r = radiusOf(n, focusId, simNodes.length);
          ctx.beginPath();
          ctx.arc(n.x ?? 0, n.y ?? 0, r, 0, Math.PI * 2);
          ctx.fillStyle = fillOf(n, palette);
          ctx.fill();
          if (n.needsReview || n.id === selectedId || pathNodes.has(n.id)) {
            ctx.lineWidth = (n.id === selectedId ? 3 : 2) / transform.k;
            ctx.strokeStyle = n.id === selectedId ? palette.selected : n.needsReview ? palette.review : palette.path;
            ctx.stroke();
            if (n.id === selectedId) drawnSelected = n.id;
            if (pathNodes.has(n.id)) drawnPathNodes.push(n.id);
          }
        }
        if (transform.k > 1.6 || simNodes.length <= 60) {
          ctx.fillStyle = palette.text;
          ctx.font = `${11 / transform.k}px system-ui, sans-serif`;
          for (const n of simNodes) ctx.fillText(n.key.slice(0, 40), (n.x ?? 0) + 8 / transform.k, (n.y ?? 0) + 3 / transform.k);
        }
        lastFrame = { frame: ++frames, nodes: simNodes.length, selectedId: drawnSelected, pathNodes: drawnPathNodes, pathEdges: drawnPathEdges, pathColour: palette.path };
      };
      const pick = (e: MouseEvent): SimNode | undefined => {
        const rect = canvas.getBoundingClientRect();
        return nodeAtPoint(simNodes, transform, e.clientX - rect.left, e.clientY - rect.top);
      };
      // Read-only: where each node is on screen and what the last frame drew (browser tests click
      // a node where it is drawn and check the propagation path was painted).
      attachGraphProbe(canvas, {
        nodes: () => {
          const rect = canvas.getBoundingClientRect();
          return simNodes.map((n) => {
            const [x, y] = toScreenPoint(transform, n.x ?? 0, n.y ?? 0);
            return { id: n.id, hop: n.hop, x: x + rect.left, y: y + rect.top, r: radiusOf(n, focusId, simNodes.length) * transform.k };
          });
        },
        nodeAt: (clientX, clientY) => {
          const rect = canvas.getBoundingClientRect();
          return nodeAtPoint(simNodes, transform, clientX - rect.left, clientY - rect.top)?.id ?? null;
        },
        settled: () => sim.alpha() < sim.alphaMin(),
        lastFrame: () => lastFrame,
      });
      canvas.addEventListener('click', (e) => {
        const n = pick(e);
        if (n) live.current.onSelect(n.id);
      });
      canvas.addEventListener('mousemove', (e) => {
        const tip = tipRef.current;
        if (!tip) return;
        const n = e.buttons === 0 ? pick(e) : undefined;
        if (!n) {
          tip.hidden = true;
          canvas.style.cursor = '';
          return;
        }
        canvas.style.cursor = 'pointer';
        tip.hidden = false;
        tip.textContent = `${n.key} = ${n.value.length > 140 ? `${n.value.slice(0, 140)}…` : n.value} (${n.status}${n.needsReview ? ', needs review' : ''}, ${n.hop === null ? 'on the propagation path' : `hop ${n.hop}`})`;
        const rect = canvas.getBoundingClientRect();
        tip.style.transform = `translate(${e.clientX - rect.left + 12}px, ${e.clientY - rect.top + 12}px)`;
      });
      canvas.addEventListener('mouseleave', () => {
        if (tipRef.current) tipRef.current.hidden = true;
      });
    } else {
      const svg = select(host)
        .append('svg')
        .attr('class', 'graph-surface')
        .attr('role', 'group')
        .attr('aria-label', `Dependency graph of ${nodes.length} facts`)
        .attr('data-testid', 'graph-svg');
      surface = svg.node() as SVGSVGElement;
      resize = () => {
        svg.attr('width', width).attr('height', height);
      };
      resize();
      const root = svg.append('g');
      const linkSel = root.append('g').attr('class', 'graph-links').selectAll<SVGLineElement, SimLink>('line').data(links).join('line');
      const nodeSel = root
        .append('g')
        .attr('class', 'graph-nodes')
        .selectAll<SVGGElement, SimNode>('g')
        .data(simNodes, (d) => d.id)
        .join('g')
        .attr('class', 'graph-node')
        .attr('role', 'button')
        .attr('tabindex', 0)
        .attr('data-fact-id', (d) => d.id)
        .attr('aria-label', (d) => `${d.key}: ${d.value.slice(0, 80)} (${d.status}${d.needsReview ? ', needs review' : ''})`)
        .on('click', (_e, d) => live.current.onSelect(d.id))
        .on('keydown', (e: KeyboardEvent, d) => {
          if (e.key === 'Enter' || e.key === ' ') {
            e.preventDefault();
            live.current.onSelect(d.id);
          }
        });
      nodeSel.append('circle').attr('r', (d) => radiusOf(d, focusId, simNodes.length));
      nodeSel.append('title').text((d) => `${d.key} = ${d.value}\n${d.status}${d.needsReview ? ', needs review' : ''} · ${d.hop === null ? 'on the propagation path' : `hop ${d.hop}`}`);
      if (simNodes.length <= 120) {
        nodeSel
          .append('text')
          .attr('x', 10)
          .attr('y', 4)
          .text((d) => (d.key.length > 32 ? `${d.key.slice(0, 32)}…` : d.key));
      }
      draw = () => {
        const { selectedId, pathNodes, pathEdges } = live.current;
        root.attr('transform', transform.toString());
        linkSel
          .attr('x1', (l) => (l.source as SimNode).x ?? 0)
          .attr('y1', (l) => (l.source as SimNode).y ?? 0)
          .attr('x2', (l) => (l.target as SimNode).x ?? 0)
          .attr('y2', (l) => (l.target as SimNode).y ?? 0)
          .attr('class', (l) => (pathEdges.has(l.key) ? 'graph-link on-path' : 'graph-link'));
        nodeSel
          .attr('transform', (d) => `translate(${d.x ?? 0},${d.y ?? 0})`)
          .attr('class', (d) =>
            ['graph-node', `mt-${d.memoryType}`, `st-${d.status}`, d.isValid ? 'valid' : 'invalid', d.needsReview ? 'review' : '', d.id === selectedId ? 'selected' : '', pathNodes.has(d.id) ? 'on-path' : '', d.id === focusId ? 'focus' : '']
              .filter(Boolean)
              .join(' '),
          )
          .attr('aria-pressed', (d) => String(d.id === selectedId));
      };
    }

    const z = zoom<HTMLCanvasElement | SVGSVGElement, unknown>()
      .extent(() => [
        [0, 0],
        [width, height],
      ])
      .scaleExtent([0.1, 8])
      .on('zoom', (e: { transform: ZoomTransform }) => {
        transform = e.transform;
        schedule();
      });
    const surfaceSel = select(surface as HTMLCanvasElement | SVGSVGElement);
    /** The transform that shows every node, centred, no larger than 1.5x. */
    const fitted = (): ZoomTransform => {
      let x0 = Infinity;
      let y0 = Infinity;
      let x1 = -Infinity;
      let y1 = -Infinity;
      for (const n of simNodes) {
        x0 = Math.min(x0, n.x ?? 0);
        y0 = Math.min(y0, n.y ?? 0);
        x1 = Math.max(x1, n.x ?? 0);
        y1 = Math.max(y1, n.y ?? 0);
      }
      if (!Number.isFinite(x0)) return zoomIdentity.translate(width / 2, height / 2);
      const pad = 30;
      const k = Math.min(useCanvas ? 1.5 : 1, (width - pad * 2) / Math.max(1, x1 - x0), (height - pad * 2) / Math.max(1, y1 - y0));
      return zoomIdentity.translate(width / 2 - (k * (x0 + x1)) / 2, height / 2 - (k * (y0 + y1)) / 2).scale(k);
    };
    if (!settled) transform = fitted();
    surfaceSel.call(z).call(z.transform, transform);
    fitView.current = () => surfaceSel.call(z.transform, fitted());
    sim.on('tick', () => {
      for (const n of simNodes) known.set(n.id, { x: n.x ?? 0, y: n.y ?? 0 });
      schedule();
    });
    sim.alpha(settled ? 0.05 : many ? 0.5 : 0.6).restart();
    redraw.current = schedule;
    schedule();

    let ro: ResizeObserver | undefined;
    if (typeof ResizeObserver === 'function') {
      ro = new ResizeObserver(() => {
        const w = host.clientWidth;
        const h = host.clientHeight;
        if (w > 0 && h > 0 && (w !== width || h !== height)) {
          width = w;
          height = h;
          resize();
          schedule();
        }
      });
      ro.observe(host);
    }
    refreshPalette.current = () => {
      palette = readPalette();
      schedule();
    };

    return () => {
      sim.stop();
      ro?.disconnect();
      if (frame) cancelAnimationFrame(frame);
      surfaceSel.on('.zoom', null);
      surface.remove();
      redraw.current = () => {};
      refreshPalette.current = () => {};
      fitView.current = () => {};
    };
  }, [signature, focusId, renderer]);

  useEffect(() => {
    redraw.current();
  }, [props.selectedId, props.pathNodes, props.pathEdges]);

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
      <div className="graph-tip" ref={tipRef} hidden role="tooltip" />
    </div>
  );
}
