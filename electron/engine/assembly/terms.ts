// Query terms for relevance: words of the query minus stopwords, reduced to a crude stem so
// "approval" meets "approved". Builds a safe FTS5 query (every term quoted, prefix-matched, OR-ed:
// no user text ever reaches FTS5 syntax) and scores free text (working items, documents) in JS.
const STOPWORDS = new Set(
  (
    'a about above after again against all am an and any are as at be because been before being below between both but by can could did do does doing down during each few for from ' +
    'further had has have having he her here hers herself him himself his how i if in into is it its itself just me more most my myself no nor not now of off on once only or other ' +
    'our ours ourselves out over own same she should so some such than that the their theirs them themselves then there these they this those through to too under until up very ' +
    'was we were what when where which while who whom why will with would you your yours yourself yourselves shall may might must also us let lets get got make made still yet ' +
    "whats what's thats there's it's im i'm we're don't can't cannot won't isn't aren't wasn't doesn't didn't please tell know based provide requested information " +
    'current currently right okay ok one two s t d ll re ve m'
  ).split(/\s+/),
);

const SUFFIXES = ['ations', 'ation', 'ings', 'ing', 'ments', 'ment', 'edly', 'ied', 'ies', 'ed', 'es', 'al', 'ly', 's', 'e', 'y'];

/** A crude, deterministic stem: strips one common suffix while keeping at least 4 letters. */
export function stem(word: string): string {
  if (/^\d/.test(word) || word.length <= 4) return word;
  for (const suf of SUFFIXES) {
    if (word.endsWith(suf) && word.length - suf.length >= 4) return word.slice(0, -suf.length);
  }
  return word;
}

/** Lower-cased words (letters and digits, Unicode-aware) of a text. */
export function words(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+(?:'[\p{L}]+)?/gu) ?? [];
}

/** The distinct content-word stems of a query (stopwords and one-letter words dropped). */
export function queryTerms(query: string): string[] {
  return queryWords(query).map((w) => w.stem);
}

/** The query's content words with their stems, one per distinct stem. */
export function queryWords(query: string): Array<{ word: string; stem: string }> {
  const out: Array<{ word: string; stem: string }> = [];
  const seen = new Set<string>();
  for (const w of words(query)) {
    if (STOPWORDS.has(w)) continue;
    const bare = w.replace(/'.*$/, '');
    if (bare.length < 2 || STOPWORDS.has(bare)) continue;
    const s = stem(bare);
    if (!seen.has(s)) {
      seen.add(s);
      out.push({ word: bare, stem: s });
    }
  }
  return out;
}

/** Endings tried after a stem, so "approval" also meets "approve", "approved", "approving". */
const INFLECTIONS = ['', 's', 'e', 'es', 'ed', 'ing'];

/**
 * One term as a safe FTS5 expression: every form quoted (no query syntax gets through) and
 * OR-ed. Inflected forms are listed rather than prefix-matched: an FTS5 prefix query gathers
 * the whole doclist of every matching token before the first row, which grows with the index,
 * while exact tokens are read lazily, newest first, as far as the caller's LIMIT.
 */
export function ftsTerm(term: string, word: string = term): string {
  const forms = /^\d+$/.test(term) ? [term] : [...new Set([word, ...INFLECTIONS.map((x) => `${term}${x}`)])];
  const quoted = forms.map((f) => `"${f.replace(/"/g, '""')}"`);
  return quoted.length === 1 ? (quoted[0] as string) : `(${quoted.join(' OR ')})`;
}

const STEM_CACHE_LIMIT = 50_000;
const stemSets = new Map<string, ReadonlySet<string>>();

/** The set of stems of a text's words (stopwords dropped), for overlap scoring. Memoised: the
 * same values and turns are stemmed at every assembly. The set is shared: never mutate it. */
export function stemSet(text: string): ReadonlySet<string> {
  const hit = stemSets.get(text);
  if (hit) return hit;
  const out = computeStemSet(text);
  if (stemSets.size >= STEM_CACHE_LIMIT) stemSets.clear();
  stemSets.set(text, out);
  return out;
}

function computeStemSet(text: string): Set<string> {
  const out = new Set<string>();
  for (const w of words(text)) {
    const bare = w.replace(/'.*$/, '');
    if (bare.length < 2 || STOPWORDS.has(w) || STOPWORDS.has(bare)) continue;
    out.add(stem(bare));
  }
  return out;
}

/** True when some word stem of the text starts with the term (prefix semantics, as in FTS). */
function matches(stems: ReadonlySet<string>, term: string): boolean {
  if (stems.has(term)) return true;
  if (/^\d+$/.test(term)) return false;
  for (const s of stems) if (s.startsWith(term) || (s.length >= 4 && term.startsWith(s))) return true;
  return false;
}

/**
 * BM25-flavoured score of free-text documents against weighted terms: idf over the given
 * collection, saturating term frequency (here presence), length-normalised. 0 means no term met.
 */
export function scoreTexts(texts: readonly string[], terms: ReadonlyMap<string, number>): number[] {
  const sets = texts.map(stemSet);
  const n = Math.max(sets.length, 1);
  const avgLen = sets.reduce((a, s) => a + s.size, 0) / n || 1;
  const df = new Map<string, number>();
  for (const t of terms.keys())
    df.set(
      t,
      sets.reduce((a, s) => a + (matches(s, t) ? 1 : 0), 0),
    );
  return sets.map((s) => {
    let score = 0;
    for (const [t, weight] of terms) {
      if (!matches(s, t)) continue;
      const d = df.get(t) ?? 0;
      const idf = Math.log(1 + (n - d + 0.5) / (d + 0.5));
      const norm = 1.2 * (0.25 + 0.75 * (s.size / avgLen));
      score += weight * idf * (2.2 / (1 + norm));
    }
    return score;
  });
}
