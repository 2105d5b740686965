import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mountInspector } from '../test-utils/harness';

const key = (k: string, opts: Partial<{ shiftKey: boolean }> = {}) => fireEvent.keyDown(document.activeElement ?? document.body, { key: k, ...opts });

describe('review queue grouped by cause', () => {
  it('groups the flags by the change that raised them and clears a group with one action, undoable', async () => {
    const m = await mountInspector({ initial: (s) => ({ partitionId: s.mainPartition, view: 'review' }) });
    const view = await screen.findByRole('region', { name: 'Review queue' });
    await waitFor(() => expect(within(view).getByTestId('review-total').textContent).toBe('3 facts need review'));
    const groups = within(view).getByRole('list', { name: 'Causes' });
    await waitFor(() => expect(groups.querySelectorAll('.review-group')).toHaveLength(2));
    const first = groups.querySelector('.review-group') as HTMLElement;
    expect(first.textContent).toMatch(/^2 facts rest on home_city.*, superseded by home_city/);
    expect(first.textContent).not.toMatch(/f_[0-9a-z]{6,}/);
    // A small group shows its facts at once; they fold away and come back.
    expect(await within(first).findByRole('listitem', { name: 'Review commute_plan' })).toBeTruthy();
    fireEvent.click(within(first).getByRole('button', { name: 'Hide the 2' }));
    await waitFor(() => expect(within(first).queryByRole('listitem', { name: 'Review commute_plan' })).toBeNull());
    fireEvent.click(within(first).getByRole('button', { name: 'Show 2 facts' }));
    expect(await within(first).findByRole('listitem', { name: 'Review weekend_trips' })).toBeTruthy();
    fireEvent.click(within(first).getByTestId('dismiss-group'));
    await waitFor(() => expect(within(view).getByTestId('review-total').textContent).toBe('1 fact need review'));
    expect(await screen.findByText(/Dismissed 2 flags resting on home_city/)).toBeTruthy();
    const audit = await m.transport.call('audit.list', { partitionId: m.backend.seeded.mainPartition, limit: 1 });
    expect(audit.entries[0]).toMatchObject({ action: 'dismiss_review', targetIds: expect.arrayContaining([m.backend.seeded.flaggedId]) as unknown });
    fireEvent.click(screen.getByRole('button', { name: 'Undo' }));
    await waitFor(() => expect(within(view).getByTestId('review-total').textContent).toBe('3 facts need review'));
  });

  it('triages from the keyboard: j/k move, → shows a group, x selects, Shift+↓ extends, Escape clears, d dismisses', async () => {
    await mountInspector({ initial: (s) => ({ partitionId: s.mainPartition, view: 'review' }) });
    const view = await screen.findByRole('region', { name: 'Review queue' });
    await waitFor(() => expect(view.querySelectorAll('.review-group')).toHaveLength(2));
    key('j');
    await waitFor(() => expect(document.activeElement?.getAttribute('data-triage-row')).toMatch(/^g:/));
    key('ArrowLeft');
    await waitFor(() => expect(within(view).queryByRole('listitem', { name: 'Review commute_plan' })).toBeNull());
    key('ArrowRight');
    await within(view).findByRole('listitem', { name: 'Review commute_plan' });
    key('j');
    await waitFor(() => expect(document.activeElement?.getAttribute('aria-label')).toMatch(/^Review /));
    key('x');
    await waitFor(() => expect(within(view).getByTestId('review-selected').textContent).toBe('1 fact selected'));
    key('ArrowDown', { shiftKey: true });
    await waitFor(() => expect(within(view).getByTestId('review-selected').textContent).toBe('2 facts selected'));
    key('Escape');
    await waitFor(() => expect(within(view).queryByTestId('review-selected')).toBeNull());
    key('k');
    key('k');
    await waitFor(() => expect(document.activeElement?.getAttribute('data-triage-row')).toMatch(/^g:/));
    key('d');
    await waitFor(() => expect(within(view).getByTestId('review-total').textContent).toBe('1 fact need review'));
  });

  it('selects a Shift-click range and dismisses the selection in the flat list', async () => {
    await mountInspector({ initial: (s) => ({ partitionId: s.mainPartition, view: 'review' }) });
    const view = await screen.findByRole('region', { name: 'Review queue' });
    fireEvent.click(within(view).getByRole('button', { name: 'Flat list' }));
    const boxes = await within(view).findAllByRole('checkbox', { name: /^Select / });
    expect(boxes).toHaveLength(3);
    fireEvent.click(boxes[0]!);
    fireEvent.click(boxes[2]!, { shiftKey: true });
    await waitFor(() => expect(within(view).getByTestId('review-selected').textContent).toBe('3 facts selected'));
    fireEvent.click(within(view).getByRole('button', { name: 'Dismiss 3 selected' }));
    expect(await within(view).findByText('Nothing needs review')).toBeTruthy();
  });
});
