import { expect, it } from 'vitest';
import { FactDetail, Neighbourhood, ReviewQueuePage } from '../../../shared/inspect';
import { codeOf } from '../../../test/helpers/errors';
import { describeStores, type OpenStore } from '../../../test/helpers/stores';
import { USER } from './fixtures.test-helper';

/** budget <- decision <- plan <- schedule, plus side <- decision. */
function graph(openStore: OpenStore) {
  const store = openStore();
  const p = store.scope(USER, { create: true });
  const budget = p.writeFact({ key: 'budget', value: '$200k' }).factId;
  const decision = p.writeFact({ key: 'decision', value: 'buy servers', dependsOn: [budget] }).factId;
  const plan = p.writeFact({ key: 'plan', value: 'Q4 rollout', dependsOn: [decision] }).factId;
  const schedule = p.writeFact({ key: 'schedule', value: 'November', dependsOn: [plan] }).factId;
  const side = p.writeFact({ key: 'side', value: 'vendor shortlist', dependsOn: [decision] }).factId;
  return { store, p, budget, decision, plan, schedule, side };
}

describeStores('factDetail', (openStore) => {
  it('returns the fact, its chain, edges both ways, review cause and audit entries', () => {
    const { store, p, budget, decision, plan, schedule } = graph(openStore);
    const newer = p.writeFact({ key: 'budget', value: 'actually $120k' });
    const d = p.factDetail(plan);
    expect(FactDetail.parse(d)).toEqual(d);
    expect(d.dependsOn.map((b) => b.id)).toEqual([decision]);
    expect(d.derivedFacts.map((b) => b.key)).toEqual(['schedule']);
    expect(d.derivedFacts[0]!.id).toBe(schedule);
    expect(d.reviewCause?.causeFactId).toBe(budget);
    expect(d.reviewCause?.cause?.value).toBe('$200k');
    expect(d.reviewCause?.cause?.isValid).toBe(false);
    expect(d.reviewCause?.replacement?.id).toBe(newer.factId);
    expect(d.reviewCause?.text).toMatch(/budget/);
    const old = p.factDetail(budget);
    expect(old.chain.versions.map((v) => v.value)).toEqual(['$200k', 'actually $120k']);
    expect(old.audit.map((a) => a.action)).toEqual(['supersede']);
    expect(old.reviewCause).toBeNull();
    store.close();
  });

  it('shows a proposal with the chain it was made against', () => {
    const store = openStore();
    const p = store.scope(USER, { create: true });
    p.writeFact({ key: 'discount', value: 'Max 15%', source: { type: 'policy', authority: 'policy' } });
    const proposal = p.writeFact({ key: 'discount', value: 'Offer 25%', source: { type: 'user', authority: 'guest' } });
    const d = p.factDetail(proposal.factId);
    expect(d.chain.versions.map((v) => v.value)).toEqual(['Max 15%']);
    expect(d.chain.proposals.map((v) => v.id)).toEqual([proposal.factId]);
    store.close();
  });

  it('answers NOT_FOUND for unknown ids and ids of another partition', () => {
    const { store, p } = graph(openStore);
    const other = store.scope({ kind: 'user', org: 'acme', user: 'u2' }, { create: true });
    const foreign = other.writeFact({ key: 'x', value: 'y' }).factId;
    expect(codeOf(() => p.factDetail('nope'))).toBe('NOT_FOUND');
    expect(codeOf(() => p.factDetail(foreign))).toBe('NOT_FOUND');
    expect(codeOf(() => p.neighbourhood(foreign))).toBe('NOT_FOUND');
    expect(codeOf(() => p.factDetail(''))).toBe('INVALID_INPUT');
    store.close();
  });
});

describeStores('neighbourhood', (openStore) => {
  it('returns k-hop nodes with hop distances and dependent -> dependsOn edges', () => {
    const { store, p, budget, decision, plan, schedule, side } = graph(openStore);
    const one = p.neighbourhood(decision, { hops: 1 });
    expect(Neighbourhood.parse(one)).toEqual(one);
    expect(new Map(one.nodes.map((n) => [n.id, n.hop]))).toEqual(
      new Map([
        [decision, 0],
        [budget, 1],
        [plan, 1],
        [side, 1],
      ]),
    );
    expect(one.edges).toEqual(
      expect.arrayContaining([
        { from: decision, to: budget },
        { from: plan, to: decision },
        { from: side, to: decision },
      ]),
    );
    expect(one.edges).toHaveLength(3);
    expect(one.truncated).toBe(false);
    const two = p.neighbourhood(decision, { hops: 2 });
    expect(two.nodes.find((n) => n.id === schedule)?.hop).toBe(2);
    expect(codeOf(() => p.neighbourhood(decision, { hops: 6 }))).toBe('INVALID_INPUT');
    expect(codeOf(() => p.neighbourhood(decision, { maxNodes: 5001 }))).toBe('INVALID_INPUT');
    store.close();
  });

  it('stops at maxNodes and says so', () => {
    const store = openStore();
    const p = store.scope(USER, { create: true });
    const hub = p.writeFact({ key: 'hub', value: 'center' }).factId;
    p.writeFacts(Array.from({ length: 50 }, (_, i) => ({ key: `leaf${i}`, value: `leaf ${i}`, dependsOn: [hub] })));
    const n = p.neighbourhood(hub, { hops: 3, maxNodes: 10 });
    expect(n.nodes).toHaveLength(10);
    expect(n.truncated).toBe(true);
    const ids = new Set(n.nodes.map((x) => x.id));
    for (const e of n.edges) expect(ids.has(e.from) && ids.has(e.to)).toBe(true);
    // The whole neighbourhood's size is counted: the hub and its 50 leaves.
    expect(n.fullSize).toEqual({ nodes: 51, atLeast: false });
    expect(p.neighbourhood(hub, { hops: 1, maxNodes: 100 }).fullSize).toBeNull();
    store.close();
  });

  it("gives each node's validity and status as of an instant", () => {
    const store = openStore();
    const p = store.scope(USER, { create: true });
    const budget = p.writeFact({ key: 'budget', value: '$200k', ts: '2025-01-01T00:00:00Z' }).factId;
    const plan = p.writeFact({ key: 'plan', value: 'Q4 rollout', dependsOn: [budget], ts: '2025-02-01T00:00:00Z' }).factId;
    const newer = p.writeFact({ key: 'budget', value: 'actually $120k', ts: '2025-03-01T00:00:00Z' }).factId;
    const now = p.neighbourhood(plan, { hops: 1 });
    expect(now.nodes.find((x) => x.id === budget)).toMatchObject({ isValid: false, status: 'superseded' });
    expect(now.nodes.every((x) => x.asOf === undefined)).toBe(true);
    const then = Neighbourhood.parse(p.neighbourhood(plan, { hops: 1, asOf: '2025-02-15T00:00:00Z' }));
    expect(then.nodes.find((x) => x.id === budget)).toMatchObject({ isValid: true, status: 'active', asOf: 'valid' });
    expect(then.nodes.find((x) => x.id === plan)).toMatchObject({ asOf: 'valid' });
    const before = p.neighbourhood(budget, { hops: 1, asOf: '2025-01-15T00:00:00Z' });
    expect(before.nodes.find((x) => x.id === plan)).toMatchObject({ isValid: false, asOf: 'not-yet' });
    expect(newer).not.toBe(budget);
    expect(codeOf(() => p.neighbourhood(plan, { asOf: 'yesterday' }))).toBe('INVALID_INPUT');
    store.close();
  });

  it('gives the propagation path of a flagged root, cause first, even beyond the hop limit', () => {
    const { store, p, budget, decision, plan, schedule } = graph(openStore);
    p.writeFact({ key: 'budget', value: 'actually $120k' });
    const n = p.neighbourhood(schedule, { hops: 1 });
    expect(n.propagation).toEqual({ factId: schedule, causeFactId: budget, causeExists: true, path: [budget, decision, plan, schedule] });
    const ids = new Map(n.nodes.map((x) => [x.id, x.hop]));
    expect(ids.get(budget)).toBeNull();
    expect(ids.get(decision)).toBeNull();
    expect(ids.get(plan)).toBe(1);
    expect(n.edges).toEqual(
      expect.arrayContaining([
        { from: decision, to: budget },
        { from: plan, to: decision },
        { from: schedule, to: plan },
      ]),
    );
    expect(p.propagationPath(budget)).toBeNull();
    store.close();
  });

  it('terminates on dependency cycles', () => {
    const store = openStore();
    const p = store.scope(USER, { create: true });
    const a = p.writeFact({ key: 'a', value: '1' }).factId;
    const b = p.writeFact({ key: 'b', value: '2', dependsOn: [a] }).factId;
    p.writeFact({ key: 'c', value: '3', dependsOn: [b], derivedFacts: [a] });
    const n = p.neighbourhood(a, { hops: 5 });
    expect(n.nodes).toHaveLength(3);
    expect(n.edges).toHaveLength(3);
    store.close();
  });
});

describeStores('review queue and dismissal', (openStore) => {
  it('lists every flagged fact with its upstream change, newest first, keyset-paged', () => {
    const { store, p, budget, decision, plan, schedule, side } = graph(openStore);
    const newer = p.writeFact({ key: 'budget', value: 'actually $120k' }).factId;
    const first = p.reviewQueue({ limit: 3 });
    expect(ReviewQueuePage.parse(first)).toEqual(first);
    expect(first.total).toBe(4);
    expect(first.entries.map((e) => e.fact.id)).toEqual([side, schedule, plan]);
    const second = p.reviewQueue({ limit: 3, after: first.nextCursor });
    expect(second.entries.map((e) => e.fact.id)).toEqual([decision]);
    expect(second.nextCursor).toBeNull();
    const cause = second.entries[0]!.cause;
    expect(cause.causeFactId).toBe(budget);
    expect(cause.cause?.value).toBe('$200k');
    expect(cause.replacement?.id).toBe(newer);
    store.close();
  });

  it('dismisses flags in one audited transaction and reports facts that were not flagged', () => {
    const { store, p, budget, decision, plan } = graph(openStore);
    p.writeFact({ key: 'budget', value: 'actually $120k' });
    const events: string[][] = [];
    store.onChange((e) => events.push([...e.what]));
    const r = p.dismissReview([decision, plan, budget, decision], { actor: 'reviewer@acme', reason: 'checked, still right' });
    expect(r.dismissed).toEqual([decision, plan]);
    expect(r.notFlagged).toEqual([budget]);
    expect(r.auditId).not.toBeNull();
    expect(events).toEqual([['review']]);
    const f = p.getFact(decision)!;
    expect([f.needsReview, f.reviewCause, f.reviewCauseFact]).toEqual([false, null, null]);
    const audit = p.factDetail(decision).audit;
    expect(audit[0]).toMatchObject({ action: 'dismiss_review', actor: 'reviewer@acme', reason: 'checked, still right', targetIds: [decision, plan] });
    expect(audit[0]!.details).toMatchObject({ count: 2, causeFacts: [budget] });
    expect(p.reviewQueue().total).toBe(2);
    store.close();
  });

  it('changes nothing when an id is unknown or input is bad', () => {
    const { store, p, decision } = graph(openStore);
    p.writeFact({ key: 'budget', value: 'actually $120k' });
    expect(codeOf(() => p.dismissReview([decision, 'f_missing'], { actor: 'me' }))).toBe('NOT_FOUND');
    expect(p.getFact(decision)!.needsReview).toBe(true);
    expect(codeOf(() => p.dismissReview([], { actor: 'me' }))).toBe('INVALID_INPUT');
    expect(codeOf(() => p.dismissReview([decision], { actor: '' }))).toBe('INVALID_INPUT');
    expect(store.db.prepare("SELECT count(*) FROM audit_log WHERE action = 'dismiss_review'").pluck().get()).toBe(0);
    store.close();
  });
});

describeStores('undoing a dismissal', (openStore) => {
  it('puts each flag back with its cause, audited, and creates no fact', () => {
    const { store, p, decision, plan, budget } = graph(openStore);
    p.writeFact({ key: 'budget', value: 'actually $120k' });
    const before = p.getFact(decision)!;
    const factsBefore = store.db.prepare('SELECT count(*) FROM facts').pluck().get();
    const d = p.dismissReview([decision, plan], { actor: 'reviewer@acme' });
    expect(p.reviewQueue().total).toBe(2);
    const r = p.undoDismissReview(d.auditId!, { actor: 'reviewer@acme' });
    expect(r.restored.sort()).toEqual([decision, plan].sort());
    const after = p.getFact(decision)!;
    expect([after.needsReview, after.reviewCause, after.reviewCauseFact]).toEqual([true, before.reviewCause, budget]);
    expect(p.reviewQueue().total).toBe(4);
    expect(store.db.prepare('SELECT count(*) FROM facts').pluck().get()).toBe(factsBefore);
    expect(p.factDetail(decision).audit[0]).toMatchObject({
      id: r.auditId,
      action: 'restore_review',
      targetIds: expect.arrayContaining([decision, plan]) as unknown,
      details: { count: 2, undoes: d.auditId },
    });
    store.close();
  });

  it('refuses once anything else was recorded after the dismissal, and for an entry that is not a dismissal', () => {
    const { store, p, decision, plan } = graph(openStore);
    p.writeFact({ key: 'budget', value: 'actually $120k' });
    const d = p.dismissReview([decision], { actor: 'me' });
    const next = p.dismissReview([plan], { actor: 'me' });
    expect(codeOf(() => p.undoDismissReview(d.auditId!, { actor: 'me' }))).toBe('CONFLICT');
    expect(p.getFact(decision)!.needsReview).toBe(false);
    p.undoDismissReview(next.auditId!, { actor: 'me' });
    // The undo is itself the latest change: undoing twice is refused.
    expect(codeOf(() => p.undoDismissReview(next.auditId!, { actor: 'me' }))).toBe('CONFLICT');
    expect(codeOf(() => p.undoDismissReview(999_999, { actor: 'me' }))).toBe('NOT_FOUND');
    expect(codeOf(() => p.undoDismissReview(0, { actor: 'me' }))).toBe('INVALID_INPUT');
    store.close();
  });
});

describeStores('chainFor', (openStore) => {
  it('walks versions, proposals and a stale write within the chain it lost to', async () => {
    const { chainFor } = await import('./chain');
    const store = openStore();
    const p = store.scope(USER, { create: true });
    p.writeFact({ key: 'stock_price', value: '$100', ts: '2026-01-01T00:00:00Z' });
    p.writeFact({ key: 'stock_price', value: '$95', ts: '2026-01-15T00:00:00Z' });
    const late = p.writeFact({ key: 'stock_price', value: '$90', ts: '2026-01-10T00:00:00Z' });
    p.writeFact({ key: 'discount', value: 'Max 15%', source: { type: 'policy', authority: 'policy' } });
    const prop = p.writeFact({ key: 'discount', value: 'Offer 25%', source: { type: 'user', authority: 'guest' } });
    expect(chainFor(p.ctx, p.currentFact('stock_price')!.id).versions.map((v) => v.value)).toEqual(['$100', '$90', '$95']);
    const discount = chainFor(p.ctx, p.currentFact('discount')!.id);
    expect(discount.versions.map((v) => v.value)).toEqual(['Max 15%']);
    expect(discount.proposals.map((v) => v.id)).toEqual([prop.factId]);
    expect(p.chain(prop.factId)).toEqual(chainFor(p.ctx, prop.factId));
    // From a stale write: the whole chain it lost to, each version once.
    expect(chainFor(p.ctx, late.factId).versions.map((v) => v.value)).toEqual(['$100', '$90', '$95']);
    store.close();
  });
});
