// What the engine infers about a write the agent left unspecified: memory type, scope,
// constraint and its type, time sensitivity, authority rank and correction cues.
// Pure functions over strings so every rule has its own unit test.
import { wordsOf } from './words';
import type { CapabilityLevel, ConstraintType, Maturity, MemoryType, Scope } from '../../../shared/domain';

const ORGANIZATIONAL_SOURCES = /^(policy|system|finance_system|hr_system|legal|compliance|.*_system)$/i;
const CAPABILITY_SOURCES = /^(observation|pattern|heuristic|strategy|capability)$/i;

export function inferMemoryType(sourceType: string): MemoryType {
  if (ORGANIZATIONAL_SOURCES.test(sourceType)) return 'organizational';
  if (CAPABILITY_SOURCES.test(sourceType)) return 'capability';
  return 'user';
}

// Only unambiguous cues set a scope: a draft cue in a sentence that also reports the outcome
// ("the proposal ... was accepted") describes a decision, not a draft.
const HYPOTHETICAL_CUE =
  /\b(what if|hypothetically|hypothetical|imagine if|theoretically|in theory)\b|(^|[.!?;:]\s*|\blet'?s\s+)suppos(e|ing)\b|\bif\b[^.!?;]*,\s*(we|you|they|i)\s+(could|would|might)\b/i;
const DRAFT_CUE = /\b(draft|proposal|proposed|tentative|tentatively|not final|pending approval)\b/i;
const RESOLVED = /\b(accepted|approved|adopted|agreed|confirmed|finali[sz]ed|signed|rejected|declined|decided|ratified|went ahead)\b/i;
const TASK_CUE = /\bfor this task\b/i;

export function inferScope(text: string): Scope {
  if (HYPOTHETICAL_CUE.test(text)) return 'hypothetical';
  if (DRAFT_CUE.test(text) && !RESOLVED.test(text)) return 'draft';
  if (TASK_CUE.test(text)) return 'task';
  return 'global';
}

const POLICY_LANGUAGE =
  /\b(must not|must|shall not|shall|may not|not allowed|prohibited|forbidden|required|mandatory|maximum|max\.?|at most|no more than|cannot exceed|can't exceed|not to exceed|limit(ed)? to|cap(ped)? at|deadline|due by|no later than|only .* (are|is) (allowed|permitted))\b/i;

export function looksLikeConstraint(text: string, sourceType: string): boolean {
  return /^policy$/i.test(sourceType) || POLICY_LANGUAGE.test(text);
}

// A constraint is typed by what it limits: money (an amount or a spending word), a date, or a
// count of people or things. A percentage cap (a discount, a rate) limits none of these: policy.
const BUDGET_CUE = /[$€£]\s?\d|\b\d[\d,.]*\s?(k|m|usd|eur|gbp|dollars?|euros?|pounds)\b|\b(budget|budgets|cost|costs|spend|spending|expense|expenses)\b/i;
const DEADLINE_CUE = /\b(deadline|due|by (mon|tue|wed|thu|fri|sat|sun|jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|end of|eod|eow|q[1-4])|no later than)/i;
const CAPACITY_CUE =
  /\b(capacity|headcount)\b|\b\d+\s+(people|persons|attendees|participants|guests|seats|slots|servers|instances|machines|licenses|licences|users|employees|rooms|desks|spots)\b/i;

export function inferConstraintType(text: string): ConstraintType {
  if (BUDGET_CUE.test(text)) return 'budget';
  if (DEADLINE_CUE.test(text)) return 'deadline';
  if (CAPACITY_CUE.test(text)) return 'capacity';
  return 'policy';
}

const TIME_SENSITIVE_WORDS = new Set([
  'price',
  'prices',
  'pricing',
  'rate',
  'rates',
  'stock',
  'stocks',
  'balance',
  'balances',
  'status',
  'inventory',
  'availability',
  'available',
  'weather',
  'level',
  'levels',
  'eta',
  'queue',
  'latency',
  'uptime',
  'exchange',
  'quote',
]);

/** A key is time-sensitive when one of its words names a quantity that changes by itself
 * (price, rate, stock, status, ...); a word merely containing one ("corporate") does not count. */
export function inferTimeSensitive(key: string): boolean {
  return wordsOf(key).some((w) => TIME_SENSITIVE_WORDS.has(w));
}

const CORRECTION_CUES = /\b(actually|changed|change[sd]? to|moved|correction|corrected|instead|now|new|updated|update[sd]? to|no longer)\b/i;

/** The explicit-supersession rule's cue words: text that says it corrects or replaces an earlier value. */
export function hasCorrectionCue(text: string): boolean {
  return CORRECTION_CUES.test(text);
}

/** The correction cue a text carries (as written), or null. */
export function correctionCue(text: string): string | null {
  return CORRECTION_CUES.exec(text)?.[0] ?? null;
}

export { authorityRank } from './authority';

const LEVELS_BY_MATURITY: Readonly<Record<Maturity, readonly CapabilityLevel[]>> = {
  junior: ['event'],
  senior: ['event', 'heuristic'],
  master: ['event', 'heuristic', 'strategy'],
};

export function levelAllowed(maturity: Maturity, level: CapabilityLevel): boolean {
  return LEVELS_BY_MATURITY[maturity].includes(level);
}
