import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mountInspector } from '../test-utils/harness';

describe('memories view on a real database', () => {
  it('lists partitions with counts and pages facts into the table', async () => {
    await mountInspector();
    const tree = await screen.findByRole('navigation', { name: 'Partitions' });
    expect(within(tree).getByRole('button', { name: /^acme \/ user ana: \d+ valid of \d+ facts, \d+ need review/ })).toBeTruthy();
    expect(within(tree).getByText('Capabilities')).toBeTruthy();
    expect(within(tree).getByText('Organisational knowledge')).toBeTruthy();
    const grid = await screen.findByRole('grid', { name: 'Memories' });
    await waitFor(() => expect(within(grid).getAllByRole('row').length).toBeGreaterThan(10));
    expect(screen.getByTestId('fact-count').textContent).toMatch(/\d+ facts/);
  });

  it('searches with highlighted matches rendered as text', async () => {
    await mountInspector();
    const search = await screen.findByRole('searchbox', { name: 'Search memories' });
    fireEvent.change(search, { target: { value: 'zebra' } });
    const grid = await screen.findByRole('grid', { name: 'Memories' });
    await waitFor(() => {
      const marks = grid.querySelectorAll('mark');
      expect(marks.length).toBeGreaterThan(0);
      for (const m of marks) expect(m.textContent?.toLowerCase()).toBe('zebra');
    });
    const rows = within(grid).getAllByRole('row').slice(1);
    for (const r of rows) expect(r.textContent?.toLowerCase()).toContain('zebra');
  });

  it('renders hostile values as text, never as markup', async () => {
    const m = await mountInspector();
    const search = await screen.findByRole('searchbox', { name: 'Search memories' });
    fireEvent.change(search, { target: { value: 'tags stay text' } });
    const grid = await screen.findByRole('grid', { name: 'Memories' });
    await waitFor(() => expect(grid.textContent).toContain('<script>'));
    expect(grid.querySelector('img')).toBeNull();
    expect(grid.querySelector('script')).toBeNull();
    expect(grid.querySelector('b')).toBeNull();
    const row = grid.querySelector(`[data-fact-id="${m.backend.seeded.hostileId}"]`) as HTMLElement;
    fireEvent.click(row);
    const panel = await screen.findByRole('complementary', { name: 'Fact detail' });
    await waitFor(() => expect(within(panel).getByLabelText('Value').textContent).toContain('onerror="window.__pwned=1"'));
    expect(panel.querySelector('img, script, b')).toBeNull();
  });

  it('sorts on the server when a column header is clicked', async () => {
    const m = await mountInspector();
    const grid = await screen.findByRole('grid', { name: 'Memories' });
    await waitFor(() => expect(within(grid).getAllByRole('row').length).toBeGreaterThan(5));
    fireEvent.click(within(grid).getByRole('button', { name: 'Sort by Key' }));
    await waitFor(() => {
      const keys = within(grid)
        .getAllByRole('row')
        .slice(1, 6)
        .map((r) => r.querySelectorAll('[role="gridcell"]')[1]?.textContent ?? '');
      expect(keys).toEqual([...keys].sort());
      expect(keys[0]?.startsWith('budget_')).toBe(true);
    });
    const header = within(grid).getByRole('button', { name: 'Sort by Key' }).closest('[role="columnheader"]');
    expect(header?.getAttribute('aria-sort')).toBe('ascending');
    expect(m.calls.filter((c) => c === 'facts.list').length).toBeGreaterThan(1);
  });

  it('filters by validity and review flag', async () => {
    const m = await mountInspector();
    const seeded = m.backend.seeded;
    const grid = await screen.findByRole('grid', { name: 'Memories' });
    await waitFor(() => expect(within(grid).getAllByRole('row').length).toBeGreaterThan(5));
    fireEvent.change(screen.getByLabelText('Needs review'), { target: { value: 'yes' } });
    await waitFor(() => {
      const rows = within(screen.getByRole('grid', { name: 'Memories' }))
        .getAllByRole('row')
        .slice(1);
      expect(rows.length).toBeGreaterThan(0);
      for (const r of rows) expect(r.textContent).toContain('needs review');
    });
    fireEvent.click(screen.getByRole('button', { name: 'Clear filters' }));
    fireEvent.change(screen.getByLabelText('Validity'), { target: { value: 'superseded' } });
    await waitFor(() => {
      const rows = within(screen.getByRole('grid', { name: 'Memories' }))
        .getAllByRole('row')
        .slice(1);
      // Only superseded versions: the three replaced home cities and the first launch date; not
      // the current head of a chain, not the lower-authority proposal beside it.
      const ids = rows.map((r) => r.getAttribute('data-fact-id'));
      expect(ids).toContain(seeded.homeCityFirst);
      expect(ids).not.toContain(seeded.homeCityHead);
      expect(ids).not.toContain(seeded.proposalId);
      const keys = rows.map((r) => r.querySelectorAll('[role="gridcell"]')[1]?.textContent).sort();
      expect(keys).toEqual(['home_city', 'home_city', 'home_city', 'release_date']);
      // Each row's status badge says superseded; none shows the valid or proposal badge.
      for (const r of rows) {
        expect(r.querySelector('.badge-superseded')?.textContent).toBe('superseded');
        expect(r.querySelector('.badge-valid, .badge-proposal')).toBeNull();
      }
    });
  });

  it('multi-selects rows, hides a column and opens the bulk delete preview', async () => {
    await mountInspector();
    const grid = await screen.findByRole('grid', { name: 'Memories' });
    await waitFor(() => expect(within(grid).getAllByRole('row').length).toBeGreaterThan(5));
    const boxes = within(grid).getAllByRole('checkbox').slice(1, 4);
    for (const b of boxes) fireEvent.click(b);
    expect(screen.getByTestId('selection-count').textContent).toBe('3 selected');
    fireEvent.click(screen.getByRole('button', { name: 'Choose columns' }));
    fireEvent.click(screen.getByRole('checkbox', { name: 'Scope' }));
    await waitFor(() => expect(within(grid).queryByRole('button', { name: 'Sort by Scope' })).toBeNull());
    fireEvent.click(screen.getByRole('button', { name: 'Delete selected…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete 3 facts' });
    await waitFor(() => expect(within(dialog).getByTestId('impact-delete-count').textContent).toBe('3 facts'));
    const confirm = within(dialog).getByTestId('confirm-delete') as HTMLButtonElement;
    expect(confirm.disabled).toBe(true);
    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    });
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('shows a refused search in place of the rows and offers nothing for deletion', async () => {
    const m = await mountInspector();
    const grid = await screen.findByRole('grid', { name: 'Memories' });
    await waitFor(() => expect(within(grid).getAllByRole('row').length).toBeGreaterThan(5));
    const search = screen.getByRole('searchbox', { name: 'Search memories' });
    const refusedThenZebra = async (garbage: string, message: RegExp) => {
      fireEvent.change(search, { target: { value: garbage } });
      const alert = await screen.findByRole('alert', {}, { timeout: 5000 });
      expect(alert.textContent).toMatch(message);
      expect(screen.queryByRole('grid', { name: 'Memories' })).toBeNull();
      expect(screen.queryByRole('button', { name: 'Delete all matching…' })).toBeNull();
      expect(screen.getByTestId('fact-count').textContent).toBe('No result');
      // A search that means something brings the table and its delete back.
      fireEvent.change(search, { target: { value: 'zebra' } });
      await waitFor(() => expect(within(screen.getByRole('grid', { name: 'Memories' })).getAllByRole('row').length).toBe(m.backend.seeded.zebraCount + 1));
      expect(screen.getByRole('button', { name: 'Delete all matching…' })).toBeTruthy();
    };
    for (const garbage of ['*', '"((', '^', '()']) await refusedThenZebra(garbage, /has no word to look for/);
    await refusedThenZebra(Array.from({ length: 40 }, (_, i) => `word${i}`).join(' '), /40 words; at most 32/);
    await refusedThenZebra('x'.repeat(200_000), /at most 500 characters/);
  });
});
