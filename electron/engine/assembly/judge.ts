// StateBench's phrase matching, written for Statelens: case-insensitive substring; `a|b` means
// any alternative; a `regex:` prefix is a regular expression; "don't"/"do not", "can't"/"cannot"
// and "shouldn't"/"should not" read alike. Plus StateBench's figures over a set of contexts.

const CONTRACTIONS: ReadonlyArray<readonly [RegExp, string]> = [
  [/\bdon't\b/g, 'do not'],
  [/\bcan't\b/g, 'cannot'],
  [/\bshouldn't\b/g, 'should not'],
];

function canonical(text: string): string {
  let out = text.replace(/\u2019/g, "'");
  for (const [re, to] of CONTRACTIONS) out = out.replace(re, to);
  return out;
}

const regexCache = new Map<string, RegExp | null>();

function compile(pattern: string): RegExp | null {
  let re = regexCache.get(pattern);
  if (re === undefined) {
    try {
      re = new RegExp(pattern);
    } catch {
      re = null;
    }
    regexCache.set(pattern, re);
  }
  return re;
}

/** Does `text` contain `phrase` by StateBench's rule? */
export function containsPhrase(text: string, phrase: string): boolean {
  const t = text.toLowerCase();
  const p = phrase.toLowerCase().trim();
  if (p.startsWith('regex:')) return compile(p.slice('regex:'.length))?.test(t) ?? false;
  if (p.includes('|')) {
    return p
      .split('|')
      .map((a) => a.trim())
      .some((a) => a.length > 0 && t.includes(a));
  }
  if (p.length === 0) return false;
  if (t.includes(p)) return true;
  return canonical(t).includes(canonical(p));
}

export interface JudgedQuery {
  readonly mustMention: readonly string[];
  readonly mustNotMention: readonly string[];
  readonly mentioned: readonly string[];
  readonly violations: readonly string[];
}

export function judgeContext(text: string, groundTruth: { must_mention?: unknown; must_not_mention?: unknown } | null | undefined): JudgedQuery {
  const list = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
  const mustMention = list(groundTruth?.must_mention);
  const mustNotMention = list(groundTruth?.must_not_mention);
  return {
    mustMention,
    mustNotMention,
    mentioned: mustMention.filter((p) => containsPhrase(text, p)),
    violations: mustNotMention.filter((p) => containsPhrase(text, p)),
  };
}

export interface StatebenchFigures {
  readonly strategy: string;
  readonly queries: number;
  /** Share of contexts holding at least one must_not_mention phrase (lower is better). */
  readonly mustNotMentionExposure: number;
  /** Share of all must_mention phrases present in their contexts (higher is better). */
  readonly mustMentionPresence: number;
  /** Mean of characters / 4, StateBench's rough token measure. */
  readonly meanTokensApprox: number;
  /** Mean exact token count with the run's tokenizer. */
  readonly meanTokens: number;
}

export function figures(strategy: string, rows: ReadonlyArray<{ judged: JudgedQuery; text: string; tokens: number }>): StatebenchFigures {
  const n = rows.length;
  const exposed = rows.filter((r) => r.judged.violations.length > 0).length;
  const phrases = rows.reduce((a, r) => a + r.judged.mustMention.length, 0);
  const present = rows.reduce((a, r) => a + r.judged.mentioned.length, 0);
  return {
    strategy,
    queries: n,
    mustNotMentionExposure: n === 0 ? 0 : exposed / n,
    mustMentionPresence: phrases === 0 ? 1 : present / phrases,
    meanTokensApprox: n === 0 ? 0 : rows.reduce((a, r) => a + r.text.length / 4, 0) / n,
    meanTokens: n === 0 ? 0 : rows.reduce((a, r) => a + r.tokens, 0) / n,
  };
}
