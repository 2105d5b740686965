// The SVG renderer of the dependency graph (a few hundred nodes): each fact a focusable element
// (Enter selects it), directed edges with arrowhead markers, a needs_review ring of its own, and
// labels in a layer above the nodes. Everything is placed in screen pixels, so zooming spreads
// the graph out while discs and text keep their size.
import { select } from 'd3';
import { LABEL_FONT_PX } from './labels';
import { REVIEW_RING_GAP, SELECTED_RING_GAP, type FrameDrawn, type FrameInput, type GraphLayer } from './layer';
import { nodeStatus } from './scene';
import type { GraphModel, SimLink, SimNode } from './simulation';

let instances = 0;

export function createSvgLayer(host: HTMLElement, model: GraphModel, onKeySelect: (id: string) => void): GraphLayer {
  const uid = `g${++instances}`;
  const svg = select(host)
    .append('svg')
    .attr('class', 'graph-surface')
    .attr('role', 'group')
    .attr('aria-label', `Dependency graph of ${model.nodes.length} facts; arrows point from a fact to the facts that depend on it`)
    .attr('data-testid', 'graph-svg');
  const defs = svg.append('defs');
  for (const [id, cls] of [
    [`${uid}-arrow`, 'graph-arrowhead'],
    [`${uid}-arrow-path`, 'graph-arrowhead on-path'],
    [`${uid}-arrow-hover`, 'graph-arrowhead hover'],
  ] as const) {
    defs
      .append('marker')
      .attr('id', id)
      .attr('viewBox', '0 0 10 10')
      .attr('refX', 10)
      .attr('refY', 5)
      .attr('markerUnits', 'userSpaceOnUse')
      .attr('markerWidth', cls.includes('on-path') ? 11 : 8)
      .attr('markerHeight', cls.includes('on-path') ? 11 : 8)
      .attr('orient', 'auto')
      .append('path')
      .attr('d', 'M0,0 L10,5 L0,10 z')
      .attr('class', cls);
  }
  const linkSel = svg
    .append('g')
    .attr('class', 'graph-links')
    .selectAll<SVGLineElement, SimLink>('line')
    .data(model.links)
    .join('line')
    .attr('data-from', (l) => l.source.id)
    .attr('data-to', (l) => l.target.id);
  const nodeSel = svg
    .append('g')
    .attr('class', 'graph-nodes')
    .selectAll<SVGGElement, SimNode>('g')
    .data(model.nodes, (d) => d.id)
    .join('g')
    .attr('class', 'graph-node')
    .attr('role', 'button')
    .attr('tabindex', 0)
    .attr('data-fact-id', (d) => d.id)
    .attr('aria-label', (d) => `${d.key}: ${d.value.slice(0, 80)} (${nodeStatus(d)}${d.needsReview ? ', needs review' : ''})`)
    .on('keydown', (e: KeyboardEvent, d) => {
      if (e.key === 'Enter' || e.key === ' ') {
        e.preventDefault();
        onKeySelect(d.id);
      }
    });
  nodeSel
    .filter((d) => d.needsReview)
    .append('circle')
    .attr('class', 'review-ring');
  nodeSel.append('circle').attr('class', 'graph-disc');
  nodeSel.append('circle').attr('class', 'select-ring');
  nodeSel
    .append('title')
    .text(
      (d) => `${d.key} = ${d.value}\n${nodeStatus(d)}${d.needsReview ? ', needs review' : ''} · ${d.hop === null ? 'on the propagation path' : `hop ${d.hop}`}`,
    );
  const labelLayer = svg.append('g').attr('class', 'graph-labels').attr('aria-hidden', 'true');

  return {
    surface: svg.node() as SVGSVGElement,
    resize(w, h) {
      svg.attr('width', w).attr('height', h);
    },
    draw(f: FrameInput): FrameDrawn {
      const drawn: FrameDrawn = { selectedId: null, pathNodes: [], pathEdges: [], reviewRings: [], arrowheads: 0 };
      const segs = new Map(f.scene.edges.map((e) => [e.link.key, e.seg]));
      let heads = 0;
      linkSel.each(function (l) {
        const seg = segs.get(l.key) ?? null;
        const onPath = f.pathEdges.has(l.key);
        const hover = f.hoverEdge === l.key;
        const el = select(this);
        if (!seg) {
          el.attr('visibility', 'hidden');
          return;
        }
        heads++;
        if (onPath) drawn.pathEdges.push(l.key);
        el.attr('visibility', null)
          .attr('x1', seg.x1)
          .attr('y1', seg.y1)
          .attr('x2', seg.x2)
          .attr('y2', seg.y2)
          .attr('class', `graph-link${onPath ? ' on-path' : ''}${hover ? ' hover' : ''}`)
          .attr('marker-end', `url(#${uid}-arrow${onPath ? '-path' : hover ? '-hover' : ''})`);
      });
      (drawn as { arrowheads: number }).arrowheads = heads;
      nodeSel
        .attr('transform', (d) => {
          const s = f.scene.byId.get(d.id);
          return `translate(${s?.x ?? 0},${s?.y ?? 0})`;
        })
        .attr('class', (d) =>
          [
            'graph-node',
            `mt-${d.memoryType}`,
            `st-${d.status}`,
            d.isValid ? 'valid' : 'invalid',
            d.needsReview ? 'review' : '',
            d.id === f.selectedId ? 'selected' : '',
            f.pathNodes.has(d.id) ? 'on-path' : '',
            d.id === f.focusId ? 'focus' : '',
          ]
            .filter(Boolean)
            .join(' '),
        )
        .attr('aria-pressed', (d) => String(d.id === f.selectedId));
      nodeSel.select<SVGCircleElement>('circle.graph-disc').attr('r', (d) => f.scene.byId.get(d.id)?.r ?? 5);
      nodeSel.select<SVGCircleElement>('circle.review-ring').attr('r', (d) => (f.scene.byId.get(d.id)?.r ?? 5) + REVIEW_RING_GAP);
      nodeSel.select<SVGCircleElement>('circle.select-ring').attr('r', (d) => (f.scene.byId.get(d.id)?.r ?? 5) + SELECTED_RING_GAP);
      nodeSel.each((d) => {
        if (d.needsReview) drawn.reviewRings.push(d.id);
        if (f.pathNodes.has(d.id)) drawn.pathNodes.push(d.id);
        if (d.id === f.selectedId) (drawn as { selectedId: string | null }).selectedId = d.id;
      });
      labelLayer
        .selectAll<SVGTextElement, (typeof f.labels)[number]>('text')
        .data(f.labels, (l) => l.id)
        .join('text')
        .attr('class', (l) => `graph-label${l.detail === 'value' ? ' detailed' : ''}`)
        .attr('data-fact-id', (l) => l.id)
        .attr('x', (l) => l.x)
        .attr('y', (l) => l.y)
        .attr('font-size', LABEL_FONT_PX)
        .text((l) => l.text);
      return drawn;
    },
    destroy() {
      svg.remove();
    },
  };
}
