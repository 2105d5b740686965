// A readable, clickable reference to a fact: its key, a snippet of its value and its status, never
// a raw id. Lists fetch their references in one read (useFactBriefs); a lone reference fetches its
// own. A fact that no longer exists says so (its id stays in the tooltip for support).
import { useRef } from 'react';
import { MAX_BRIEF_IDS } from '../../shared/contract';
import type { FactBrief } from '../../shared/inspect';
import { FactLink } from '../app/FactLink';
import { useAppState, useDispatch } from '../app/state';
import { useQuery } from '../api/hooks';
import { StatusBadge } from './FactBadges';
import { KeyText } from './KeyText';
import { statusWord } from './format';

const SNIPPET_CHARS = 80;

export function snippet(value: string, max = SNIPPET_CHARS): string {
  const flat = value.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** Briefs of `ids` in one read. `briefFor(id)` is the brief, null when the fact no longer exists,
 * or undefined when not known (still loading, or beyond what one read covers: fetch it alone).
 * While a changed list loads, the previous answer stays on screen for the ids it covered; an id
 * it did not ask about stays unknown rather than reading as gone. */
export function useFactBriefs(partitionId: number | null, ids: readonly string[]): { briefFor: (id: string) => FactBrief | null | undefined; loaded: boolean } {
  const unique = [...new Set(ids)].slice(0, MAX_BRIEF_IDS);
  const q = useQuery('facts.briefs', partitionId !== null && unique.length > 0 ? { partitionId, factIds: unique } : null);
  const answered = useRef<{ asked: ReadonlySet<string>; byId: ReadonlyMap<string, FactBrief> } | undefined>(undefined);
  if (q.data !== undefined) answered.current = { asked: new Set(unique), byId: new Map(q.data.briefs.map((b) => [b.id, b])) };
  const shown = answered.current;
  const loaded = unique.length === 0 || q.data !== undefined;
  return { briefFor: (id) => shown?.byId.get(id) ?? (shown?.asked.has(id) ? null : undefined), loaded };
}

type RefProps = {
  id: string;
  /** Where the fact lives; defaults to the partition being inspected. */
  partitionId?: number | null;
  /** Clicking opens the fact; defaults to its detail in the Memories view. */
  onOpen?: (id: string) => void;
};

/** Shows `brief` when given; `brief === null` means "known to be gone"; undefined fetches it. */
export function FactRef({ id, partitionId, brief, onOpen }: RefProps & { brief?: FactBrief | null }) {
  if (brief !== undefined) return <FactRefView id={id} brief={brief} loaded onOpen={onOpen} partitionId={partitionId} />;
  return <FetchedFactRef id={id} partitionId={partitionId} onOpen={onOpen} />;
}

function FetchedFactRef({ id, partitionId, onOpen }: RefProps) {
  const current = useAppState().partitionId;
  const { briefFor, loaded } = useFactBriefs(partitionId === undefined ? current : partitionId, [id]);
  return <FactRefView id={id} brief={briefFor(id) ?? null} loaded={loaded} onOpen={onOpen} partitionId={partitionId} />;
}

function FactRefView({
  id,
  brief,
  loaded,
  onOpen,
  partitionId,
}: {
  id: string;
  brief: FactBrief | null;
  loaded: boolean;
  onOpen?: (id: string) => void;
  partitionId?: number | null;
}) {
  const dispatch = useDispatch();
  if (!loaded)
    return (
      <span className="fact-ref faint" aria-busy="true">
        …
      </span>
    );
  if (!brief)
    return (
      <span className="fact-ref fact-ref-gone faint" title={`Fact ${id}`} data-fact-ref={id}>
        a fact that no longer exists
      </span>
    );
  const open = onOpen ?? ((factId: string) => dispatch({ type: 'openFact', factId, view: 'memories', tab: 'detail' }));
  // A real link (middle-click opens the fact in a new tab); a plain click opens it here.
  return (
    <span className="fact-ref" data-fact-ref={id}>
      <FactLink
        partitionId={partitionId}
        factId={id}
        onOpen={() => open(id)}
        className="link-button fact-ref-key"
        aria-label={`Open ${brief.key}: ${snippet(brief.value)} (${statusWord(brief.status, brief.isValid)})`}
        title={`${brief.key} = ${snippet(brief.value, 300)}`}
      >
        <KeyText text={brief.key} />
      </FactLink>
      <span className="fact-ref-value memory-text">{snippet(brief.value)}</span>
      <StatusBadge status={brief.status} isValid={brief.isValid} />
    </span>
  );
}
