import { describe, expect, it } from 'vitest';
import { timeAgo } from './time-ago';

const NOW = Date.parse('2026-03-01T12:00:00.000Z');

describe('timeAgo', () => {
  it('says how long ago in minutes, hours and days, and falls back to the date', () => {
    expect(timeAgo('2026-03-01T11:59:50.000Z', NOW)).toBe('just now');
    expect(timeAgo('2026-03-01T11:58:00.000Z', NOW)).toBe('2 min ago');
    expect(timeAgo('2026-03-01T09:00:00.000Z', NOW)).toBe('3 h ago');
    expect(timeAgo('2026-02-28T11:00:00.000Z', NOW)).toBe('yesterday');
    expect(timeAgo('2026-02-20T12:00:00.000Z', NOW)).toBe('9 days ago');
    expect(timeAgo('2025-12-01T12:00:00.000Z', NOW)).toMatch(/^on 2025-12-01/);
    expect(timeAgo('2026-03-02T12:00:00.000Z', NOW)).toMatch(/^at 2026-03-02/);
    expect(timeAgo('garbage', NOW)).toBe('garbage');
  });
});
