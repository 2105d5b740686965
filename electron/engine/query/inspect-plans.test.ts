// Query plans of the detail, graph and review reads: id lists drive lookups by id (never a
// walk of the partition along some (partition_id, ...) index), the queue walks its own index.
import { describe, expect, it } from 'vitest';
import { openTmpStore } from '../../../test/helpers/tmp';
import { PROPOSALS_SQL, STALE_SQL } from './chain';
import { EDGES_SQL, NODES_SQL } from './neighbourhood';
import { DISMISS_LOOKUP_SQL, REVIEW_QUEUE_SQL } from './review';
import { BRIEFS_SQL } from './row-view';

describe('query plans of the detail, graph and review reads', () => {
  const store = openTmpStore();
  const plan = (sql: string, ...params: unknown[]) =>
    (store.db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as Array<{ detail: string }>).map((r) => r.detail).join(' | ');

  it('looks facts of an id list up by id', () => {
    for (const sql of [BRIEFS_SQL, NODES_SQL, DISMISS_LOOKUP_SQL]) {
      const text = plan(sql, '["a"]', 1);
      expect(text, text).toMatch(/^SCAN j VIRTUAL TABLE/);
      expect(text, text).toMatch(/SEARCH f USING INDEX sqlite_autoindex_facts_1 \(id=\?\)/);
    }
  });

  it("finds a chain's proposals and stale writes by their own indexes", () => {
    expect(plan(PROPOSALS_SQL, 'x', 1)).toMatch(/SEARCH f USING INDEX facts_proposal_for \(proposal_for=\?\)/);
    expect(plan(STALE_SQL, 'x', 1, 'x')).toMatch(/SEARCH f USING INDEX facts_superseded_by \(superseded_by=\?\)/);
  });

  it('finds the edges among a node set by primary key', () => {
    const text = plan(EDGES_SQL, '["a"]', 1);
    expect(text, text).toMatch(/SEARCH e USING PRIMARY KEY \(dependent=\?/);
    expect(text, text).not.toMatch(/SCAN e\b/);
  });

  it('pages the review queue along the partial review index', () => {
    const text = plan(REVIEW_QUEUE_SQL, 1, 1000, 10);
    expect(text, text).toMatch(/facts_partition_review \(partition_id=\? AND needs_review=\? AND rowid<\?\)/);
    expect(text, text).not.toMatch(/TEMP B-TREE/);
  });
});
