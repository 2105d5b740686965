import { expect, it } from 'vitest';
import { SORT_COLUMNS, type FactFilterInput, type SortColumn } from '../../../shared/query';
import { describeStores } from '../../../test/helpers/stores';
import type { PartitionHandle } from '../partition-handle';
import type { Store } from '../store';
import { seedFacts } from './fixtures.test-helper';
import { listFacts, planFor, type PagePlan } from './list-facts';

interface RefRow {
  rid: number;
  id: string;
  key: string;
  value: string;
  ts: string;
  created_at: string;
  importance: number;
  access_count: number;
  last_accessed_at: string | null;
  memory_type: string;
  scope: string;
  source_authority: string | null;
  source_type: string;
  status: string;
  is_valid: number;
  needs_review: number;
}

/** The sort value as the engine defines it (ASCII fixture data, so JS order = SQLite BINARY). */
function sortValue(r: RefRow, c: SortColumn): string | number {
  switch (c) {
    case 'ts':
      return r.ts;
    case 'key':
      return r.key;
    case 'value':
      return r.value.slice(0, 64);
    case 'importance':
      return r.importance;
    case 'accessCount':
      return r.access_count;
    case 'lastAccessedAt':
      return r.last_accessed_at ?? '';
    case 'createdAt':
      return r.created_at;
    case 'memoryType':
      return r.memory_type;
    case 'scope':
      return r.scope;
    case 'authority':
      return r.source_authority ?? '';
    case 'sourceType':
      return r.source_type;
    case 'status':
      return r.status;
  }
}

/** The words FTS5's unicode61 tokenizer sees (ASCII fixture data). */
function tokens(r: RefRow): string[] {
  return `${r.key} ${r.value}`
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

function expectedOrder(rows: RefRow[], c: SortColumn, dir: 'asc' | 'desc'): string[] {
  const sign = dir === 'asc' ? 1 : -1;
  return [...rows]
    .sort((a, b) => {
      const va = sortValue(a, c);
      const vb = sortValue(b, c);
      if (va !== vb) return (va < vb ? -1 : 1) * sign;
      return (a.rid - b.rid) * sign;
    })
    .map((r) => r.id);
}

function pageAll(p: PartitionHandle, c: SortColumn, dir: 'asc' | 'desc', limit: number, filter: FactFilterInput = {}, plan?: PagePlan): string[] {
  const ids: string[] = [];
  let after: string | null = null;
  for (let guard = 0; guard < 10_000; guard++) {
    const page = listFacts(p.ctx, { filter, sort: { column: c, direction: dir }, page: { limit, after } }, plan ? { plan } : {});
    expect(page.rows.length).toBeLessThanOrEqual(limit);
    ids.push(...page.rows.map((r) => r.id));
    if (page.nextCursor === null) return ids;
    expect(page.rows.length).toBe(limit);
    after = page.nextCursor;
  }
  throw new Error('paging did not end');
}

describeStores('keyset paging', (openStore) => {
  let store: Store;
  let p: PartitionHandle;
  let all: RefRow[];

  it('seeds 2,100 facts with ties on every sort column', () => {
    store = openStore();
    p = seedFacts(store, 2100);
    all = store.db.prepare('SELECT * FROM facts WHERE partition_id = ?').all(p.id) as RefRow[];
    expect(all.length).toBe(2100);
    for (const c of SORT_COLUMNS) {
      const distinct = new Set(all.map((r) => sortValue(r, c))).size;
      expect(distinct, `${c} has ties`).toBeLessThan(all.length);
    }
  });

  for (const c of SORT_COLUMNS) {
    for (const dir of ['asc', 'desc'] as const) {
      it(`pages through every fact by ${c} ${dir} without skipping or repeating one`, () => {
        const got = pageAll(p, c, dir, 37);
        expect(new Set(got).size).toBe(got.length);
        expect(got).toEqual(expectedOrder(all, c, dir));
      });
    }
  }

  it('pages identically under every plan that can serve a filter', () => {
    store.db.prepare('UPDATE facts SET needs_review = 1 WHERE rid % 11 = 0 AND partition_id = ?').run(p.id);
    all = store.db.prepare('SELECT * FROM facts WHERE partition_id = ?').all(p.id) as RefRow[];
    const cases: Array<[FactFilterInput, (r: RefRow) => boolean, PagePlan[]]> = [
      [
        { validity: 'valid', from: '2026-02-01T00:00:00.000Z', to: '2026-05-15T00:00:00.000Z' },
        (r) => r.is_valid === 1 && r.ts >= '2026-02-01T00:00:00.000Z' && r.ts < '2026-05-15T00:00:00.000Z',
        ['sort-index', 'range'],
      ],
      // Exact words (the last one is too short to become a prefix), and a prefix.
      [{ search: 'variant budget 1' }, (r) => ['variant', 'budget', '1'].every((w) => tokens(r).includes(w)), ['sort-index', 'search']],
      [{ search: 'budg' }, (r) => tokens(r).some((t) => t.startsWith('budg')), ['sort-index', 'search']],
      [{ needsReview: true }, (r) => r.needs_review === 1, ['sort-index', 'review']],
      [{ key: 'topic_7' }, (r) => r.key === 'topic_7', ['sort-index', 'key']],
      [{ authorities: ['guest', ''] }, (r) => r.source_authority === 'guest' || r.source_authority === null, ['sort-index', 'authority']],
      [{ sourceTypes: ['policy', 'system'] }, (r) => r.source_type === 'policy' || r.source_type === 'system', ['sort-index', 'source']],
      [{ memoryTypes: ['capability'] }, (r) => r.memory_type === 'capability', ['sort-index', 'memory']],
      [{ scopes: ['draft', 'task'] }, (r) => r.scope === 'draft' || r.scope === 'task', ['sort-index', 'scope']],
      [{ validity: 'superseded' }, (r) => r.status === 'superseded', ['sort-index', 'status']],
    ];
    for (const [filter, keep, plans] of cases) {
      const subset = all.filter(keep);
      expect(subset.length, JSON.stringify(filter)).toBeGreaterThan(2);
      for (const [c, dir] of [
        ['ts', 'desc'],
        ['importance', 'asc'],
        ['authority', 'desc'],
        ['value', 'asc'],
      ] as const) {
        const expected = expectedOrder(subset, c, dir);
        for (const plan of plans) {
          if (plan === 'range' && c === 'ts') continue;
          expect(pageAll(p, c, dir, 29, filter, plan), `${JSON.stringify(filter)} by ${c} ${dir} via ${plan}`).toEqual(expected);
        }
      }
    }
  });

  it('chooses a candidate-set plan for small sets and the sort index for large ones', () => {
    expect(planFor(p.ctx, { filter: { needsReview: true } })).toBe('review');
    expect(planFor(p.ctx, { filter: { key: 'topic_7' } })).toBe('key');
    expect(planFor(p.ctx, { filter: { validity: 'valid' } })).toBe('sort-index');
    // The smallest candidate set wins.
    expect(planFor(p.ctx, { filter: { key: 'topic_7', memoryTypes: ['user'] } })).toBe('key');
    store.close();
  });
});
