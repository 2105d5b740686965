import { expect, it } from 'vitest';
import { FactChanges, FactDetail, Timeline } from '../../../shared/inspect';
import { codeOf } from '../../../test/helpers/errors';
import { describeStores, type OpenStore } from '../../../test/helpers/stores';
import { USER } from './fixtures.test-helper';

/** home_city Lyon (1 Jan) -> Paris (1 Mar) -> Berlin (1 Jun); a commute resting on Lyon from
 * 2 Jan and a trip resting on it recorded only on 1 May; a note (15 Feb) deleted later. */
function history(openStore: OpenStore) {
  const store = openStore();
  const p = store.scope(USER, { create: true });
  const lyon = p.writeFact({ key: 'home_city', value: 'Lyon', ts: '2025-01-01T00:00:00.000Z' }).factId;
  const commute = p.writeFact({ key: 'commute', value: 'TER from Lyon', ts: '2025-01-02T00:00:00.000Z', dependsOn: [lyon] }).factId;
  const trip = p.writeFact({ key: 'trip', value: 'Hike near Lyon', ts: '2025-05-01T00:00:00.000Z', dependsOn: [lyon] }).factId;
  const note = p.writeFact({ key: 'note', value: 'to forget', ts: '2025-02-15T00:00:00.000Z' }).factId;
  const paris = p.writeFact({ key: 'home_city', value: 'Paris', ts: '2025-03-01T00:00:00.000Z' }).factId;
  const berlin = p.writeFact({ key: 'home_city', value: 'Berlin', ts: '2025-06-01T00:00:00.000Z' }).factId;
  return { store, p, lyon, commute, trip, note, paris, berlin };
}

describeStores('a fact as of an instant', (openStore) => {
  it('says whether it was valid then, which version was, and lists its edges as they stood', () => {
    const { store, p, lyon, commute, trip, paris, berlin } = history(openStore);
    const now = p.factDetail(lyon);
    expect(now.asOf).toBeNull();
    expect(now.derivedFacts.map((b) => b.id).sort()).toEqual([commute, trip].sort());

    const feb = p.factDetail(lyon, '2025-02-01T00:00:00.000Z');
    expect(FactDetail.parse(feb)).toEqual(feb);
    expect(feb.asOf).toMatchObject({ at: '2025-02-01T00:00:00.000Z', state: 'valid', validVersion: null, laterEdges: 1 });
    // The trip was recorded in May: in February only the commute rested on Lyon.
    expect(feb.derivedFacts.map((b) => b.id)).toEqual([commute]);
    // The fact itself is today's record (superseded); the as-of part says how it stood.
    expect(feb.fact.status).toBe('superseded');

    const april = p.factDetail(lyon, '2025-04-01T00:00:00.000Z');
    expect(april.asOf).toMatchObject({ state: 'ended', laterEdges: 1 });
    // Paris is superseded now, but the version valid then is shown as it stood then.
    expect(april.asOf?.validVersion).toMatchObject({ id: paris, value: 'Paris', status: 'active', isValid: true, supersessionRule: null });
    expect(p.factDetail(berlin, '2025-04-01T00:00:00.000Z').asOf).toMatchObject({ state: 'not-yet', validVersion: { id: paris } });

    // An edge's status is the one it had then: Lyon was valid in February, superseded in April.
    const commuteFeb = p.factDetail(commute, '2025-02-01T00:00:00.000Z');
    expect(commuteFeb.dependsOn).toEqual([expect.objectContaining({ id: lyon, status: 'active', isValid: true, supersessionRule: null })]);
    const commuteApril = p.factDetail(commute, '2025-04-01T00:00:00.000Z');
    expect(commuteApril.dependsOn).toEqual([expect.objectContaining({ id: lyon, status: 'superseded', isValid: false })]);
    expect(codeOf(() => p.factDetail(lyon, 'yesterday'))).toBe('INVALID_INPUT');
    store.close();
  });
});

describeStores('partition counts as of an instant', (openStore) => {
  it('counts the facts recorded by then and those valid then', () => {
    const { store, p } = history(openStore);
    const of = (asOf?: string) => store.listPartitions(asOf).find((x) => x.id === p.id);
    expect(of()).toMatchObject({ facts: 6, validFacts: 4 });
    // 1 Feb: Lyon and the commute.
    expect(of('2025-02-01T00:00:00.000Z')).toMatchObject({ facts: 2, validFacts: 2 });
    // 1 Apr: Lyon (superseded by then), the commute, the note and Paris.
    expect(of('2025-04-01T00:00:00.000Z')).toMatchObject({ facts: 4, validFacts: 3 });
    expect(of('2024-01-01T00:00:00.000Z')).toMatchObject({ facts: 0, validFacts: 0 });
    store.close();
  });
});

describeStores('the timeline', (openStore) => {
  it('counts facts taking effect and ending in equal slices of the history', () => {
    const { store, p } = history(openStore);
    const t = p.timeline(5);
    expect(Timeline.parse(t)).toEqual(t);
    expect(t.first).toBe('2025-01-01T00:00:00.000Z');
    expect(t.last).toBe('2025-06-01T00:00:00.000Z');
    expect(t.buckets).toHaveLength(5);
    expect(t.buckets[0]?.start).toBe(t.first);
    // 151 days in five slices of ~30 days: Lyon, commute (slice 0); note, Paris, Lyon ends (1);
    // trip (3); Berlin, Paris ends (4, the last instant belongs to the last slice).
    expect(t.buckets.map((b) => b.added)).toEqual([2, 2, 0, 1, 1]);
    expect(t.buckets.map((b) => b.ended)).toEqual([0, 1, 0, 0, 1]);
    const empty = store.scope({ kind: 'user', org: 'acme', user: 'nobody' }, { create: true });
    expect(empty.timeline(5)).toEqual({ first: null, last: null, buckets: [] });
    store.close();
  });
});

describeStores('what changed between two instants', (openStore) => {
  it('lists facts that became valid, were superseded or deleted, in time order, either way round', () => {
    const { store, p, lyon, note, paris } = history(openStore);
    const c = p.changesBetween('2025-04-01T00:00:00.000Z', '2025-01-15T00:00:00.000Z');
    expect(FactChanges.parse(c)).toEqual(c);
    expect(c.from).toBe('2025-01-15T00:00:00.000Z');
    expect(c.changes).toEqual([
      { kind: 'became-valid', at: '2025-02-15T00:00:00.000Z', factId: note, by: null },
      // At one instant the superseded fact comes first, then its successor.
      { kind: 'superseded', at: '2025-03-01T00:00:00.000Z', factId: lyon, by: paris },
      { kind: 'became-valid', at: '2025-03-01T00:00:00.000Z', factId: paris, by: null },
    ]);
    expect(c.totals).toEqual({ 'became-valid': 2, superseded: 1, invalidated: 0, deleted: 0 });
    expect(c.truncated).toBe(false);

    // The lower bound is exclusive, the upper inclusive: as of 1 Jan Lyon was already valid.
    expect(p.changesBetween('2025-01-01T00:00:00.000Z', '2025-01-02T00:00:00.000Z').changes.map((x) => x.factId)).toHaveLength(1);

    const cut = p.changesBetween('2025-01-15T00:00:00.000Z', '2025-04-01T00:00:00.000Z', 1);
    expect(cut.changes).toHaveLength(1);
    expect(cut.truncated).toBe(true);
    expect(cut.totals['became-valid']).toBe(2);

    // A deletion is a change at the time it was made (the store's clock).
    p.deleteFacts({ ids: [note] }, { actor: 'tester' });
    const wide = p.changesBetween('2024-01-01T00:00:00.000Z', '2027-01-01T00:00:00.000Z');
    expect(wide.changes.filter((x) => x.kind === 'deleted')).toEqual([{ kind: 'deleted', at: expect.stringMatching(/^2026-01-01T/), factId: note, by: null }]);
    expect(wide.changes.some((x) => x.kind === 'became-valid' && x.factId === note)).toBe(false);
    expect(wide.totals).toEqual({ 'became-valid': 5, superseded: 2, invalidated: 0, deleted: 1 });
    expect(codeOf(() => p.changesBetween('soon', '2025-01-01T00:00:00.000Z'))).toBe('INVALID_INPUT');
    store.close();
  });
});
