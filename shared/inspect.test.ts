// The inspector's row shapes are cut from the Fact schema, not written again: a field they share
// with Fact is Fact's own schema, so a change to Fact reaches every list that shows it.
import { describe, expect, it } from 'vitest';
import { Fact } from './domain';
import { FactBrief, FactRowView } from './inspect';

describe('row shapes derived from Fact', () => {
  for (const [name, schema, own] of [
    ['FactRowView', FactRowView, ['value', 'source']],
    ['FactBrief', FactBrief, []],
  ] as const) {
    it(`${name} takes every field it shares with Fact from Fact`, () => {
      const shared = Object.keys(schema.shape).filter((k) => k in Fact.shape && !(own as readonly string[]).includes(k));
      expect(shared.length).toBeGreaterThan(5);
      for (const k of shared) expect(schema.shape[k as keyof typeof schema.shape], k).toBe(Fact.shape[k as keyof typeof Fact.shape]);
    });
  }

  it('FactRowView stays strict: a valid row parses, the same row with an unknown field does not', () => {
    const row = {
      id: 'f_1',
      label: null,
      key: 'k',
      value: 'v',
      valueOffset: 0,
      valueLength: 1,
      valueClippedStart: false,
      valueClippedEnd: false,
      source: { type: 'user', identity: null, authority: null },
      ts: '2026-01-01',
      createdAt: '2026-01-01',
      lastAccessedAt: null,
      accessCount: 0,
      importance: 0.5,
      memoryType: 'user',
      level: null,
      scope: 'global',
      scopeId: null,
      status: 'active',
      isValid: true,
      supersededBy: null,
      supersedes: null,
      supersessionRule: null,
      proposalFor: null,
      needsReview: false,
      isConstraint: false,
      constraintType: null,
      match: null,
    };
    expect(FactRowView.safeParse(row).success).toBe(true);
    expect(FactRowView.safeParse({ ...row, extra: 1 }).success).toBe(false);
    expect(FactRowView.safeParse({ ...row, source: { ...row.source, turnIndex: 1 } }).success).toBe(false);
  });
});
