// Same-entity evidence, one rule per test, with the near misses each rule must refuse.
import { describe, expect, it } from 'vitest';
import { changeCue, entityKey, keyEntity, keyStem, lookupEntities, sameEntity, slotConflict } from './entity';

const fact = (key: string, value: string, entity: string | null = null) => ({ key, value, entity });

describe('key stems and entities', () => {
  it('drop version markers, separators and case', () => {
    for (const key of ['address_v1', 'address_v2', 'Address-New', 'addressUpdated', 'address.old', 'ADDRESS_corrected', 'address latest']) {
      expect(keyStem(key).join('_'), key).toBe('address');
    }
    expect(keyStem('fact_2').join('_')).toBe('fact_2');
    expect(keyStem('v2').join('_')).toBe('v2');
  });

  it('split a key into the entity and its attribute', () => {
    expect(keyEntity('meeting_time')).toEqual({ head: 'meeting', attribute: 'time', family: 'when' });
    expect(keyEntity('teamMeetingDay_v2')).toEqual({ head: 'team meeting', attribute: 'day', family: 'when' });
    expect(keyEntity('vendor')).toEqual({ head: 'vendor', attribute: null, family: null });
    expect(entityKey('address_2', null)).toBe('address');
    expect(entityKey('account.A-17.owner', null)).toBe('account a 17');
    expect(entityKey('kickoff_time', 'Project-Atlas Kickoff')).toBe('project atlas kickoff');
  });

  it('finds typed slot conflicts', () => {
    expect(slotConflict('Tuesday at 2pm', 'Thursday at 3pm')).toBe('weekday tuesday → thursday');
    expect(slotConflict('Max 15%', 'max 25%')).toBe('percent 15 → 25');
    expect(slotConflict('$200k', '$200,000')).toBeNull();
    expect(slotConflict('Tuesday at 2pm', 'Tuesday at 14:00')).toBeNull();
    expect(slotConflict('Room 4', 'Room 5')).toBeNull();
  });
});

describe('sameEntity', () => {
  it('key versions: address_v1 and address_v2 (and address / address_2)', () => {
    expect(sameEntity(fact('address_v1', 'My address is 123 Main St'), fact('address_v2', 'I moved to 456 Oak Ave'))).toEqual({
      kind: 'key-version',
      entity: 'address',
      detail: 'key address_v2 is a version of address_v1',
    });
    expect(sameEntity(fact('address', 'a'), fact('address_2', 'b'))?.kind).toBe('key-version');
    expect(sameEntity(fact('budget', 'a'), fact('budget_corrected', 'b'))?.kind).toBe('key-version');
  });

  it('not key versions: numbered siblings, other words, a longer key', () => {
    expect(sameEntity(fact('fact_1', 'Revenue $0'), fact('fact_2', 'Revenue $10'))).toBeNull();
    expect(sameEntity(fact('address_line_1', '1 Main St'), fact('address_line_2', 'Flat 2'))).toBeNull();
    expect(sameEntity(fact('software', 'v1'), fact('software_update', 'v2'))).toBeNull();
    expect(sameEntity(fact('corporate_card_limit', '$5k'), fact('card_limit', '$6k'))).toBeNull();
  });

  it('one entity from the keys, attributes of one family, conflicting values: meeting_time and meeting_day', () => {
    const e = sameEntity(fact('meeting_time', 'Tuesday at 2pm'), fact('meeting_day', 'Thursday'));
    expect(e).toEqual({
      kind: 'key-entity',
      entity: 'meeting',
      detail: 'keys meeting_time and meeting_day name the entity "meeting"; conflicting weekday tuesday → thursday',
    });
  });

  it('not one entity: different attributes, different entities, or no conflicting value', () => {
    expect(sameEntity(fact('meeting_location', 'Room 4'), fact('meeting_time', 'Tuesday at 2pm'))).toBeNull();
    expect(sameEntity(fact('lunch_time', 'Tuesday at 1pm'), fact('meeting_time', 'Thursday at 2pm'))).toBeNull();
    expect(sameEntity(fact('meeting_time', 'Tuesday at 2pm'), fact('meeting_day', 'Tuesday'))).toBeNull();
    expect(sameEntity(fact('meeting_date', 'March 3'), fact('meeting_time', '2pm'))).toBeNull();
    expect(sameEntity(fact('budget_q1', '$50k'), fact('budget_q2', '$60k'))).toBeNull();
  });

  it('an explicit entity on the write: same attribute family suffices; another family does not', () => {
    expect(sameEntity(fact('offsite_venue', 'Hotel Aurora', 'Q3 offsite'), fact('offsite_location', 'Lake House', 'q3-offsite'))?.kind).toBe('explicit-entity');
    expect(sameEntity(fact('kickoff_time', 'Tuesday 2pm', 'Atlas kickoff'), fact('atlas_start', 'Thursday at 3pm', 'atlas kickoff'))?.detail).toMatch(
      /weekday tuesday → thursday/,
    );
    expect(sameEntity(fact('kickoff_room', 'Room 4', 'Atlas kickoff'), fact('kickoff_time', 'Tuesday 2pm', 'Atlas kickoff'))).toBeNull();
    // Two different named entities are different, even under versions of one key.
    expect(sameEntity(fact('address_v1', '1 Main St', 'home'), fact('address_v2', '9 Elm St', 'office'))).toBeNull();
  });

  it('the entity named in a value under a generic key, with a change cue and a conflicting value', () => {
    const e = sameEntity(fact('meeting', 'Meeting is Tuesday at 2pm'), fact('update', "Let's do the meeting Thursday at 3pm"));
    expect(e?.kind).toBe('value-entity');
    expect(e?.detail).toBe('the value names "meeting" with the change cue "Let\'s do"; conflicting weekday tuesday → thursday');
    // No change cue, a key of its own, or no conflict: not the same entity.
    expect(sameEntity(fact('meeting', 'Tuesday at 2pm'), fact('note', 'The meeting Thursday at 3pm went well'))).toBeNull();
    expect(sameEntity(fact('meeting_time', 'Tuesday at 2pm'), fact('lunch_time', 'Lunch is now after the meeting, Thursday at 1pm'))).toBeNull();
    expect(sameEntity(fact('meeting', 'Tuesday at 2pm'), fact('update', 'Actually the meeting agenda changed'))).toBeNull();
  });

  it('a lettered series: instruction_a and instruction_b are entries of one series, filed under it', () => {
    expect(sameEntity(fact('instruction_a', 'Use PostgreSQL'), fact('instruction_b', 'Use MongoDB instead'))).toEqual({
      kind: 'key-series',
      entity: 'instruction',
      detail: 'keys instruction_a and instruction_b are entries of the series "instruction"',
    });
    expect(sameEntity(fact('Approval-A', 'x'), fact('approvalB', 'y'))?.kind).toBe('key-series');
    expect(entityKey('instruction_b', null)).toBe('instruction');
    // A letter after a different stem, a numbered sibling, a bare letter or a word: not a series.
    expect(sameEntity(fact('instruction_a', 'x'), fact('directive_b', 'y'))).toBeNull();
    expect(sameEntity(fact('instruction_a', 'x'), fact('instruction_2', 'y'))).toBeNull();
    expect(sameEntity(fact('a', 'x'), fact('b', 'y'))).toBeNull();
    expect(sameEntity(fact('instruction_a', 'x'), fact('instruction_ab', 'y'))).toBeNull();
  });

  it('calling something off is a change cue', () => {
    expect(changeCue('Project Phoenix is cancelled due to budget constraints')).toBe('cancelled');
    expect(changeCue('The offsite was called off')).toBe('called off');
    expect(changeCue('The launch went ahead')).toBeNull();
  });

  it('lookupEntities: the write’s own entity and, for a generic key with a change cue, its value’s words', () => {
    expect(lookupEntities(fact('address_v2', 'I moved'))).toEqual(['address']);
    expect(lookupEntities(fact('update', "Let's do the meeting Thursday"))).toContain('meeting');
    expect(lookupEntities(fact('update', 'The meeting went well'))).toEqual(['update']);
  });
});
