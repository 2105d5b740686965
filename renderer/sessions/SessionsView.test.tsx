import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mountInspector } from '../test-utils/harness';

describe('sessions on a real database', () => {
  it("shows the session's agent state and diffs its context-document versions", async () => {
    await mountInspector({ initial: (s) => ({ partitionId: s.mainPartition, view: 'sessions' }) });
    // The working items: the turn, who said it, and the task note.
    fireEvent.click(await screen.findByRole('tab', { name: 'Working items' }));
    const items = await screen.findByRole('table', { name: 'Working items of sess-1' });
    await waitFor(() => expect(within(items).getAllByRole('row')).toHaveLength(3));
    expect(items.textContent).toContain('User: can you book my train to Munich?');
    expect(items.textContent).toContain('Booking travel within the Q3 budget');
    expect(within(items).getAllByRole('row')[1]?.textContent).toMatch(/^1user/);
    fireEvent.click(screen.getByRole('tab', { name: 'Agent state' }));
    const state = await screen.findByTestId('agent-state');
    expect(within(state).getByRole('group', { name: 'failed expectations' }).textContent).toContain('apply discount');
    expect(within(state).getByRole('region', { name: 'Assumptions' }).textContent).toContain('Ana prefers trains over flights');
    fireEvent.click(screen.getByRole('tab', { name: 'Context documents' }));
    const diff = await screen.findByLabelText('Differences between v2 and v3');
    await waitFor(() => expect([...diff.querySelectorAll('.diff-add')].map((d) => d.textContent).join('\n')).toContain('Train booked'));
    fireEvent.change(screen.getByLabelText('Compare from'), { target: { value: '1' } });
    await waitFor(() => expect(screen.getByLabelText('Differences between v1 and v3').textContent).toContain('Berlin'));
  });

  it('says there is nothing to show for a partition without sessions', async () => {
    await mountInspector({ initial: (s) => ({ partitionId: s.graphPartition, view: 'sessions' }) });
    await screen.findByText('No sessions');
  });
});
