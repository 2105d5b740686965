import { describe, expect, it } from 'vitest';
import { StatelensError } from '../../../shared/errors';
import { isRetryableConflict, lockNames, locksNames, retryingConflicts } from './write-locks';
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
