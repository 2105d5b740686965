import { describe, expect, it } from 'vitest';
import { componentsLine, componentsTooltip, formatScore } from './score';

describe('score components as text', () => {
  it('reads compactly beside an item', () => {
    expect(
      componentsLine([
        { name: 'relevance', value: 0.6213 },
        { name: 'recency', value: 0.3 },
        { name: 'importance', value: 8 },
      ]),
    ).toBe('rel 0.62 · rec 0.30 · imp 8.00');
    expect(
      componentsLine([
        { name: 'relevance', value: 12.34 },
        { name: 'constraint', value: 1.5 },
      ]),
    ).toBe('rel 12.3 · ×1.50 con');
    expect(componentsLine([{ name: 'coverage', value: 0.456 }])).toBe('cov 46%');
  });

  it('never prints exponents or rounds a tiny score to zero', () => {
    expect(formatScore(0.00009)).toBe('0.00009');
    expect(formatScore(3e-8)).toBe('0.00000003');
    expect(formatScore(0)).toBe('0.00');
    expect(formatScore(1234.5)).toBe('1235');
  });

  it('spells each part out in the tooltip, and says when a strategy ranks by position', () => {
    expect(componentsTooltip(2.5, [{ name: 'importance', value: 5 }])).toBe("score 2.50\nimportance 5.000: the fact's stored importance");
    expect(componentsTooltip(0, [])).toBe('score 0.00: this strategy ranks by position alone');
  });
});
