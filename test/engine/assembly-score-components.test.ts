// What each strategy's ranking score is made of, per included item (real SQLite files): the
// components the context preview shows beside every ranked item.
import { expect, it } from 'vitest';
import type { AssemblyResult, IncludedProvenance, ScoreComponent } from '../../shared/assembly';
import { describeStores } from '../helpers/stores';

const user = { kind: 'user', org: 'acme', user: 'u1' } as const;

function included(r: AssemblyResult, label: string): IncludedProvenance {
  const p = r.provenance.find((x): x is IncludedProvenance => x.status === 'included' && x.label === label);
  if (!p) throw new Error(`${label} is not included`);
  return p;
}

function named(components: readonly ScoreComponent[]): Record<string, number> {
  return Object.fromEntries(components.map((c) => [c.name, c.value]));
}

describeStores('score components', (openStore) => {
  it('balanced: importance and recency, whose product is the score', () => {
    const store = openStore();
    const p = store.scope(user, { create: true });
    p.writeFacts([
      { key: 'old_important', value: 'PostgreSQL chosen', importance: 10, ts: '2026-01-01T00:00:00.000Z' },
      { key: 'fresh_minor', value: 'debugging foreign key error', importance: 5, ts: '2026-01-03T23:00:00.000Z' },
    ]);
    const r = p.assemble({ strategy: 'balanced', budget: 1000, asOf: '2026-01-04T00:00:00.000Z' });
    const fresh = included(r, 'fresh_minor');
    expect(named(fresh.components)).toEqual({ importance: 5, recency: 0.5 });
    const old = named(included(r, 'old_important').components);
    expect(old.importance).toBe(10);
    expect(old.recency).toBeCloseTo(1 / 73, 9);
    expect(fresh.score).toBeCloseTo(5 * 0.5, 6);
    store.close();
  });

  it('recent: recency of the last touch; important: importance alone', () => {
    const store = openStore();
    const p = store.scope(user, { create: true });
    p.writeFacts([
      { key: 'a', value: 'alpha', importance: 3, ts: '2026-01-01T00:00:00.000Z' },
      { key: 'b', value: 'bravo', importance: 7, ts: '2026-01-02T00:00:00.000Z' },
    ]);
    store.db.prepare("UPDATE facts SET last_accessed_at = '2026-01-03T23:00:00.000Z' WHERE key = 'a'").run();
    const recent = p.assemble({ strategy: 'recent', budget: 1000, asOf: '2026-01-04T00:00:00.000Z' });
    expect(named(included(recent, 'a').components)).toEqual({ recency: 0.5 });
    expect(named(included(recent, 'b').components).recency).toBeCloseTo(1 / 49, 9);
    const important = p.assemble({ strategy: 'important', budget: 1000 });
    expect(included(important, 'b').components).toEqual([{ name: 'importance', value: 7 }]);
    store.close();
  });

  it('state_based: relevance for facts, items and documents, and the constraint multiplier', () => {
    const store = openStore();
    const p = store.scope(user, { create: true });
    p.writeFacts([
      { key: 'lunch', value: 'Team lunch on Friday' },
      { key: 'discount_note', value: 'Customers often ask for a discount at renewal' },
      { key: 'discount_policy', value: 'Maximum discount is 15% without CFO approval', source: { type: 'policy' } },
    ]);
    p.addWorkingItems([{ sessionId: 'default', key: 'globex_note', itemType: 'note', value: 'Globex asked about a discount yesterday' }]);
    const r = p.assemble({ strategy: 'state_based', budget: 2000, query: 'What discount can we offer?' });
    const policy = included(r, 'discount_policy');
    const c = named(policy.components);
    expect(c.constraint).toBe(1.5);
    expect(c.relevance).toBeGreaterThan(0);
    expect(policy.score).toBeCloseTo(c.relevance! * 1.5, 9);
    const note = named(included(r, 'discount_note').components);
    expect(note.relevance).toBe(included(r, 'discount_note').score);
    expect(note.constraint).toBeUndefined();
    expect(named(included(r, 'lunch').components)).toEqual({ relevance: 0 });
    const item = r.provenance.find((x): x is IncludedProvenance => x.status === 'included' && x.kind === 'working_item');
    expect(item?.components.map((x) => x.name)).toEqual(['relevance']);
    expect(item?.components[0]?.value).toBe(item?.score);
    store.close();
  });

  it('context_document: the share of the document that fitted; reference: none', () => {
    const store = openStore();
    const p = store.scope(user, { create: true });
    p.writeFacts([{ key: 'a', value: 'alpha' }]);
    p.putContextDocument('s1', `# Facts\n${'The customer prefers email. '.repeat(200)}`);
    const doc = p.assemble({ strategy: 'context_document', budget: 100, sessionId: 's1' });
    const d = doc.provenance.find((x): x is IncludedProvenance => x.status === 'included');
    expect(d?.components).toHaveLength(1);
    expect(d?.components[0]?.name).toBe('coverage');
    expect(d?.components[0]?.value).toBeGreaterThan(0);
    expect(d?.components[0]?.value).toBeLessThan(1);
    const ref = p.assemble({ strategy: 'reference' });
    expect(included(ref, 'a').components).toEqual([]);
    store.close();
  });
});
