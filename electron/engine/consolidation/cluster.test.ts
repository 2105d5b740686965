// Clustering as a pure function: known clusters are found, near misses (too few members,
// another entity, other typed slots, too few shared words) are not, and the pattern is stated
// deterministically.
import { describe, expect, it } from 'vitest';
import { clusterMemories, contentStems, jaccard, patternText } from './cluster';
import { CACHE, DEPLOY, NEAR_MISSES } from './fixtures.test-helper';

describe('clusterMemories', () => {
  it('finds the clusters a person would and ignores the near misses', () => {
    const clusters = clusterMemories([...DEPLOY, ...NEAR_MISSES, ...CACHE]);
    expect(clusters.map((c) => [c.stem, c.ids])).toEqual([
      ['deploy', ['d1', 'd2', 'd3', 'd4']],
      ['cache', ['c1', 'c2', 'c3']],
    ]);
    const [deploy, cache] = clusters;
    expect(deploy?.shared).toEqual([...contentStems('deploy rollback fixed failed staging migration')].sort());
    expect(cache?.slots).toEqual(['weekday']);
  });

  it('obeys the minimum size and the similarity threshold', () => {
    expect(clusterMemories(NEAR_MISSES.slice(3), { minCluster: 2, similarity: 0.4 }).map((c) => c.ids)).toEqual([['n4', 'n5']]);
    expect(clusterMemories(DEPLOY, { minCluster: 5, similarity: 0.4 })).toEqual([]);
    expect(clusterMemories(CACHE, { minCluster: 3, similarity: 1 })).toEqual([]);
  });

  it('states the pattern from the shared words, slots and size', () => {
    const [cache] = clusterMemories(CACHE);
    expect(cache && patternText(cache, 'event')).toBe(`Pattern common to 3 events about cache: ${cache?.shared.join(', ')} (slots: weekday)`);
    expect(patternText({ stem: 'x', ids: ['a', 'b'], shared: ['y'], slots: [] }, 'heuristic')).toBe('Pattern common to 2 heuristics about x: y');
  });

  it('measures Jaccard similarity over sets', () => {
    expect(jaccard(new Set(['a', 'b']), new Set(['b', 'c']))).toBeCloseTo(1 / 3);
    expect(jaccard(new Set(), new Set())).toBe(0);
  });
});
