// "Delete everything matching" removes exactly what the memories table lists for the same
// filter: for each filter, list every page, then delete by that filter on a fresh copy of the
// same store (a snapshot imported into an empty one) and compare the deleted ids (and the
// preview's) with the listed ones.
import path from 'node:path';
import { expect, it } from 'vitest';
import type { FactFilterInput } from '../../shared/query';
import type { PartitionHandle } from '../../electron/engine/partition-handle';
import { exportStore } from '../../electron/engine/snapshot/export';
import { importSnapshotFile } from '../../electron/engine/snapshot/import';
import type { Store } from '../../electron/engine/store';
import { describeStores } from '../helpers/stores';
import { tmpDir } from '../helpers/tmp';

const USER = { kind: 'user', org: 'acme', user: 'u1' } as const;

function listed(h: PartitionHandle, filter: FactFilterInput): string[] {
  const ids: string[] = [];
  let after: string | null = null;
  do {
    const page = h.listFacts({ filter, page: { limit: 37, after } });
    ids.push(...page.rows.map((r) => r.id));
    after = page.nextCursor;
  } while (after !== null);
  return ids.sort();
}

function seed(store: Store): void {
  const h = store.scope(USER, { create: true });
  store.scope({ kind: 'user', org: 'acme', user: 'u2' }, { create: true }).writeFact({ key: 'budget', value: 'budget elsewhere' });
  const sources = [
    { type: 'user' },
    { type: 'user', authority: 'employee' },
    { type: 'policy', authority: 'policy' },
    { type: 'observation' },
    { type: 'user', authority: 'intern' },
  ];
  for (let i = 0; i < 120; i++) {
    h.writeFact({
      key: ['budget', 'meeting', 'owner', 'deadline_q3'][i % 4]!,
      value: `${['budget approved', 'what if we meet Tuesday', 'draft plan for Bob', 'must not exceed $50k', 'actually Thursday', 'Straße café naïve'][i % 6]} ${i}`,
      source: sources[i % sources.length],
      ts: new Date(Date.UTC(2026, 0, 1 + (i % 30))).toISOString(),
      ...(i % 7 === 0 && i > 0 ? { dependsOn: ['budget'] } : {}),
    });
  }
}

const FILTERS: FactFilterInput[] = [
  { validity: 'valid' },
  { validity: 'superseded' },
  { validity: 'proposal' },
  { memoryTypes: ['user'] },
  { memoryTypes: ['organizational'] },
  { scopes: ['hypothetical', 'draft'] },
  { needsReview: true },
  { needsReview: false, isConstraint: true },
  { sourceTypes: ['policy', 'observation'] },
  { authorities: ['', 'intern'] },
  { from: '2026-01-05T00:00:00.000Z', to: '2026-01-12T00:00:00.000Z' },
  { key: 'owner' },
  { search: 'budget' },
  { search: 'thurs' },
  { search: 'strasse cafe' },
  { search: 'what if' },
  { search: '"unbalanced AND ( syntax' },
  { search: 'Bob!' },
  { asOf: '2026-01-15T00:00:00.000Z' },
  { validity: 'valid', search: 'plan', sourceTypes: ['user'], from: '2026-01-02T00:00:00.000Z' },
  { validity: 'all', memoryTypes: [], key: 'budget', search: 'approved' },
];

describeStores('delete by filter removes exactly the listed facts', (openStore) => {
  it('for every filter field and combinations of them', async () => {
    const original = openStore();
    const snapshot = path.join(tmpDir(), 'seed.ndjson');
    try {
      seed(original);
      await exportStore(original, { format: 'ndjson', out: snapshot });
    } finally {
      original.close();
    }
    let nonEmpty = 0;
    FILTERS.forEach((filter) => {
      const store = openStore();
      try {
        importSnapshotFile(store, snapshot);
        const h = store.scope(USER);
        const expected = listed(h, filter);
        const preview = h.previewDeletion({ filter });
        expect([...preview.ids].sort(), `preview ${JSON.stringify(filter)}`).toEqual(expected);
        const result = h.deleteFacts({ filter }, { actor: 'test' });
        expect([...result.deletedIds].sort(), `delete ${JSON.stringify(filter)}`).toEqual(expected);
        for (const id of expected) expect(h.getFact(id)).toBeUndefined();
        if (expected.length > 0) nonEmpty += 1;
      } finally {
        store.close();
      }
    });
    // The filters must actually select something for the comparison to mean anything.
    expect(nonEmpty).toBeGreaterThanOrEqual(FILTERS.length - 3);
    // Twenty-one imports and scrubbed deletions: about two minutes on PGlite on a loaded machine.
  }, 600_000);
});
