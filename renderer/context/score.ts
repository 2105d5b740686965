// How a ranked item's score components read: compact ("rel 0.62 · rec 0.30 · imp 8") beside the
// item, and spelled out, with what each part means, in its tooltip.
import type { ScoreComponent, ScoreComponentName } from '../../shared/assembly';

const SHORT: Record<ScoreComponentName, string> = { relevance: 'rel', recency: 'rec', importance: 'imp', constraint: 'con', coverage: 'cov' };

const MEANING: Record<ScoreComponentName, string> = {
  relevance: 'how well it matches the query (BM25 of the query terms, or shared terms for working items and documents)',
  recency: '1 / (1 + hours since it was established or last used)',
  importance: "the fact's stored importance",
  constraint: 'multiplier a relevant constraint gets, so it ranks above equally relevant facts',
  coverage: 'share of the document that fitted in the budget',
};

/** Two decimals for small numbers, fewer as they grow; never exponent notation. */
export function formatScore(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  const abs = Math.abs(value);
  if (abs >= 100) return value.toFixed(0);
  if (abs >= 10) return value.toFixed(1);
  if (abs !== 0 && abs < 0.005) return value.toFixed(Math.min(20, -Math.floor(Math.log10(abs))));
  return value.toFixed(2);
}

function short(c: ScoreComponent): string {
  if (c.name === 'constraint') return `×${formatScore(c.value)} con`;
  if (c.name === 'coverage') return `cov ${Math.round(c.value * 100)}%`;
  return `${SHORT[c.name]} ${formatScore(c.value)}`;
}

export function componentsLine(components: readonly ScoreComponent[]): string {
  return components.map(short).join(' · ');
}

export function componentsTooltip(score: number, components: readonly ScoreComponent[]): string {
  const head = `score ${formatScore(score)}`;
  if (components.length === 0) return `${head}: this strategy ranks by position alone`;
  return [head, ...components.map((c) => `${c.name} ${c.value.toPrecision(4)}: ${MEANING[c.name]}`)].join('\n');
}
