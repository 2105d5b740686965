import { describe, expect, it } from 'vitest';
import { MARK_CLOSE as C, MARK_OPEN as O } from './fts';
import { markMatches, searchPhrases } from './mark-matches';

describe('marking matches without highlight()', () => {
  it('marks each phrase occurrence, the last word as a prefix, accents and case folded', () => {
    expect(markMatches('Le Café de Flore', searchPhrases('cafe'))).toBe(`Le ${O}Café${C} de Flore`);
    expect(markMatches('budgeting the budget cap', searchPhrases('cap budg'))).toBe(`${O}budgeting${C} the ${O}budget${C} ${O}cap${C}`);
    expect(markMatches('jean-luc.picard@example.com', searchPhrases('jean-luc'))).toBe(`${O}jean-luc${C}.picard@example.com`);
    expect(markMatches('Straße', searchPhrases('strasse'))).toBe(`${O}Straße${C}`);
  });

  it('merges overlapping occurrences and leaves a text holding the markers unmarked', () => {
    expect(markMatches('a-b-c', searchPhrases('a-b b-c'))).toBe(`${O}a-b-c${C}`);
    expect(markMatches('a-b-c', searchPhrases('a b'))).toBe(`${O}a${C}-${O}b${C}-c`);
    expect(markMatches(`x ${O}y`, searchPhrases('x'))).toBeNull();
  });
});
