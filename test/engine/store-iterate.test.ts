// Statements read with iterate() on every store: rows arrive as they are taken, so a caller that
// stops early (assembly filling a budget from the newest facts) never reads the rest; a full read
// gives every row in order; stopping early or failing leaves the connection usable.
import { expect, it } from 'vitest';
import type { Store } from '../../electron/engine/store';
import { describeStores, itWhere } from '../helpers/stores';
import { thrownBy } from '../helpers/errors';

/** 2,000 numbers in order; the 1,000th row divides by zero, which PostgreSQL refuses (SQLite reads
 * NULL). No ORDER BY, so neither store computes a row before it is read. */
const FAILS_AT_1000 = 'WITH RECURSIVE s(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM s WHERE x < 2000) SELECT x, 1 / (x - 1000) AS r FROM s';
const NUMBERS = 'WITH RECURSIVE s(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM s WHERE x < ?) SELECT x FROM s ORDER BY x';

function inTransaction<T>(store: Store, fn: () => T): T {
  return store.db.transaction(fn)();
}

describeStores('iterate() reads rows as they are taken', (open, kind) => {
  it('stops where the caller stops: rows never taken are never read', () => {
    const store = open();
    try {
      const taken = inTransaction(store, () => {
        const out: number[] = [];
        for (const row of store.db.prepare(FAILS_AT_1000).iterate() as Iterable<{ x: number }>) {
          out.push(row.x);
          if (out.length === 10) break;
        }
        // The transaction goes on after the early stop.
        return { out, after: store.db.prepare('SELECT 41 + 1 AS n').pluck().get() };
      });
      expect(taken).toEqual({ out: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10], after: 42 });
    } finally {
      store.close();
    }
  });

  it('reads every row, in order and in the statement’s shape (pluck, raw), across many fetches', () => {
    const store = open();
    try {
      const [plucked, raw, objects] = inTransaction(store, () => [
        [...(store.db.prepare(NUMBERS).pluck().iterate(5000) as Iterable<number>)],
        [...(store.db.prepare(NUMBERS).raw().iterate(3) as Iterable<unknown[]>)],
        [...(store.db.prepare(NUMBERS).iterate(2) as Iterable<unknown>)],
      ]);
      expect(plucked).toEqual(Array.from({ length: 5000 }, (_, i) => i + 1));
      expect(raw).toEqual([[1], [2], [3]]);
      expect(objects).toEqual([{ x: 1 }, { x: 2 }]);
      // Outside a transaction too.
      expect([...(store.db.prepare(NUMBERS).pluck().iterate(300) as Iterable<number>)]).toHaveLength(300);
    } finally {
      store.close();
    }
  });

  itWhere(
    kind,
    ['pglite', 'server'],
    'SQLite reads a division by zero as NULL: the failing row is an error on PostgreSQL only',
  )('a row that fails while being read is a typed error, and the connection stays usable', () => {
    const store = open();
    try {
      const error = thrownBy(() =>
        inTransaction(store, () => {
          for (const _ of store.db.prepare(FAILS_AT_1000).iterate()) void _;
        }),
      );
      expect(error.code).toBeTypeOf('string');
      expect(error.message).toMatch(/division by zero/);
      expect(inTransaction(store, () => store.db.prepare('SELECT 1 AS one').pluck().get())).toBe(1);
      expect(store.db.inTransaction).toBe(false);
    } finally {
      store.close();
    }
  });

  itWhere(
    kind,
    ['pglite', 'server'],
    'cursors are PostgreSQL’s',
  )('leaves no cursor open, whether the caller stopped early or read to the end', () => {
    const store = open();
    try {
      const open = inTransaction(store, () => {
        for (const _ of store.db.prepare(NUMBERS).iterate(1000)) break;
        for (const _ of store.db.prepare(NUMBERS).iterate(1000)) void _;
        return store.db.prepare("SELECT count(*) AS n FROM pg_cursors WHERE statement LIKE 'DECLARE%'").pluck().get();
      });
      expect(open).toBe(0);
    } finally {
      store.close();
    }
  });
});
