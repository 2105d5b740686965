import { describe, expect, it } from 'vitest';
import { StatelensError } from '../../../shared/errors';
import { isRetryableConflict, lockNames, locksNames, MAX_NAME_LOCKS, retryingConflicts } from './write-locks';
import { describeStores, itWhere } from '../../../test/helpers/stores';
import { openTmpStore } from '../../../test/helpers/tmp';

const conflict = (sqlstate: string): StatelensError => new StatelensError('BUSY', `conflict ${sqlstate}`, { sqlstate });

describe('retryingConflicts', () => {
  it('runs a transaction again after a deadlock or a serialisation failure, and returns its result', () => {
    const failures = [conflict('40P01'), conflict('40001'), conflict('40P01')];
    let runs = 0;
    const result = retryingConflicts(() => {
      runs++;
      const next = failures.shift();
      if (next) throw next;
      return 'committed';
    });
    expect(result).toBe('committed');
    expect(runs).toBe(4);
  });

  it('reports any other failure at once', () => {
    for (const e of [
      new StatelensError('BUSY', 'locked', { sqlite: 'SQLITE_BUSY' }),
      new StatelensError('CONFLICT', 'unique', { sqlstate: '23505' }),
      new Error('x'),
    ]) {
      let runs = 0;
      expect(() =>
        retryingConflicts(() => {
          runs++;
          throw e;
        }),
      ).toThrow(e);
      expect(runs).toBe(1);
      expect(isRetryableConflict(e)).toBe(false);
    }
  });

  it('gives up after the attempts it is allowed, with the conflict', () => {
    let runs = 0;
    const e = conflict('40P01');
    expect(() =>
      retryingConflicts(() => {
        runs++;
        throw e;
      }, 3),
    ).toThrow(e);
    expect(runs).toBe(3);
  });
});

describe('name locks on SQLite', () => {
  it('are not taken: the file has one write lock', () => {
    const store = openTmpStore();
    try {
      expect(locksNames(store.db)).toBe(false);
      // Outside a transaction too: nothing is run.
      expect(() => lockNames(store.db, ['a'])).not.toThrow();
    } finally {
      store.close();
    }
  });
});

describeStores('a bulk write', (openStore, kind) => {
  const onPostgres = itWhere(kind, ['pglite', 'server'], 'SQLite takes no name locks');
  const user = { kind: 'user', org: 'acme', user: 'u1' } as const;

  it('of 300 keys commits and supersedes them all, with no key left with two valid facts', () => {
    const store = openStore();
    try {
      const p = store.scope(user, { create: true });
      const keys = Array.from({ length: 300 }, (_, i) => `k${i}`);
      expect(p.writeFacts(keys.map((key) => ({ key, value: `v ${key}` }))).filter((r) => r.outcome === 'created')).toHaveLength(300);
      expect(p.writeFacts(keys.map((key) => ({ key, value: `w ${key}` }))).filter((r) => r.outcome === 'superseded')).toHaveLength(300);
      expect(store.db.prepare('SELECT count(*) AS n, count(DISTINCT key) AS k FROM facts WHERE is_valid = 1').get()).toEqual({ n: 300, k: 300 });
    } finally {
      store.close();
    }
  });

  onPostgres('of 20,000 names locks the store once: the server lock table (a few thousand slots) would run out', () => {
    const store = openStore();
    try {
      store.db.transaction(() =>
        lockNames(
          store.db,
          Array.from({ length: 20_000 }, (_, i) => `name ${i}`),
        ),
      )();
    } finally {
      store.close();
    }
  });

  onPostgres('holds one shared store lock and its names up to the limit, one exclusive store lock beyond it', () => {
    const store = openStore();
    const held = () =>
      store.db.prepare("SELECT mode, count(*) AS n FROM pg_locks WHERE locktype = 'advisory' AND pid = pg_backend_pid() GROUP BY mode ORDER BY mode").all();
    try {
      store.db.transaction(() => {
        lockNames(
          store.db,
          Array.from({ length: MAX_NAME_LOCKS }, (_, i) => `n${i}`),
        );
        expect(held()).toEqual([
          { mode: 'ExclusiveLock', n: MAX_NAME_LOCKS },
          { mode: 'ShareLock', n: 1 },
        ]);
      })();
      store.db.transaction(() => {
        lockNames(
          store.db,
          Array.from({ length: MAX_NAME_LOCKS + 1 }, (_, i) => `n${i}`),
        );
        expect(held()).toEqual([{ mode: 'ExclusiveLock', n: 1 }]);
      })();
    } finally {
      store.close();
    }
  });
});
