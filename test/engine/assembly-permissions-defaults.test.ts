// Rules every strategy shares: restricted text is withheld from a reader outside its audience
// before any strategy ranks it (and listed as excluded for `permission`), and the defaults a
// caller gets by naming nothing (strategy, importance).
import { expect, it } from 'vitest';
import { ASSEMBLY_STRATEGIES, AssemblyRequest, type AssemblyResult } from '../../shared/assembly';
import { AssembleInput, ContextProbe } from '../../shared/contract';
import { DEFAULT_STATEBENCH_BUDGET } from '../../electron/engine/assembly/statebench-runner';
import { describeStores, type OpenStore } from '../helpers/stores';

const user = { kind: 'user', org: 'acme', user: 'u1' } as const;
const SECRET = '[CONFIDENTIAL — restricted to HR] Dana Wu is on a performance improvement plan';

function excludedFor(r: AssemblyResult, label: string): { reason: string; detail?: string } | undefined {
  const p = r.provenance.find((x) => x.label === label);
  return p?.status === 'excluded' ? { reason: p.reason, ...(p.detail !== undefined ? { detail: p.detail } : {}) } : undefined;
}

function setUp(openStore: OpenStore, department: string) {
  const store = openStore();
  const p = store.scope(user, { create: true });
  p.setIdentity({ userName: 'Sam', userId: 'u1', authority: 'engineer', department, organization: 'Acme', permissions: [] });
  p.writeFacts([
    { key: 'dana_review', value: SECRET, importance: 9, ts: '2026-03-01T09:00:00Z' },
    { key: 'standup', value: 'Standup moved to 9:30 for Dana Wu and the team', ts: '2026-03-01T08:00:00Z' },
  ]);
  p.addWorkingItems([
    {
      sessionId: 'default',
      key: 'turn:0',
      value: '[RESTRICTED: restricted to HR] Dana Wu salary band is L5',
      itemType: 'turn',
      speaker: 'user',
      createdAt: '2026-03-01T08:30:00Z',
    },
  ]);
  return { store, p };
}

describeStores('restricted facts are withheld in every strategy', (openStore) => {
  it('an identity outside the audience never sees the fact; provenance says permission', () => {
    const { store, p } = setUp(openStore, 'Engineering');
    // Accessed most recently too, so `recent` would rank it first if it reached the strategy.
    store.db.prepare("UPDATE facts SET last_accessed_at = '2026-03-02T00:00:00Z' WHERE key = 'dana_review'").run();
    for (const strategy of ['recent', 'important', 'balanced', 'state_based', 'reference'] as const) {
      const r = p.assemble({ strategy, query: 'What do we know about Dana Wu?', budget: 2000, asOf: '2026-03-03T00:00:00Z' });
      expect(r.text, strategy).not.toContain('performance improvement');
      expect(r.text, strategy).not.toContain('salary band');
      expect(r.text, strategy).toContain('Standup moved');
      expect(excludedFor(r, 'dana_review'), strategy).toEqual({ reason: 'permission', detail: 'restricted to HR' });
      if (strategy === 'state_based' || strategy === 'reference')
        expect(excludedFor(r, 'turn:0'), strategy).toEqual({ reason: 'permission', detail: 'restricted to HR' });
      expect(r.counts.excluded.permission, strategy).toBeGreaterThanOrEqual(1);
    }
    // Also without an as-of time (the "now" view).
    expect(p.assemble({ strategy: 'recent', budget: 2000 }).text).not.toContain('performance improvement');
    store.close();
  });

  it('an identity inside the audience sees it in every strategy', () => {
    const { store, p } = setUp(openStore, 'HR');
    for (const strategy of ['recent', 'important', 'balanced', 'state_based', 'reference'] as const) {
      const r = p.assemble({ strategy, query: 'What do we know about Dana Wu?', budget: 2000 });
      expect(r.text, strategy).toContain('performance improvement');
      expect(excludedFor(r, 'dana_review'), strategy).toBeUndefined();
    }
    store.close();
  });

  it('a partition with no identity sees no restricted text', () => {
    const store = openStore();
    const p = store.scope(user, { create: true });
    p.writeFact({ key: 'dana_review', value: SECRET });
    for (const strategy of ['recent', 'important', 'balanced', 'reference'] as const)
      expect(p.assemble({ strategy, budget: 2000 }).text, strategy).not.toContain('Dana');
    store.close();
  });
});

describeStores('defaults when a caller names nothing', (openStore) => {
  it('balanced is the strategy of a request, an inspector assembly and a deletion probe', () => {
    expect(AssemblyRequest.parse({}).strategy).toBe('balanced');
    expect(AssembleInput.parse({ partitionId: 1 }).strategy).toBe('balanced');
    expect(ContextProbe.parse({ query: 'q' }).strategy).toBe('balanced');
    const store = openStore();
    const p = store.scope(user, { create: true });
    p.writeFact({ key: 'k', value: 'v' });
    expect(p.assemble({ budget: 100 }).strategy).toBe('balanced');
    expect(ASSEMBLY_STRATEGIES).toContain('balanced');
    store.close();
  });

  it('a fact written without importance has 1.0; a constraint starts higher', () => {
    const store = openStore();
    const p = store.scope(user, { create: true });
    expect(p.getFact(p.writeFact({ key: 'logo', value: 'I like the blue logo' }).factId)?.importance).toBe(1);
    expect(p.getFact(p.writeFact({ key: 'cap', value: 'The budget must not exceed $5,000' }).factId)?.importance).toBeGreaterThan(1);
    store.close();
  });

  it('the StateBench runner assembles under 8,000 tokens by default', () => {
    expect(DEFAULT_STATEBENCH_BUDGET).toBe(8000);
  });
});
