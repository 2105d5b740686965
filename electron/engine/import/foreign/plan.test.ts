import { describe, expect, it } from 'vitest';
import { checkedPartition, emptyPlan, partitionPlan, sourceTimestamp, valueProblem } from './plan';

describe('foreign import plans', () => {
  it('reads source timestamps: ISO with or without a zone (noted), SQLite spacing, epoch seconds and milliseconds', () => {
    const plan = emptyPlan('mem0', 'x');
    expect(sourceTimestamp(plan, '2026-03-01T08:00:00-05:00', 'a')).toBe('2026-03-01T13:00:00.000Z');
    expect(sourceTimestamp(plan, '2026-03-05 09:30:00', 'b')).toBe('2026-03-05T09:30:00.000Z');
    expect(sourceTimestamp(plan, 1_700_000_000, 'c')).toBe('2023-11-14T22:13:20.000Z');
    expect(sourceTimestamp(plan, 1_700_000_000_000, 'd')).toBe('2023-11-14T22:13:20.000Z');
    expect(sourceTimestamp(plan, new Date('2026-01-01T00:00:00Z'), 'e')).toBe('2026-01-01T00:00:00.000Z');
    expect(sourceTimestamp(plan, 'yesterday', 'f')).toBeUndefined();
    expect(sourceTimestamp(plan, null, 'g')).toBeUndefined();
    expect(plan.notes).toEqual([
      { where: 'b', reason: 'timestamp "2026-03-05 09:30:00" has no time zone: read as UTC' },
      { where: 'f', reason: `timestamp "yesterday" is not a date-time: the import's time is used` },
    ]);
  });

  it('names why a value cannot be a fact', () => {
    expect(valueProblem('ok')).toBeUndefined();
    expect(valueProblem({ a: 1 })).toBeUndefined();
    expect(valueProblem('  ')).toBe('the value is empty');
    expect(valueProblem({})).toBe('the value is empty');
    expect(valueProblem(null)).toBe('the value is empty');
    expect(valueProblem(Number.NaN)).toBe('the value is not a finite number');
    expect(valueProblem('z'.repeat(100_001))).toMatch(/over the limit of 100000/);
    expect(valueProblem({ a: 'z'.repeat(100_001) })).toMatch(/characters as JSON, over the limit/);
  });

  it('keeps one plan per partition and refuses names that cannot name one', () => {
    const plan = emptyPlan('letta', 'x');
    const a = partitionPlan(plan, { kind: 'user', org: 'acme', user: 'ann' });
    expect(partitionPlan(plan, { kind: 'user', org: 'acme', user: 'ann' })).toBe(a);
    expect(plan.partitions).toHaveLength(1);
    expect(checkedPartition(plan, { kind: 'user', org: 'acme', user: 'a\nb' }, 'row 3')).toBeUndefined();
    expect(plan.skipped[0]?.where).toBe('row 3');
  });
});
