// Explanations of an assembly a reviewer can read: what each score part means (a legend in
// words), the budget bar with the facts' share marked on it, and why an item was left out, in
// one sentence.
import { DEFAULT_FACT_SHARE, type AssemblyResult, type ExcludedProvenance, type ScoreComponentName } from '../../shared/assembly';
import { formatNumber } from '../ui/format';

const LEGEND: ReadonlyArray<{ name: ScoreComponentName; term: string; words: string }> = [
  { name: 'importance', term: 'Importance', words: 'how much the fact matters, as stored with it (0 to 1).' },
  {
    name: 'recency',
    term: 'Recency',
    words: 'how recently the fact was established or last used: 1 at that moment, ½ an hour later, about 0.04 a day later.',
  },
  { name: 'relevance', term: 'Relevance', words: 'how well the fact matches the words of the query (0 when there is no query).' },
  {
    name: 'constraint',
    term: 'Constraint boost',
    words: 'a budget, deadline or policy relevant to the query has its score multiplied, so it ranks above facts that are only as relevant.',
  },
  { name: 'coverage', term: 'Coverage', words: 'how much of the context document fitted in the budget.' },
];

/** The legend for the score parts this assembly's items carry (nothing when none has parts). */
export function ScoreLegend({ result }: { result: AssemblyResult }) {
  const present = new Set(result.provenance.flatMap((p) => (p.status === 'included' ? p.components.map((c) => c.name) : [])));
  const shown = LEGEND.filter((l) => present.has(l.name));
  if (shown.length === 0) return null;
  return (
    <section className="score-legend" aria-label="What the score parts mean">
      <h4>What the scores are made of</h4>
      <dl>
        {shown.map((l) => (
          <div key={l.name}>
            <dt>{l.term}</dt>
            <dd>{l.words}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

/** The tokens identity and environment took first, and where the facts' share ends. */
export function factShareOf(result: AssemblyResult, share = DEFAULT_FACT_SHARE): { base: number; limit: number } | null {
  if (result.strategy !== 'state_based' || result.budget === null || result.budget === 0) return null;
  const base = result.sections.filter((s) => s.name === 'identity' || s.name === 'environment').reduce((n, s) => n + s.tokens, 0);
  return { base, limit: base + Math.floor(Math.max(0, result.budget - base) * share) };
}

/** The whole context's tokens against the budget, with the facts' share drawn on the bar. */
export function BudgetBar({ result, share = DEFAULT_FACT_SHARE }: { result: AssemblyResult; share?: number }) {
  const budget = result.budget;
  const facts = factShareOf(result, share);
  const max = budget && budget > 0 ? budget : Math.max(result.tokens, 1);
  const pct = (n: number) => `${Math.min(100, (n / max) * 100)}%`;
  return (
    <div className="meter budget-bar">
      <div className="row">
        <span className="grow">Whole context</span>
        <span className="mono muted">
          {formatNumber(result.tokens)}
          {budget !== null ? ` / ${formatNumber(budget)}` : ''} tok
        </span>
      </div>
      <div className="budget-track" role="meter" aria-label="Whole context tokens" aria-valuemin={0} aria-valuemax={max} aria-valuenow={result.tokens}>
        {facts ? <div className="budget-share" style={{ left: pct(facts.base), width: `calc(${pct(facts.limit)} - ${pct(facts.base)})` }} /> : null}
        <div className={`meter-fill ${budget !== null && result.tokens > budget ? 'over' : ''}`} style={{ width: pct(result.tokens) }} />
        {facts ? <div className="budget-mark" style={{ left: pct(facts.limit) }} aria-hidden="true" /> : null}
      </div>
      {facts ? (
        <p className="faint budget-note" data-testid="fact-share">
          <span className="budget-key" aria-hidden="true" /> Facts may use {Math.round(share * 100)}% of what identity and environment leave: up to token{' '}
          {formatNumber(facts.limit)} of {formatNumber(budget)}; the rest stays for working memory, agent state and documents.
        </p>
      ) : null}
    </div>
  );
}

/** Ids of facts or items a detail quotes in parentheses: support data, not reading matter. */
const QUOTED_ID = /\s\([a-z]{1,3}_[A-Za-z0-9_-]{4,}\)/g;

/** Why an item was left out, as one sentence. */
export function exclusionSentence(e: Pick<ExcludedProvenance, 'reason' | 'detail'>): string {
  const detail = e.detail?.replace(QUOTED_ID, '').trim();
  const then = detail ? `: ${detail}` : '';
  switch (e.reason) {
    case 'budget':
      return `Left out for lack of room${then || ': the budget was full'}.`;
    case 'superseded':
      return detail ? `Left out because it ${detail}.` : 'Left out because a newer version replaced it (or it is a proposal that never took effect).';
    case 'scope':
      return `Left out as out of scope${then || ' (another task or session, a draft or a hypothetical)'}.`;
    case 'permission':
      return `Left out because this identity may not see it${then}.`;
    case 'expired':
      return `Left out because it had expired${detail ? ` (${detail})` : ''}.`;
    case 'not_relevant':
      return `Left out as not relevant to the query${then}.`;
    case 'future':
      return `Left out because it came after the as-of time${detail ? ` (${detail})` : ''}.`;
    default:
      return `Left out (${String(e.reason)}${detail ? `: ${detail}` : ''}).`;
  }
}
