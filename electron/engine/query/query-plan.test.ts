// Query-plan tests: every sort of the memories table
// is a walk along an index — no full scan, no temp b-tree for ORDER BY — on every page segment.
import { describe, expect, it } from 'vitest';
import { FactFilter, FactSort, SORT_COLUMNS } from '../../../shared/query';
import { openTmpStore } from '../../../test/helpers/tmp';
import type { EngineDb } from '../db/connection';
import { filterSql, whereOf } from './filter-sql';
import { pageSql, type PagePlan } from './list-facts';
import { SORT_SPECS } from './sort-columns';

function plan(db: EngineDb, sql: string, params: Record<string, unknown>): string[] {
  return (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(params) as Array<{ detail: string }>).map((r) => r.detail);
}

const SEGMENTS = ['first', 'ties', 'rest'] as const;

describe('query plans of the memories table', () => {
  const store = openTmpStore();
  const p = store.scope({ kind: 'user', org: 'acme', user: 'u1' }, { create: true });
  p.writeFacts([
    { key: 'a', value: 'alpha budget' },
    { key: 'b', value: 'beta' },
  ]);

  for (const column of SORT_COLUMNS) {
    for (const direction of ['asc', 'desc'] as const) {
      it(`sorts by ${column} ${direction} along ${SORT_SPECS[column].index} on every page`, () => {
        const sort = FactSort.parse({ column, direction });
        for (const filter of [
          {},
          { validity: 'valid' },
          { validity: 'all', memoryTypes: ['user'], from: '2026-01-01T00:00:00Z', asOf: '2026-06-01T00:00:00Z' },
        ]) {
          const sql = filterSql(p.id, FactFilter.parse(filter));
          for (const segment of SEGMENTS) {
            const steps = plan(store.db, pageSql('sort-index', sort, whereOf(sql), segment), {
              ...sql.params,
              limit: 101,
              cursor_v: SORT_SPECS[column].type === 'number' ? 0.5 : 'm',
              cursor_r: 10,
            });
            const text = steps.join(' | ');
            expect(text, text).toMatch(new RegExp(`SEARCH f USING (COVERING )?INDEX ${SORT_SPECS[column].index} \\(partition_id=\\?`));
            expect(text, text).not.toMatch(/TEMP B-TREE/);
            expect(text, text).not.toMatch(/SCAN f\b/);
            // The tie segment seeks straight to (value, rid): no rescan of the tie group.
            if (segment === 'ties') expect(text, text).toMatch(/(rowid|rid)[<>]\?/);
          }
        }
      });
    }
  }

  it('reads a small candidate set through the index of the filter that selects it', () => {
    const sort = FactSort.parse({ column: 'importance', direction: 'desc' });
    const cases: Array<[PagePlan, object, RegExp]> = [
      ['search', { search: 'budget' }, /SEARCH f USING INTEGER PRIMARY KEY/],
      ['review', { needsReview: true }, /USING (COVERING )?INDEX facts_partition_review/],
      ['key', { key: 'a' }, /USING (COVERING )?INDEX facts_sort_key \(partition_id=\? AND key=\?\)/],
      ['authority', { authorities: ['guest'] }, /USING (COVERING )?INDEX facts_sort_authority \(partition_id=\? AND <expr>=\?\)/],
      ['source', { sourceTypes: ['policy'] }, /USING (COVERING )?INDEX facts_sort_source_type \(partition_id=\? AND source_type=\?\)/],
      ['memory', { memoryTypes: ['user'] }, /USING (COVERING )?INDEX facts_sort_memory_type \(partition_id=\? AND memory_type=\?\)/],
      ['scope', { scopes: ['draft'] }, /USING (COVERING )?INDEX facts_sort_scope \(partition_id=\? AND scope=\?\)/],
      ['status', { validity: 'proposal' }, /USING (COVERING )?INDEX facts_sort_status \(partition_id=\? AND status=\?\)/],
      [
        'range',
        { from: '2026-01-01T00:00:00Z', to: '2026-02-01T00:00:00Z' },
        /USING (COVERING )?INDEX facts_partition_ts \(partition_id=\? AND ts>\? AND ts<\?\)/,
      ],
    ];
    for (const [planName, filter, expected] of cases) {
      const sql = filterSql(p.id, FactFilter.parse(filter));
      for (const segment of ['first', 'after'] as const) {
        const text = plan(store.db, pageSql(planName, sort, whereOf(sql), segment), { ...sql.params, limit: 10, cursor_v: 0.5, cursor_r: 3 }).join(' | ');
        expect(text, `${planName}: ${text}`).toMatch(expected);
        expect(text, text).not.toMatch(/SCAN f\b/);
      }
    }
  });

  it('a dense search walks the sort index and tests membership in the match list, without sorting', () => {
    const sort = FactSort.parse({ column: 'ts', direction: 'desc' });
    const sql = filterSql(p.id, FactFilter.parse({ search: 'budget' }));
    const text = plan(store.db, pageSql('sort-index', sort, whereOf(sql), 'rest'), { ...sql.params, limit: 10, cursor_v: 'x', cursor_r: 3 }).join(' | ');
    expect(text, text).toMatch(/INDEX facts_partition_ts \(partition_id=\? AND ts<\?\)/);
    expect(text, text).toMatch(/LIST SUBQUERY/);
    expect(text, text).not.toMatch(/TEMP B-TREE/);
  });
});
