import { describe, expect, it } from 'vitest';
import { formatDate, formatTime, statusWord } from './format';

describe('display formats', () => {
  it('shows every time one way: UTC to the second, even on a round minute', () => {
    expect(formatTime('2025-01-06T09:00:00.000Z')).toBe('2025-01-06 09:00:00 UTC');
    expect(formatTime('2025-01-06T10:30:05+01:00')).toBe('2025-01-06 09:30:05 UTC');
    expect(formatTime(null)).toBe('—');
    expect(formatTime('not a time')).toBe('not a time');
    expect(formatDate('2025-01-06T23:30:00-02:00')).toBe('2025-01-07');
  });

  it('says "valid" for an active fact everywhere, "expired" once its validity ended', () => {
    expect(statusWord('active')).toBe('valid');
    expect(statusWord('active', false)).toBe('expired');
    expect(statusWord('superseded', false)).toBe('superseded');
  });
});
