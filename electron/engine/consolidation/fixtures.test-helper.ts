// A consolidation fixture: two clusters a person would see (deploy rollbacks, Monday cache
// evictions) and near misses that must stay apart.
import type { ClusterInput } from './cluster';

export const m = (id: string, entityKey: string, value: string): ClusterInput => ({ id, key: `${entityKey}.note_${id}`, value, entityKey });

export const DEPLOY = [
  m('d1', 'deploy', 'staging migration failed, rollback of the deploy fixed it'),
  m('d2', 'deploy', 'deploy rollback fixed the failed staging migration'),
  m('d3', 'deploy', 'the staging migration failed again; rollback of deploy fixed it'),
  m('d4', 'deploy', 'rollback fixed a failed staging migration during deploy'),
];
export const CACHE = [
  m('c1', 'cache', 'cache eviction spikes latency on Monday mornings'),
  m('c2', 'cache', 'latency spikes after cache eviction on Monday mornings'),
  m('c3', 'cache', 'Monday mornings: cache eviction causes latency spikes'),
];
export const NEAR_MISSES = [
  // Same entity, other words.
  m('n1', 'deploy', 'deploy notes go to the release channel'),
  // Same words as the cache cluster, but a percent slot instead of a weekday.
  m('n2', 'cache', 'cache eviction spikes latency by 40% in the mornings'),
  // Same words as the deploy cluster, another entity: alone there.
  m('n3', 'billing', 'staging migration failed, rollback of the deploy fixed it'),
  // Two alike: below the minimum of three.
  m('n4', 'invoice', 'invoice export times out on large accounts'),
  m('n5', 'invoice', 'large accounts make the invoice export time out'),
];
