import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mountInspector } from '../test-utils/harness';

describe('context preview on a real database', () => {
  it('assembles a saved query with two strategies side by side and diffs them', async () => {
    await mountInspector({ initial: (s) => ({ partitionId: s.mainPartition, view: 'context' }) });
    const saved = await screen.findByLabelText(/^Saved queries \(3\)/);
    const option = within(saved as HTMLSelectElement).getByRole('option', { name: /Where does Ana live\?/ }) as HTMLOptionElement;
    fireEvent.change(saved, { target: { value: option.value } });
    expect((screen.getByLabelText('Query') as HTMLTextAreaElement).value).toBe('Where does Ana live now?');
    expect((screen.getByLabelText('As of (UTC)') as HTMLInputElement).value).toMatch(/^2025-09-08 \d\d:\d\d/);
    fireEvent.click(screen.getByRole('button', { name: 'Compare 2 strategies' }));
    const stateBased = await screen.findByRole('article', { name: 'Context assembled by state_based' });
    await screen.findByRole('article', { name: 'Context assembled by balanced' });
    expect(within(stateBased).getByLabelText('Assembled text (state_based)').textContent).toContain('Munich');
    expect(stateBased.querySelectorAll('mark.prov-span').length).toBeGreaterThan(2);
    expect(within(stateBased).getAllByRole('meter').length).toBeGreaterThan(2);
    expect(within(stateBased).getByRole('region', { name: 'Excluded by state_based' }).textContent).toMatch(/superseded/);
    await waitFor(() => expect(screen.getByTestId('item-diff')).toBeTruthy());
  });

  it('says what to do when no strategy is chosen', async () => {
    await mountInspector({ initial: (s) => ({ partitionId: s.mainPartition, view: 'context' }) });
    await screen.findByText('Preview a context');
    fireEvent.click(screen.getByRole('button', { name: 'state_based' }));
    fireEvent.click(screen.getByRole('button', { name: 'balanced' }));
    expect((screen.getByRole('button', { name: 'Assemble' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('explains an empty context_document and offers the sessions that have one', async () => {
    await mountInspector({ initial: (s) => ({ partitionId: s.mainPartition, view: 'context' }) });
    await screen.findByText('Preview a context');
    fireEvent.click(screen.getByRole('button', { name: 'state_based' }));
    fireEvent.click(screen.getByRole('button', { name: 'balanced' }));
    fireEvent.click(screen.getByRole('button', { name: 'context_document' }));
    fireEvent.click(screen.getByRole('button', { name: 'Assemble' }));
    const panel = await screen.findByRole('article', { name: 'Context assembled by context_document' });
    const notice = await within(panel).findByTestId('missing-document');
    expect(notice.textContent).toContain('Session “default” has no context document in this partition');
    const choices = within(notice).getByRole('list', { name: 'Sessions with a context document' });
    fireEvent.click(within(choices).getByRole('button', { name: 'sess-1' }));
    await waitFor(() =>
      expect(within(screen.getByRole('article', { name: 'Context assembled by context_document' })).queryByTestId('missing-document')).toBeNull(),
    );
    const again = screen.getByRole('article', { name: 'Context assembled by context_document' });
    expect(within(again).getByLabelText('Assembled text (context_document)').textContent).toContain('Train booked');
    expect((screen.getByLabelText('Session') as HTMLSelectElement).value).toBe('sess-1');
    expect(within(again).getByTestId('score-parts').textContent).toBe('cov 100%');
  });

  it("shows what each ranked item's score is made of", async () => {
    await mountInspector({ initial: (s) => ({ partitionId: s.mainPartition, view: 'context' }) });
    await screen.findByText('Preview a context');
    fireEvent.click(screen.getByRole('button', { name: 'state_based' }));
    fireEvent.change(screen.getByLabelText('Budget (tokens)'), { target: { value: '400' } });
    fireEvent.click(screen.getByRole('button', { name: 'Assemble' }));
    const panel = await screen.findByRole('article', { name: 'Context assembled by balanced' });
    const list = within(panel).getByRole('list', { name: 'Ranked items (balanced)' });
    const first = within(list).getAllByRole('listitem')[0] as HTMLElement;
    expect(first.textContent).toContain('#1');
    const parts = within(first).getByTestId('score-parts');
    expect(parts.textContent).toMatch(/^imp [\d.]+ · rec 0\.\d+$/);
    expect(parts.getAttribute('title')).toMatch(/importance .*stored importance/);
    expect(parts.getAttribute('title')).toMatch(/recency .*hours since/);
  });
});
