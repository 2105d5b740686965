import { expect, it } from 'vitest';
import { describeStores, type OpenStore } from '../../../test/helpers/stores';

const USER = { kind: 'user', org: 'acme', user: 'u1' } as const;

function setup(openStore: OpenStore) {
  const store = openStore();
  const p = store.scope(USER, { create: true });
  return { store, p };
}

describeStores(
  'recording a turn applies the facts it contradicts',
  (openStore) => {
    it('supersedes a fact the turn confidently changes, and the context shows only the new value', () => {
      const { store, p } = setup(openStore);
      const old = p.writeFact({ key: 'meeting', value: 'Meeting is Tuesday at 2pm' });
      const [turn] = p.recordTurns('s1', [{ speaker: 'user', text: "Let's do the meeting Thursday at 3pm" }]);
      expect(turn?.turnIndex).toBe(0);
      const [c] = turn?.conflicts ?? [];
      expect(c).toMatchObject({ factId: old.factId, outcome: 'superseded', cue: "let's do", entity: 'meeting' });

      const before = p.getFact(old.factId);
      expect(before?.isValid).toBe(false);
      expect(before?.supersessionRule).toBe('implicit');
      expect(before?.supersessionReason).toMatch(
        /turn 0 of session "s1" \(user\) names "meeting" with the change cue "let's do" and states a different day and time/,
      );
      const now = p.currentFact('meeting');
      expect(now?.id).toBe(c?.newFactId);
      expect(now?.value).toBe('Meeting is Thursday at 3pm');
      expect(now?.source).toMatchObject({ type: 'conversation', identity: 'user', turnIndex: 0 });

      const ctx = p.assemble({ strategy: 'state_based', query: 'When is the meeting?', sessionId: 's1' });
      expect(ctx.text).toContain('Thursday at 3pm');
      expect(ctx.text).not.toContain('Tuesday');
      // The audit names the turn and the cue, never the fact's text.
      const audit = store.db.prepare("SELECT reason FROM audit_log WHERE action = 'supersede'").pluck().all() as string[];
      expect(audit).toEqual([`implicit: turn 0 of session "s1" (user): change cue "let's do"`]);
      store.close();
    });

    it('flags a fact needs_review when the turn only hedges, with the turn as the cause', () => {
      const { store, p } = setup(openStore);
      const old = p.writeFact({ key: 'meeting', value: 'Meeting is Tuesday at 2pm' });
      const [turn] = p
        .recordTurns('s1', [
          { speaker: 'user', text: 'hello' },
          { speaker: 'user', text: 'Could we move the meeting to Thursday instead?' },
        ])
        .slice(1);
      expect(turn?.conflicts[0]).toMatchObject({ factId: old.factId, outcome: 'needs_review', newFactId: null });
      const f = p.getFact(old.factId);
      expect(f?.isValid).toBe(true);
      expect(f?.needsReview).toBe(true);
      expect(f?.reviewCauseFact).toBeNull();
      expect(f?.reviewCause).toMatch(
        /^contradicted by turn 1 of session "s1" \(user\) names "meeting" with the change cue "instead" and states a different day: Thursday instead of Tuesday; not applied because the turn asks or hedges/,
      );
      const ctx = p.assemble({ strategy: 'state_based', query: 'When is the meeting?', sessionId: 's1' });
      expect(ctx.text).toMatch(/\[NEEDS REVIEW\] meeting: Meeting is Tuesday at 2pm/);
      expect(ctx.sections.find((s) => s.name === 'facts')).toBeUndefined();
      const detail = p.factDetail(old.factId);
      expect(detail.reviewCause?.turn).toMatchObject({
        sessionId: 's1',
        turnIndex: 1,
        speaker: 'user',
        text: 'Could we move the meeting to Thursday instead?',
        cue: 'instead',
      });
      store.close();
    });

    it('changes nothing for a turn with no cue, another entity, the same value, or an outranking source', () => {
      const { store, p } = setup(openStore);
      const meeting = p.writeFact({ key: 'meeting', value: 'Meeting is Tuesday at 2pm' });
      const policy = p.writeFact({ key: 'discount_policy', value: 'Max discount is 15%', source: { type: 'policy', identity: 'CFO' } });
      const turns = p.recordTurns('s1', [
        { speaker: 'user', text: 'The meeting Thursday at 3pm was a different one' },
        { speaker: 'user', text: "Let's do the dentist Thursday at 3pm" },
        { speaker: 'user', text: "Actually let's keep the meeting Tuesday at 2pm" },
        { speaker: 'intern', text: "Actually let's make the discount 25% now" },
      ]);
      expect(turns.flatMap((t) => t.conflicts)).toEqual([]);
      expect(p.getFact(meeting.factId)).toMatchObject({ isValid: true, needsReview: false });
      expect(p.getFact(policy.factId)).toMatchObject({ isValid: true, needsReview: false });
      store.close();
    });

    it('only looks at facts established by the turn and never at another session', () => {
      const { store, p } = setup(openStore);
      const later = p.writeFact({ key: 'meeting', value: 'Meeting is Tuesday at 2pm', ts: '2030-01-01T00:00:00.000Z' });
      const other = p.writeFact({ key: 'lunch', value: 'Lunch is Monday', scope: 'session', scopeId: 's2' });
      const turns = p.recordTurns('s1', [
        { speaker: 'user', text: "Let's do the meeting Thursday at 3pm", ts: '2026-06-01T00:00:00.000Z' },
        { speaker: 'user', text: "Let's do lunch Friday instead" },
      ]);
      expect(turns.flatMap((t) => t.conflicts)).toEqual([]);
      expect(p.getFact(later.factId)?.isValid).toBe(true);
      expect(p.getFact(other.factId)?.isValid).toBe(true);
      store.close();
    });
  },
  undefined,
  { roles: ['agent'] },
);

describeStores('who may change a fact by saying so', (openStore) => {
  it("the user's turn changes the user's own words, which carry the identity's authority, but not a higher source's", () => {
    const { store, p } = setup(openStore);
    // The identity of the session the turns are recorded in (a session reads only its own).
    p.setIdentity(
      { userName: 'Ann', userId: 'u1', authority: 'Sales Manager', department: 'Sales', organization: 'Acme', permissions: [] },
      { sessionId: 's1' },
    );
    const own = p.writeFact({ key: 'meeting', value: 'Meeting is Tuesday at 2pm' });
    const cap = p.writeFact({ key: 'offsite', value: 'Offsite is Monday', source: { type: 'user', identity: 'CEO', authority: 'CEO' } });
    const [turn] = p.recordTurns('s1', [{ speaker: 'user', text: "Let's do the meeting Thursday at 3pm" }]);
    expect(turn?.conflicts).toEqual([expect.objectContaining({ factId: own.factId, outcome: 'superseded' })]);
    const [other] = p.recordTurns('s1', [{ speaker: 'user', text: "Actually, let's do the offsite Friday" }]);
    expect(other?.conflicts ?? []).toEqual([]);
    expect(p.getFact(cap.factId)?.isValid).toBe(true);
    store.close();
  });
});

describeStores('a correction that refers back to what was just said', (openStore) => {
  it('replaces the fact the previous turns quoted with the value it states', () => {
    const { store, p } = setup(openStore);
    const old = p.writeFact({ key: 'delivery_window', value: 'next Tuesday', ts: '2026-01-01T09:00:00Z' });
    p.recordTurns('s1', [
      { speaker: 'user', text: 'Deliver it next Tuesday.', ts: '2026-01-01T09:01:00Z' },
      { speaker: 'assistant', text: 'Delivery booked for next Tuesday.', ts: '2026-01-01T09:02:00Z' },
    ]);
    const [turn] = p.recordTurns('s1', [{ speaker: 'user', text: 'No wait, change that to the weekend.', ts: '2026-01-01T09:03:00Z' }]);
    expect(turn?.conflicts).toEqual([expect.objectContaining({ factId: old.factId, outcome: 'superseded', cue: 'change that to' })]);
    expect(p.currentValue('delivery_window')).toBe('weekend');
    expect(p.getFact(old.factId)).toMatchObject({ isValid: false, supersessionRule: 'implicit' });
    store.close();
  });

  it('picks the fact whose attribute it names when the previous turn quoted several', () => {
    const { store, p } = setup(openStore);
    const qty = p.writeFact({ key: 'crate_count', value: '40', ts: '2026-01-01T09:00:00Z' });
    p.writeFact({ key: 'crate_destination', value: 'Oslo depot', ts: '2026-01-01T09:00:00Z' });
    p.recordTurns('s1', [
      { speaker: 'user', text: 'Ship 40 crates to Oslo depot.', ts: '2026-01-01T09:01:00Z' },
      { speaker: 'user', text: 'Keep the destination, but change the count to 55.', ts: '2026-01-01T09:02:00Z' },
    ]);
    expect(p.currentValue('crate_count')).toBe('55');
    expect(p.getFact(qty.factId)?.isValid).toBe(false);
    expect(p.currentValue('crate_destination')).toBe('Oslo depot');
    store.close();
  });

  it('changes nothing when no earlier turn quotes a fact, or when two facts are quoted and none is named', () => {
    const { store, p } = setup(openStore);
    p.writeFact({ key: 'lunch', value: 'pizza', ts: '2026-01-01T09:00:00Z' });
    p.writeFact({ key: 'dinner', value: 'soup', ts: '2026-01-01T09:00:00Z' });
    p.recordTurns('s1', [
      { speaker: 'user', text: 'Hello there.', ts: '2026-01-01T09:01:00Z' },
      { speaker: 'user', text: 'Change that to noodles.', ts: '2026-01-01T09:02:00Z' },
      { speaker: 'user', text: 'So pizza then soup.', ts: '2026-01-01T09:03:00Z' },
      { speaker: 'user', text: 'Change that to noodles.', ts: '2026-01-01T09:04:00Z' },
    ]);
    expect(p.currentValue('lunch')).toBe('pizza');
    expect(p.currentValue('dinner')).toBe('soup');
    store.close();
  });
});

describeStores('a change stated without naming the entity', (openStore) => {
  it("supersedes the one fact holding that kind of value: the spec's address example", () => {
    const { store, p } = setup(openStore);
    const old = p.writeFact({ key: 'address', value: 'My address is 123 Main St', ts: '2026-01-01T09:00:00Z' });
    p.writeFact({ key: 'pet', value: 'I have a cat', ts: '2026-01-01T09:00:00Z' });
    const [turn] = p.recordTurns('s1', [{ speaker: 'user', text: 'I moved to 456 Oak Ave', ts: '2026-01-01T09:05:00Z' }]);
    expect(turn?.conflicts).toHaveLength(1);
    expect(turn?.conflicts[0]).toMatchObject({ factId: old.factId, outcome: 'superseded', cue: 'moved to' });
    expect(p.currentValue('address')).toBe('My address is 456 Oak Ave');
    const before = p.getFact(old.factId);
    expect(before?.isValid).toBe(false);
    expect(before?.supersessionRule).toBe('implicit');
    expect(before?.supersessionReason).toBe(
      'turn 0 of session "s1" (user) states a different address with the change cue "moved to" without naming what it changes; "address" is the only current fact in scope holding a address',
    );
    const ctx = p.assemble({ strategy: 'state_based', query: 'Where do I live?', sessionId: 's1' });
    expect(ctx.text).toContain('456 Oak Ave');
    expect(ctx.text).not.toContain('123 Main St');
    store.close();
  });

  it('changes the one fact holding a meeting time and a budget figure, leaving facts of other kinds alone', () => {
    const { store, p } = setup(openStore);
    const at = '2026-01-01T09:00:00Z';
    const sync = p.writeFact({ key: 'standup', value: 'Standup is Tuesday at 2pm', ts: at });
    const budget = p.writeFact({ key: 'q3_spend', value: 'The Q3 marketing budget is $40,000', ts: at });
    p.writeFact({ key: 'office', value: 'Office is in Berlin', ts: at });
    p.recordTurns('s1', [
      { speaker: 'user', text: "Actually, let's make it 4pm.", ts: '2026-01-01T09:01:00Z' },
      { speaker: 'user', text: 'Correction: we now have $55,000.', ts: '2026-01-01T09:02:00Z' },
    ]);
    expect(p.getFact(sync.factId)?.isValid).toBe(false);
    expect(p.currentValue('standup')).toBe('Standup is Tuesday at 4pm');
    expect(p.getFact(budget.factId)?.isValid).toBe(false);
    expect(p.currentValue('q3_spend')).toBe('The Q3 marketing budget is $55,000');
    expect(p.currentValue('office')).toBe('Office is in Berlin');
    store.close();
  });

  it('flags every fact holding the kind when several do, with the turn as the cause, and supersedes none', () => {
    const { store, p } = setup(openStore);
    const at = '2026-01-01T09:00:00Z';
    const home = p.writeFact({ key: 'home', value: 'Home is 123 Main St', ts: at });
    const office = p.writeFact({ key: 'office', value: 'Office is 9 Pine Street', ts: at });
    const [turn] = p.recordTurns('s1', [{ speaker: 'user', text: 'I moved to 456 Oak Ave', ts: '2026-01-01T09:05:00Z' }]);
    expect(turn?.conflicts.map((c) => c.outcome)).toEqual(['needs_review', 'needs_review']);
    for (const id of [home.factId, office.factId]) {
      const f = p.getFact(id);
      expect(f?.isValid).toBe(true);
      expect(f?.needsReview).toBe(true);
      expect(f?.reviewCause).toMatch(
        /^contradicted by turn 0 of session "s1" \(user\) states a different address with the change cue "moved to" without naming what it changes; "(home|office)" is one of 2 current facts in scope holding a address: 456 Oak Ave instead of/,
      );
    }
    store.close();
  });

  it('changes nothing without a change cue, for a hedge (flagged only), a restated value, or a fact the speaker may not change', () => {
    const { store, p } = setup(openStore);
    const at = '2026-01-01T09:00:00Z';
    const addr = p.writeFact({ key: 'address', value: 'My address is 123 Main St', ts: at });
    const cap = p.writeFact({ key: 'discount_cap', value: 'Max discount is 15%', ts: at, source: { type: 'policy', authority: 'policy' }, isConstraint: true });
    p.recordTurns('s1', [
      { speaker: 'user', text: 'I visited 456 Oak Ave', ts: '2026-01-01T09:01:00Z' },
      { speaker: 'user', text: 'Actually it is still 123 Main St', ts: '2026-01-01T09:02:00Z' },
      { speaker: 'user', text: "Actually, let's offer 25%", ts: '2026-01-01T09:03:00Z' },
    ]);
    expect(p.getFact(addr.factId)).toMatchObject({ isValid: true, needsReview: false });
    expect(p.getFact(cap.factId)).toMatchObject({ isValid: true, needsReview: false });
    p.recordTurns('s1', [{ speaker: 'user', text: 'Maybe we moved to 456 Oak Ave?', ts: '2026-01-01T09:04:00Z' }]);
    expect(p.getFact(addr.factId)).toMatchObject({ isValid: true, needsReview: true });
    store.close();
  });

  it('never reaches a hypothetical fact or another session’s fact', () => {
    const { store, p } = setup(openStore);
    const at = '2026-01-01T09:00:00Z';
    const other = p.writeFact({ key: 'hotel', value: 'Hotel at 5 Elm Road', ts: at, scope: 'session', scopeId: 's2' });
    const idea = p.writeFact({ key: 'flat', value: 'Flat at 7 Birch Lane', ts: at, scope: 'hypothetical', scopeId: 'h1' });
    const [turn] = p.recordTurns('s1', [{ speaker: 'user', text: 'I moved to 456 Oak Ave', ts: '2026-01-01T09:05:00Z' }]);
    expect(turn?.conflicts).toEqual([]);
    expect(p.getFact(other.factId)?.isValid).toBe(true);
    expect(p.getFact(idea.factId)?.isValid).toBe(true);
    store.close();
  });
});
