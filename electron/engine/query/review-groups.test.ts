import { expect, it } from 'vitest';
import { ReviewGroups } from '../../../shared/inspect';
import { codeOf } from '../../../test/helpers/errors';
import { describeStores, type OpenStore } from '../../../test/helpers/stores';
import { USER } from './fixtures.test-helper';

/** `budget` superseded (flags 3 dependents) and `rate` deleted by dana (flags 2). */
function twoCauses(openStore: OpenStore) {
  const store = openStore();
  const p = store.scope(USER, { create: true });
  const budget = p.writeFact({ key: 'budget', value: '$200k' }).factId;
  const onBudget = ['plan', 'hires', 'travel'].map((key) => p.writeFact({ key, value: `${key} within the budget`, dependsOn: [budget] }).factId);
  const rate = p.writeFact({ key: 'quote.kuehne_nagel.pallet_cost', value: '€41 per pallet' }).factId;
  const onRate = ['freight_plan', 'invoice_check'].map((key) => p.writeFact({ key, value: `${key} uses the pallet rate`, dependsOn: [rate] }).factId);
  const newer = p.writeFact({ key: 'budget', value: 'actually $120k' }).factId;
  p.deleteFacts({ ids: [rate] }, { actor: 'dana', reason: 'wrong quote' });
  return { store, p, budget, onBudget, rate, onRate, newer };
}

describeStores('review groups', (openStore) => {
  it('groups the flags by the upstream change that raised them, largest first, saying how it changed', () => {
    const { store, p, budget, rate, newer } = twoCauses(openStore);
    const g = p.reviewGroups();
    expect(ReviewGroups.parse(g)).toEqual(g);
    expect(g.total).toBe(5);
    expect(g.truncated).toBe(false);
    expect(g.groups.map((x) => [x.causeFactId, x.count])).toEqual([
      [budget, 3],
      [rate, 2],
    ]);
    expect(g.groups[0]).toMatchObject({ cause: { key: 'budget', value: '$200k' }, replacement: { id: newer }, deleted: null });
    expect(g.groups[1]).toMatchObject({ cause: null, deleted: { factId: rate, deletedBy: 'dana', reason: 'wrong quote' } });
    expect(g.groups[1]?.text).toContain('dana');
    // One group's flags through the queue, and a limit that cuts the list short.
    expect(
      p
        .reviewQueue({}, rate)
        .entries.map((e) => e.fact.key)
        .sort(),
    ).toEqual(['freight_plan', 'invoice_check']);
    expect(p.reviewQueue({}, null).total).toBe(5);
    expect(p.reviewQueue({}, null).entries).toEqual([]);
    expect(p.reviewGroups(1)).toMatchObject({ truncated: true, total: 5, groups: [{ causeFactId: budget }] });
    expect(codeOf(() => p.reviewGroups(0))).toBe('INVALID_INPUT');
    store.close();
  });

  it('dismisses a whole group in one audited dismissal that undo restores', () => {
    const { store, p, rate, onRate, budget } = twoCauses(openStore);
    const d = p.dismissCause(rate, { actor: 'reviewer', reason: 'checked the group' });
    expect(d.dismissed.sort()).toEqual([...onRate].sort());
    expect(d.remaining).toBe(0);
    expect(p.reviewGroups().groups.map((x) => x.causeFactId)).toEqual([budget]);
    expect(p.factDetail(onRate[0]!).audit[0]).toMatchObject({ id: d.auditId, action: 'dismiss_review', actor: 'reviewer', reason: 'checked the group' });
    const undone = p.undoDismissReview(d.auditId!, { actor: 'reviewer' });
    expect(undone.restored.sort()).toEqual([...onRate].sort());
    expect(p.reviewGroups().groups.map((x) => [x.causeFactId, x.count])).toEqual([
      [budget, 3],
      [rate, 2],
    ]);
    expect(p.getFact(onRate[0]!)?.reviewCauseFact).toBe(rate);
    // A group with nothing left to dismiss is named as such, and nothing is recorded.
    p.dismissCause(rate, { actor: 'reviewer' });
    const entries = store.db.prepare('SELECT count(*) FROM audit_log').pluck().get();
    expect(codeOf(() => p.dismissCause(rate, { actor: 'reviewer' }))).toBe('NOT_FOUND');
    expect(store.db.prepare('SELECT count(*) FROM audit_log').pluck().get()).toBe(entries);
    store.close();
  });
});
