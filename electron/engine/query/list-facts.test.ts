import { expect, it } from 'vitest';
import { FactPage, VALUE_PREVIEW_CHARS } from '../../../shared/inspect';
import { codeOf } from '../../../test/helpers/errors';
import { describeStores } from '../../../test/helpers/stores';
import { toFtsQuery } from './fts';
import { USER } from './fixtures.test-helper';

describeStores('listFacts filters', (openStore) => {
  it('filters by validity, memory type, scope, review, constraint, source, authority, dates and key', () => {
    const store = openStore();
    const p = store.scope(USER, { create: true });
    p.writeFact({ key: 'city', value: 'Lisbon', ts: '2026-01-01T00:00:00Z', memoryType: 'user', source: { type: 'user', authority: 'employee' } });
    p.writeFact({ key: 'city', value: 'Porto', ts: '2026-02-01T00:00:00Z', memoryType: 'user', source: { type: 'user', authority: 'employee' } });
    p.writeFact({ key: 'limit', value: 'Budget cap is $5k per policy', ts: '2026-03-01T00:00:00Z', source: { type: 'policy', authority: 'policy' } });
    p.writeFact({ key: 'limit', value: 'Let us spend $9k', ts: '2026-03-02T00:00:00Z', source: { type: 'user', authority: 'guest' } });
    p.writeFact({ key: 'idea', value: 'what if we moved', scope: 'hypothetical', ts: '2026-04-01T00:00:00Z' });
    const ids = (filter: object) => p.listFacts({ filter, sort: { column: 'ts', direction: 'asc' } }).rows.map((r) => r.value);
    expect(ids({ validity: 'valid' })).toEqual(['Porto', 'Budget cap is $5k per policy', 'what if we moved']);
    expect(ids({ validity: 'superseded' })).toEqual(['Lisbon']);
    expect(ids({ validity: 'proposal' })).toEqual(['Let us spend $9k']);
    expect(ids({ memoryTypes: ['organizational'] })).toEqual(['Budget cap is $5k per policy']);
    expect(ids({ memoryTypes: [] })).toHaveLength(5);
    expect(ids({ scopes: ['hypothetical'] })).toEqual(['what if we moved']);
    expect(ids({ isConstraint: true })).toEqual(['Budget cap is $5k per policy']);
    expect(ids({ sourceTypes: ['policy'] })).toEqual(['Budget cap is $5k per policy']);
    expect(ids({ authorities: ['guest', 'policy'] })).toEqual(['Budget cap is $5k per policy', 'Let us spend $9k']);
    expect(ids({ authorities: [''] })).toEqual(['what if we moved']);
    expect(ids({ from: '2026-02-01T00:00:00Z', to: '2026-03-02T00:00:00Z' })).toEqual(['Porto', 'Budget cap is $5k per policy']);
    expect(ids({ key: 'city' })).toEqual(['Lisbon', 'Porto']);
    store.close();
  });

  it('asOf shows what was valid then: superseded later counts, proposals never do', () => {
    const store = openStore();
    const p = store.scope(USER, { create: true });
    p.writeFact({ key: 'city', value: 'Lisbon', ts: '2026-01-01T00:00:00Z' });
    p.writeFact({ key: 'city', value: 'Porto', ts: '2026-02-01T00:00:00Z' });
    p.writeFact({ key: 'limit', value: 'max $5k', ts: '2026-01-05T00:00:00Z', source: { type: 'policy', authority: 'policy' } });
    p.writeFact({ key: 'limit', value: 'spend $9k', ts: '2026-01-06T00:00:00Z', source: { type: 'user', authority: 'guest' } });
    const asOf = (t: string) => p.listFacts({ filter: { asOf: t }, sort: { column: 'ts', direction: 'asc' } }).rows.map((r) => r.value);
    expect(asOf('2025-12-31T00:00:00Z')).toEqual([]);
    expect(asOf('2026-01-10T00:00:00Z')).toEqual(['Lisbon', 'max $5k']);
    expect(asOf('2026-03-01T00:00:00Z')).toEqual(['max $5k', 'Porto']);
    expect(asOf('2026-03-01T00:00:00Z')).toEqual(p.allFactsAsOf('2026-03-01T00:00:00Z').map((f) => f.value));
    store.close();
  });

  it("never returns another partition's facts", () => {
    const store = openStore();
    const a = store.scope(USER, { create: true });
    const b = store.scope({ kind: 'user', org: 'acme', user: 'u2' }, { create: true });
    a.writeFact({ key: 'secret', value: 'alpha budget' });
    b.writeFact({ key: 'secret', value: 'beta budget' });
    expect(a.listFacts({ filter: { search: 'budget' } }).rows.map((r) => r.value)).toEqual(['alpha budget']);
    expect(b.listFacts().rows.map((r) => r.value)).toEqual(['beta budget']);
    expect(b.countFacts({ search: 'alpha' })).toEqual({ count: 0, capped: false });
    store.close();
  });

  it('rejects bad filters, sorts, pages and cursors with INVALID_INPUT', () => {
    const store = openStore();
    const p = store.scope(USER, { create: true });
    p.writeFacts(Array.from({ length: 5 }, (_, i) => ({ key: `k${i}`, value: `v${i}` })));
    expect(codeOf(() => p.listFacts({ filter: { from: 'not a date' } }))).toBe('INVALID_INPUT');
    expect(codeOf(() => p.listFacts({ filter: { bogus: 1 } as object }))).toBe('INVALID_INPUT');
    expect(codeOf(() => p.listFacts({ sort: { column: 'rid' as 'ts' } }))).toBe('INVALID_INPUT');
    expect(codeOf(() => p.listFacts({ page: { limit: 100_000 } }))).toBe('INVALID_INPUT');
    expect(codeOf(() => p.listFacts({ page: { after: 'garbage!!' } }))).toBe('INVALID_INPUT');
    expect(codeOf(() => p.listFacts({ page: { after: Buffer.from('{"c":"ts"}').toString('base64url') } }))).toBe('INVALID_INPUT');
    const first = p.listFacts({ sort: { column: 'key', direction: 'asc' }, page: { limit: 2 } });
    expect(first.nextCursor).not.toBeNull();
    // A cursor belongs to its sort.
    expect(codeOf(() => p.listFacts({ sort: { column: 'ts' }, page: { after: first.nextCursor } }))).toBe('INVALID_INPUT');
    store.close();
  });

  it('counts the first page up to 10,000 and says when it stopped', () => {
    const store = openStore();
    const p = store.scope(USER, { create: true });
    p.writeFacts(Array.from({ length: 30 }, (_, i) => ({ key: `k${i}`, value: `v${i}` })));
    const first = p.listFacts({ page: { limit: 10 } });
    expect(FactPage.parse(first)).toEqual(first);
    expect(first.total).toEqual({ count: 30, capped: false });
    expect(p.listFacts({ page: { limit: 10, after: first.nextCursor } }).total).toBeNull();
    expect(p.countFacts({}, 20)).toEqual({ count: 20, capped: true });
    store.close();
  });

  it('a cursor whose value was too long to carry is resolved by rid', () => {
    const store = openStore();
    const p = store.scope(USER, { create: true });
    const long = 'é'.repeat(499);
    p.writeFacts([
      { key: `${long}a`, value: '1' },
      { key: `${long}b`, value: '2' },
      { key: `${long}c`, value: '3' },
    ]);
    const first = p.listFacts({ sort: { column: 'key', direction: 'asc' }, page: { limit: 1 } });
    expect(first.nextCursor!.length).toBeLessThanOrEqual(2000);
    const second = p.listFacts({ sort: { column: 'key', direction: 'asc' }, page: { limit: 1, after: first.nextCursor } });
    expect(second.rows.map((r) => r.value)).toEqual(['2']);
    store.close();
  });
});

describeStores('full-text search', (openStore) => {
  it('quotes every word so FTS5 syntax in user text is inert', () => {
    expect(toFtsQuery('budget cap')).toBe('"budget" "cap"*');
    expect(toFtsQuery('say "hi" NEAR(a b) OR x*')).toBe('"say" """hi""" "NEAR(a" "b)" "OR" "x*"*');
    expect(toFtsQuery('a')).toBe('"a"');
  });

  it('refuses a search with no word to look for, never reading it as "no search"', () => {
    const store = openStore();
    const p = store.scope(USER, { create: true });
    p.writeFacts([
      { key: 'note', value: 'the budget' },
      { key: 'other', value: 'kept' },
    ]);
    for (const search of ['', ' ', '  -- ** ', '*', '"', '"((', '^', '()', '...', '\u0000', '\uE000\uE001']) {
      expect(() => toFtsQuery(search), JSON.stringify(search)).toThrow(
        expect.objectContaining({ code: 'INVALID_INPUT', details: expect.objectContaining({ field: 'search' }) }),
      );
      expect(
        codeOf(() => p.listFacts({ filter: { search } })),
        `listFacts ${JSON.stringify(search)}`,
      ).toBe('INVALID_INPUT');
      expect(
        codeOf(() => p.countFacts({ search })),
        `countFacts ${JSON.stringify(search)}`,
      ).toBe('INVALID_INPUT');
    }
    expect(() => p.listFacts({ filter: { search: '*' } })).toThrow(/has no word to look for/);
    store.close();
  });

  it('survives hostile search text without FTS errors escaping', () => {
    const store = openStore();
    const p = store.scope(USER, { create: true });
    p.writeFact({ key: 'note', value: 'the budget is "tight" (really)' });
    for (const search of [
      '"',
      '"unbalanced',
      'AND',
      'OR OR',
      'NOT',
      'a:b',
      'key:note',
      '(',
      ')',
      '*',
      'NEAR(',
      '^start',
      'x"y"z',
      '\u0000',
      'budget AND',
      "'; DROP TABLE facts; --",
      '\uE000budget\uE001',
    ]) {
      const outcome = codeOf(() => p.listFacts({ filter: { search } }));
      expect(['no error', 'INVALID_INPUT'], `search ${JSON.stringify(search)}: ${outcome}`).toContain(outcome);
    }
    expect(p.listFacts({ filter: { search: '"tight"' } }).rows).toHaveLength(1);
    expect(p.listFacts({ filter: { search: 'key:note' } }).rows).toHaveLength(0);
    expect(codeOf(() => p.listFacts({ filter: { search: Array.from({ length: 40 }, (_, i) => `w${i}`).join(' ') } }))).toBe('INVALID_INPUT');
    expect(p.allFacts()).toHaveLength(1);
    store.close();
  });

  it('returns match ranges into key and value, as text offsets', () => {
    const store = openStore();
    const p = store.scope(USER, { create: true });
    p.writeFact({ key: 'travel_budget', value: 'The Budget for travel is <b>$5k</b>; budget owners approve.' });
    p.writeFact({ key: 'other', value: 'nothing here' });
    const page = p.listFacts({ filter: { search: 'budget' } });
    expect(page.rows).toHaveLength(1);
    const row = page.rows[0]!;
    expect(row.value).toContain('<b>$5k</b>');
    const hits = row.match!.value.map(([a, b]) => row.value.slice(a, b));
    expect(hits).toEqual(['Budget', 'budget']);
    expect(row.match!.key.map(([a, b]) => row.key.slice(a, b))).toEqual(['budget']);
    // Exact words only (a one-letter last word is no prefix): matches probed row by row.
    p.writeFact({ key: 'plan', value: 'plan q keeps the budget' });
    const exact = p.listFacts({ filter: { search: 'budget q' } }).rows;
    expect(exact.map((r) => r.key)).toEqual(['plan']);
    expect(exact[0]!.match!.value.map(([a, b]) => exact[0]!.value.slice(a, b))).toEqual(['q', 'budget']);
    // Prefix search on the last word, for search-as-you-type.
    expect(p.listFacts({ filter: { search: 'trav' } }).rows[0]!.match!.value.map(([a, b]) => row.value.slice(a, b))).toEqual(['travel']);
    store.close();
  });

  it('moves the value preview to the first match when it lies past the preview', () => {
    const store = openStore();
    const p = store.scope(USER, { create: true });
    const value = `${'filler words '.repeat(100)}the needle sits here ${'tail '.repeat(200)}`;
    p.writeFact({ key: 'long', value });
    const plain = p.listFacts().rows[0]!;
    expect(plain.value).toBe(value.slice(0, VALUE_PREVIEW_CHARS));
    expect(plain.valueClippedEnd).toBe(true);
    expect(plain.valueLength).toBe(value.length);
    const row = p.listFacts({ filter: { search: 'needle' } }).rows[0]!;
    expect(row.valueClippedStart).toBe(true);
    expect(row.valueClippedEnd).toBe(true);
    expect(row.value).toBe(value.slice(row.valueOffset, row.valueOffset + VALUE_PREVIEW_CHARS));
    expect(row.match!.value.map(([a, b]) => row.value.slice(a, b))).toEqual(['needle']);
    store.close();
  });

  it('gives no ranges (never wrong ones) for text that contains the private markers', () => {
    const store = openStore();
    const p = store.scope(USER, { create: true });
    p.writeFact({ key: 'odd', value: 'budget \uE000 marker \uE001 text' });
    const row = p.listFacts({ filter: { search: 'budget' } }).rows[0]!;
    expect(row.value).toBe('budget \uE000 marker \uE001 text');
    expect(row.match).toEqual({ key: [], value: [] });
    store.close();
  });

  it('uses the sort index for common words and the match list for rare ones, with equal results', () => {
    const store = openStore();
    const p = store.scope(USER, { create: true });
    p.writeFacts(Array.from({ length: 400 }, (_, i) => ({ key: `k${i}`, value: i % 50 === 0 ? `rare common ${i}` : `common ${i}` })));
    const common = p.listFacts({ filter: { search: 'common' }, sort: { column: 'key', direction: 'asc' }, page: { limit: 500 } });
    expect(common.rows).toHaveLength(400);
    expect(common.total).toEqual({ count: 400, capped: false });
    const rare = p.listFacts({ filter: { search: 'rare' }, sort: { column: 'key', direction: 'asc' }, page: { limit: 500 } });
    expect(rare.rows.map((r) => r.key)).toEqual(common.rows.filter((r) => r.value.startsWith('rare')).map((r) => r.key));
    store.close();
  });
});
