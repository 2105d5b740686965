import { describe, expect, it } from 'vitest';
import { timeTicks } from './ticks';

const t = (iso: string) => Date.parse(iso);

describe('timeTicks', () => {
  it('puts month starts on a history of months', () => {
    // The seeded history: 2025-01-05 to 2025-09-01.
    const ticks = timeTicks(t('2025-01-05T09:00:00.000Z'), t('2025-09-01T09:00:00.000Z'), 8);
    expect(ticks.map((x) => x.label)).toEqual(['2025-02', '2025-03', '2025-04', '2025-05', '2025-06', '2025-07', '2025-08', '2025-09']);
    expect(ticks[0]?.at).toBe(t('2025-02-01T00:00:00.000Z'));
  });

  it('takes a coarser step rather than crowd the scale', () => {
    const ticks = timeTicks(t('2024-06-15T09:00:00.000Z'), t('2025-09-01T09:00:00.000Z'), 6);
    expect(ticks.map((x) => x.label)).toEqual(['2024-07', '2024-10', '2025-01', '2025-04', '2025-07']);
    expect(timeTicks(t('2001-03-01T00:00:00.000Z'), t('2026-01-01T00:00:00.000Z'), 6).map((x) => x.label)).toEqual(['2005', '2010', '2015', '2020', '2025']);
  });

  it('labels days, and hours with their day when the range crosses midnight', () => {
    expect(timeTicks(t('2025-03-01T10:00:00.000Z'), t('2025-03-05T10:00:00.000Z'), 5).map((x) => x.label)).toEqual([
      '2025-03-02',
      '2025-03-03',
      '2025-03-04',
      '2025-03-05',
    ]);
    expect(timeTicks(t('2025-03-01T10:10:00.000Z'), t('2025-03-01T11:00:00.000Z'), 4).map((x) => x.label)).toEqual(['10:15', '10:30', '10:45', '11:00']);
    expect(timeTicks(t('2025-03-01T20:00:00.000Z'), t('2025-03-02T08:00:00.000Z'), 5).map((x) => x.label)).toEqual([
      '03-01 21:00',
      '03-02 00:00',
      '03-02 03:00',
      '03-02 06:00',
    ]);
  });

  it('gives nothing for an empty or unknown range', () => {
    expect(timeTicks(5, 5)).toEqual([]);
    expect(timeTicks(Number.NaN, 5)).toEqual([]);
  });
});
