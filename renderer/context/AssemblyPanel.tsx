// One assembled context: token meters (whole text and each section), the text with every
// included item's span highlighted and its provenance on hover or focus, and the excluded
// items grouped by reason (each with why, in a sentence), the ranked items with what their scores
// are made of and a legend of those parts, the facts' share of the budget, and, when the
// context_document strategy found no document, which sessions have one.
import { useMemo, useRef, useState } from 'react';
import type { AssemblyResult, ExcludedProvenance, IncludedProvenance } from '../../shared/assembly';
import type { SessionSummary } from '../../shared/inspect';
import { formatNumber, formatTime } from '../ui/format';
import { TokenMeter } from '../ui/meters';
import './context.css';
import { BudgetBar, exclusionSentence, ScoreLegend } from './explain';
import { componentsLine, componentsTooltip, formatScore } from './score';
import { includedOf, pieces } from './spans';

/** Sessions offered at most when a context document is missing (the Session field has all). */
const SESSION_CHOICES = 30;
/** Items listed under "Ranked items" at most (the text itself shows every one). */
const RANKED_CAP = 200;

const RENDER_CAP = 200_000;

const REASON_TEXT: Record<string, string> = {
  superseded: 'superseded (or a proposal that never became valid)',
  budget: 'out of budget',
  scope: 'out of scope (another task, session, or a draft / hypothetical)',
  permission: 'not permitted for this identity',
  expired: 'expired',
  not_relevant: 'not relevant to the query',
  future: 'established after the as-of time',
};

function ProvenanceCard({ item }: { item: IncludedProvenance }) {
  return (
    <dl className="kv">
      <dt>{item.kind}</dt>
      <dd className="memory-text">{item.label}</dd>
      <dt>id</dt>
      <dd className="mono">{item.id}</dd>
      <dt>rank</dt>
      <dd>
        #{item.rank} · score {Number.isFinite(item.score) ? item.score.toFixed(3) : String(item.score)}
      </dd>
      {item.components.length > 0 ? (
        <>
          <dt>score parts</dt>
          <dd>{componentsLine(item.components)}</dd>
        </>
      ) : null}
      <dt>section</dt>
      <dd>{item.section}</dd>
      {item.marks.length > 0 ? (
        <>
          <dt>marks</dt>
          <dd>{item.marks.join(', ')}</dd>
        </>
      ) : null}
    </dl>
  );
}

export function ExcludedList({ excluded }: { excluded: readonly ExcludedProvenance[] }) {
  const groups = useMemo(() => {
    const m = new Map<string, ExcludedProvenance[]>();
    for (const e of excluded) m.set(e.reason, [...(m.get(e.reason) ?? []), e]);
    return [...m].sort((a, b) => b[1].length - a[1].length);
  }, [excluded]);
  if (excluded.length === 0) return <p className="faint">Nothing was left out.</p>;
  return (
    <div className="col excluded">
      {groups.map(([reason, items]) => (
        <details key={reason}>
          <summary>
            <span className="badge">{formatNumber(items.length)}</span> {REASON_TEXT[reason] ?? reason}
          </summary>
          <ul className="list-plain excluded-list">
            {items.slice(0, 200).map((e) => (
              <li key={`${e.kind}:${e.id}`}>
                <span className="memory-text">{e.label}</span> <span className="faint mono">{e.kind}</span>
                <span className="excluded-why memory-text">{exclusionSentence(e)}</span>
              </li>
            ))}
            {items.length > 200 ? <li className="faint">…and {formatNumber(items.length - 200)} more</li> : null}
          </ul>
        </details>
      ))}
    </div>
  );
}

/** The context_document strategy placed no document and none was refused for the budget: the
 * session has no document (at the assembly's time). */
export function isMissingDocument(result: AssemblyResult): boolean {
  return result.strategy === 'context_document' && !result.provenance.some((p) => p.kind === 'document');
}

/** What the session lacks, and the sessions that do have a document, one click (or Enter) away. */
export function MissingDocument({
  sessionId,
  asOf,
  sessions,
  onSelectSession,
}: {
  sessionId: string;
  asOf: string | null;
  sessions: readonly SessionSummary[] | undefined;
  onSelectSession?: (sessionId: string) => void;
}) {
  const withDocument = (sessions ?? []).filter((s) => s.contextDocumentVersions > 0);
  const own = withDocument.some((s) => s.sessionId === sessionId);
  const others = withDocument.filter((s) => s.sessionId !== sessionId);
  return (
    <div className="missing-document" role="status" data-testid="missing-document">
      <h4>No context document</h4>
      <p>
        {own && asOf
          ? `Session “${sessionId}” had no context document yet as of ${formatTime(asOf)}: its first version is later.`
          : `Session “${sessionId}” has no context document in this partition, so this strategy has nothing to show.`}
      </p>
      {sessions === undefined ? null : others.length === 0 ? (
        <p className="muted">No session of this partition has a context document.</p>
      ) : (
        <>
          <p className="muted">Sessions with a context document:</p>
          <ul className="list-plain session-choices" aria-label="Sessions with a context document">
            {others.slice(0, SESSION_CHOICES).map((s) => (
              <li key={s.sessionId}>
                <button type="button" className="link-button memory-text" onClick={() => onSelectSession?.(s.sessionId)}>
                  {s.sessionId}
                </button>{' '}
                <span className="faint">
                  {s.contextDocumentVersions} version{s.contextDocumentVersions === 1 ? '' : 's'}
                </span>
              </li>
            ))}
            {others.length > SESSION_CHOICES ? (
              <li className="faint">…and {formatNumber(others.length - SESSION_CHOICES)} more (choose them under Session)</li>
            ) : null}
          </ul>
        </>
      )}
    </div>
  );
}

/** Every included item in rank order, with its score's parts compact beside it. */
export function RankedItems({
  result,
  included,
  onOpenFact,
}: {
  result: AssemblyResult;
  included: readonly IncludedProvenance[];
  onOpenFact?: (id: string) => void;
}) {
  if (included.length === 0) return null;
  return (
    <details className="ranked" open>
      <summary>
        Ranked items ({formatNumber(included.length)}){included.length > RANKED_CAP ? `, first ${RANKED_CAP} listed` : ''}
      </summary>
      <ol className="list-plain ranked-list" aria-label={`Ranked items (${result.strategy})`}>
        {included.slice(0, RANKED_CAP).map((p) => (
          <li key={`${p.kind}:${p.id}`} className="ranked-item">
            <span className="faint ranked-rank">#{p.rank}</span>
            {p.kind === 'fact' && onOpenFact ? (
              <button type="button" className="link-button memory-text ranked-label" onClick={() => onOpenFact(p.id)} title={`Open ${p.label}`}>
                {p.label}
              </button>
            ) : (
              <span className="memory-text ranked-label">{p.label}</span>
            )}
            <span className="mono score-parts" title={componentsTooltip(p.score, p.components)} data-testid="score-parts">
              {p.components.length > 0 ? componentsLine(p.components) : `score ${formatScore(p.score)}`}
            </span>
          </li>
        ))}
      </ol>
    </details>
  );
}

export function AssemblyPanel({
  result,
  onOpenFact,
  sessionId = 'default',
  sessions,
  onSelectSession,
}: {
  result: AssemblyResult;
  onOpenFact?: (id: string) => void;
  /** The session the assembly was run for (what a missing context document is missing from). */
  sessionId?: string;
  /** The partition's sessions, to offer those that have a context document. */
  sessions?: readonly SessionSummary[];
  onSelectSession?: (sessionId: string) => void;
}) {
  const included = useMemo(() => includedOf(result.provenance), [result]);
  const excluded = useMemo(() => result.provenance.filter((p): p is ExcludedProvenance => p.status === 'excluded'), [result]);
  const shown = result.text.length > RENDER_CAP ? result.text.slice(0, RENDER_CAP) : result.text;
  const parts = useMemo(() => pieces(shown, included), [shown, included]);
  const [hover, setHover] = useState<{ item: IncludedProvenance; x: number; y: number } | null>(null);
  const boxRef = useRef<HTMLDivElement>(null);

  function show(e: React.MouseEvent | React.FocusEvent, item: IncludedProvenance) {
    const box = boxRef.current?.getBoundingClientRect();
    const r = (e.currentTarget as HTMLElement).getBoundingClientRect();
    setHover({ item, x: r.left - (box?.left ?? 0), y: r.bottom - (box?.top ?? 0) + 4 });
  }

  return (
    <article className="assembly col" aria-label={`Context assembled by ${result.strategy}`} data-strategy={result.strategy}>
      <header className="col">
        <h3>{result.strategy}</h3>
        <BudgetBar result={result} />
        {result.budget === null ? (
          <span className="muted" data-testid="no-budget">
            The budget does not apply: this strategy includes everything valid, by design.
          </span>
        ) : null}
        <div className="col section-meters">
          {result.sections.map((s) => (
            <TokenMeter key={s.name} label={s.title || s.name} tokens={s.tokens} of={result.budget ?? result.tokens} />
          ))}
        </div>
        <span className="muted">
          {formatNumber(result.counts.included)} included · {formatNumber(excluded.length)} excluded · {result.tokenizer}
          {result.asOf ? ` · as of ${formatTime(result.asOf)}` : ''}
        </span>
      </header>
      {isMissingDocument(result) ? <MissingDocument sessionId={sessionId} asOf={result.asOf} sessions={sessions} onSelectSession={onSelectSession} /> : null}
      {/* An empty context has no text to show (the notice above or the counts say why). */}
      <div className="assembly-text-box" ref={boxRef} hidden={result.text.length === 0}>
        <pre className="assembly-text" tabIndex={0} aria-label={`Assembled text (${result.strategy})`}>
          {parts.map((p, i) =>
            p.item ? (
              <mark
                key={i}
                className={`prov-span prov-${p.item.kind} ${p.item.marks.includes('needs_review') ? 'prov-review' : ''}`}
                tabIndex={0}
                data-item-id={p.item.id}
                aria-label={`${p.item.kind} ${p.item.label}, rank ${p.item.rank}, section ${p.item.section}`}
                onMouseEnter={(e) => show(e, p.item as IncludedProvenance)}
                onFocus={(e) => show(e, p.item as IncludedProvenance)}
                onMouseLeave={() => setHover(null)}
                onBlur={() => setHover(null)}
                onClick={() => p.item && p.item.kind === 'fact' && onOpenFact?.(p.item.id)}
              >
                {p.text}
              </mark>
            ) : (
              <span key={i}>{p.text}</span>
            ),
          )}
        </pre>
        {result.text.length > RENDER_CAP ? (
          <p className="faint">
            Showing the first {formatNumber(RENDER_CAP)} of {formatNumber(result.text.length)} characters.
          </p>
        ) : null}
        {hover ? (
          <div className="prov-tip popover" role="tooltip" style={{ transform: `translate(${Math.max(0, hover.x)}px, ${hover.y}px)` }}>
            <ProvenanceCard item={hover.item} />
          </div>
        ) : null}
      </div>
      <RankedItems result={result} included={included} onOpenFact={onOpenFact} />
      <ScoreLegend result={result} />
      <section aria-label={`Excluded by ${result.strategy}`} className="col">
        <h4>Excluded ({formatNumber(excluded.length)})</h4>
        {result.provenanceComplete ? null : <p className="faint">Only included items were listed for this assembly.</p>}
        <ExcludedList excluded={excluded} />
      </section>
    </article>
  );
}
