// Match marks for a store without FTS5's highlight(): the search's phrases found in a text by
// the shared splitter, marked as highlight() marks them (each phrase occurrence from its first
// token to its last; overlapping ones merged). Which facts match is the store's answer; these
// marks only show where. Folding is JS's (lower case, accents stripped, a few letters spelled
// out as PostgreSQL's unaccent does), so a rare letter may match without a mark.
import { searchTokenSpans, searchTokens } from '../db/search-tokens';
import { MARK_CLOSE, MARK_OPEN, containsMarkers, searchWords } from './fts';

const SPELLED: Record<string, string> = { ß: 'ss', æ: 'ae', œ: 'oe', ø: 'o', đ: 'd', ł: 'l', þ: 'th', ð: 'd', ı: 'i' };

function fold(token: string): string {
  return token
    .toLowerCase()
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .replace(/[ßæœøđłþðı]/gu, (c) => SPELLED[c] ?? c);
}

interface Phrase {
  readonly tokens: readonly string[];
  readonly prefix: boolean;
}

/** The phrases of a search, as toFtsQuery builds them (the last word a prefix from two characters). */
export function searchPhrases(search: string): Phrase[] {
  const words = searchWords(search);
  return words.map((w, i) => ({ tokens: searchTokens(w).map(fold), prefix: i === words.length - 1 && [...w].length >= 2 }));
}

/** The text with MARK_OPEN/MARK_CLOSE around each phrase occurrence; null for a text that
 * already holds the markers (it cannot be split reliably). */
export function markMatches(text: string, phrases: readonly Phrase[]): string | null {
  if (containsMarkers(text)) return null;
  const spans = searchTokenSpans(text);
  const folded = spans.map((s) => fold(s.token));
  const ranges: Array<[number, number]> = [];
  for (const p of phrases) {
    const n = p.tokens.length;
    if (n === 0) continue;
    for (let i = 0; i + n <= spans.length; i++) {
      const hit = p.tokens.every((t, k) => {
        const have = folded[i + k] as string;
        return p.prefix && k === n - 1 ? have.startsWith(t) : have === t;
      });
      if (hit) ranges.push([(spans[i] as { start: number }).start, (spans[i + n - 1] as { end: number }).end]);
    }
  }
  ranges.sort((a, b) => a[0] - b[0]);
  const merged: Array<[number, number]> = [];
  for (const r of ranges) {
    const last = merged[merged.length - 1];
    if (last && r[0] < last[1]) last[1] = Math.max(last[1], r[1]);
    else merged.push([r[0], r[1]]);
  }
  let out = '';
  let at = 0;
  for (const [a, b] of merged) {
    out += `${text.slice(at, a)}${MARK_OPEN}${text.slice(a, b)}${MARK_CLOSE}`;
    at = b;
  }
  return out + text.slice(at);
}
