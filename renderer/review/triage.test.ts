import { describe, expect, it } from 'vitest';
import { factRange, factRowKey, groupRowKey, stepKey } from './triage';

const KEYS = [groupRowKey('c1'), factRowKey('a'), factRowKey('b'), groupRowKey(null), factRowKey('c'), factRowKey('d')];

describe('triage cursor', () => {
  it('steps through rows in screen order, clamped at both ends, starting from the first or last', () => {
    expect(stepKey(KEYS, null, 1)).toBe('g:c1');
    expect(stepKey(KEYS, null, -1)).toBe('f:d');
    expect(stepKey(KEYS, 'f:b', 1)).toBe('g:');
    expect(stepKey(KEYS, 'f:d', 1)).toBe('f:d');
    expect(stepKey(KEYS, 'g:c1', -1)).toBe('g:c1');
    expect(stepKey(KEYS, 'f:gone', 1)).toBe('g:c1');
    expect(stepKey([], 'f:a', 1)).toBeNull();
  });

  it('takes a Shift range over fact rows only, in either direction', () => {
    expect(factRange(KEYS, 'a', 'c')).toEqual(['a', 'b', 'c']);
    expect(factRange(KEYS, 'd', 'b')).toEqual(['b', 'c', 'd']);
    expect(factRange(KEYS, 'gone', 'b')).toEqual(['b']);
  });
});
