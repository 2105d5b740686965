// A PostgreSQL store analyzes the facts table itself after bulk writes: the planner then knows
// the table is no longer empty (without statistics it plans assembly's full-text queries by
// building every fact's search document). Small writes leave it to autovacuum.
import { expect, it } from 'vitest';
import type { PgDatabase } from '../../electron/engine/db/pg/database';
import type { Store } from '../../electron/engine/store';
import { describeStores } from '../helpers/stores';

/** The planner's row estimate of the facts table: -1 until the table is first analyzed. */
function estimate(store: Store): number {
  const conn = (store.db as unknown as PgDatabase).conn;
  return conn.query<{ n: number }>("SELECT reltuples::bigint AS n FROM pg_class WHERE oid = 'facts'::regclass").rows[0]?.n ?? NaN;
}

const facts = (n: number, from = 0) => Array.from({ length: n }, (_, i) => ({ key: `account.A-${from + i}.owner`, value: `owner ${from + i}` }));

describeStores(
  'planner statistics after bulk writes',
  (open) => {
    it('a batch of 1,100 new facts leaves the table analyzed; a few facts do not', () => {
      const store = open();
      try {
        const p = store.scope({ kind: 'user', org: 'o', user: 'u' }, { create: true });
        p.writeFacts(facts(20));
        expect(estimate(store)).toBe(-1);
        p.writeFacts(facts(1100, 20));
        expect(estimate(store)).toBe(1120);
      } finally {
        store.close();
      }
    });

    it('counts only committed facts: a rolled-back batch does not count towards the next', () => {
      const store = open();
      try {
        const p = store.scope({ kind: 'user', org: 'o', user: 'u' }, { create: true });
        expect(() =>
          store.db.transaction(() => {
            p.writeFacts(facts(900));
            throw new Error('rolled back');
          })(),
        ).toThrow('rolled back');
        p.writeFacts(facts(200, 900));
        expect(estimate(store)).toBe(-1);
      } finally {
        store.close();
      }
    });
  },
  { stores: ['pglite', 'server'], reason: 'planner statistics are PostgreSQL’s (SQLite plans from its own, refreshed by PRAGMA optimize)' },
);
