import { describe, expect, it } from 'vitest';
import { keyTailStart, middleEllipsis } from './key-text';

describe('keyTailStart', () => {
  it('keeps the last two dotted segments as the tail', () => {
    const key = 'org.department.finance.head_corrected';
    expect(key.slice(keyTailStart(key))).toBe('finance.head_corrected');
    expect('a.b'.slice(keyTailStart('a.b'))).toBe('b');
    expect(keyTailStart('plain')).toBe(0);
    expect(keyTailStart('trailing.')).toBe(0);
  });
});

describe('middleEllipsis', () => {
  it('leaves a key that fits alone', () => {
    expect(middleEllipsis('user.name', 20)).toBe('user.name');
  });

  it('cuts in the middle so two keys that share a beginning stay apart', () => {
    const a = middleEllipsis('org.department.finance.head_corrected', 30);
    const b = middleEllipsis('org.department.finance.head', 22);
    expect(a).toBe('org.dep…finance.head_corrected');
    expect(a.endsWith('finance.head_corrected')).toBe(true);
    expect(a.startsWith('org.')).toBe(true);
    expect(a).toHaveLength(30);
    expect(b.endsWith('finance.head')).toBe(true);
    expect(a).not.toBe(b);
  });

  it('keeps part of a tail that is too long and never exceeds the room', () => {
    for (let max = 0; max < 40; max++) {
      const s = middleEllipsis('workspace.projects.alpha.a_really_long_segment_name', max);
      expect(s.length).toBeLessThanOrEqual(Math.max(0, max));
      if (max >= 2) expect(s).toContain('…');
    }
    expect(middleEllipsis('abcdefghijklmnopqrstuvwxyz', 10)).toBe('abcd…vwxyz');
  });
});
