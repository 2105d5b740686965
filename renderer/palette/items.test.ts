import { describe, expect, it } from 'vitest';
import { matchScore, rankEntries, searchableText, type PaletteEntry } from './items';

const entry = (section: PaletteEntry['section'], label: string): PaletteEntry => ({ id: `${section}:${label}`, section, label, run: () => {} });

describe('command palette entries', () => {
  it('scores prefix above word start above substring above scattered letters', () => {
    expect(matchScore('Review queue', 'rev')).toBe(4);
    expect(matchScore('Context preview', 'prev')).toBe(3);
    expect(matchScore('Audit log', 'dit')).toBe(2);
    expect(matchScore('Audit log', 'alg')).toBe(1);
    expect(matchScore('Audit log', 'zz')).toBe(0);
    expect(matchScore('a.b (c)', '(c')).toBe(2);
  });

  it('keeps section order, drops non-matches and leaves engine-matched facts as they came', () => {
    const entries = [
      entry('Facts', 'diet'),
      entry('Partitions', 'acme / user dana'),
      entry('Views', 'Audit log'),
      entry('Views', 'Memories'),
      entry('Actions', 'Export a snapshot'),
    ];
    expect(rankEntries('a', entries).map((e) => e.id)).toEqual(['Views:Audit log', 'Actions:Export a snapshot', 'Partitions:acme / user dana', 'Facts:diet']);
    expect(rankEntries('dana', entries).map((e) => e.id)).toEqual(['Partitions:acme / user dana', 'Facts:diet']);
  });

  it('asks the engine to search only text with a letter or digit', () => {
    expect(searchableText('  ')).toBeNull();
    expect(searchableText('--')).toBeNull();
    expect(searchableText(' diet ')).toBe('diet');
  });
});
