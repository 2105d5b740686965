import { expect, it } from 'vitest';
import { splitReviewCauses } from '../../../shared/inspect';
import { describeStores } from '../../../test/helpers/stores';

const user = { kind: 'user', org: 'acme', user: 'u1' } as const;

describeStores('supersession rules', (openStore) => {
  it('resolves supersedes by id, then label, then key', () => {
    const store = openStore();
    const p = store.scope(user, { create: true });
    const a = p.writeFact({ label: 'L1', key: 'status', value: 'approved' });
    const b = p.writeFact({ key: 'status_v2', value: 'cancelled', supersedes: a.factId });
    expect(b.outcome).toBe('superseded');
    expect(b.rule).toBe('explicit');
    const c = p.writeFact({ label: 'L3', key: 'budget', value: '$200k' });
    const d = p.writeFact({ key: 'budget_corrected', value: '$120k', supersedes: 'L3' });
    expect(d.supersededId).toBe(c.factId);
    const e = p.writeFact({ key: 'owner', value: 'Ann' });
    const f = p.writeFact({ key: 'owner_new', value: 'Bob', supersedes: 'owner' });
    expect(f.supersededId).toBe(e.factId);
    expect(p.getFact(e.factId)?.isValid).toBe(false);
    expect(p.getFact(e.factId)?.supersededBy).toBe(f.factId);
    expect(p.currentValue('owner')).toBe('Bob');
    store.close();
  });

  it('basic supersession leaves only the new value valid', () => {
    const store = openStore();
    const p = store.scope(user, { create: true });
    p.writeFact({ key: 'status_v1', value: 'approved' });
    p.writeFact({ key: 'status_v2', value: 'cancelled', supersedes: 'status_v1' });
    const values = p.validFacts().map((f) => f.value);
    expect(values).toContain('cancelled');
    expect(values).not.toContain('approved');
    store.close();
  });

  it('infers implicit, explicit, authority and temporal rules', () => {
    const store = openStore();
    const p = store.scope(user, { create: true });
    p.writeFact({ key: 'meeting', value: 'Tuesday 2pm' });
    expect(p.writeFact({ key: 'meeting', value: 'Thursday 3pm' }).rule).toBe('implicit');
    expect(p.writeFact({ key: 'address', value: '123 Main St' }).outcome).toBe('created');
    expect(p.writeFact({ key: 'address', value: 'I moved to 456 Oak Ave' }).rule).toBe('explicit');
    p.writeFact({ key: 'discount', value: 'We can offer 25%', source: { type: 'user', authority: 'employee' } });
    expect(p.writeFact({ key: 'discount', value: 'Max discount is 15%', source: { type: 'policy', authority: 'policy' } }).rule).toBe('authority');
    const proposal = p.writeFact({ key: 'discount', value: "Let's offer 25%", source: { type: 'user', authority: 'intern' } });
    expect(proposal.outcome).toBe('proposal');
    expect(p.currentValue('discount')).toBe('Max discount is 15%');
    p.writeFact({ key: 'stock_price', value: '$100', ts: '2026-01-01T00:00:00Z' });
    expect(p.writeFact({ key: 'stock_price', value: '$95', ts: '2026-01-15T00:00:00Z' }).rule).toBe('temporal');
    const late = p.writeFact({ key: 'stock_price', value: '$90', ts: '2026-01-10T00:00:00Z' });
    expect(late.outcome).toBe('stale');
    expect(p.currentValue('stock_price')).toBe('$95');
    store.close();
  });

  it('refuses a timestamp that is not a date-time and compares offsets in UTC', () => {
    const p = openStore().scope(user, { create: true });
    for (const ts of ['zzzz', '9999-pinned', '2026-02-30T00:00:00Z', '2026-01-01', '2026-01-01T25:00:00Z']) {
      expect(() => p.writeFact({ key: 'stock_price', value: '$1', ts, timeSensitive: true }), ts).toThrow(/not a date-time/);
    }
    expect(p.validFacts()).toEqual([]);
    // 10:00+05:00 is 05:00Z: earlier than 06:00Z, although it sorts after it as text.
    p.writeFact({ key: 'stock_price', value: '$100', ts: '2026-01-01T06:00:00Z', timeSensitive: true });
    const late = p.writeFact({ key: 'stock_price', value: '$90', ts: '2026-01-01T10:00:00+05:00', timeSensitive: true });
    expect(late.outcome).toBe('stale');
    expect(p.getFact(late.factId)?.ts).toBe('2026-01-01T05:00:00.000Z');
    expect(p.currentValue('stock_price')).toBe('$100');
  });

  it('flags transitive dependents needs_review, safe against cycles', () => {
    const store = openStore();
    const p = store.scope(user, { create: true });
    const base = p.writeFact({ key: 'budget', value: '$200k' });
    const d1 = p.writeFact({ key: 'decision', value: 'buy', dependsOn: [base.factId] });
    const d2 = p.writeFact({ key: 'plan', value: 'q4', dependsOn: ['decision'] });
    p.writeFact({ key: 'decision_note', value: 'cyclic', dependsOn: ['plan'], derivedFacts: ['decision'] });
    const r = p.writeFact({ key: 'budget', value: 'actually $120k' });
    expect(r.flagged).toEqual(expect.arrayContaining([d1.factId, d2.factId]));
    expect(p.getFact(d2.factId)?.needsReview).toBe(true);
    expect(p.getFact(d2.factId)?.reviewCauseFact).toBe(base.factId);
    store.close();
  });

  it("keeps a dependent's earlier review cause when a new one arrives, newest first, without repeats", () => {
    const store = openStore();
    const p = store.scope(user, { create: true });
    p.writeFact({ key: 'budget', value: '$200k' });
    p.writeFact({ key: 'owner', value: 'Ann' });
    const plan = p.writeFact({ key: 'plan', value: 'q4 launch', dependsOn: ['budget', 'owner'] });
    p.writeFact({ key: 'budget', value: '$120k', supersedes: 'budget' });
    const owner = p.writeFact({ key: 'owner', value: 'Bob', supersedes: 'owner' });
    const causes = splitReviewCauses(p.getFact(plan.factId)?.reviewCause ?? null);
    expect(causes.text).toMatch(/^depends on "owner"/);
    expect(causes.earlier).toHaveLength(1);
    expect(causes.earlier[0]).toMatch(/^depends on "budget"/);
    expect(p.getFact(plan.factId)?.reviewCauseFact).toBe(owner.supersededId);
    // The same cause again is recorded once.
    p.writeFact({ key: 'owner', value: 'Cleo', supersedes: 'owner' });
    expect(splitReviewCauses(p.getFact(plan.factId)?.reviewCause ?? null).earlier).toHaveLength(1);
    store.close();
  });

  it('gates capability levels by maturity', () => {
    const store = openStore();
    const cap = store.scope({ kind: 'capability', org: 'acme', capability: 'billing' }, { create: true });
    expect(() => cap.writeFact({ key: 'h', value: 'retry', level: 'heuristic' })).toThrow(/junior/);
    store.setMaturity(cap.id, 'senior', { actor: 'admin' });
    const senior = store.scope({ kind: 'capability', org: 'acme', capability: 'billing' });
    expect(senior.writeFact({ key: 'h', value: 'retry', level: 'heuristic' }).outcome).toBe('created');
    store.close();
  });
});
