// What the engine infers about a write the agent left unspecified: memory type, scope,
// constraint and its type, time sensitivity, authority rank and correction cues.
// Pure functions over strings so every rule has its own unit test.
import type { CapabilityLevel, ConstraintType, Maturity, MemoryType, Scope } from '../../../shared/domain';

const ORGANIZATIONAL_SOURCES = /^(policy|system|finance_system|hr_system|legal|compliance|.*_system)$/i;
const CAPABILITY_SOURCES = /^(observation|pattern|heuristic|strategy|capability)$/i;

export function inferMemoryType(sourceType: string): MemoryType {
  if (ORGANIZATIONAL_SOURCES.test(sourceType)) return 'organizational';
  if (CAPABILITY_SOURCES.test(sourceType)) return 'capability';
  return 'user';
}

const SCOPE_CUES: ReadonlyArray<readonly [RegExp, Scope]> = [
  [/\b(what if|hypothetically|hypothetical|suppose|supposing|imagine if)\b/i, 'hypothetical'],
  [/\b(draft|proposal|proposed|tentative|tentatively)\b/i, 'draft'],
  [/\bfor this task\b/i, 'task'],
];

export function inferScope(text: string): Scope {
  for (const [cue, scope] of SCOPE_CUES) if (cue.test(text)) return scope;
  return 'global';
}

const POLICY_LANGUAGE =
  /\b(must not|must|shall not|shall|may not|not allowed|prohibited|forbidden|required|mandatory|maximum|max\.?|at most|no more than|cannot exceed|can't exceed|not to exceed|limit(ed)? to|cap(ped)? at|deadline|due by|no later than|only .* (are|is) (allowed|permitted))\b/i;

export function looksLikeConstraint(text: string, sourceType: string): boolean {
  return /^policy$/i.test(sourceType) || POLICY_LANGUAGE.test(text);
}

export function inferConstraintType(text: string): ConstraintType {
  if (/(\$|€|£|\bbudget\b|\bcost\b|\bspend|\bprice\b|\bdiscount\b|\busd\b|\bdollars?\b)/i.test(text)) return 'budget';
  if (/\b(deadline|due|by (mon|tue|wed|thu|fri|sat|sun|jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|end of|eod|eow|q[1-4])|no later than)/i.test(text)) return 'deadline';
  if (/\b(capacity|headcount|seats|slots|people|attendees|servers|instances|max(imum)? \d+)\b/i.test(text)) return 'capacity';
  return 'policy';
}

const TIME_SENSITIVE_KEYS = /(price|rate|stock|balance|status|inventory|availability|available|weather|level|eta|queue|latency|uptime|exchange)/i;

export function inferTimeSensitive(key: string): boolean {
  return TIME_SENSITIVE_KEYS.test(key);
}

const CORRECTION_CUES = /\b(actually|changed|change[sd]? to|moved|correction|corrected|instead|now|new|updated|update[sd]? to|no longer)\b/i;

/** The explicit-supersession rule's cue words: text that says it corrects or replaces an earlier value. */
export function hasCorrectionCue(text: string): boolean {
  return CORRECTION_CUES.test(text);
}

// policy > executive > manager > employee/peer > guest. Unknown authorities rank as peers so
// that an unlabelled write neither overrides nor is overridden by ordinary facts.
const AUTHORITY_RANKS: Readonly<Record<string, number>> = {
  policy: 50,
  executive: 40,
  cfo: 40,
  ceo: 40,
  admin: 40,
  director: 35,
  manager: 30,
  system: 30,
  employee: 20,
  peer: 20,
  user: 20,
  subordinate: 15,
  intern: 10,
  guest: 10,
};
export const DEFAULT_AUTHORITY_RANK = 20;

export function authorityRank(authority: string | null | undefined, sourceType?: string | null): number {
  const a = (authority ?? '').trim().toLowerCase();
  if (a && a in AUTHORITY_RANKS) return AUTHORITY_RANKS[a] ?? DEFAULT_AUTHORITY_RANK;
  if (a) {
    for (const [name, rank] of Object.entries(AUTHORITY_RANKS)) if (a.includes(name)) return rank;
  }
  if (sourceType && /^policy$/i.test(sourceType)) return AUTHORITY_RANKS.policy ?? DEFAULT_AUTHORITY_RANK;
  return DEFAULT_AUTHORITY_RANK;
}

const LEVELS_BY_MATURITY: Readonly<Record<Maturity, readonly CapabilityLevel[]>> = {
  junior: ['event'],
  senior: ['event', 'heuristic'],
  master: ['event', 'heuristic', 'strategy'],
};

export function levelAllowed(maturity: Maturity, level: CapabilityLevel): boolean {
  return LEVELS_BY_MATURITY[maturity].includes(level);
}
