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
