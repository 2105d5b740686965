import { describe, expect, it } from 'vitest';
import { highlightSegments, matchRanges, mergeRanges, searchTerms, segments } from './highlight';

describe('search highlighting', () => {
  it('folds case and diacritics like the index and matches at word starts', () => {
    const terms = searchTerms('Zurich MÜN');
    expect(terms).toEqual(['zurich', 'mun']);
    const text = 'Moved from Zürich to München; summun';
    const segs = highlightSegments(text, terms);
    expect(segs.filter((s) => s.match).map((s) => s.text)).toEqual(['Zürich', 'Mün']);
    expect(segs.map((s) => s.text).join('')).toBe(text);
  });

  it('keeps hostile markup as plain text pieces', () => {
    const text = '<img src=x onerror=alert(1)> budget';
    const segs = highlightSegments(text, searchTerms('budget'));
    expect(segs.map((s) => s.text).join('')).toBe(text);
    expect(segs.find((s) => s.match)?.text).toBe('budget');
  });

  it('merges overlapping ranges and tolerates unsorted input', () => {
    expect(
      mergeRanges([
        [5, 8],
        [0, 2],
        [1, 3],
        [7, 9],
      ]),
    ).toEqual([
      [0, 3],
      [5, 9],
    ]);
    expect(segments('abcdef', [[1, 3]])).toEqual([
      { text: 'a', match: false },
      { text: 'bc', match: true },
      { text: 'def', match: false },
    ]);
    expect(matchRanges('', ['x'])).toEqual([]);
  });
});
