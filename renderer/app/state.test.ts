import { describe, expect, it } from 'vitest';
import { differsOnlyInTyping, formatAddress, isNewHistoryEntry, parseAddress } from './address';
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

  it('round-trips the place through the address', () => {
    const hash = formatAddress(initialState({ view: 'memories', partitionId: 3, factId: 'fact/with spaces' }));
    expect(parseAddress(hash)).toEqual({ place: { view: 'memories', partitionId: 3, factId: 'fact/with spaces' }, problems: [] });
    expect(parseAddress('')).toEqual({ place: {}, problems: [] });
  });

  it('reads a damaged link without throwing and says what is wrong with it', () => {
    const broken = parseAddress('#/memories/1/%E0%A4%A');
    expect(broken.place).toEqual({ view: 'memories', partitionId: 1 });
    expect(broken.problems).toEqual(['The link is damaged: "%E0%A4%A" is not valid percent-encoding.']);
    const nonsense = parseAddress('#/nonsense/-1');
    expect(nonsense.place).toEqual({});
    expect(nonsense.problems.join(' ')).toMatch(/view "nonsense" that does not exist.*partition "-1"/);
    expect(parseAddress('#/memories/2/a/b').place).toEqual({ view: 'memories', partitionId: 2, factId: 'a/b' });
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
    const hash = formatAddress(initialState({ view: 'memories', partitionId: 3, factId: 'f?1', detailTab: 'chain' }));
    expect(hash).toBe('/memories/3/f%3F1?tab=chain');
    expect(parseAddress(hash).place).toEqual({ view: 'memories', partitionId: 3, factId: 'f?1', detailTab: 'chain' });
    expect(formatAddress(initialState({ view: 'memories', partitionId: 3, factId: 'f', detailTab: 'detail' }))).toBe('/memories/3/f');
    expect(parseAddress('#/memories/3/f?tab=map').problems.join(' ')).toMatch(/tab "map" that does not exist/);
    let s = initialState({ partitionId: 3 });
    s = reducer(s, { type: 'place', place: parseAddress('#/memories/3/f?tab=graph').place, notice: null });
    expect(s).toMatchObject({ factId: 'f', detailTab: 'graph' });
    s = reducer(s, { type: 'place', place: parseAddress('#/memories/3/f').place, notice: null });
    expect(s.detailTab).toBe('detail');
  });

  it('every move after the first landing is its own history entry', () => {
    expect(isNewHistoryEntry('', '/memories/3')).toBe(false);
    expect(isNewHistoryEntry('/memories', '/memories/3')).toBe(false);
    expect(isNewHistoryEntry('/memories/3', '/review/3')).toBe(true);
    expect(isNewHistoryEntry('/memories/3/f', '/memories/3/f?tab=chain')).toBe(true);
    expect(isNewHistoryEntry('/memories/3', '/memories/3')).toBe(false);
    expect(isNewHistoryEntry('/memories/3', '/memories/3?q=tea')).toBe(true);
  });

  it('search, filters, sort, as-of time and view inputs round-trip through the address', () => {
    const s = initialState({
      view: 'context',
      partitionId: 2,
      factId: 'f1',
      detailTab: 'graph',
      filter: {
        validity: 'valid',
        search: 'pallet cost',
        memoryTypes: ['user', 'capability'],
        scopes: ['global'],
        needsReview: true,
        isConstraint: false,
        from: '2025-01-01T00:00:00.000Z',
      },
      sort: { column: 'key', direction: 'asc' },
      asOf: '2025-03-01T12:00:00.000Z',
      params: { query: 'who approves?', strategies: ['state_based', 'recent'], budget: '1500', hops: '3' },
    });
    const address = formatAddress(s);
    expect(address).toContain('q=pallet+cost');
    expect(address).toContain('types=user,capability');
    const back = parseAddress(address);
    expect(back.problems).toEqual([]);
    expect(back.place).toEqual({
      view: 'context',
      partitionId: 2,
      factId: 'f1',
      detailTab: 'graph',
      filter: s.filter,
      sort: s.sort,
      asOf: s.asOf,
      params: s.params,
    });
    const followed = reducer(initialState({ partitionId: 9 }), { type: 'place', place: back.place, notice: null });
    expect(formatAddress(followed)).toBe(address);
  });

  it("the review queue's arrangement and selection and the table's hidden columns round-trip through the address", () => {
    const review = initialState({ view: 'review', partitionId: 4, params: { queue: 'flat', picked: ['f1', 'f/2'] } });
    const address = formatAddress(review);
    expect(address).toBe('/review/4?queue=flat&picked=f1,f%2F2');
    const back = parseAddress(address);
    expect(back.problems).toEqual([]);
    expect(back.place.params).toEqual({ queue: 'flat', picked: ['f1', 'f/2'] });
    expect(formatAddress(reducer(initialState({ partitionId: 4 }), { type: 'place', place: back.place, notice: null }))).toBe(address);

    // Hidden columns: only what differs from the default is written; "none" shows every column.
    expect(formatAddress(initialState({ view: 'memories', partitionId: 4 }))).toBe('/memories/4');
    const shown = reducer(initialState({ view: 'memories', partitionId: 4 }), { type: 'toggleColumn', column: 'importance' });
    const columns = formatAddress(shown);
    expect(columns).toBe('/memories/4?hide=authority,accessCount,lastAccessedAt,createdAt');
    const followed = reducer(initialState({ partitionId: 4 }), { type: 'place', place: parseAddress(columns).place, notice: null });
    expect([...followed.hiddenColumns].sort()).toEqual([...shown.hiddenColumns].sort());
    expect(parseAddress('/memories/4?hide=none').place.hiddenColumns).toEqual(new Set());
    // Another view's address leaves the columns as they were.
    expect(reducer(shown, { type: 'place', place: { view: 'review', partitionId: 4 }, notice: null }).hiddenColumns).toBe(shown.hiddenColumns);

    const bad = parseAddress('/review/4?queue=sideways&hide=key,colour');
    expect(bad.place.params).toBeUndefined();
    expect(bad.place.hiddenColumns).toBeUndefined();
    expect(bad.problems.join(' ')).toContain('queue arrangement "sideways"');
    expect(bad.problems.join(' ')).toContain('hidden columns "key,colour"');
  });

  it('a link with some bad params keeps the good ones and names each bad one', () => {
    const link = parseAddress('/memories/3?q=tea&validity=maybe&types=user,robot&sort=-nonsense&asof=yesterday&hops=99&budget=2000');
    expect(link.place).toEqual({ view: 'memories', partitionId: 3, filter: { validity: 'all', search: 'tea' }, params: { budget: '2000' } });
    const said = link.problems.join(' ');
    for (const bit of ['validity "maybe"', 'memory types "user,robot"', 'sorts by "-nonsense"', 'as-of time "yesterday"', 'graph hops "99"'])
      expect(said).toContain(bit);
  });

  it('tells a change of typed text alone (one Back step while typing) from any other move', () => {
    expect(differsOnlyInTyping('/memories/3?q=pal', '/memories/3?q=pallet')).toBe(true);
    expect(differsOnlyInTyping('/context/3?query=who&budget=900', '/context/3?query=who+approves&budget=900')).toBe(true);
    expect(differsOnlyInTyping('/memories/3?q=pal', '/memories/3?q=pal&validity=valid')).toBe(false);
    expect(differsOnlyInTyping('/memories/3/f?q=pal', '/memories/3?q=pal')).toBe(false);
    expect(differsOnlyInTyping('/memories/3?q=pal', '/memories/3?q=pal')).toBe(false);
  });

  it('following an address resets what it leaves out to the defaults', () => {
    let s = initialState({ partitionId: 1, filter: { validity: 'valid', search: 'x' }, asOf: '2025-01-01T00:00:00.000Z', params: { hops: '3' } });
    s = reducer(s, { type: 'place', place: parseAddress('/memories/1').place, notice: null });
    expect(s).toMatchObject({ filter: { validity: 'all' }, asOf: null, params: {} });
  });
});
