// Turning what a user types into a safe FTS5 query, and FTS5 highlight() output into match
// ranges. Every word is quoted, so no FTS5 operator or syntax error can come from user text.
import { StatelensError } from '../../../shared/errors';
import type { TextRange } from '../../../shared/inspect';

export const MAX_SEARCH_WORDS = 32;

/** Private-use markers for highlight(); a text already holding them gets no ranges. */
export const MARK_OPEN = '\uE000';
export const MARK_CLOSE = '\uE001';

const SEARCHABLE = /[\p{L}\p{N}]/u;

/** The words of a search the index can match: whitespace-separated, each holding a letter or
 * a digit (punctuation alone is not indexed, so a word of only punctuation matches nothing). */
export function searchWords(text: string): string[] {
  return text
    .split(/\s+/u)
    .map((w) => w.replace(/[\uE000\uE001\0]/gu, ''))
    .filter((w) => SEARCHABLE.test(w));
}

/** A search quoted for an error message: short, on one line. */
export function quoteSearch(text: string): string {
  const flat = text.replace(/\s+/gu, ' ');
  return `"${flat.length > 60 ? `${flat.slice(0, 60)}…` : flat}"`;
}

/**
 * Every whitespace-separated word becomes a quoted phrase (implicit AND); the last word is a
 * prefix so results follow typing. A search with no word to look for (empty, spaces or only
 * punctuation) is refused: treating it as "no search" would select every fact, and a delete by
 * that filter would empty the partition.
 */
export function toFtsQuery(text: string): string {
  const words = searchWords(text);
  if (words.length === 0) {
    throw new StatelensError(
      'INVALID_INPUT',
      `The search ${quoteSearch(text)} has no word to look for: give at least one word with a letter or digit, or clear the search`,
      { field: 'search', reason: 'no-words' },
    );
  }
  if (words.length > MAX_SEARCH_WORDS) {
    throw new StatelensError('INVALID_INPUT', `The search has ${words.length} words; at most ${MAX_SEARCH_WORDS} are allowed`, {
      field: 'search',
      reason: 'too-many-words',
    });
  }
  return words
    .map((w, i) => {
      const quoted = `"${w.replaceAll('"', '""')}"`;
      const last = i === words.length - 1;
      return last && [...w].length >= 2 ? `${quoted}*` : quoted;
    })
    .join(' ');
}

/** Runs `fn`, turning a full-text failure of the user's search (FTS5's, or PostgreSQL's tsquery)
 * into INVALID_INPUT (it should not happen with toFtsQuery, but never let one escape as an
 * internal error). */
export function guardSearch<T>(search: string | undefined, fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    if (search !== undefined && /fts5|tsquery|tsvector/i.test(message))
      throw new StatelensError('INVALID_INPUT', `The search ${quoteSearch(search)} could not be run: ${message}`, { field: 'search' });
    throw e;
  }
}

/** Removes the markers highlight() inserted and returns the plain text with match ranges. */
export function parseHighlighted(marked: string): { text: string; ranges: TextRange[] } {
  const ranges: TextRange[] = [];
  const parts: string[] = [];
  let length = 0;
  let at = 0;
  for (;;) {
    const open = marked.indexOf(MARK_OPEN, at);
    if (open < 0) break;
    const close = marked.indexOf(MARK_CLOSE, open + 1);
    if (close < 0) break;
    parts.push(marked.slice(at, open));
    length += open - at;
    const hit = marked.slice(open + 1, close);
    if (hit.length > 0) ranges.push([length, length + hit.length]);
    parts.push(hit);
    length += hit.length;
    at = close + 1;
  }
  parts.push(marked.slice(at));
  return { text: parts.join(''), ranges };
}

export function containsMarkers(text: string): boolean {
  return text.includes(MARK_OPEN) || text.includes(MARK_CLOSE);
}
