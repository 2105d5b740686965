import { describe, expect, it } from 'vitest';
import { diffWords } from './value-diff';

/** A value of exactly `length` characters: short words (many tokens) separated by single spaces. */
function longValue(length: number): string {
  const words: string[] = [];
  let size = -1;
  for (let i = 0; size < length; i++) {
    const w = ((i * 7919) % 997).toString(36);
    words.push(w);
    size += w.length + 1;
  }
  return words.join(' ').slice(0, length).trimEnd();
}

describe('diffWords on long values', () => {
  it('finds the one changed word between two 20,000-character values', () => {
    const before = longValue(20_000);
    expect(before.length).toBeGreaterThan(19_990);
    const middle = before.indexOf(' ', 10_000) + 1;
    const end = before.indexOf(' ', middle);
    const changed = before.slice(middle, end);
    const after = `${before.slice(0, middle)}CHANGED${before.slice(end)}`;
    const d = diffWords(before, after);
    expect(d.map((c) => c.kind)).toEqual(['same', 'remove', 'add', 'same']);
    expect(d[1]?.text).toBe(changed);
    expect(d[2]?.text).toBe('CHANGED');
    // Both sides read back whole from the runs.
    expect(
      d
        .filter((c) => c.kind !== 'add')
        .map((c) => c.text)
        .join(''),
    ).toBe(before);
    expect(
      d
        .filter((c) => c.kind !== 'remove')
        .map((c) => c.text)
        .join(''),
    ).toBe(after);
  });
});
