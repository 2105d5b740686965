// The supersession chain of a fact, drawn with d3 (zoom and pan): every version with its value,
// time, source and authority; versions that arrived late and lower-authority proposals in a side
// lane; each arrow numbered and labelled with what happened, and under the diagram every step
// with its full reason and what changed in the value. The as-of instant is marked, and the
// selected version is scrolled into view.
import { select, zoom, zoomIdentity, type ZoomBehavior } from 'd3';
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { Fact } from '../../shared/domain';
import { useQuery } from '../api/hooks';
import { Button } from '../ui/Button';
import { formatTime } from '../ui/format';
import { EmptyState, ErrorState, Loading } from '../ui/states';
import { CARD_H, CARD_W, clampLines, LABEL_H, labelText, labelWidth, layoutChain, MARGIN, type ChainArrow, type PlacedCard } from './layout';
import { cardText, readableReason, related, versionName } from './readable';
import { diffWords } from './value-diff';

const VALUE_CHARS = 26;
const VALUE_LINES = 3;

/** A card's status; in time travel, as it stood at the as-of instant. */
export function statusOf(card: PlacedCard, asOf: string | null): string {
  const f = card.fact;
  if (f.status === 'proposal') return 'proposal';
  if (asOf !== null) {
    if (card.validAtAsOf) return 'valid then';
    return Date.parse(f.ts) > Date.parse(asOf) ? 'not yet written then' : card.kind === 'late' ? 'arrived late' : 'superseded then';
  }
  if (card.kind === 'late') return 'arrived late';
  return f.isValid ? 'valid now' : 'superseded';
}

function Card({
  card,
  previous,
  selected,
  asOf,
  onSelect,
}: {
  card: PlacedCard;
  /** The value this version replaced (or, for a proposal, the one it failed to replace). */
  previous: string | null;
  selected: boolean;
  asOf: string | null;
  onSelect: (id: string) => void;
}) {
  const f = card.fact;
  const travelling = asOf !== null;
  const parts = useMemo(() => (previous === null ? null : diffWords(previous, f.value)), [previous, f.value]);
  const lines = clampLines(cardText(f.value, parts, VALUE_CHARS * VALUE_LINES), VALUE_CHARS, VALUE_LINES);
  const status = statusOf(card, asOf);
  const cls = [
    'chain-card',
    `chain-${f.status}`,
    card.kind === 'late' ? 'chain-late' : '',
    travelling && card.validAtAsOf ? 'valid-at' : '',
    selected ? 'selected' : '',
    f.needsReview ? 'review' : '',
  ]
    .filter(Boolean)
    .join(' ');
  const who = [f.source.type, f.source.authority].filter(Boolean).join(' · ');
  return (
    <g
      className={cls}
      transform={`translate(${card.x},${card.y})`}
      role="button"
      tabIndex={0}
      aria-label={`${card.kind === 'proposal' ? 'Proposal' : card.kind === 'late' ? 'Late version' : 'Version'} ${f.value.slice(0, 80)}, ${status}, ${formatTime(f.ts)}`}
      aria-pressed={selected}
      data-fact-id={f.id}
      data-kind={card.kind}
      onClick={() => onSelect(f.id)}
      onKeyDown={(e) => {
        if (e.key === 'Enter' || e.key === ' ') {
          e.preventDefault();
          onSelect(f.id);
        }
      }}
    >
      <title>{`${f.key} = ${f.value}\n${status} · ${formatTime(f.ts)}\nsource ${who}${f.supersessionReason ? `\n${readableReason(f.supersessionReason)}` : ''}`}</title>
      <rect width={CARD_W} height={CARD_H} rx={8} className="chain-card-box" />
      <text x={10} y={18} className="chain-card-status" data-as-of={travelling ? 'then' : 'now'}>
        {status}
      </text>
      {lines.map((l, i) => (
        <text key={i} x={10} y={35 + i * 15} className="chain-card-value">
          {l}
        </text>
      ))}
      <text x={10} y={CARD_H - 9} className="chain-card-meta">
        {clampLines(who, VALUE_CHARS, 1)[0]}
      </text>
    </g>
  );
}

/** Centres `el` in its nearest scrolling ancestor, vertically and horizontally. */
function scrollIntoNearest(el: Element): void {
  const r = el.getBoundingClientRect();
  for (let p = el.parentElement; p; p = p.parentElement) {
    const s = getComputedStyle(p);
    const scrollsY = /(auto|scroll)/.test(s.overflowY) && p.scrollHeight > p.clientHeight;
    const scrollsX = /(auto|scroll)/.test(s.overflowX) && p.scrollWidth > p.clientWidth;
    if (!scrollsY && !scrollsX) continue;
    const box = p.getBoundingClientRect();
    if (scrollsY) p.scrollTop += r.top + r.height / 2 - (box.top + box.height / 2);
    if (scrollsX && (r.left < box.left || r.right > box.right)) p.scrollLeft += r.left + r.width / 2 - (box.left + box.width / 2);
    if (scrollsY) return;
  }
}

function arrowTitle(a: ChainArrow): string {
  return `${a.step}. ${a.kind === 'proposal' ? 'Failed to replace' : 'Superseded'}: ${a.label}${a.reason ? ` — ${readableReason(a.reason)}` : ''}`;
}

function Arrow({ arrow }: { arrow: ChainArrow }) {
  const d = arrow.points.map((p, i) => `${i === 0 ? 'M' : 'L'}${p.x},${p.y}`).join(' ');
  return (
    <g className={`chain-arrow chain-arrow-${arrow.kind}`} data-step={arrow.step}>
      <title>{arrowTitle(arrow)}</title>
      <path d={d} markerEnd="url(#chain-arrowhead)" />
    </g>
  );
}

/** Drawn after the cards, so no card covers a label. */
function ArrowLabel({ arrow }: { arrow: ChainArrow }) {
  const textRef = useRef<SVGTextElement>(null);
  const [width, setWidth] = useState(labelWidth(arrow));
  // The layout reserves room from an estimate; the box hugs the text as drawn.
  useLayoutEffect(() => {
    const t = textRef.current;
    const w = t && typeof t.getComputedTextLength === 'function' ? t.getComputedTextLength() : 0;
    if (w > 0) setWidth(w);
  }, [arrow]);
  return (
    <g className={`chain-label chain-label-${arrow.kind}`} data-step={arrow.step}>
      <title>{arrowTitle(arrow)}</title>
      <rect x={arrow.labelAt.x - 3} y={arrow.labelAt.y} width={width + 6} height={LABEL_H} rx={3} className="chain-label-bg" />
      <text ref={textRef} x={arrow.labelAt.x} y={arrow.labelAt.y + LABEL_H - 3} className="chain-rule">
        {labelText(arrow)}
      </text>
    </g>
  );
}

function ValueDiff({ before, after }: { before: string; after: string }) {
  const parts = useMemo(() => diffWords(before, after), [before, after]);
  // Unrelated values: old and new one under the other, not interleaved word by word.
  if (!related(parts))
    return (
      <div className="chain-step-diff chain-step-replaced" aria-label="What changed in the value">
        <div>
          <span className="faint">was </span>
          <del className="diff-remove-text">
            <span className="sr-only">removed: </span>
            {before}
          </del>
        </div>
        <div>
          <span className="faint">now </span>
          <ins className="diff-add-text">
            <span className="sr-only">added: </span>
            {after}
          </ins>
        </div>
      </div>
    );
  return (
    <p className="chain-step-diff" aria-label="What changed in the value">
      {parts.map((p, i) =>
        p.kind === 'same' ? (
          <span key={i}>{p.text}</span>
        ) : p.kind === 'remove' ? (
          <del key={i} className="diff-remove-text">
            <span className="sr-only">removed: </span>
            {p.text}
          </del>
        ) : (
          <ins key={i} className="diff-add-text">
            <span className="sr-only">added: </span>
            {p.text}
          </ins>
        ),
      )}
    </p>
  );
}

function Steps({ arrows, onSelect }: { arrows: readonly ChainArrow[]; onSelect: (id: string) => void }) {
  if (arrows.length === 0) return null;
  return (
    <ol className="chain-steps list-plain" aria-label="What happened at each step">
      {arrows.map((a) => {
        const from = a.from.fact;
        const to = a.to.fact;
        return (
          <li key={a.step} className={`chain-step chain-step-${a.kind}`} data-step={a.step}>
            <div className="chain-step-head">
              <span className="chain-step-no">{a.step}</span> <strong>{a.label}</strong>
            </div>
            <div className="chain-step-route muted">
              {a.kind === 'proposal' ? 'the proposal ' : a.kind === 'late' ? 'the late version ' : ''}
              <button type="button" className="link-button" onClick={() => onSelect(from.id)} title={`${from.value}\n${formatTime(from.ts)}`}>
                {versionName(from)}
              </button>
              {a.kind === 'proposal' ? ' failed to replace ' : a.kind === 'late' ? ' was already outdated by ' : ' was replaced by '}
              <button type="button" className="link-button" onClick={() => onSelect(to.id)} title={`${to.value}\n${formatTime(to.ts)}`}>
                {versionName(to)}
              </button>
            </div>
            <p className="chain-step-reason" data-testid="chain-step-reason">
              {a.reason ? readableReason(a.reason) : 'No reason was recorded.'}
            </p>
            {a.kind === 'proposal' ? <ValueDiff before={to.value} after={from.value} /> : <ValueDiff before={from.value} after={to.value} />}
          </li>
        );
      })}
    </ol>
  );
}

/** The value a card is compared with: the version it replaced, or the one a proposal failed to replace. */
function previousValue(c: PlacedCard, byId: ReadonlyMap<string, Fact>): string | null {
  const id = c.kind === 'proposal' ? c.fact.proposalFor : c.fact.supersedes;
  return (id ? byId.get(id)?.value : undefined) ?? null;
}

export function ChainDiagram({
  versions,
  proposals,
  asOf,
  selectedId,
  onSelect,
}: {
  versions: readonly Fact[];
  proposals: readonly Fact[];
  asOf: string | null;
  selectedId: string | null;
  onSelect: (id: string) => void;
}) {
  const layout = useMemo(() => layoutChain(versions, proposals, asOf), [versions, proposals, asOf]);
  const svgRef = useRef<SVGSVGElement>(null);
  const gRef = useRef<SVGGElement>(null);
  const zoomRef = useRef<ZoomBehavior<SVGSVGElement, unknown> | null>(null);

  useEffect(() => {
    const svg = svgRef.current;
    const g = gRef.current;
    if (!svg || !g) return;
    const z = zoom<SVGSVGElement, unknown>()
      .extent(() => [
        [0, 0],
        [svg.clientWidth || 800, svg.clientHeight || 300],
      ])
      .scaleExtent([0.3, 3])
      // The wheel scrolls the chain (a long one is taller than the panel); Ctrl+wheel zooms.
      .filter((e: Event) => (e.type === 'wheel' ? (e as WheelEvent).ctrlKey : !(e as MouseEvent).button))
      .on('zoom', (e: { transform: { toString(): string } }) => g.setAttribute('transform', e.transform.toString()));
    zoomRef.current = z;
    select(svg).call(z);
    return () => {
      select(svg).on('.zoom', null);
    };
  }, []);

  // Bring the selected version into view (a long chain is taller than the panel): only the
  // nearest scrolling container moves, never the page around it.
  useEffect(() => {
    const svg = svgRef.current;
    if (!svg || !selectedId) return;
    const card = [...svg.querySelectorAll<SVGGElement>('.chain-card')].find((c) => c.dataset.factId === selectedId);
    if (card) scrollIntoNearest(card);
  }, [selectedId, layout]);

  const byId = useMemo(() => new Map([...versions, ...proposals].map((f) => [f.id, f])), [versions, proposals]);
  const asOfY = asOf ? layout.yOf(asOf) : null;
  const versionCards = layout.cards.filter((c) => c.kind === 'version');
  const late = layout.cards.filter((c) => c.kind === 'late').length;
  return (
    <div className="chain-diagram">
      <div className="row chain-toolbar">
        <span className="muted grow">
          {versions.length} version{versions.length === 1 ? '' : 's'}
          {late > 0 ? ` (${late} arrived late, drawn beside)` : ''}
          {proposals.length > 0 ? ` · ${proposals.length} proposal${proposals.length === 1 ? '' : 's'} beside` : ''} · drag to pan, Ctrl+wheel to zoom
        </span>
        <Button small onClick={() => svgRef.current && zoomRef.current && select(svgRef.current).call(zoomRef.current.transform, zoomIdentity)}>
          Reset view
        </Button>
      </div>
      <div className="chain-scroll" data-testid="chain-scroll">
        <svg
          ref={svgRef}
          className="chain-svg"
          width={layout.width}
          height={layout.height}
          role="group"
          aria-label="Supersession chain timeline"
          data-testid="chain-svg"
        >
          <defs>
            <marker id="chain-arrowhead" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
              <path d="M0,0 L10,5 L0,10 z" className="chain-arrowhead" />
            </marker>
          </defs>
          <g ref={gRef}>
            <line className="chain-axis" x1={layout.axisX} x2={layout.axisX} y1={MARGIN.top - 10} y2={layout.height - MARGIN.bottom + 10} />
            {versionCards.map((c) => (
              <g key={`t-${c.fact.id}`} className="chain-tick" transform={`translate(${layout.axisX},${c.y + 14})`}>
                <circle r={4} className={c.fact.isValid ? 'tick-valid' : ''} />
                <text x={-8} y={-2} textAnchor="end">
                  {formatTime(c.fact.ts).slice(0, 10)}
                </text>
                <text x={-8} y={11} textAnchor="end" className="chain-tick-time">
                  {formatTime(c.fact.ts).slice(11)}
                </text>
              </g>
            ))}
            {layout.arrows.map((a) => (
              <Arrow key={a.step} arrow={a} />
            ))}
            {layout.cards.map((c) => (
              <Card key={c.fact.id} card={c} previous={previousValue(c, byId)} selected={c.fact.id === selectedId} asOf={asOf} onSelect={onSelect} />
            ))}
            {layout.arrows.map((a) => (
              <ArrowLabel key={a.step} arrow={a} />
            ))}
            {asOfY !== null ? (
              <g className="chain-asof" transform={`translate(0,${asOfY})`}>
                <line x1={MARGIN.left} x2={layout.width - MARGIN.right} />
                <text x={layout.width - MARGIN.right} y={-4} textAnchor="end">
                  as of {formatTime(asOf)}
                </text>
              </g>
            ) : null}
          </g>
        </svg>
      </div>
      <Steps arrows={layout.arrows} onSelect={onSelect} />
    </div>
  );
}

export function ChainView({
  partitionId,
  factId,
  asOf,
  onSelect,
}: {
  partitionId: number;
  factId: string;
  asOf: string | null;
  onSelect: (id: string) => void;
}) {
  const q = useQuery('facts.chain', { partitionId, factId }, { keepPrevious: true });
  if (q.error && !q.data) return <ErrorState error={q.error} onRetry={q.refetch} context="Chain" />;
  if (!q.data) return <Loading label="Loading the chain" />;
  if (q.data.versions.length === 0) return <EmptyState title="No chain">This fact no longer exists; pick another in the table.</EmptyState>;
  if (q.data.versions.length === 1 && q.data.proposals.length === 0) {
    return (
      <div className="col">
        <ChainDiagram versions={q.data.versions} proposals={q.data.proposals} asOf={asOf} selectedId={factId} onSelect={onSelect} />
        <p className="muted">This fact has never been corrected: its chain is one version long.</p>
      </div>
    );
  }
  return <ChainDiagram versions={q.data.versions} proposals={q.data.proposals} asOf={asOf} selectedId={factId} onSelect={onSelect} />;
}
