import { describe, expect, it } from 'vitest';
import { cardText, readableReason, related, versionName } from './readable';
import { diffWords } from './value-diff';

describe('readableReason', () => {
  it('says each authority once and writes times as the app does', () => {
    expect(readableReason('executive (executive) outranks employee (employee)')).toBe('executive outranks employee');
    expect(readableReason('cfo (executive) outranks employee (employee)')).toBe('cfo (executive) outranks employee');
    expect(readableReason('newer timestamp on a time-sensitive key (2026-01-11T08:08:00.000Z after 2026-01-08T08:07:00.000Z)')).toBe(
      'newer timestamp on a time-sensitive key (2026-01-11 08:08:00 UTC after 2026-01-08 08:07:00 UTC)',
    );
  });
});

describe('related', () => {
  it('tells a small edit from a value replaced by an unrelated one', () => {
    expect(related(diffWords('Fleet receives 30% of the budget', 'Fleet receives 40% of the budget'))).toBe(true);
    expect(related(diffWords('Lyon', 'The meeting moved to Thursday afternoon'))).toBe(false);
    expect(related(diffWords('Travel budget is $4,000 per trip', 'Travel spend must not exceed $2,500 per trip'))).toBe(false);
  });
});

describe('cardText', () => {
  it('shows a short value whole and a long related one by what it added', () => {
    expect(cardText('Lyon', diffWords('Paris', 'Lyon'), 60)).toBe('Lyon');
    const before = 'The quarterly fleet allocation for the Atlas programme is 30 percent of the approved budget';
    const after = 'The quarterly fleet allocation for the Atlas programme is 40 percent of the approved budget';
    expect(cardText(after, diffWords(before, after), 40)).toBe('…is 40 percent…');
    const unrelated = 'A completely different sentence that shares nothing at all with the other one here';
    expect(cardText(unrelated, diffWords(before, unrelated), 40)).toBe(unrelated);
    expect(cardText(after, null, 40)).toBe(after);
  });
});

describe('versionName', () => {
  it('names a version by value and speaker', () => {
    expect(versionName({ value: 'Lyon', source: { type: 'user', identity: 'ana', authority: null, turnIndex: null, eventIndex: null } } as never)).toBe(
      '“Lyon” (ana)',
    );
  });
});
