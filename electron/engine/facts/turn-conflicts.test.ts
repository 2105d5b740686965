import { describe, expect, it } from 'vitest';
import {
  backReference,
  contrastWithCurrent,
  detectTurnConflicts,
  detectUnnamedChange,
  entityOf,
  extractValues,
  mayChangeFacts,
  namedThing,
} from './turn-conflicts';

const meeting = { id: 'f1', key: 'meeting', value: 'Meeting is Tuesday at 2pm' };

describe('extractValues', () => {
  it('recognises days, times, dates, amounts, percentages, addresses, places and counts', () => {
    const kinds = (t: string) => extractValues(t).map((m) => `${m.kind}=${m.norm}`);
    expect(kinds('Meeting is Tuesday at 2pm')).toEqual(['day=tuesday', 'time=14:00']);
    expect(kinds('Thursday at 3:30 p.m.')).toEqual(['day=thursday', 'time=15:30']);
    expect(kinds('due March 5th, or 2026-04-01')).toEqual(['date=03-05', 'date=04-01']);
    expect(kinds('budget of $1,200k and a 15% discount')).toEqual(['money=1200000', 'percent=15']);
    expect(kinds('My address is 123 Main St')).toEqual(['address=123 main st']);
    expect(kinds('The offsite is in Berlin with Dana Lee')).toEqual(['place=berlin', 'name=dana lee']);
    expect(kinds('We have 5 engineers')).toEqual(['quantity:engineer=5']);
  });
});

describe('entityOf', () => {
  it('takes the content words of the key, without attribute and version words', () => {
    expect([...entityOf({ key: 'meeting_time_v2', value: 'x' }).values()]).toEqual(['meeting']);
    expect([...entityOf({ key: 'clientMeetingDay', value: 'x' }).values()]).toEqual(['client', 'meeting']);
  });
  it('falls back to the words of the value outside its typed values', () => {
    expect([...entityOf({ key: 'time', value: 'Meeting is Tuesday at 2pm' }).values()]).toEqual(['meeting']);
  });
});

describe('detectTurnConflicts', () => {
  it("supersedes the spec's example: same entity, different day and time, a change cue", () => {
    const [c, ...rest] = detectTurnConflicts("Let's do the meeting Thursday at 3pm", [meeting]);
    expect(rest).toEqual([]);
    expect(c).toMatchObject({ factId: 'f1', cue: "let's do", entity: 'meeting', confident: true, doubt: null, replacement: 'Meeting is Thursday at 3pm' });
    expect(c?.changes).toEqual([
      { kind: 'day', from: 'Tuesday', to: 'Thursday' },
      { kind: 'time', from: '2pm', to: '3pm' },
    ]);
  });

  it('detects other cues and kinds: amounts, addresses, counts', () => {
    const budget = { id: 'b', key: 'project_budget', value: 'The project budget is $200,000' };
    expect(detectTurnConflicts('Actually the budget is $150,000 now', [budget])[0]).toMatchObject({
      confident: true,
      cue: 'actually',
      replacement: 'The project budget is $150,000',
    });
    const address = { id: 'a', key: 'address_v1', value: 'My address is 123 Main St' };
    expect(detectTurnConflicts('I moved to 456 Oak Ave, new address', [address])[0]).toMatchObject({
      confident: true,
      replacement: 'My address is 456 Oak Ave',
    });
    const team = { id: 't', key: 'team_size', value: 'The team has 5 engineers' };
    expect(detectTurnConflicts('The team is now 7 engineers', [team])[0]).toMatchObject({ confident: true, replacement: 'The team has 7 engineers' });
  });

  it('finds nothing without a change cue', () => {
    expect(detectTurnConflicts('The meeting Thursday at 3pm went well', [meeting])).toEqual([]);
  });

  it('finds nothing when the turn does not name the entity', () => {
    expect(detectTurnConflicts("Let's do the dentist appointment Thursday at 3pm", [meeting])).toEqual([]);
  });

  it('finds nothing when the values are the same', () => {
    expect(detectTurnConflicts("Actually, let's keep the meeting Tuesday at 2pm", [meeting])).toEqual([]);
    expect(detectTurnConflicts('Actually the meeting is at 2 p.m. on Tuesday', [meeting])).toEqual([]);
  });

  it('finds nothing when the turn states no value of the same kind', () => {
    expect(detectTurnConflicts("Actually let's do the meeting in Room 4", [meeting])).toEqual([]);
  });

  it('finds nothing in an imagined state', () => {
    expect(detectTurnConflicts('What if we moved the meeting to Thursday at 3pm instead?', [meeting])).toEqual([]);
  });

  it('is not confident when the turn asks or hedges: the fact is flagged for review', () => {
    const [c] = detectTurnConflicts('Could we move the meeting to Thursday instead?', [meeting]);
    expect(c).toMatchObject({ factId: 'f1', confident: false, replacement: null });
    expect(c?.doubt).toMatch(/asks or hedges/);
  });

  it('is not confident when a kind has several values or facts match equally', () => {
    expect(detectTurnConflicts("Let's do the meeting Thursday or Friday", [meeting])[0]).toMatchObject({ confident: false });
    const other = { id: 'f2', key: 'meeting_day', value: 'The meeting is Monday in Room 4' };
    const both = detectTurnConflicts("Let's do the meeting Thursday", [meeting, other]);
    expect(both.map((c) => [c.factId, c.confident])).toEqual([
      ['f1', false],
      ['f2', false],
    ]);
  });

  it('prefers the fact whose entity the turn names best', () => {
    const client = { id: 'c', key: 'client_meeting', value: 'Client meeting is Monday' };
    const team = { id: 't', key: 'team_meeting', value: 'Team meeting is Friday' };
    const out = detectTurnConflicts("Let's move the client meeting to Wednesday", [client, team]);
    expect(out.find((c) => c.factId === 'c')).toMatchObject({ confident: true, replacement: 'Client meeting is Wednesday' });
    expect(out.find((c) => c.factId === 't')).toMatchObject({ confident: false });
  });

  it('flags a denial of a named fact for review, with no replacement', () => {
    const [c] = detectTurnConflicts('The meeting is cancelled', [meeting]);
    expect(c).toMatchObject({ factId: 'f1', cue: 'cancelled', confident: false, changes: [] });
  });
});

describe('mayChangeFacts', () => {
  it('is true only for a turn with a change or denial cue that is not an imagined state', () => {
    expect(mayChangeFacts("Let's do Thursday")).toBe(true);
    expect(mayChangeFacts('The meeting is cancelled')).toBe(true);
    expect(mayChangeFacts('Thanks, see you Tuesday')).toBe(false);
    expect(mayChangeFacts('What if we moved it to Thursday instead')).toBe(false);
  });
});

describe('contrastWithCurrent', () => {
  const launch = { key: 'launch_date', value: 'Monday May 4th' };
  it('finds a turn that names the entity and recounts the current value beside replaced ones', () => {
    expect(contrastWithCurrent('The launch was first Wednesday, then we moved it, and Monday May 4th is final.', launch)).toMatchObject({
      kind: 'day',
      current: 'Monday',
      others: 'Wednesday',
    });
  });
  it('counts a turn that quotes the whole value as naming the fact', () => {
    expect(contrastWithCurrent('Recap: Tuesday was floated, but Monday May 4th it is.', launch)).toMatchObject({ others: 'Tuesday' });
  });
  it('leaves alone a turn stating only the current value, only another value, or another entity', () => {
    expect(contrastWithCurrent('The launch is Monday May 4th.', launch)).toBeNull();
    expect(contrastWithCurrent("Let's move the launch to Friday.", launch)).toBeNull();
    expect(contrastWithCurrent('The offsite is Friday, not Monday.', launch)).toBeNull();
  });
});

describe('backReference', () => {
  it('reads the new value of a correction that points back at what was just said', () => {
    expect(backReference('No wait, change that to Friday the 9th.')).toEqual({ cue: 'change that to', value: 'Friday the 9th', names: null });
    expect(backReference('Make that $12,500.')).toEqual({ cue: 'make that', value: '$12,500', names: null });
    expect(backReference('Keep the colour, but change the size to XL.')).toEqual({ cue: 'change the size to', value: 'XL', names: 'size' });
    expect(backReference("Actually, let's go back to the blue theme.")).toMatchObject({ value: 'blue theme', names: null });
  });
  it('reads nothing from a question, a hedge, an imagined state or a plain statement', () => {
    expect(backReference('Could we change that to Friday?')).toBeNull();
    expect(backReference('What if we change that to Friday')).toBeNull();
    expect(backReference('The theme is blue.')).toBeNull();
  });
});

describe('detectUnnamedChange', () => {
  const address = { id: 'a', key: 'address', value: 'My address is 123 Main St' };
  const standup = { id: 's', key: 'standup', value: 'Standup is Tuesday at 2pm' };
  it('changes the one fact holding the kind of value the turn states', () => {
    const [c, ...rest] = detectUnnamedChange('I moved to 456 Oak Ave', [address, standup]);
    expect(rest).toEqual([]);
    expect(c).toMatchObject({ factId: 'a', cue: 'moved to', confident: true, replacement: 'My address is 456 Oak Ave' });
    expect(c?.byValueKind).toEqual({ kinds: ['address'], holders: 1 });
  });
  it('prefers the fact holding every kind the turn states, and doubts a tie', () => {
    const deadline = { id: 'd', key: 'deadline', value: 'Report due Friday' };
    expect(detectUnnamedChange("Actually, let's do Thursday at 4pm", [standup, deadline]).map((c) => [c.factId, c.confident])).toEqual([['s', true]]);
    const both = detectUnnamedChange("Actually, let's do Thursday", [standup, deadline]);
    expect(both.map((c) => [c.factId, c.confident])).toEqual([
      ['s', false],
      ['d', false],
    ]);
    expect(both[0]?.doubt).toMatch(/does not name what it changes and 2 current facts hold a day/);
  });
  it('changes nothing without a cue, for an imagined state, a restatement, or a turn that names another thing', () => {
    expect(detectUnnamedChange('I visited 456 Oak Ave', [address])).toEqual([]);
    expect(detectUnnamedChange('What if I moved to 456 Oak Ave', [address])).toEqual([]);
    expect(detectUnnamedChange('Actually it is 123 Main St', [address])).toEqual([]);
    expect(detectUnnamedChange("Let's do the dentist Thursday at 3pm", [standup])).toEqual([]);
    expect(namedThing("Let's do the dentist Thursday")).toBe('dentist');
    expect(namedThing("Actually, let's make the new time 4pm")).toBeNull();
  });
});
