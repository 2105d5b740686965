import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { assembly } from '../test-utils/fixtures';
import { AssemblyPanel } from './AssemblyPanel';
import { exclusionSentence, factShareOf } from './explain';

afterEach(cleanup);

const withParts = () => {
  const a = assembly('state_based', [{ id: 'f1', label: 'home_city', text: 'Ana is based in Munich' }], [{ id: 'f4', label: 'trivia', reason: 'budget' }]);
  const included = a.provenance[0];
  if (included?.status === 'included') {
    included.components = [
      { name: 'relevance', value: 0.6 },
      { name: 'recency', value: 0.3 },
      { name: 'importance', value: 0.8 },
      { name: 'constraint', value: 1.5 },
    ];
  }
  const excluded = a.provenance[1];
  if (excluded?.status === 'excluded') excluded.detail = "the facts' share (70%) was full";
  return {
    ...a,
    budget: 1000,
    sections: [
      { name: 'identity', title: 'Identity', tokens: 60, span: [0, 0] as [number, number] },
      { name: 'environment', title: 'Environment', tokens: 40, span: [0, 0] as [number, number] },
      ...a.sections,
    ],
  };
};

describe('explanations of an assembly', () => {
  it('explains each score part in words, marks the facts share on the budget bar and says why an item was left out', () => {
    render(<AssemblyPanel result={withParts()} />);
    const legend = screen.getByRole('region', { name: 'What the score parts mean' });
    for (const term of ['Importance', 'Recency', 'Relevance', 'Constraint boost']) expect(legend.textContent).toContain(term);
    expect(legend.textContent).not.toContain('Coverage');
    expect(screen.getByTestId('fact-share').textContent).toContain('Facts may use 70% of what identity and environment leave: up to token 730 of 1,000');
    expect(document.querySelector('.budget-mark')?.getAttribute('style')).toContain('left: 73%');
    expect(screen.getByRole('region', { name: 'Excluded by state_based' }).textContent).toContain(
      "Left out for lack of room: the facts' share (70%) was full.",
    );
  });

  it('puts every reason in one sentence, without the ids a detail quotes', () => {
    expect(exclusionSentence({ reason: 'budget' })).toBe('Left out for lack of room: the budget was full.');
    expect(exclusionSentence({ reason: 'superseded', detail: 'states $200k beside the current $90k of "budget" (f_abc123xyz)' })).toBe(
      'Left out because it states $200k beside the current $90k of "budget".',
    );
    expect(exclusionSentence({ reason: 'permission', detail: 'needs one of: finance' })).toBe(
      'Left out because this identity may not see it: needs one of: finance.',
    );
    expect(exclusionSentence({ reason: 'not_relevant' })).toBe('Left out as not relevant to the query.');
    expect(factShareOf({ ...withParts(), strategy: 'recent' })).toBeNull();
  });
});
