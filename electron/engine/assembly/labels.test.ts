// Inline labels: what a text says once the labels opening it are set aside.
import { describe, expect, it } from 'vitest';
import { withoutLabels } from './labels';

describe('withoutLabels', () => {
  it('drops the bracketed labels that open a text, and only those', () => {
    expect(withoutLabels('[VP] Vince (VP HR): All PTO over 3 days now requires VP approval')).toBe(
      'Vince (VP HR): All PTO over 3 days now requires VP approval',
    );
    expect(withoutLabels('  [DRAFT] [SCOPE: task-1] Launch in Q1')).toBe('Launch in Q1');
    expect(withoutLabels('Launch [maybe] in Q1')).toBe('Launch [maybe] in Q1');
    expect(withoutLabels('No label')).toBe('No label');
  });
});
