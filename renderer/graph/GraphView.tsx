// The dependency neighbourhood of the selected fact: k hops, coloured by validity, review flag
// and memory type, arrows from each fact to the facts that depend on it, the propagation path
// that flagged the fact highlighted and the upstream change named with its new value.
import { useEffect, useMemo, useRef, useState } from 'react';
import { MAX_HOPS } from '../../shared/inspect';
import type { ChannelOutput } from '../../shared/contract';
import type { ReviewCause } from '../../shared/inspect';
import { useAddressState } from '../app/state';
import { useQuery } from '../api/hooks';
import { useTheme } from '../theme/theme';
import { Button } from '../ui/Button';
import { SelectField } from '../ui/fields';
import { EmptyState, ErrorState, Loading } from '../ui/states';
import { KeyText } from '../ui/KeyText';
import { ForceGraph, SVG_NODE_LIMIT, type GraphNodeData } from './ForceGraph';
import { nodeStatus } from './scene';
import { pathEdgeKeys } from './edges';

const HOP_OPTIONS = Array.from({ length: MAX_HOPS }, (_, i) => ({ value: String(i + 1), label: `${i + 1} hop${i === 0 ? '' : 's'}` }));
const NODE_OPTIONS = ['200', '500', '2000', '5000'].map((v) => ({ value: v, label: `≤ ${Number(v).toLocaleString('en-US')} nodes` }));

export function GraphLegend() {
  return (
    <ul className="graph-legend list-plain row wrap" aria-label="Legend">
      <li className="row">
        <span className="dot dot-user" /> user
      </li>
      <li className="row">
        <span className="dot dot-capability" /> capability
      </li>
      <li className="row">
        <span className="dot dot-organizational" /> organisational
      </li>
      <li className="row">
        <span className="dot legend-superseded" /> superseded
      </li>
      <li className="row">
        <span className="dot legend-proposal" /> proposal
      </li>
      <li className="row">
        <span className="dot legend-review" /> needs review (ring)
      </li>
      <li className="row">
        <span className="legend-path" /> propagation path
      </li>
      <li className="row">
        <span className="legend-arrow" aria-hidden="true">
          A → B
        </span>{' '}
        B depends on A (hover an arrow to name it)
      </li>
      <li className="row faint">drag a node to move it · drag the background to pan · wheel to zoom in for more labels</li>
    </ul>
  );
}

/** What the stats line says about a neighbourhood cut short by the limit. */
export function truncationText(shown: number, fullSize: { nodes: number; atLeast: boolean } | null, hops: number): string {
  const within = `within ${hops} hop${hops === 1 ? '' : 's'}`;
  if (!fullSize) return ` · truncated (raise the limit)`;
  return ` · showing ${shown.toLocaleString('en-US')} of ${fullSize.atLeast ? 'at least ' : ''}${fullSize.nodes.toLocaleString('en-US')} facts ${within} (raise the limit)`;
}

export function GraphView({
  partitionId,
  factId,
  asOf = null,
  onSelect,
  onOpenFull,
  hops: hopsProp,
  onHopsChange,
}: {
  partitionId: number;
  factId: string;
  /** Time travel: every node coloured and named as it stood then. */
  asOf?: string | null;
  onSelect: (id: string) => void;
  /** Offered in the side panel: open the graph as a view of its own. */
  onOpenFull?: () => void;
  /** The hops, when the caller keeps them (in the address); else the view keeps its own. */
  hops?: number;
  onHopsChange?: (hops: number) => void;
}) {
  // Hops live in the address unless the caller keeps them.
  const [ownHops, setOwnHops] = useAddressState('hops', '2');
  const hops = hopsProp !== undefined ? String(hopsProp) : ownHops;
  const setHops = (h: string) => (onHopsChange ? onHopsChange(Number(h)) : setOwnHops(h));
  const [maxNodes, setMaxNodes] = useState('2000');
  const [focus, setFocus] = useState(factId);
  const [fitKey, setFitKey] = useState(0);
  const selectedHere = useRef<string | null>(null);
  const { resolved } = useTheme();

  useEffect(() => {
    if (selectedHere.current !== factId) setFocus(factId);
    selectedHere.current = null;
  }, [factId]);

  const q = useQuery(
    'facts.neighbourhood',
    { partitionId, factId: focus, hops: Number(hops), maxNodes: Number(maxNodes), ...(asOf ? { asOf } : {}) },
    { keepPrevious: true },
  );
  const nodes = q.data?.nodes;
  const edges = q.data?.edges;
  const propagation = q.data?.propagation ?? null;
  const { pathNodes, pathEdges } = useMemo(() => {
    const p = propagation?.path ?? [];
    return { pathNodes: new Set(p), pathEdges: pathEdgeKeys(p) };
  }, [propagation]);

  // The upstream change that flagged the centre, with what it was replaced by.
  const causeQ = useQuery('facts.get', propagation?.causeExists ? { partitionId, factId: focus } : null, { keepPrevious: false });
  const cause = propagation?.causeExists ? (causeQ.data?.reviewCause ?? null) : null;
  const annotations = useMemo(() => {
    const m = new Map<string, string>();
    if (cause?.cause) m.set(cause.cause.id, cause.replacement ? cause.replacement.value : 'changed');
    return m;
  }, [cause]);

  const select = (id: string) => {
    selectedHere.current = id;
    onSelect(id);
  };

  let body;
  if (q.error && !q.data) body = <ErrorState error={q.error} onRetry={q.refetch} context="Dependency graph" />;
  else if (!nodes || !edges) body = <Loading label="Loading the neighbourhood" />;
  else if (nodes.length <= 1 && edges.length === 0)
    body = <EmptyState title="No dependencies">This fact rests on no other fact and nothing rests on it. Try another fact, or more hops.</EmptyState>;
  else
    body = (
      <ForceGraph
        nodes={nodes}
        edges={edges}
        focusId={focus}
        selectedId={factId}
        pathNodes={pathNodes}
        pathEdges={pathEdges}
        onSelect={select}
        themeKey={resolved}
        fitKey={fitKey}
        annotations={annotations}
      />
    );

  return (
    <div className="graph-view col">
      <div className="row wrap graph-toolbar">
        <SelectField label="Neighbourhood" value={hops} options={HOP_OPTIONS} onChange={setHops} />
        <SelectField label="Limit" value={maxNodes} options={NODE_OPTIONS} onChange={setMaxNodes} />
        <div className="col graph-stats">
          {nodes && edges ? (
            <span className="muted" data-testid="graph-stats">
              {nodes.length.toLocaleString('en-US')} facts, {edges.length.toLocaleString('en-US')} edges · {nodes.length > SVG_NODE_LIMIT ? 'canvas' : 'SVG'}
              {q.data?.truncated ? truncationText(nodes.length, q.data.fullSize, q.data.hops) : ''}
              {asOf ? ' · as of the time-travel instant' : ''}
              {q.fetching ? ' · refreshing' : ''}
            </span>
          ) : null}
          {propagation ? <PropagationNote propagation={propagation} cause={cause} onSelect={select} /> : null}
        </div>
        <span className="grow" />
        <Button small onClick={() => setFitKey((k) => k + 1)}>
          Fit
        </Button>
        {onOpenFull ? (
          <Button small onClick={onOpenFull} title="Open the graph as a view of its own, with the fact's detail beside it">
            Full view
          </Button>
        ) : null}
        {focus !== factId ? (
          <Button small onClick={() => setFocus(factId)}>
            Centre on selected
          </Button>
        ) : null}
      </div>
      <GraphLegend />
      {body}
      {nodes && nodes.length > 1 ? (
        <details className="graph-list">
          <summary>List the {nodes.length.toLocaleString('en-US')} facts in this graph</summary>
          <GraphNodeList nodes={nodes} onSelect={select} />
        </details>
      ) : null}
    </div>
  );
}

function PropagationNote({
  propagation,
  cause,
  onSelect,
}: {
  propagation: NonNullable<ChannelOutput<'facts.neighbourhood'>['propagation']>;
  cause: ReviewCause | null;
  onSelect: (id: string) => void;
}) {
  const steps = propagation.path ? propagation.path.length - 1 : 0;
  if (!propagation.causeExists) return <span className="muted">The upstream fact that flagged it was deleted; no path remains.</span>;
  if (!propagation.path) return <span className="muted">The flag's path from the upstream change no longer exists.</span>;
  return (
    <>
      <span className="muted" data-testid="propagation-note">
        Propagation path highlighted: {steps} step{steps === 1 ? '' : 's'} from the upstream change.
      </span>
      {cause?.cause ? (
        <span className="graph-upstream" data-testid="upstream-change">
          Upstream change:{' '}
          <button type="button" className="link-button" onClick={() => cause.cause && onSelect(cause.cause.id)}>
            {cause.cause.key}
          </button>{' '}
          <span className="graph-upstream-old">{snippet(cause.cause.value)}</span>
          {cause.replacement ? (
            <>
              {' → now '}
              <button type="button" className="link-button graph-upstream-new" onClick={() => cause.replacement && onSelect(cause.replacement.id)}>
                {snippet(cause.replacement.value)}
              </button>
            </>
          ) : (
            ' (changed in place)'
          )}
        </span>
      ) : null}
    </>
  );
}

function snippet(v: string): string {
  return v.length > 90 ? `${v.slice(0, 89)}…` : v;
}

function GraphNodeList({ nodes, onSelect }: { nodes: ReadonlyArray<GraphNodeData & { readonly needsReview: boolean }>; onSelect: (id: string) => void }) {
  const sorted = useMemo(() => [...nodes].sort((a, b) => (a.hop ?? 99) - (b.hop ?? 99) || a.key.localeCompare(b.key)).slice(0, 500), [nodes]);
  return (
    <ul className="list-plain graph-node-list">
      {sorted.map((n) => (
        <li key={n.id}>
          <button type="button" className="link-button brief-key" onClick={() => onSelect(n.id)}>
            <KeyText text={n.key} />
          </button>{' '}
          <span className="faint">
            {n.hop === null ? 'propagation path' : `hop ${n.hop}`} · {nodeStatus(n)}
            {n.needsReview ? ' · needs review' : ''}
          </span>
        </li>
      ))}
      {nodes.length > sorted.length ? <li className="faint">…and {nodes.length - sorted.length} more</li> : null}
    </ul>
  );
}
