import { describe, expect, it } from 'vitest';
import { toFtsQuery } from '../../query/fts';
import { ftsTerm } from '../../assembly/terms';
import { searchTokens } from '../search-tokens';
import { tsqueryOf } from './search-query';
import { compileForPostgres } from './compile';

describe('the shared splitter', () => {
  it('cuts at punctuation, symbols and spaces and keeps letters, digits and accents', () => {
    expect(searchTokens('jean-luc.picard@example.com 2026-03-15T09:30Z café’s x_y €5 ½ 👍ok CamelCase')).toEqual([
      'jean',
      'luc',
      'picard',
      'example',
      'com',
      '2026',
      '03',
      '15T09',
      '30Z',
      'café',
      's',
      'x',
      'y',
      '5',
      '½',
      'ok',
      'CamelCase',
    ]);
  });
});

describe('FTS5 queries as tsqueries', () => {
  it('ANDs the phrases, keeps the prefix and keeps a phrase within the key or within the value', () => {
    expect(tsqueryOf(toFtsQuery('budget cap'))).toBe("'budget' & 'cap':*");
    expect(tsqueryOf(toFtsQuery('b'))).toBe("'b'");
    expect(tsqueryOf(toFtsQuery('jean-luc'))).toBe("(('jean':A <-> 'luc':*A) | ('jean':D <-> 'luc':*D))");
    expect(tsqueryOf(toFtsQuery("o'brien said"))).toBe("(('o':A <-> 'brien':A) | ('o':D <-> 'brien':D)) & 'said':*");
  });

  it('reads the OR groups the assembly builds, and user text never becomes an operator', () => {
    expect(tsqueryOf(ftsTerm('budget'))).toMatch(/^\( 'budget' \| 'budgets' \| .* \)$/);
    expect(tsqueryOf(toFtsQuery('say "hi" NEAR(a b) OR x* & !y'))).toBe(
      "'say' & 'hi' & (('NEAR':A <-> 'a':A) | ('NEAR':D <-> 'a':D)) & 'b' & 'OR' & 'x' & 'y':*",
    );
  });

  it('matches nothing for a phrase without a token, and refuses syntax the engine never builds', () => {
    expect(tsqueryOf('"—"')).toBe("('statelens' & !'statelens')");
    expect(() => tsqueryOf('NEAR("a" "b")')).toThrow(/full-text query syntax/);
  });

  it('compiles the match operator', () => {
    expect(compileForPostgres("SELECT 1 WHERE d @@ to_tsquery('statelens_search', @q)", () => true).text).toBe(
      "SELECT 1 WHERE d @@ to_tsquery('statelens_search', $1)",
    );
  });
});
