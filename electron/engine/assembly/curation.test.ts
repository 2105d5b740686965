// Dead values in a context: when a turn restating a superseded value still counts against it.
import { describe, expect, it } from 'vitest';
import { DeadValues, restatesAgainst, type DeadSource } from './curation';

const dead: DeadSource = {
  id: 'f1',
  key: 'instruction_a',
  value: '[VP] Vince (VP HR): Manager Mia can approve PTO up to 2 weeks',
  valid_to: '2026-01-01T11:02:00.000Z',
  successor_value: '[VP] Vince (VP HR): All PTO over 3 days now requires VP approval',
};
const values = () => new DeadValues([dead], () => false);
const repeat = 'Vince (VP HR): Manager Mia can approve PTO up to 2 weeks';
const after = '2026-01-01T11:07:00.000Z';

describe('restatesAgainst', () => {
  it('holds every word of the value the other lacks, and half its words', () => {
    expect(restatesAgainst('Vince (VP HR): All PTO over 3 days now requires VP approval', dead.successor_value as string, dead.value)).toBe(true);
    expect(restatesAgainst('PTO over 3 days', dead.successor_value as string, dead.value)).toBe(false);
    expect(restatesAgainst(repeat, dead.successor_value as string, dead.value)).toBe(false);
    // Nothing tells the value apart from the other: no restatement of one against the other.
    expect(restatesAgainst('same words', 'same words', 'same words')).toBe(false);
  });
});

describe('DeadValues.find with the last word', () => {
  it('a turn repeating a dead value before it died counts against it, whatever was said later', () => {
    expect(values().find(repeat, { at: '2026-01-01T11:00:00.000Z' })?.how).toBe('restates');
  });

  it('repeated after it died, it is newer evidence, unless the replacement was said again later still', () => {
    expect(values().find(repeat, { at: after })).toBeUndefined();
    expect(values().find(repeat, { at: after, reaffirmed: () => false })).toBeUndefined();
    const asked: Array<[string, string, string]> = [];
    const hit = values().find(repeat, {
      at: after,
      reaffirmed: (value, was, at) => {
        asked.push([value, was, at]);
        return true;
      },
    });
    expect(hit).toMatchObject({ how: 'restates', fact: { id: 'f1' } });
    expect(asked[0]).toEqual([dead.successor_value, dead.value, after]);
  });

  it('the same for a verbatim quote, with the replacement asked of the store when not known', () => {
    const unknown: DeadSource = { id: dead.id, key: dead.key, value: dead.value, valid_to: dead.valid_to };
    const d = new DeadValues(
      [unknown],
      () => false,
      (ids) => new Map(ids.map((id) => [id, dead.successor_value as string])),
    );
    expect(d.find(`Reminder: ${dead.value}`, { at: after })).toBeUndefined();
    expect(d.find(`Reminder: ${dead.value}`, { at: after, reaffirmed: (v) => v === dead.successor_value })?.how).toBe('quotes');
  });
});

const overruled: DeadSource = {
  id: 'p1',
  key: 'instruction_b',
  value: '[CONTRACTOR] Carl (Consulting Architect): MongoDB would be better for this use case, use that instead',
  valid_to: null,
  successor_value: '[DIRECTOR] Diana (Engineering Director): Use PostgreSQL for all new services',
};
const current = overruled.successor_value as string;

describe('restatement reads a value without the labels opening it', () => {
  it('a turn repeating a labelled value restates it; the label is no word anyone says', () => {
    const d = new DeadValues([overruled], () => false);
    const hit = d.find('Carl (Consulting Architect): MongoDB would be better for this use case, use that instead', { at: '2026-01-01T11:12:00.000Z' });
    expect(hit).toMatchObject({ how: 'restates', fact: { id: 'p1' } });
    expect(restatesAgainst('Diana (Engineering Director): Use PostgreSQL for all new services', current, overruled.value)).toBe(true);
  });
});

describe('DeadValues.recounts', () => {
  const eva: DeadSource = {
    id: 'f2',
    key: 'instruction_a',
    value: '[INDIVIDUAL] Eva (Senior Engineer): The feature will take 3 weeks to build properly',
    valid_to: '2026-01-01T09:02:00.000Z',
    successor_value: '[VP] Victor (VP Engineering): Ship the feature by Friday, scope down if needed',
  };
  const summary = 'Engineer Eva estimated 3 weeks for a feature. VP Victor directed the team to ship by Friday with reduced scope.';
  const live = (v: string) => v === eva.successor_value || v === current;

  it('finds a turn naming a dead value beside the value that replaced it', () => {
    expect(new DeadValues([eva], live).recounts(summary, '2026-01-01T09:02:00.000Z')).toMatchObject({ how: 'recounts', fact: { id: 'f2' } });
    const both = 'Engineering Director Diana mandated PostgreSQL for new services. Contractor Carl recommends MongoDB for a new project.';
    expect(new DeadValues([overruled], live).recounts(both)?.fact.id).toBe('p1');
  });

  it('not: said before the value died, naming only one side, or when the replacement is no longer current', () => {
    expect(new DeadValues([eva], live).recounts(summary, '2026-01-01T09:01:00.000Z')).toBeUndefined();
    expect(new DeadValues([eva], live).recounts('VP Victor directed the team to ship by Friday with reduced scope.')).toBeUndefined();
    expect(new DeadValues([eva], live).recounts('Eva estimated 3 weeks for the feature.')).toBeUndefined();
    expect(new DeadValues([eva], () => false).recounts(summary)).toBeUndefined();
  });

  it('withoutRecounted keeps the sentences about the current value and withholds the others', () => {
    const d = new DeadValues([eva], live);
    const hit = d.recounts(summary);
    expect(hit).toBeDefined();
    expect(d.withoutRecounted(summary, hit as NonNullable<typeof hit>)).toBe(
      '[superseded value withheld] VP Victor directed the team to ship by Friday with reduced scope.',
    );
    expect(d.withoutRecounted('Eva said 3 weeks, to build it properly, though Victor wants Friday.', hit as NonNullable<typeof hit>)).toBeNull();
  });
});
