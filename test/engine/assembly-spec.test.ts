// Three reference scenarios (supersession, repetition, authority) through state_based, organisational documents behind
// permissions, a preview that changes nothing, and takeContext recording access.
import { describe, expect, it } from 'vitest';
import type { AssemblyResult } from '../../shared/assembly';
import { getTokenizer } from '../../electron/engine/assembly/tokenizer';
import type { Store } from '../../electron/engine/store';
import { describeStores } from '../helpers/stores';
import { dumpTables } from './support';

const user = { kind: 'user', org: 'acme', user: 'u1' } as const;

function fact(r: AssemblyResult, id: string) {
  return r.provenance.find((p) => p.kind === 'fact' && p.id === id);
}

/** Every row of every table, in a stable order: the database's whole content. */
function dump(store: Store): string {
  return JSON.stringify(dumpTables(store.db), (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : Buffer.isBuffer(v) ? v.toString('hex') : v));
}

describeStores('reference scenarios (state_based)', (openStore) => {
  it('basic supersession', () => {
    const store = openStore();
    const p = store.scope(user, { create: true });
    p.writeFact({ key: 'status_v1', value: 'approved' });
    p.writeFact({ key: 'status_v2', value: 'cancelled', supersedes: 'status_v1' });
    const r = p.assemble({ strategy: 'state_based', budget: 500, query: 'What is the current status?' });
    expect(r.text).toContain('cancelled');
    expect(r.text).not.toContain('approved');
    store.close();
  });

  it('emphatic repetition does not outweigh supersession', () => {
    const store = openStore();
    const p = store.scope(user, { create: true });
    p.addWorkingItems(
      ['The order is approved', 'Yes, the order is approved', 'Again: order approved'].map((value, i) => ({
        key: `turn:${i}`,
        value,
        itemType: 'turn',
        speaker: 'user',
        createdAt: `2026-01-01T09:0${i}:00Z`,
      })),
    );
    p.writeFact({ key: 'order_v1', value: 'approved', ts: '2026-01-01T09:03:00Z' });
    p.addWorkingItems([{ key: 'turn:3', value: 'Order cancelled', itemType: 'turn', speaker: 'user', createdAt: '2026-01-01T09:10:00Z' }]);
    p.writeFact({ key: 'order_v2', value: 'cancelled', supersedes: 'order_v1', ts: '2026-01-01T09:10:00Z' });
    const r = p.assemble({ strategy: 'state_based', budget: 500, query: 'Should we proceed with the order?', asOf: '2026-01-01T09:15:00Z' });
    expect(r.text).toContain('cancelled');
    expect(r.text).not.toContain('approved');
    const turns = r.provenance.filter((x) => x.kind === 'working_item' && x.label !== 'turn:3');
    expect(turns.every((x) => x.status === 'excluded' && x.reason === 'superseded')).toBe(true);
    store.close();
  });

  it("an intern's 25% is a proposal; the CFO policy stays and is included", () => {
    const store = openStore();
    const p = store.scope(user, { create: true });
    p.setIdentity({ userName: 'Ivy', userId: 'u1', authority: 'intern', department: 'Sales', organization: 'Acme', permissions: [] });
    const policy = p.writeFact({ key: 'policy', value: 'max 15%', source: { type: 'policy', identity: 'CFO', authority: 'cfo' } });
    const suggestion = p.writeFact({ key: 'policy', value: "Let's offer 25%", source: { type: 'user', identity: 'Ivy', authority: 'intern' } });
    expect(suggestion.outcome).toBe('proposal');
    expect(p.getFact(policy.factId)?.isValid).toBe(true);
    const r = p.assemble({ strategy: 'state_based', budget: 500, query: 'Can we offer 25%?' });
    expect(r.text).toContain('max 15%');
    expect(r.text).not.toContain("Let's offer 25%");
    const inc = fact(r, policy.factId);
    expect(inc?.status).toBe('included');
    expect(inc?.status === 'included' && inc.section).toBe('constraints');
    const prop = fact(r, suggestion.factId);
    expect(prop?.status === 'excluded' && prop.reason).toBe('superseded');
    expect(prop?.status === 'excluded' && prop.detail).toMatch(/proposal/);
    store.close();
  });
});

describeStores('organisational documents', (openStore) => {
  it('appear only where the identity is allowed; denied ones are in provenance as permission', () => {
    const store = openStore();
    const org = store.scope({ kind: 'organizational', org: 'acme' }, { create: true });
    const pub = org.putDocument({ title: 'Travel policy', body: 'Book travel through the portal; economy class for flights under 6 hours.' });
    const fin = org.putDocument({ title: 'Travel budget 2026', body: 'Travel budget is $2M, finance only.', acl: ['finance'] });
    const p = store.scope(user, { create: true });
    p.setIdentity({ userName: 'Sam', userId: 'u1', authority: 'employee', department: 'Sales', organization: 'Acme', permissions: [] });
    const r = p.assemble({ strategy: 'state_based', budget: 1000, query: 'travel budget flights' });
    expect(r.text).toContain('economy class');
    expect(r.text).not.toContain('$2M');
    const denied = r.provenance.find((x) => x.kind === 'document' && x.id === fin);
    expect(denied?.status === 'excluded' && denied.reason).toBe('permission');
    expect(r.provenance.find((x) => x.kind === 'document' && x.id === pub)?.status).toBe('included');
    // Another person: a new session (an identity is fixed within one).
    p.setIdentity({ userName: 'Fay', userId: 'u1', authority: 'employee', department: 'Finance', organization: 'Acme', permissions: [] }, { sessionId: 'fay' });
    expect(p.assemble({ strategy: 'state_based', budget: 1000, query: 'travel budget', sessionId: 'fay' }).text).toContain('$2M');
    // Sam's session reads as Sam still: another session's identity never widens it.
    expect(p.assemble({ strategy: 'state_based', budget: 1000, query: 'travel budget' }).text).not.toContain('$2M');
    store.close();
  });
});

describeStores('preview versus taking a context', (openStore) => {
  function richStore(): Store {
    const store = openStore();
    const org = store.scope({ kind: 'organizational', org: 'acme' }, { create: true });
    org.putDocument({ title: 'Handbook', body: 'Discounts above 15% need CFO approval.' });
    const p = store.scope(user, { create: true });
    p.setIdentity({ userName: 'Ann', userId: 'u1', authority: 'manager', department: 'Sales', organization: 'Acme', permissions: [] });
    p.writeFact({ key: 'discount', value: 'max 15%', source: { type: 'policy' } });
    p.writeFact({ key: 'discount', value: '20% for Globex', source: { type: 'user', authority: 'intern' } });
    const a = p.writeFact({ key: 'owner', value: 'Ann' });
    p.writeFact({ key: 'deal', value: 'Globex deal at $50k', dependsOn: [a.factId] });
    p.writeFact({ key: 'owner_v2', value: 'Bob', supersedes: 'owner' });
    p.addWorkingItems([{ key: 'turn:0', value: 'What discount for Globex?', itemType: 'turn', speaker: 'user' }]);
    p.setEnvironment([{ key: 'timezone', value: 'UTC' }]);
    p.putContextDocument('default', '# Facts\nGlobex renewal in March.');
    return store;
  }

  it('a preview of every strategy leaves every table unchanged and announces nothing', () => {
    const store = richStore();
    const p = store.scope(user);
    const before = dump(store);
    const version = store.dataVersion();
    let events = 0;
    store.onChange(() => events++);
    for (const strategy of ['recent', 'important', 'balanced', 'state_based', 'reference', 'context_document'] as const) {
      p.assemble({ strategy, budget: 300, query: 'discount Globex owner' });
      p.assemble({ strategy, budget: 300, query: 'discount', asOf: '2030-01-01T00:00:00Z', tokenizer: 'o200k_base' });
    }
    expect(dump(store)).toBe(before);
    expect(store.dataVersion()).toBe(version);
    expect(store.pollExternalChanges()).toBe(false);
    expect(events).toBe(0);
    store.close();
  });

  it('takeContext records the access of exactly the included facts, in one announced write', () => {
    const store = richStore();
    const p = store.scope(user);
    const before = new Map(p.allFacts().map((f) => [f.id, f]));
    let events = 0;
    store.onChange(() => events++);
    const r = p.takeContext({ strategy: 'state_based', budget: 300, query: 'discount Globex' });
    expect(events).toBe(1);
    const included = new Set(r.provenance.filter((x) => x.kind === 'fact' && x.status === 'included').map((x) => x.id));
    expect(included.size).toBeGreaterThan(0);
    for (const f of p.allFacts()) {
      const old = before.get(f.id);
      if (included.has(f.id)) {
        expect(f.accessCount).toBe((old?.accessCount ?? 0) + 1);
        expect(f.lastAccessedAt).not.toBeNull();
      } else {
        expect(f.accessCount).toBe(old?.accessCount);
        expect(f.lastAccessedAt).toBe(old?.lastAccessedAt);
      }
    }
    // The recent strategy now puts what was taken first.
    const recent = p.assemble({ strategy: 'recent', budget: 1000 });
    const first = recent.provenance.find((x) => x.status === 'included');
    expect(included.has(first?.id ?? '')).toBe(true);
    store.close();
  });
});

describe('tokenizer', () => {
  it('counts as the models do, cl100k and o200k selectable, special tokens as plain text', () => {
    const cl = getTokenizer('cl100k_base');
    const o2 = getTokenizer('o200k_base');
    expect(cl.count('hello world')).toBe(2);
    expect(o2.count('hello world')).toBe(2);
    const text = 'Die Straße ist schön — 東京 is a city.';
    expect(cl.count(text)).not.toBe(o2.count(text));
    expect(cl.count('<|endoftext|>')).toBeGreaterThan(1);
    const cut = cl.truncate('one two three four five six', 3);
    expect(cl.count(cut)).toBeLessThanOrEqual(3);
    expect('one two three four five six'.startsWith(cut)).toBe(true);
  });
});
