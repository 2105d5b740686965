// A write that names its target in `supersedes` meets the same rules as one that does not:
// authority is checked before the write (a lower source leaves a subordinate proposal), and a
// scoped write (hypothetical, draft, session) only shadows a global fact inside its own scope.
import { expect, it } from 'vitest';
import type { Fact } from '../../../shared/domain';
import { describeStores } from '../../../test/helpers/stores';

const user = { kind: 'user', org: 'acme', user: 'u1' } as const;

describeStores('explicit supersession by a named target checks authority first', (openStore) => {
  it.each([
    ['intern', 'CFO', 'policy id'],
    ['guest', 'CFO', 'label'],
    ['staff engineer', 'VP Engineering', 'key'],
  ])('%s naming a %s fact by %s leaves a subordinate proposal, and the fact stays valid', (low, high, via) => {
    const store = openStore();
    const p = store.scope(user, { create: true });
    const policy = p.writeFact({ key: 'discount_policy', label: 'POL-1', value: 'max 15%', source: { type: 'policy', authority: high } });
    const ref = via === 'policy id' ? policy.factId : via === 'label' ? 'POL-1' : 'discount_policy';
    const r = p.writeFact({ key: 'discount_policy', value: '25%', supersedes: ref, source: { type: 'user', authority: low } });
    expect(r).toMatchObject({ outcome: 'proposal', rule: 'authority', supersededId: null });
    expect(r.reason).toMatch(/may not override .*subordinate proposal/);
    expect(r.reason).toContain('named');
    expect(p.getFact(policy.factId)).toMatchObject({ isValid: true, status: 'active', supersededBy: null });
    expect(p.getFact(r.factId)).toMatchObject({ status: 'proposal', isValid: false, proposalFor: policy.factId, supersessionRule: 'authority' });
    expect(p.currentValue('discount_policy')).toBe('max 15%');
    expect(p.chain(policy.factId).proposals.map((f: Fact) => f.id)).toContain(r.factId);
    store.close();
  });

  it('an equal or higher source that names the fact supersedes it', () => {
    const store = openStore();
    const p = store.scope(user, { create: true });
    const quota = p.writeFact({ key: 'quota', value: '10 seats', source: { type: 'user', authority: 'manager' } });
    const same = p.writeFact({ key: 'quota', value: '12 seats', supersedes: quota.factId, source: { type: 'user', authority: 'manager' } });
    expect(same).toMatchObject({ outcome: 'superseded', rule: 'explicit', supersededId: quota.factId });
    const higher = p.writeFact({ key: 'quota', value: '20 seats', supersedes: 'quota', source: { type: 'user', authority: 'CFO' } });
    expect(higher).toMatchObject({ outcome: 'superseded', supersededId: same.factId });
    expect(p.currentValue('quota')).toBe('20 seats');
    store.close();
  });
});

describeStores('a scoped write that names a global fact shadows it only in its scope', (openStore) => {
  it.each(['hypothetical', 'draft', 'session'] as const)('a %s write leaves the global fact valid in every other read', (scope) => {
    const store = openStore();
    const p = store.scope(user, { create: true });
    const global = p.writeFact({ key: 'budget', value: '$50,000', scope: 'global' });
    const r = p.writeFact({ key: 'budget', value: '$80,000', scope, ...(scope === 'session' ? { scopeId: 's1' } : {}), supersedes: global.factId });
    expect(r).toMatchObject({ outcome: 'created', supersededId: null });
    expect(r.reason).toMatch(new RegExp(`shadows .*only in its ${scope} scope`));
    expect(p.getFact(global.factId)).toMatchObject({ isValid: true, status: 'active', supersededBy: null });
    expect(p.getFact(r.factId)).toMatchObject({ isValid: true, scope });
    // Another session's state-based context shows the global value, never the scoped one.
    const elsewhere = p.assemble({ strategy: 'state_based', budget: 4000, query: 'budget', sessionId: 's2' }).text;
    expect(elsewhere).toContain('$50,000');
    if (scope === 'session') {
      expect(elsewhere).not.toContain('$80,000');
      // Its own session sees its value.
      const own = p.assemble({ strategy: 'state_based', budget: 4000, query: 'budget', sessionId: 's1' }).text;
      expect(own).toContain('$80,000');
    }
    store.close();
  });

  it('a scoped write still supersedes the fact of its own scope that it names', () => {
    const store = openStore();
    const p = store.scope(user, { create: true });
    const draft = p.writeFact({ key: 'budget', value: '$60,000', scope: 'draft' });
    const r = p.writeFact({ key: 'budget', value: '$70,000', scope: 'draft', supersedes: draft.factId });
    expect(r).toMatchObject({ outcome: 'superseded', supersededId: draft.factId });
    store.close();
  });
});

describeStores('the view of a scoped write shows it instead of the global fact it shadows', (openStore) => {
  it.each(['hypothetical', 'draft', 'session'] as const)('a %s write of session s1: s1 reads the draft only, every other read the global fact', (scope) => {
    const store = openStore();
    const p = store.scope(user, { create: true });
    const global = p.writeFact({ key: 'budget', value: 'Budget is $50,000', scope: 'global' });
    // Named by id under another key: the draft is filed under the named fact's entity.
    const r = p.writeFact({ key: 'what_if_spend', value: 'Budget is $80,000', scope, scopeId: 's1', supersedes: global.factId });
    expect(r).toMatchObject({ outcome: 'created', supersededId: null });
    const own = p.assemble({ strategy: 'state_based', budget: 4000, query: 'budget', sessionId: 's1' });
    expect(own.text).toContain('$80,000');
    expect(own.text).not.toContain('$50,000');
    expect(own.provenance.find((e) => e.id === global.factId)).toMatchObject({
      status: 'excluded',
      reason: 'scope',
      detail: `shadowed in this view by ${r.factId}`,
    });
    const other = p.assemble({ strategy: 'state_based', budget: 4000, query: 'budget', sessionId: 's2' });
    expect(other.text).toMatch(/## Current facts\n- budget: Budget is \$50,000/);
    if (scope === 'session') expect(other.text).not.toContain('$80,000');
    // The same in the simple strategies.
    for (const strategy of ['recent', 'important', 'balanced'] as const) {
      expect(p.assemble({ strategy, budget: 4000, query: 'budget', sessionId: 's1' }).text).not.toContain('$50,000');
      expect(p.assemble({ strategy, budget: 4000, query: 'budget', sessionId: 's2' }).text).toContain('$50,000');
    }
    expect(p.getFact(global.factId)).toMatchObject({ isValid: true, supersededBy: null });
    expect(p.currentValue('budget')).toBe('Budget is $50,000');
    store.close();
  });

  it('a task-scoped draft shadows the global fact for reads of that task only', () => {
    const store = openStore();
    const p = store.scope(user, { create: true });
    p.writeFact({ key: 'headcount', value: 'Headcount is 12', scope: 'global' });
    p.writeFact({ key: 'headcount', value: 'Headcount is 20', scope: 'draft', scopeId: 'plan-b', supersedes: 'headcount' });
    const task = p.assemble({ strategy: 'state_based', budget: 4000, query: 'headcount', sessionId: 's1', taskId: 'plan-b' }).text;
    expect(task).toContain('Headcount is 20');
    expect(task).not.toContain('Headcount is 12');
    const plain = p.assemble({ strategy: 'state_based', budget: 4000, query: 'headcount', sessionId: 's1' }).text;
    expect(plain).toMatch(/## Current facts\n- headcount: Headcount is 12/);
    store.close();
  });
});
