// Each assembly strategy's order, budget and provenance on hand-built partitions (real SQLite files).
import { expect, it } from 'vitest';
import type { AssemblyResult, IncludedProvenance } from '../../shared/assembly';
import { getTokenizer } from '../../electron/engine/assembly/tokenizer';
import { describeStores } from '../helpers/stores';

const user = { kind: 'user', org: 'acme', user: 'u1' } as const;

function includedFacts(r: AssemblyResult): IncludedProvenance[] {
  return r.provenance.filter((p): p is IncludedProvenance => p.status === 'included' && p.kind === 'fact');
}

function keysInOrder(r: AssemblyResult): string[] {
  return includedFacts(r).map((p) => p.label);
}

function reasonOf(r: AssemblyResult, label: string): string | undefined {
  const p = r.provenance.find((x) => x.label === label);
  return p?.status === 'excluded' ? p.reason : p?.status;
}

function expectExact(r: AssemblyResult): void {
  const tok = getTokenizer(r.tokenizer);
  expect(r.tokens).toBe(tok.count(r.text));
  if (r.budget !== null) expect(r.tokens).toBeLessThanOrEqual(r.budget);
  for (const p of r.provenance) if (p.status === 'included') expect(p.span[1]).toBeGreaterThan(p.span[0]);
  for (const s of r.sections) expect(r.text.slice(s.span[0], s.span[1]).startsWith('## ')).toBe(true);
}

describeStores('recent, important, balanced', (openStore) => {
  it('recent: by last touch, an access or, for a fact never accessed, its creation', () => {
    const store = openStore();
    const p = store.scope(user, { create: true });
    p.writeFacts([
      { key: 'a', value: 'alpha', ts: '2026-01-01T00:00:00Z' },
      { key: 'b', value: 'bravo', ts: '2026-01-02T00:00:00Z' },
      { key: 'c', value: 'charlie', ts: '2026-01-03T00:00:00Z' },
      { key: 'd', value: 'delta', ts: '2026-01-04T00:00:00Z' },
      // Never accessed, but created after every access below: it is the most recent memory.
      { key: 'e', value: 'echo', ts: '2026-02-03T00:00:00Z' },
      // Never accessed, created between the two accesses.
      { key: 'f', value: 'foxtrot', ts: '2026-02-01T12:00:00Z' },
    ]);
    store.db.prepare("UPDATE facts SET last_accessed_at = '2026-02-02T00:00:00Z' WHERE key = 'b'").run();
    store.db.prepare("UPDATE facts SET last_accessed_at = '2026-02-01T00:00:00Z' WHERE key = 'd'").run();
    const r = p.assemble({ strategy: 'recent', budget: 1000 });
    expect(keysInOrder(r)).toEqual(['e', 'b', 'f', 'd', 'c', 'a']);
    expectExact(r);
    store.close();
  });

  it('important: importance descending, and filling stops at the first fact that does not fit', () => {
    const store = openStore();
    const p = store.scope(user, { create: true });
    p.writeFacts([
      { key: 'top', value: 'short', importance: 9 },
      { key: 'long', value: 'a much longer value '.repeat(30), importance: 8 },
      { key: 'tiny', value: 'x', importance: 1 },
    ]);
    const all = p.assemble({ strategy: 'important', budget: 10_000 });
    expect(keysInOrder(all)).toEqual(['top', 'long', 'tiny']);
    const tight = p.assemble({ strategy: 'important', budget: 40 });
    // "tiny" would fit after "long" was refused, but a simple strategy stops at the first that does not fit.
    expect(keysInOrder(tight)).toEqual(['top']);
    expect(reasonOf(tight, 'long')).toBe('budget');
    expect(reasonOf(tight, 'tiny')).toBe('budget');
    expectExact(tight);
    store.close();
  });

  it('balanced: importance x 1/(1 + hours since established), at the as-of time', () => {
    const store = openStore();
    const p = store.scope(user, { create: true });
    p.writeFacts([
      { key: 'old_important', value: 'PostgreSQL chosen', importance: 10, ts: '2026-01-01T00:00:00Z' }, // 72h: 10/73
      { key: 'fresh_minor', value: 'debugging foreign key error', importance: 5, ts: '2026-01-03T23:00:00Z' }, // 1h: 5/2
      { key: 'mid', value: 'TimescaleDB for series', importance: 9, ts: '2026-01-03T12:00:00Z' }, // 12h: 9/13
    ]);
    const r = p.assemble({ strategy: 'balanced', budget: 1000, asOf: '2026-01-04T00:00:00Z' });
    expect(keysInOrder(r)).toEqual(['fresh_minor', 'mid', 'old_important']);
    const scores = includedFacts(r).map((x) => x.score);
    expect(scores[0]).toBeCloseTo(2.5, 5);
    expect(scores[1]).toBeCloseTo(9 / 13, 5);
    expect(scores[2]).toBeCloseTo(10 / 73, 5);
    store.close();
  });

  it('every strategy leaves superseded facts and proposals out, with the reason', () => {
    const store = openStore();
    const p = store.scope(user, { create: true });
    p.writeFact({ key: 'status', value: 'approved', source: { type: 'user', authority: 'manager' } });
    // Naming the fact it replaces does not bypass authority: the replacement comes from as high a source.
    p.writeFact({ key: 'status_v2', value: 'cancelled', supersedes: 'status', source: { type: 'user', authority: 'manager' } });
    p.writeFact({ key: 'discount', value: 'max 15%', source: { type: 'policy', authority: 'policy' } });
    const proposal = p.writeFact({ key: 'discount', value: '25%', source: { type: 'user', authority: 'intern' } });
    expect(proposal.outcome).toBe('proposal');
    for (const strategy of ['recent', 'important', 'balanced', 'state_based', 'reference'] as const) {
      const r = p.assemble({ strategy, budget: 2000, query: 'status discount' });
      expect(r.text, strategy).toContain('cancelled');
      expect(r.text, strategy).not.toContain('approved');
      expect(r.text, strategy).not.toContain('25%');
      expect(reasonOf(r, 'status'), strategy).toBe('superseded');
      const prop = r.provenance.find((x) => x.id === proposal.factId);
      expect(prop?.status === 'excluded' && prop.reason, strategy).toBe('superseded');
    }
    store.close();
  });
});

describeStores(
  'state_based',
  (openStore) => {
    it('ranks by relevance with relevant constraints first, marks scope, and keeps the facts share', () => {
      const store = openStore();
      const p = store.scope(user, { create: true });
      p.setIdentity({ userName: 'Ann', userId: 'u1', authority: 'manager', department: 'Sales', organization: 'Acme', permissions: [] });
      p.writeFacts([
        { key: 'lunch', value: 'Team lunch on Friday' },
        { key: 'discount_note', value: 'Customers often ask for a discount at renewal' },
        { key: 'discount_policy', value: 'Maximum discount is 15% without CFO approval', source: { type: 'policy' } },
        { key: 'discount_idea', value: 'What if we offered a 30% discount to Globex?' },
      ]);
      const r = p.assemble({ strategy: 'state_based', budget: 2000, query: 'What discount can we offer?' });
      const ranks = keysInOrder(r);
      expect(ranks[0]).toBe('discount_policy');
      expect(ranks.indexOf('lunch')).toBe(ranks.length - 1);
      const policy = includedFacts(r).find((x) => x.label === 'discount_policy');
      expect(policy?.section).toBe('constraints');
      expect(policy?.marks).toContain('constraint');
      // A what-if stays out of a decision's context; a what-if question is its view.
      expect(reasonOf(r, 'discount_idea')).toBe('scope');
      expect(r.text).not.toContain('30%');
      const whatIf = p.assemble({ strategy: 'state_based', budget: 2000, query: 'What if we offered a bigger discount?' });
      const idea = includedFacts(whatIf).find((x) => x.label === 'discount_idea');
      expect(idea?.section).toBe('hypothetical');
      expect(whatIf.text.slice(idea?.span[0], idea?.span[1])).toMatch(/^- \[HYPOTHETICAL — not a commitment\]/);
      expect(r.sections.map((s) => s.name).slice(0, 2)).toEqual(['identity', 'environment']);
      expectExact(r);

      // A budget that holds only part of the facts: the facts share (70% after identity and
      // environment) is respected and the lowest-ranked facts go.
      const small = p.assemble({ strategy: 'state_based', budget: 75, query: 'What discount can we offer?' });
      expectExact(small);
      const head = small.sections.filter((s) => s.name === 'identity' || s.name === 'environment').reduce((a, s) => a + s.tokens + 1, 0);
      const factTokens = small.sections
        .filter((s) => ['constraints', 'facts', 'hypothetical', 'review'].includes(s.name))
        .reduce((a, s) => a + s.tokens + 1, 0);
      expect(factTokens).toBeLessThanOrEqual(Math.floor((75 - head) * 0.7) + 2);
      expect(reasonOf(small, 'lunch')).toBe('budget');
      store.close();
    });

    it('puts needs_review facts in their own section', () => {
      const store = openStore();
      const p = store.scope(user, { create: true });
      const base = p.writeFact({ key: 'budget', value: '$200,000 available in Q4' });
      p.writeFact({ key: 'decision', value: 'Approved $150,000 purchase, $50,000 left', dependsOn: [base.factId] });
      p.writeFact({ key: 'budget_corrected', value: '$120,000 total budget', supersedes: base.factId });
      const r = p.assemble({ strategy: 'state_based', budget: 2000, query: 'remaining budget' });
      const decision = includedFacts(r).find((x) => x.label === 'decision');
      expect(decision?.section).toBe('review');
      expect(decision?.marks).toContain('needs_review');
      expect(r.text).toContain('## Must recalculate');
      expect(r.text).not.toContain('$200,000');
      store.close();
    });

    it('curates the working set: superseded assertions, irrelevant and expired items stay out', () => {
      const store = openStore();
      const p = store.scope(user, { create: true });
      p.addWorkingItems([
        {
          key: 'turn:0',
          value: 'The meeting will be in Seattle office, Building A, Room 302.',
          itemType: 'turn',
          speaker: 'user',
          createdAt: '2026-01-01T10:00:00Z',
        },
        { key: 'turn:1', value: 'Please book catering for the meeting', itemType: 'turn', speaker: 'user', createdAt: '2026-01-01T10:02:00Z' },
        // A later episode about something else.
        { key: 'turn:2', value: 'Kafka selected as message broker', itemType: 'turn', speaker: 'user', createdAt: '2026-01-01T11:30:00Z' },
        { key: 'turn:3', value: 'Three brokers for the cluster', itemType: 'turn', speaker: 'user', createdAt: '2026-01-01T11:31:00Z' },
        { key: 'scratch', value: 'meeting room shortlist', createdAt: '2026-01-01T10:00:00Z', expiresAt: '2026-01-01T11:00:00Z' },
      ]);
      p.writeFact({ key: 'meeting_location', value: 'Seattle office, Building A, Room 302', ts: '2026-01-01T10:01:00Z' });
      p.writeFact({
        key: 'meeting_location_v2',
        value: 'Portland office, Building C, Conference Room 1',
        supersedes: 'meeting_location',
        ts: '2026-01-01T10:30:00Z',
      });
      const r = p.assemble({ strategy: 'state_based', budget: 2000, query: 'Where is the meeting being held?', asOf: '2026-01-01T12:00:00Z' });
      expect(r.text).toContain('Portland');
      expect(r.text).not.toContain('Seattle');
      expect(r.text).toContain('catering');
      expect(reasonOf(r, 'turn:0')).toBe('superseded');
      expect(reasonOf(r, 'turn:1')).toBe('included');
      expect(reasonOf(r, 'turn:2')).toBe('not_relevant');
      expect(reasonOf(r, 'turn:3')).toBe('not_relevant');
      expect(reasonOf(r, 'scratch')).toBe('expired');
      store.close();
    });

    it('drops irrelevant turns first when the budget is tight and shows turns in conversation order', () => {
      const store = openStore();
      const p = store.scope(user, { create: true });
      p.addWorkingItems(
        Array.from({ length: 12 }, (_, i) => ({
          key: `turn:${i}`,
          value: i % 3 === 0 ? `Invoice ${i} for the Globex renewal was sent` : `Unrelated chatter number ${i} about lunch plans`,
          itemType: 'turn',
          speaker: 'user',
          createdAt: `2026-01-01T10:${String(i * 2).padStart(2, '0')}:00Z`,
        })),
      );
      const r = p.assemble({ strategy: 'state_based', budget: 90, query: 'Globex renewal invoice' }, { tuning: { unmatchedItems: 'last' } });
      expectExact(r);
      const items = r.provenance.filter((x): x is IncludedProvenance => x.status === 'included' && x.kind === 'working_item');
      expect(items.length).toBeGreaterThan(0);
      expect(items.every((x) => /Globex/.test(r.text.slice(x.span[0], x.span[1])))).toBe(true);
      const starts = items.map((x) => ({ key: Number(x.label.split(':')[1]), start: x.span[0] })).sort((a, b) => a.start - b.start);
      expect(starts.map((s) => s.key)).toEqual([...starts.map((s) => s.key)].sort((a, b) => a - b));
      store.close();
    });

    it('withholds text labelled for an audience the identity is outside, and other scopes', () => {
      const store = openStore();
      const p = store.scope(user, { create: true });
      p.setIdentity({ userName: 'Mike', userId: 'u1', authority: 'Sales Rep', department: 'Sales', organization: 'Acme', permissions: [] });
      p.writeFacts([
        { key: 'floor', value: '[RESTRICTED: Strategic pricing restricted to VP+] Board approved pricing floor of $30k' },
        { key: 'standard', value: 'Standard pricing is $50k/year' },
      ]);
      p.addWorkingItems([{ key: 'ws:0', value: "[SCOPE: Alice's session] Premium subscriber in Germany" }]);
      const r = p.assemble({ strategy: 'state_based', budget: 2000, query: 'lowest price pricing subscriber' });
      expect(r.text).not.toContain('$30k');
      expect(reasonOf(r, 'floor')).toBe('permission');
      expect(reasonOf(r, 'ws:0')).toBe('scope');
      expect(r.text).toContain('$50k');
      // Another person: a new session (an identity is fixed within one).
      p.setIdentity(
        { userName: 'Vera', userId: 'u1', authority: 'VP Sales', department: 'Sales', organization: 'Acme', permissions: [] },
        { sessionId: 'vera' },
      );
      expect(p.assemble({ strategy: 'state_based', budget: 2000, query: 'pricing', sessionId: 'vera' }).text).toContain('$30k');
      // Mike's session still reads as Mike: another session's identity never widens it.
      expect(p.assemble({ strategy: 'state_based', budget: 2000, query: 'pricing' }).text).not.toContain('$30k');
      store.close();
    });
  },
  undefined,
  { roles: ['agent'] },
);

describeStores('state_based on a larger partition (bounded paths)', (openStore) => {
  it('ranks a rare term above a common one, keeps dead values out and the budget exact', () => {
    const store = openStore();
    const p = store.scope(user, { create: true });
    // 600 chains of two versions: 600 dead values (more than the exhaustive limit) and a common
    // term ("renewal") in every fact; one rare company name.
    const writes = Array.from({ length: 600 }, (_, i) => [
      { key: `deal_${i}`, value: `renewal for account ${i} at ${i % 40}% (draft figure ${i}x)`, ts: `2026-01-01T00:${String(i % 60).padStart(2, '0')}:00Z` },
      {
        key: `deal_${i}_v2`,
        value: `renewal for account ${i} at ${(i % 40) + 1}% confirmed`,
        supersedes: `deal_${i}`,
        ts: `2026-01-02T00:${String(i % 60).padStart(2, '0')}:00Z`,
      },
    ]).flat();
    p.writeFacts(writes);
    p.writeFact({ key: 'zorvex_renewal', value: 'Zorvexcorp renewal is due on March 3', ts: '2025-06-01T00:00:00Z' });
    p.addWorkingItems([
      { key: 'turn:0', value: 'renewal for account 7 at 7% (draft figure 7x)', itemType: 'turn', speaker: 'user', createdAt: '2026-01-01T12:00:00Z' },
    ]);
    const r = p.assemble({ strategy: 'state_based', budget: 1500, query: 'When is the Zorvexcorp renewal?' });
    expectExact(r);
    expect(keysInOrder(r)[0]).toBe('zorvex_renewal');
    for (const f of p.allFacts().filter((x) => !x.isValid)) expect(r.text.includes(f.value), f.value).toBe(false);
    expect(reasonOf(r, 'turn:0')).toBe('superseded');
    expect(reasonOf(r, 'deal_0')).toBe('superseded');
    store.close();
  });
});

describeStores('reference and context_document', (openStore) => {
  it('reference: every valid fact by timestamp, no budget, the last ten turns verbatim', () => {
    const store = openStore();
    const p = store.scope(user, { create: true });
    p.writeFacts([
      { key: 'late', value: 'written last', ts: '2026-01-03T00:00:00Z' },
      { key: 'early', value: 'written first', ts: '2026-01-01T00:00:00Z' },
      { key: 'rule', value: 'Spending must not exceed $10k', ts: '2026-01-02T00:00:00Z' },
    ]);
    p.addWorkingItems(
      Array.from({ length: 12 }, (_, i) => ({
        key: `turn:${i}`,
        value: `turn text ${i}`,
        itemType: 'turn',
        speaker: 'user',
        createdAt: `2026-01-01T00:${String(i).padStart(2, '0')}:00Z`,
      })),
    );
    const r = p.assemble({ strategy: 'reference', budget: 1, query: 'anything' });
    expect(r.budget).toBeNull();
    expect(r.tokens).toBeGreaterThan(1);
    expect(keysInOrder(r)).toEqual(['early', 'rule', 'late']);
    expect(r.sections.map((s) => s.name)).toEqual(['identity', 'environment', 'constraints', 'facts', 'conversation']);
    expect(r.text).toContain('User: turn text 11');
    expect(r.text).not.toContain('turn text 1\n');
    expect(reasonOf(r, 'turn:0')).toBe('budget');
    expectExact(r);
    store.close();
  });

  it('context_document: the latest stored version, cut to the budget', () => {
    const store = openStore();
    const p = store.scope(user, { create: true });
    p.putContextDocument('s1', '# Facts\nold version');
    p.putContextDocument('s1', `# Facts\n${'The customer prefers email. '.repeat(200)}`);
    const r = p.assemble({ strategy: 'context_document', budget: 100, sessionId: 's1' });
    expect(r.text).toContain('version 2');
    expect(r.text).not.toContain('old version');
    expect(r.tokens).toBeLessThanOrEqual(100);
    expect(r.tokens).toBeGreaterThan(80);
    expectExact(r);
    const none = p.assemble({ strategy: 'context_document', budget: 100, sessionId: 'nope' });
    expect(none.text).toBe('');
    store.close();
  });

  it('rejects a bad request with a typed error', () => {
    const store = openStore();
    const p = store.scope(user, { create: true });
    expect(() => p.assemble({ strategy: 'nope' as never })).toThrow(expect.objectContaining({ code: 'INVALID_INPUT' }));
    expect(() => p.assemble({ strategy: 'recent', budget: -1 })).toThrow(expect.objectContaining({ code: 'INVALID_INPUT' }));
    expect(() => p.assemble({ strategy: 'recent', asOf: 'yesterday-ish' })).toThrow(expect.objectContaining({ code: 'INVALID_INPUT' }));
    store.close();
  });
});

describeStores('state_based and turns that recount a current fact', (openStore) => {
  it('leaves out a turn stating replaced values beside the current one, unless the question asks for history', () => {
    const store = openStore();
    const p = store.scope(user, { create: true });
    p.writeFact({ key: 'review_date', value: 'Friday June 12th', ts: '2026-01-01T09:00:00Z' });
    p.recordTurns('s1', [
      { speaker: 'user', text: 'The review was Monday, then Wednesday, and now it is Friday June 12th.', ts: '2026-01-01T09:01:00Z' },
      { speaker: 'user', text: 'Bring the slides to the review.', ts: '2026-01-01T09:02:00Z' },
    ]);
    const now = p.assemble({ strategy: 'state_based', budget: 2000, query: 'When is the review?', sessionId: 's1' });
    expect(now.text).toContain('Friday June 12th');
    expect(now.text).not.toMatch(/Monday|Wednesday/);
    expect(now.text).toContain('Bring the slides');
    expect(reasonOf(now, 'turn:0')).toBe('superseded');
    const why = p.assemble({ strategy: 'state_based', budget: 2000, query: 'Why did the review date change?', sessionId: 's1' });
    expect(why.text).toContain('Monday, then Wednesday');
    store.close();
  });
});

describeStores('state_based and the last word of the conversation', (openStore) => {
  it('leaves out a turn repeating a replaced instruction when the conversation came back to its replacement', () => {
    const store = openStore();
    const p = store.scope(user, { create: true });
    p.writeFact({ key: 'pto_rule', value: 'Manager Mia can approve PTO up to 2 weeks', ts: '2026-01-01T09:00:00Z' });
    p.writeFact({ key: 'pto_rule', value: 'All PTO over 3 days now requires VP approval', ts: '2026-01-01T09:01:00Z' });
    p.recordTurns('s1', [
      { speaker: 'user', text: 'Vince: Manager Mia can approve PTO up to 2 weeks', ts: '2026-01-01T09:05:00Z' },
      { speaker: 'user', text: 'Vince: All PTO over 3 days now requires VP approval', ts: '2026-01-01T09:06:00Z' },
    ]);
    const r = p.assemble({ strategy: 'state_based', budget: 2000, query: 'Can Manager Mia approve a 5-day PTO request?', sessionId: 's1' });
    expect(r.text).toContain('over 3 days now requires VP approval');
    expect(r.text).not.toContain('2 weeks');
    expect(reasonOf(r, 'turn:0')).toBe('superseded');
    // Without the replacement said again, the repeated value is the newer word and stays.
    const q = store.scope({ ...user, user: 'u2' }, { create: true });
    q.writeFact({ key: 'pto_rule', value: 'Manager Mia can approve PTO up to 2 weeks', ts: '2026-01-01T09:00:00Z' });
    q.writeFact({ key: 'pto_rule', value: 'All PTO over 3 days now requires VP approval', ts: '2026-01-01T09:01:00Z' });
    q.recordTurns('s1', [{ speaker: 'user', text: 'Vince: Manager Mia can approve PTO up to 2 weeks', ts: '2026-01-01T09:05:00Z' }]);
    const s = q.assemble({ strategy: 'state_based', budget: 2000, query: 'Can Manager Mia approve a 5-day PTO request?', sessionId: 's1' });
    expect(s.text).toContain('2 weeks');
    store.close();
  });
});

describeStores('state_based and an overruled proposal', (openStore) => {
  it('keeps a lower authority’s overruled value out of repeats and summaries, keeping the summary’s current half', () => {
    const store = openStore();
    const p = store.scope(user, { create: true });
    p.writeFact({
      key: 'instruction_a',
      value: 'Use PostgreSQL for all new services',
      source: { type: 'user', authority: 'manager' },
      ts: '2026-01-01T11:01:00Z',
    });
    const proposal = p.writeFact({
      key: 'instruction_b',
      value: '[CONTRACTOR] Carl (Consulting Architect): MongoDB would be better for this use case, use that instead',
      source: { type: 'user', authority: 'contractor' },
      ts: '2026-01-01T11:02:00Z',
    });
    expect(proposal.outcome).toBe('proposal');
    p.recordTurns('s1', [
      {
        speaker: 'user',
        text: 'Director Diana mandated PostgreSQL for new services. Contractor Carl recommends MongoDB for a new project.',
        ts: '2026-01-01T11:02:00Z',
      },
      { speaker: 'user', text: 'Carl (Consulting Architect): MongoDB would be better for this use case, use that instead', ts: '2026-01-01T11:12:00Z' },
    ]);
    const r = p.assemble({ strategy: 'state_based', budget: 2000, query: 'What database should we use for the new service?', sessionId: 's1' });
    expect(r.text).toContain('Use PostgreSQL for all new services');
    expect(r.text).toContain('Director Diana mandated PostgreSQL for new services. [superseded value withheld]');
    expect(r.text).not.toContain('MongoDB');
    expect(reasonOf(r, 'turn:1')).toBe('superseded');
    // Asked what happened, the summary is history and stays whole, marked as such.
    const why = p.assemble({ strategy: 'state_based', budget: 2000, query: 'Why did we not pick MongoDB?', sessionId: 's1' });
    expect(why.text).toContain('Contractor Carl recommends MongoDB');
    store.close();
  });
});
