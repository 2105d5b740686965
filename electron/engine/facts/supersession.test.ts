// The supersession rules one test each (explicit cue words, implicit same-key conflict,
// authority, temporal), the as-of history a late write leaves, the order in which a named
// `supersedes` resolves, and the typed refusal of a capability level above the agent's maturity.
import { expect, it } from 'vitest';
import { StatelensError } from '../../../shared/errors';
import type { Fact } from '../../../shared/domain';
import type { PartitionHandle } from '../partition-handle';
import { describeStores } from '../../../test/helpers/stores';

const user = { kind: 'user', org: 'acme', user: 'u1' } as const;
const day = (d: number): string => `2026-01-${String(d).padStart(2, '0')}T00:00:00.000Z`;

/** The error `fn` throws (failing the test when it throws none). */
function refusal(fn: () => unknown): StatelensError {
  try {
    fn();
  } catch (e) {
    return e as StatelensError;
  }
  throw new Error('expected a refusal');
}

function valuesAsOf(p: PartitionHandle, at: string, key: string): string[] {
  return p
    .allFactsAsOf(at)
    .filter((f) => f.key === key)
    .map((f) => f.value);
}

describeStores('explicit rule: correction cue words', (openStore) => {
  it.each(['actually', 'changed', 'moved', 'correction', 'instead', 'now', 'new', 'updated'])(
    '"%s" supersedes the current fact of the key as explicit',
    (cue) => {
      const store = openStore();
      const p = store.scope(user, { create: true });
      const old = p.writeFact({ key: 'address', value: '123 Main St' });
      const r = p.writeFact({ key: 'address', value: `${cue}: 456 Oak Ave` });
      expect(r).toMatchObject({ outcome: 'superseded', rule: 'explicit', supersededId: old.factId });
      expect(p.getFact(old.factId)).toMatchObject({ isValid: false, status: 'superseded', supersededBy: r.factId, supersessionRule: 'explicit' });
      expect(p.getFact(r.factId)).toMatchObject({ isValid: true, supersedes: old.factId });
      expect(p.currentValue('address')).toBe(`${cue}: 456 Oak Ave`);
      store.close();
    },
  );

  it('a cue word inside another word is not a cue (the change is implicit)', () => {
    const store = openStore();
    const p = store.scope(user, { create: true });
    p.writeFact({ key: 'venue', value: 'Room 4' });
    expect(p.writeFact({ key: 'venue', value: 'Renewal hall, known place' }).rule).toBe('implicit');
    store.close();
  });
});

describeStores(
  'implicit rule: same key, conflicting value',
  (openStore) => {
    it('supersedes the current fact of the same key and scope, and nothing else', () => {
      const store = openStore();
      const p = store.scope(user, { create: true });
      const tue = p.writeFact({ key: 'meeting', value: 'Tuesday 2pm' });
      const other = p.writeFact({ key: 'lunch', value: 'noon' });
      const thu = p.writeFact({ key: 'meeting', value: "Let's do Thursday 3pm" });
      expect(thu).toMatchObject({ outcome: 'superseded', rule: 'implicit', supersededId: tue.factId });
      expect(p.getFact(tue.factId)?.supersessionReason).toMatch(/same key/);
      expect(p.getFact(other.factId)?.isValid).toBe(true);
      // The same value again is a duplicate, not a new version.
      expect(p.writeFact({ key: 'meeting', value: "Let's do Thursday 3pm" })).toMatchObject({ outcome: 'duplicate', factId: thu.factId });
      // Another scope is another history: a draft beside the global fact replaces nothing.
      expect(p.writeFact({ key: 'meeting', value: 'Friday 9am', scope: 'draft' }).outcome).toBe('created');
      expect(p.currentValue('meeting')).toBe("Let's do Thursday 3pm");
      expect(p.validFacts().filter((f) => f.key === 'meeting')).toHaveLength(2);
      store.close();
    });
  },
  undefined,
  { roles: ['agent'] },
);

describeStores(
  'authority rule: policy > executive > manager > employee/peer > guest',
  (openStore) => {
    const LADDER = ['guest', 'employee', 'manager', 'executive', 'policy'] as const;

    it('a higher authority supersedes a lower one, recorded as the authority rule', () => {
      for (let lo = 0; lo < LADDER.length - 1; lo++) {
        const store = openStore();
        const p = store.scope(user, { create: true });
        const low = p.writeFact({ key: 'discount', value: 'We can offer 25%', source: { type: 'user', authority: LADDER[lo] } });
        const high = p.writeFact({ key: 'discount', value: 'Max discount is 15%', source: { type: 'user', authority: LADDER[lo + 1] } });
        expect(high, `${LADDER[lo + 1]} over ${LADDER[lo]}`).toMatchObject({ outcome: 'superseded', rule: 'authority', supersededId: low.factId });
        store.close();
      }
    });

    it('a lower authority never supersedes a higher one: its write is a visible subordinate proposal', () => {
      for (let hi = 1; hi < LADDER.length; hi++) {
        for (let lo = 0; lo < hi; lo++) {
          const store = openStore();
          const p = store.scope(user, { create: true });
          const high = p.writeFact({ key: 'discount', value: 'Max discount is 15%', source: { type: 'user', authority: LADDER[hi] } });
          // Even a correction cue and a newer timestamp do not let it through.
          const low = p.writeFact({
            key: 'discount',
            value: 'actually offer 25%',
            source: { type: 'user', authority: LADDER[lo] },
            ts: '2030-01-01T00:00:00Z',
          });
          const pair = `${LADDER[lo]} under ${LADDER[hi]}`;
          expect(low, pair).toMatchObject({ outcome: 'proposal', rule: 'authority', supersededId: null });
          expect(p.getFact(high.factId), pair).toMatchObject({ isValid: true, supersededBy: null });
          const proposal = p.getFact(low.factId) as Fact;
          expect(proposal, pair).toMatchObject({ status: 'proposal', isValid: false, proposalFor: high.factId, supersessionRule: 'authority' });
          expect(proposal.supersessionReason, pair).toMatch(/subordinate proposal/);
          // Visible: kept in the store and listed with the chain of the fact it is a proposal for.
          expect(
            p.chain(high.factId).proposals.map((f) => f.id),
            pair,
          ).toEqual([low.factId]);
          expect(p.currentValue('discount'), pair).toBe('Max discount is 15%');
          expect(
            p.allFactsAsOf('2031-01-01T00:00:00Z').map((f) => f.id),
            pair,
          ).toEqual([high.factId]);
          store.close();
        }
      }
    });

    it('an intern cannot override the CFO policy; a policy source outranks without an authority', () => {
      const store = openStore();
      const p = store.scope(user, { create: true });
      p.writeFact({ key: 'policy', value: 'max 15%', source: { type: 'policy', identity: 'CFO', authority: 'executive' } });
      expect(p.writeFact({ key: 'policy', value: "Let's offer 25%", source: { type: 'user', authority: 'intern' } }).outcome).toBe('proposal');
      p.writeFact({ key: 'expenses', value: 'anything goes', source: { type: 'user', authority: 'manager' } });
      expect(p.writeFact({ key: 'expenses', value: 'receipts over $50', source: { type: 'policy' } }).rule).toBe('authority');
      expect(p.currentValue('policy')).toBe('max 15%');
      store.close();
    });
  },
  undefined,
  { roles: ['agent'] },
);

describeStores('temporal rule: on time-sensitive facts the newer timestamp wins', (openStore) => {
  it('a newer timestamp supersedes as temporal; a late write with an older one does not supersede', () => {
    const store = openStore();
    const p = store.scope(user, { create: true });
    const jan1 = p.writeFact({ key: 'stock_price', value: '$100', ts: day(1) });
    expect(p.getFact(jan1.factId)?.timeSensitive).toBe(true);
    const jan15 = p.writeFact({ key: 'stock_price', value: '$95', ts: day(15) });
    expect(jan15).toMatchObject({ outcome: 'superseded', rule: 'temporal', supersededId: jan1.factId });
    const late = p.writeFact({ key: 'stock_price', value: '$90', ts: day(10) });
    expect(late).toMatchObject({ outcome: 'stale', rule: 'temporal', supersededId: null });
    expect(p.getFact(late.factId)).toMatchObject({ isValid: false, status: 'superseded', supersededBy: jan15.factId });
    expect(p.getFact(jan15.factId)).toMatchObject({ isValid: true, supersedes: jan1.factId });
    expect(p.currentValue('stock_price')).toBe('$95');
    store.close();
  });

  it('applies to keys marked time-sensitive, and not to other keys (there arrival order wins)', () => {
    const store = openStore();
    const p = store.scope(user, { create: true });
    p.writeFact({ key: 'fx_eur', value: '1.08', ts: day(15), timeSensitive: true });
    expect(p.writeFact({ key: 'fx_eur', value: '1.02', ts: day(10) }).outcome).toBe('stale');
    p.writeFact({ key: 'office', value: 'Lisbon', ts: day(15) });
    expect(p.writeFact({ key: 'office', value: 'Porto', ts: day(10) })).toMatchObject({ outcome: 'superseded', rule: 'implicit' });
    expect(p.currentValue('office')).toBe('Porto');
    store.close();
  });
});

describeStores(
  'as-of history after a late write',
  (openStore) => {
    it('the late write holds [its ts, the next ts) and its predecessor ends at its ts', () => {
      const store = openStore();
      const p = store.scope(user, { create: true });
      const a = p.writeFact({ key: 'stock_price', value: '$100', ts: day(1) });
      const c = p.writeFact({ key: 'stock_price', value: '$95', ts: day(15) });
      const late = p.writeFact({ key: 'stock_price', value: '$90', ts: day(10) });
      expect(p.getFact(a.factId)?.validTo).toBe(day(10));
      expect(p.getFact(late.factId)?.validTo).toBe(day(15));
      expect(p.getFact(late.factId)?.supersessionReason).toMatch(/in the history from its timestamp until the next fact's/);
      expect(valuesAsOf(p, day(5), 'stock_price')).toEqual(['$100']);
      expect(valuesAsOf(p, day(10), 'stock_price')).toEqual(['$90']);
      expect(valuesAsOf(p, day(12), 'stock_price')).toEqual(['$90']);
      expect(valuesAsOf(p, day(15), 'stock_price')).toEqual(['$95']);
      expect(valuesAsOf(p, day(20), 'stock_price')).toEqual(['$95']);
      expect(p.getFact(c.factId)?.validTo).toBeNull();
      store.close();
    });

    it('a late write between two older facts splits only the window that held its ts', () => {
      const store = openStore();
      const p = store.scope(user, { create: true });
      p.writeFact({ key: 'stock_price', value: '$100', ts: day(1) });
      p.writeFact({ key: 'stock_price', value: '$105', ts: day(5) });
      p.writeFact({ key: 'stock_price', value: '$95', ts: day(15) });
      p.writeFact({ key: 'stock_price', value: '$98', ts: day(3) });
      p.writeFact({ key: 'stock_price', value: '$99', ts: day(3) }); // same instant, later write wins it
      const expected: Array<[number, string]> = [
        [2, '$100'],
        [3, '$99'],
        [4, '$99'],
        [5, '$105'],
        [14, '$105'],
        [15, '$95'],
      ];
      for (const [d, value] of expected) expect(valuesAsOf(p, day(d), 'stock_price'), `as of day ${d}`).toEqual([value]);
      store.close();
    });

    it('a late write never takes a window from a higher-authority fact', () => {
      const store = openStore();
      const p = store.scope(user, { create: true });
      p.writeFact({ key: 'stock_price', value: '$100', ts: day(1), source: { type: 'user', authority: 'employee' } });
      p.writeFact({ key: 'stock_price', value: '$95', ts: day(15), source: { type: 'user', authority: 'employee' } });
      const policy = p.writeFact({ key: 'stock_price', value: '$97 (audited)', ts: day(10), source: { type: 'policy' } });
      expect(policy.outcome).toBe('stale');
      const late = p.writeFact({ key: 'stock_price', value: '$91', ts: day(12), source: { type: 'user', authority: 'employee' } });
      expect(late.outcome).toBe('stale');
      expect(p.getFact(late.factId)?.validTo).toBe(day(12));
      expect(p.getFact(late.factId)?.supersessionReason).toMatch(/outranks it/);
      expect(valuesAsOf(p, day(12), 'stock_price')).toEqual(['$97 (audited)']);
      expect(valuesAsOf(p, day(5), 'stock_price')).toEqual(['$100']);
      store.close();
    });

    it('an older-timestamped write that wins by arrival holds the key from its ts on', () => {
      const store = openStore();
      const p = store.scope(user, { create: true });
      p.writeFact({ key: 'office', value: 'Lisbon', ts: day(1) });
      p.writeFact({ key: 'office', value: 'Madrid', ts: day(8) });
      p.writeFact({ key: 'office', value: 'Porto', ts: day(15) });
      p.writeFact({ key: 'office', value: 'Faro', ts: day(10) });
      expect(valuesAsOf(p, day(5), 'office')).toEqual(['Lisbon']);
      expect(valuesAsOf(p, day(9), 'office')).toEqual(['Madrid']);
      expect(valuesAsOf(p, day(12), 'office')).toEqual(['Faro']);
      expect(valuesAsOf(p, day(20), 'office')).toEqual(['Faro']);
      expect(p.currentValue('office')).toBe('Faro');
      store.close();
    });

    it('batched writes leave the same history as one write at a time', () => {
      const writes = [
        { key: 'stock_price', value: '$100', ts: day(1) },
        { key: 'stock_price', value: '$105', ts: day(5) },
        { key: 'stock_price', value: '$95', ts: day(15) },
        { key: 'stock_price', value: '$98', ts: day(3) },
        { key: 'office', value: 'Lisbon', ts: day(1) },
        { key: 'office', value: 'Porto', ts: day(15) },
        { key: 'office', value: 'Faro', ts: day(10) },
      ];
      const history = (p: PartitionHandle): Array<[string, string, string | null]> => p.allFacts().map((f) => [f.value, f.ts, f.validTo]);
      const one = openStore();
      const p1 = one.scope(user, { create: true });
      for (const w of writes) p1.writeFact(w);
      const many = openStore();
      const p2 = many.scope(user, { create: true });
      p2.writeFacts(writes);
      expect(history(p2)).toEqual(history(p1));
      one.close();
      many.close();
    });
  },
  undefined,
  { roles: ['agent'] },
);

describeStores('factsAsOf pages', (openStore) => {
  it('pages through the whole state with a keyset cursor, equal timestamps included, and says when it is done', () => {
    const store = openStore();
    const p = store.scope(user, { create: true });
    p.writeFacts(Array.from({ length: 25 }, (_, i) => ({ key: `k${i}`, value: `v${i}`, ts: day(1 + (i % 3)) })));
    const seen: string[] = [];
    let after: string | null = null;
    let pages = 0;
    do {
      const page = p.factsAsOf(day(20), { limit: 4, after });
      expect(page.facts.length).toBeLessThanOrEqual(4);
      seen.push(...page.facts.map((f) => f.key));
      after = page.next;
      pages++;
    } while (after !== null);
    expect(pages).toBe(7);
    expect(new Set(seen).size).toBe(25);
    expect(seen).toEqual(p.allFactsAsOf(day(20)).map((f) => f.key));
    expect(p.factsAsOf(day(20), { limit: 25 }).next).toBeNull();
    expect(p.factsAsOf(day(20), { limit: 24 }).next).not.toBeNull();
    expect(refusal(() => p.factsAsOf(day(20), { after: 'not-a-cursor!' })).code).toBe('INVALID_INPUT');
    expect(refusal(() => p.factsAsOf(day(20), { limit: 0 })).code).toBe('INVALID_INPUT');
    store.close();
  });
});

describeStores('supersedes resolution order: id, then source label, then key', (openStore) => {
  it('a reference that is one fact id, another fact label and a third fact key resolves as the id', () => {
    const store = openStore();
    const p = store.scope(user, { create: true });
    const byId = p.writeFact({ key: 'status', value: 'approved' });
    const ref = byId.factId;
    const byLabel = p.writeFact({ label: ref, key: 'owner', value: 'Ann' });
    const byKey = p.writeFact({ key: ref, value: 'a fact keyed like an id' });
    const r = p.writeFact({ key: 'status_v2', value: 'cancelled', supersedes: ref });
    expect(r.supersededId).toBe(byId.factId);
    expect(p.getFact(byId.factId)?.supersessionReason).toMatch(/resolved by id/);
    expect(p.getFact(byLabel.factId)?.isValid).toBe(true);
    expect(p.getFact(byKey.factId)?.isValid).toBe(true);
    store.close();
  });

  it('a reference that is one fact label and another fact key resolves as the label', () => {
    const store = openStore();
    const p = store.scope(user, { create: true });
    const byKey = p.writeFact({ key: 'F-1', value: 'keyed F-1' });
    const byLabel = p.writeFact({ label: 'F-1', key: 'budget', value: '$200k' });
    const r = p.writeFact({ key: 'budget', value: '$120k', supersedes: 'F-1' });
    expect(r.supersededId).toBe(byLabel.factId);
    expect(p.getFact(byLabel.factId)?.supersessionReason).toMatch(/resolved by label/);
    expect(p.getFact(byKey.factId)?.isValid).toBe(true);
    store.close();
  });

  it('a reference that is only a key resolves as the key; one that is nothing stays unresolved', () => {
    const store = openStore();
    const p = store.scope(user, { create: true });
    const owner = p.writeFact({ key: 'owner', value: 'Ann' });
    const r = p.writeFact({ key: 'owner_new', value: 'Bob', supersedes: 'owner' });
    expect(r.supersededId).toBe(owner.factId);
    expect(p.getFact(owner.factId)?.supersessionReason).toMatch(/resolved by key/);
    const none = p.writeFact({ key: 'x', value: 'y', supersedes: 'nothing-by-that-name' });
    expect(none).toMatchObject({ outcome: 'created', supersededId: null, unresolvedSupersedes: 'nothing-by-that-name' });
    store.close();
  });

  it('resolves only inside the partition: another partition id, label or key is not found', () => {
    const store = openStore();
    const mine = store.scope(user, { create: true });
    const theirs = store.scope({ kind: 'user', org: 'acme', user: 'u2' }, { create: true });
    const foreign = theirs.writeFact({ label: 'L-9', key: 'secret', value: 'theirs' });
    for (const ref of [foreign.factId, 'L-9', 'secret']) {
      expect(mine.writeFact({ key: `k-${ref}`, value: 'mine', supersedes: ref }).unresolvedSupersedes).toBe(ref);
    }
    expect(theirs.getFact(foreign.factId)?.isValid).toBe(true);
    store.close();
  });
});

describeStores(
  'capability levels gated by maturity',
  (openStore) => {
    const billing = { kind: 'capability', org: 'acme', capability: 'billing' } as const;

    it('a level above the agent is refused with the typed LEVEL_NOT_ALLOWED error and writes nothing', () => {
      const store = openStore();
      const junior = store.scope(billing, { create: true });
      for (const level of ['heuristic', 'strategy'] as const) {
        const e = refusal(() => junior.writeFact({ key: 'h', value: 'retry', level }));
        expect(e).toBeInstanceOf(StatelensError);
        expect(e.code).toBe('LEVEL_NOT_ALLOWED');
        expect(e.details).toEqual({ maturity: 'junior', level });
        expect(e.toShape().code).toBe('LEVEL_NOT_ALLOWED');
      }
      expect(junior.allFacts()).toEqual([]);
      expect(junior.writeFact({ key: 'e', value: 'saw a timeout' }).outcome).toBe('created');
      expect(junior.allFacts()[0]?.level).toBe('event');

      store.setMaturity(junior.id, 'senior', { actor: 'admin' });
      const senior = store.scope(billing);
      expect(senior.writeFact({ key: 'h', value: 'retry', level: 'heuristic' }).outcome).toBe('created');
      expect(refusal(() => senior.writeFact({ key: 's', value: 'batch at night', level: 'strategy' })).code).toBe('LEVEL_NOT_ALLOWED');

      store.setMaturity(junior.id, 'master', { actor: 'admin' });
      const master = store.scope(billing);
      for (const level of ['event', 'heuristic', 'strategy'] as const)
        expect(master.writeFact({ key: `m-${level}`, value: level, level }).outcome).toBe('created');
      store.close();
    });

    it('a level outside capability memory is refused as INVALID_INPUT', () => {
      const store = openStore();
      const p = store.scope(user, { create: true });
      expect(refusal(() => p.writeFact({ key: 'h', value: 'x', level: 'event' })).code).toBe('INVALID_INPUT');
      store.close();
    });
  },
  undefined,
  { roles: ['admin'] },
);

describeStores('same entity under another key', (openStore) => {
  it('address_v1 then address_v2: the move supersedes, with the rule and the evidence recorded', () => {
    const store = openStore();
    const p = store.scope(user, { create: true });
    const v1 = p.writeFact({ key: 'address_v1', value: 'My address is 123 Main St' });
    const v2 = p.writeFact({ key: 'address_v2', value: 'I moved to 456 Oak Ave' });
    expect(v2).toMatchObject({ outcome: 'superseded', rule: 'explicit', supersededId: v1.factId });
    expect(p.getFact(v1.factId)).toMatchObject({ isValid: false, supersededBy: v2.factId, supersessionRule: 'explicit' });
    expect(p.getFact(v1.factId)?.supersessionReason).toBe(
      'correction cue "moved" in the new value; same entity "address" (key-version: key address_v2 is a version of address_v1)',
    );
    expect(p.validFacts().map((f) => f.value)).toEqual(['I moved to 456 Oak Ave']);
    store.close();
  });

  it('meeting_time then meeting_day for one meeting: implicit, by entity and conflicting day', () => {
    const store = openStore();
    const p = store.scope(user, { create: true });
    const loc = p.writeFact({ key: 'meeting_location', value: 'Room 4' });
    const time = p.writeFact({ key: 'meeting_time', value: 'Meeting is Tuesday at 2pm' });
    const day = p.writeFact({ key: 'meeting_day', value: 'Thursday' });
    expect(day).toMatchObject({ outcome: 'superseded', rule: 'implicit', supersededId: time.factId });
    expect(day.reason).toMatch(/same entity "meeting" \(key-entity: .*conflicting weekday tuesday → thursday\)/);
    expect(p.getFact(loc.factId)?.isValid).toBe(true);
    store.close();
  });

  it('the entity named in a value under a generic key', () => {
    const store = openStore();
    const p = store.scope(user, { create: true });
    const meeting = p.writeFact({ key: 'meeting', value: 'Meeting is Tuesday at 2pm' });
    const r = p.writeFact({ key: 'update', value: "Let's do the meeting Thursday at 3pm" });
    expect(r).toMatchObject({ outcome: 'superseded', supersededId: meeting.factId });
    expect(r.reason).toMatch(/value-entity: the value names "meeting"/);
    store.close();
  });

  it('an explicit entity on the write', () => {
    const store = openStore();
    const p = store.scope(user, { create: true });
    const a = p.writeFact({ key: 'offsite_venue', value: 'Hotel Aurora', entity: 'Q3 offsite' });
    const other = p.writeFact({ key: 'offsite_venue_2026', value: 'Hotel Aurora' });
    const b = p.writeFact({ key: 'where_we_meet_location', value: 'Lake House', entity: 'q3-offsite' });
    expect(b).toMatchObject({ outcome: 'superseded', supersededId: a.factId });
    expect(b.reason).toMatch(/explicit-entity/);
    expect(p.getFact(other.factId)?.isValid).toBe(true);
    const row = store.db.prepare('SELECT entity, entity_key FROM facts WHERE id = ?').get(b.factId);
    expect(row).toEqual({ entity: 'q3-offsite', entity_key: 'q3 offsite' });
    store.close();
  });

  it('no false positives: unrelated keys, numbered siblings, other scopes, other attributes all stay valid', () => {
    const store = openStore();
    const p = store.scope(user, { create: true });
    const writes = [
      { key: 'fact_1', value: 'Revenue shows $0 for yesterday' },
      { key: 'fact_2', value: 'Revenue is $1,000 now' },
      { key: 'address_line_1', value: '1 Main St' },
      { key: 'address_line_2', value: 'Flat 2' },
      { key: 'meeting_location', value: 'Room 4' },
      { key: 'lunch_time', value: 'Tuesday at 1pm' },
      { key: 'meeting_time', value: 'Thursday at 2pm' },
      { key: 'budget_q1', value: '$50k' },
      { key: 'budget_q2', value: '$60k' },
      { key: 'note', value: 'The meeting on Friday at 9am went well' },
      { key: 'meeting_time_v2', value: 'what if we did Monday at 9am', scope: 'hypothetical' as const },
    ];
    for (const w of writes) expect(p.writeFact(w).outcome, w.key).toBe('created');
    expect(p.validFacts().map((f) => f.key)).toEqual(writes.map((w) => w.key));
    store.close();
  });

  it('a batch sees the entities of rows it still holds, like one write at a time', () => {
    const store = openStore();
    const p = store.scope(user, { create: true });
    const [v1, v2] = p.writeFacts([
      { key: 'address_v1', value: '123 Main St' },
      { key: 'address_v2', value: 'now 456 Oak Ave' },
    ]);
    expect(v2).toMatchObject({ outcome: 'superseded', supersededId: v1?.factId });
    store.close();
  });
});

describeStores('authority from the writer and the role table', (openStore) => {
  it("the user's own words carry the identity's authority: an intern cannot override the CFO policy", () => {
    const store = openStore();
    const p = store.scope(user, { create: true });
    p.setIdentity({ userName: 'Ian', userId: 'u1', authority: 'intern', department: 'Sales', organization: 'Acme', permissions: [] });
    const policy = p.writeFact({ key: 'policy', value: 'max 15%', source: { type: 'policy', identity: 'CFO' } });
    const offer = p.writeFact({ key: 'policy', value: "Let's offer 25%" });
    expect(offer).toMatchObject({ outcome: 'proposal', rule: 'authority', authority: { role: 'intern', recognised: true, origin: 'identity' } });
    expect(offer.reason).toBe(
      'intern (intern, from the session identity) may not override policy (policy: source type policy); kept as a subordinate proposal',
    );
    expect(p.getFact(offer.factId)?.source.authority).toBe('intern');
    expect(p.currentValue('policy')).toBe('max 15%');
    expect(p.getFact(policy.factId)?.isValid).toBe(true);
    // Another speaker's words, or a system's, do not take the user's authority.
    expect(p.writeFact({ key: 'k', value: 'x', source: { type: 'user', identity: 'Bob' } }).authority).toMatchObject({ role: 'peer', origin: 'none' });
    expect(p.writeFact({ key: 'k2', value: 'x', source: { type: 'system' } }).authority.origin).toBe('none');
    store.close();
  });

  it('ranks titles by role words: VP above manager, Head of International Sales a director, not-a-ceo and policyholder peers', () => {
    const cases: Array<[string, string, 'superseded' | 'proposal']> = [
      ['Sales Manager', 'VP Sales', 'superseded'],
      ['VP Sales', 'Sales Manager', 'proposal'],
      ['employee', 'Head of International Sales', 'superseded'],
      ['Head of International Sales', 'employee', 'proposal'],
      ['employee', 'not-a-ceo', 'superseded'],
      ['manager', 'not-a-ceo', 'proposal'],
      ['manager', 'policyholder', 'proposal'],
    ];
    for (const [first, second, outcome] of cases) {
      const store = openStore();
      const p = store.scope(user, { create: true });
      p.writeFact({ key: 'discount', value: 'at most 20%', source: { type: 'user', authority: first } });
      const r = p.writeFact({ key: 'discount', value: 'at most 10%', source: { type: 'user', authority: second } });
      expect(r.outcome, `${second} after ${first}`).toBe(outcome);
      store.close();
    }
    const store = openStore();
    const p = store.scope(user, { create: true });
    expect(p.writeFact({ key: 'x', value: '1', source: { type: 'user', authority: 'not-a-ceo' } }).authority).toEqual({
      role: 'peer',
      recognised: false,
      by: null,
      origin: 'source',
    });
    p.writeFact({ key: 'y', value: '1', source: { type: 'user', authority: 'employee' } });
    expect(p.writeFact({ key: 'y', value: '2', source: { type: 'user', authority: 'People Ops' } }).reason).toBe('same key with a conflicting value');
    store.close();
  });
});
