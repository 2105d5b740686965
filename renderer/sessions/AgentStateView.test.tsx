import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { DiffView } from '../ui/DiffView';
import { AgentStateView } from './AgentStateView';

afterEach(cleanup);

describe('agent state', () => {
  it('groups expectations by status and shows assumptions with confidence', () => {
    render(
      <AgentStateView
        updatedAt="2025-09-01T00:00:00.000Z"
        state={{
          sessionId: 's',
          current_understanding: { entities: [{ id: 'e1', kind: 'city', name: 'Munich' }], dependencies: [] },
          assumptions: [
            { id: 'a1', hypothesis: 'low one', confidence: 0.2 },
            { id: 'a2', hypothesis: 'prefers trains', confidence: 0.9 },
          ],
          expectations: [
            { id: 'x1', action: 'search', expected_outcome: 'found', status: 'confirmed' },
            { id: 'x2', action: 'book', expected_outcome: 'booked' },
            { id: 'x3', action: 'discount', expected_outcome: 'cheaper', status: 'failed' },
          ],
          tentative_hypotheses: [{ id: 'h1', hypothesis: 'travels with a colleague' }],
          items: [
            { id: 'i1', kind: 'task', title: 'Book <b>train</b>', status: 'active', createdAt: '2025-01-01T00:00:00Z', updatedAt: '2025-01-01T00:00:00Z' },
          ],
        }}
      />,
    );
    expect(screen.getByRole('group', { name: 'confirmed expectations' }).textContent).toContain('search → found');
    expect(screen.getByRole('group', { name: 'pending expectations' }).textContent).toContain('book → booked');
    expect(screen.getByRole('group', { name: 'failed expectations' }).textContent).toContain('discount → cheaper');
    const meters = screen.getAllByRole('meter');
    expect(meters[0]?.getAttribute('aria-valuenow')).toBe('0.9');
    expect(screen.getByRole('region', { name: 'Items' }).textContent).toContain('Book <b>train</b>');
  });

  it('diffs two context document versions', () => {
    render(<DiffView before={'# Facts\n- Berlin\n# Notes'} after={'# Facts\n- Munich\n# Notes'} beforeLabel="v1" afterLabel="v2" />);
    const d = screen.getByLabelText('Differences between v1 and v2');
    expect(d.querySelector('.diff-remove')?.textContent).toContain('- Berlin');
    expect(d.querySelector('.diff-add')?.textContent).toContain('- Munich');
  });
});
