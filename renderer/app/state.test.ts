import { describe, expect, it } from 'vitest';
import { formatHash, isNewHistoryEntry, parseHash } from './location';
import { initialState, reducer } from './state';

describe('app state', () => {
  it('selects with toggle, add, remove and replace', () => {
    let s = initialState({ partitionId: 1 });
    s = reducer(s, { type: 'select', ids: ['a', 'b'], mode: 'add' });
    s = reducer(s, { type: 'select', ids: ['b', 'c'], mode: 'toggle' });
    expect([...s.selection].sort()).toEqual(['a', 'c']);
    s = reducer(s, { type: 'select', ids: ['a'], mode: 'remove' });
    expect([...s.selection]).toEqual(['c']);
    s = reducer(s, { type: 'select', ids: ['z'], mode: 'replace' });
    expect([...s.selection]).toEqual(['z']);
  });

  it('changing partition clears the open fact, selection and filter', () => {
    let s = initialState({ partitionId: 1, factId: 'f1' });
    s = reducer(s, { type: 'select', ids: ['f1'], mode: 'add' });
    s = reducer(s, { type: 'filter', filter: { validity: 'valid', search: 'x' } });
    s = reducer(s, { type: 'partition', partitionId: 2 });
    expect(s.factId).toBeNull();
    expect(s.selection.size).toBe(0);
    expect(s.filter).toEqual({ validity: 'all' });
  });

  it('round-trips the place through the URL hash', () => {
    const hash = formatHash({ view: 'memories', partitionId: 3, factId: 'fact/with spaces' });
    expect(parseHash(hash)).toEqual({ place: { view: 'memories', partitionId: 3, factId: 'fact/with spaces' }, problems: [] });
    expect(parseHash('')).toEqual({ place: {}, problems: [] });
  });

  it('reads a damaged link without throwing and says what is wrong with it', () => {
    const broken = parseHash('#/memories/1/%E0%A4%A');
    expect(broken.place).toEqual({ view: 'memories', partitionId: 1 });
    expect(broken.problems).toEqual(['The link is damaged: "%E0%A4%A" is not valid percent-encoding.']);
    const nonsense = parseHash('#/nonsense/-1');
    expect(nonsense.place).toEqual({});
    expect(nonsense.problems.join(' ')).toMatch(/view "nonsense" that does not exist.*partition "-1"/);
    expect(parseHash('#/memories/2/a/b').place).toEqual({ view: 'memories', partitionId: 2, factId: 'a/b' });
  });

  it('going to a link replaces the open fact and the notice, and a view change clears the notice', () => {
    let s = initialState({ partitionId: 1, factId: 'gone', notice: 'old' });
    s = reducer(s, { type: 'place', place: { view: 'memories', partitionId: 1 }, notice: null });
    expect(s.factId).toBeNull();
    expect(s.notice).toBeNull();
    s = reducer(s, { type: 'place', place: { partitionId: 2, factId: 'f' }, notice: 'bad view' });
    expect(s).toMatchObject({ partitionId: 2, factId: 'f', notice: 'bad view', view: 'memories' });
    s = reducer(s, { type: 'view', view: 'audit' });
    expect(s.notice).toBeNull();
  });

  it('a deep link names the chain or graph tab, and going there opens it', () => {
    const hash = formatHash({ view: 'memories', partitionId: 3, factId: 'f?1', detailTab: 'chain' });
    expect(hash).toBe('#/memories/3/f%3F1?tab=chain');
    expect(parseHash(hash).place).toEqual({ view: 'memories', partitionId: 3, factId: 'f?1', detailTab: 'chain' });
    expect(formatHash({ view: 'memories', partitionId: 3, factId: 'f', detailTab: 'detail' })).toBe('#/memories/3/f');
    expect(parseHash('#/memories/3/f?tab=map').problems.join(' ')).toMatch(/tab "map" that does not exist/);
    let s = initialState({ partitionId: 3 });
    s = reducer(s, { type: 'place', place: parseHash('#/memories/3/f?tab=graph').place, notice: null });
    expect(s).toMatchObject({ factId: 'f', detailTab: 'graph' });
    s = reducer(s, { type: 'place', place: parseHash('#/memories/3/f').place, notice: null });
    expect(s.detailTab).toBe('detail');
  });

  it('every move after the first landing is its own history entry', () => {
    expect(isNewHistoryEntry('', '#/memories/3')).toBe(false);
    expect(isNewHistoryEntry('#/memories', '#/memories/3')).toBe(false);
    expect(isNewHistoryEntry('#/memories/3', '#/review/3')).toBe(true);
    expect(isNewHistoryEntry('#/memories/3/f', '#/memories/3/f?tab=chain')).toBe(true);
    expect(isNewHistoryEntry('#/memories/3', '#/memories/3')).toBe(false);
  });
});
