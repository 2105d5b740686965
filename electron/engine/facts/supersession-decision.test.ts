// The supersession decision as a pure function: current facts and a write in, a decision with
// its rule and evidence out. No database.
import { describe, expect, it } from 'vitest';
import { recogniseAuthority } from './authority';
import { decideSupersession, type CurrentFact, type DecisionInput } from './supersession-decision';

let n = 0;
function current(key: string, value: string, over: Partial<CurrentFact> = {}): CurrentFact {
  return { id: `f${++n}`, key, value, ts: '2026-01-01T00:00:00Z', source_type: 'user', source_authority: null, time_sensitive: 0, entity: null, ...over };
}

function write(key: string, value: string, over: Partial<DecisionInput> & { authorityText?: string | null } = {}): DecisionInput {
  const authorityText = over.authorityText ?? null;
  const sourceType = over.sourceType ?? 'user';
  return {
    key,
    value,
    ts: '2026-01-02T00:00:00Z',
    sourceType,
    authorityText,
    authority: recogniseAuthority(authorityText, sourceType),
    timeSensitive: false,
    entity: null,
    ...over,
  };
}

describe('decideSupersession', () => {
  it('creates when nothing current is about the same key or entity', () => {
    expect(decideSupersession(write('vendor', 'Globex'), undefined, [current('venue', 'Hall B')])).toEqual({ kind: 'create' });
  });

  it('is a duplicate for an equal value', () => {
    const old = current('vendor', 'Globex');
    expect(decideSupersession(write('vendor', 'Globex'), old)).toEqual({ kind: 'duplicate', fact: old });
  });

  it('supersedes a same-entity fact under another key, naming rule and evidence', () => {
    const old = current('address_v1', 'My address is 123 Main St');
    const d = decideSupersession(write('address_v2', 'I moved to 456 Oak Ave'), undefined, [old]);
    expect(d).toMatchObject({ kind: 'supersede', fact: old, rule: 'explicit', evidence: { kind: 'key-version', entity: 'address' } });
    expect(d.kind === 'supersede' && d.reason).toBe(
      'correction cue "moved" in the new value; same entity "address" (key-version: key address_v2 is a version of address_v1)',
    );
  });

  it('implicit: same entity, conflicting values, no cue', () => {
    const old = current('meeting_time', 'Tuesday at 2pm');
    const d = decideSupersession(write('meeting_day', 'Thursday'), undefined, [current('meeting_location', 'Room 4'), old]);
    expect(d).toMatchObject({ kind: 'supersede', fact: old, rule: 'implicit' });
    expect(d.kind === 'supersede' && d.reason).toMatch(/^same entity with a conflicting value; same entity "meeting" \(key-entity/);
  });

  it('the same key decides before any related fact', () => {
    const sameKey = current('meeting_day', 'Monday');
    expect(decideSupersession(write('meeting_day', 'Thursday'), sameKey, [current('meeting_time', 'Tuesday at 2pm')])).toMatchObject({
      kind: 'supersede',
      fact: sameKey,
      evidence: null,
    });
  });

  it('authority: a lower role makes a proposal, a higher one supersedes, each named with its role', () => {
    const policy = current('policy', 'max 15%', { source_type: 'policy', source_authority: 'CFO' });
    const intern = write('policy', "Let's offer 25%", { authorityText: 'intern', authority: recogniseAuthority('intern', 'user', 'identity') });
    const d = decideSupersession(intern, policy);
    expect(d).toMatchObject({ kind: 'proposal', rule: 'authority' });
    expect(d.kind === 'proposal' && d.reason).toBe(
      'intern (intern, from the session identity) may not override CFO (executive: cfo); kept as a subordinate proposal',
    );
    const vp = decideSupersession(write('discount', '10%', { authorityText: 'VP Sales' }), current('discount', '20%', { source_authority: 'Sales Manager' }));
    expect(vp.kind === 'supersede' && vp.reason).toBe('VP Sales (executive: vp) outranks Sales Manager (manager)');
    const peer = decideSupersession(write('discount', '10%', { authorityText: 'not-a-ceo' }), current('discount', '20%', { source_authority: 'employee' }));
    expect(peer).toMatchObject({ kind: 'supersede', rule: 'implicit' });
  });

  it('a lettered series: the higher authority decides; between equals only a change cue replaces', () => {
    const director = current('instruction_a', 'Use PostgreSQL for all new services', { source_authority: 'manager' });
    const contractor = write('instruction_b', 'MongoDB would be better, use that instead', { authorityText: 'contractor' });
    expect(decideSupersession(contractor, undefined, [director])).toMatchObject({ kind: 'proposal', rule: 'authority', fact: director });
    const engineer = current('instruction_a', 'The feature will take 3 weeks', { source_authority: 'peer' });
    const vp = write('instruction_b', 'Ship the feature by Friday', { authorityText: 'executive' });
    expect(decideSupersession(vp, undefined, [engineer])).toMatchObject({ kind: 'supersede', rule: 'authority', fact: engineer });
    // Equals: two directors disagreeing both stand; one saying it changes or calls off the earlier replaces it.
    const product = current('instruction_a', 'Prioritize the mobile app launch', { source_authority: 'manager' });
    expect(decideSupersession(write('instruction_b', 'Prioritize technical debt reduction', { authorityText: 'manager' }), undefined, [product])).toEqual({
      kind: 'create',
    });
    const pto = current('instruction_a', 'Manager Mia can approve PTO up to 2 weeks', { source_authority: 'executive' });
    expect(
      decideSupersession(write('instruction_b', 'All PTO over 3 days now requires VP approval', { authorityText: 'executive' }), undefined, [pto]),
    ).toMatchObject({
      kind: 'supersede',
      rule: 'explicit',
    });
    const launch = current('instruction_a', 'Approved: launch Project Phoenix in Q1', { source_authority: 'executive' });
    expect(decideSupersession(write('instruction_b', 'Project Phoenix is cancelled', { authorityText: 'executive' }), undefined, [launch])).toMatchObject({
      kind: 'supersede',
      rule: 'implicit',
    });
  });

  it('temporal: an older timestamp on a time-sensitive fact is stale; a newer one supersedes', () => {
    const price = current('stock_price', '$100', { time_sensitive: 1, ts: '2026-01-15T00:00:00Z' });
    expect(decideSupersession(write('stock_price', '$95', { ts: '2026-01-01T00:00:00Z' }), price)).toMatchObject({ kind: 'stale', rule: 'temporal' });
    expect(decideSupersession(write('stock_price', '$95', { ts: '2026-01-16T00:00:00Z' }), price)).toMatchObject({ kind: 'supersede', rule: 'temporal' });
  });
});
