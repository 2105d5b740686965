import { describe, expect, it } from 'vitest';
import { formatDate, formatTime, inputTextToIso, isoToInputText, statusWord } from './format';

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

describe('date-time input text', () => {
  it('writes and reads the app 24-hour format, UTC', () => {
    expect(isoToInputText('2025-02-01T09:05:00.000Z')).toBe('2025-02-01 09:05');
    expect(isoToInputText('2025-02-01T09:05:07.000Z')).toBe('2025-02-01 09:05:07');
    expect(isoToInputText(null)).toBe('');
    expect(inputTextToIso('2025-02-01 09:05')).toBe('2025-02-01T09:05:00.000Z');
    expect(inputTextToIso('2025-02-01T09:05')).toBe('2025-02-01T09:05:00.000Z');
    expect(inputTextToIso('2025-02-01 21:05:07 UTC')).toBe('2025-02-01T21:05:07.000Z');
    expect(inputTextToIso('2025-02-01')).toBe('2025-02-01T00:00:00.000Z');
    for (const bad of ['', '2025-02-30 10:00', '2025-02-01 24:00', '01/02/2025 9:05 PM', '2025-02-01 9:5']) expect(inputTextToIso(bad), bad).toBeUndefined();
  });
});
