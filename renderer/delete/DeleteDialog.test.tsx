import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { DeletionImpact, ScrubReport } from '../../shared/deletion';
import { assembly } from '../test-utils/fixtures';
import { mountInspector, mountWithProviders } from '../test-utils/harness';
import { ContextImpactView, ImpactSummary, isBroadDelete, ScrubNote, typedCountMatches } from './DeleteDialog';

afterEach(cleanup);

const IMPACT: DeletionImpact = {
  partitionId: 1,
  selection: { kind: 'filter', conditions: ['validity: valid now', 'search: every word of "home"'] },
  toDelete: 2,
  validToDelete: 1,
  ids: ['f1', 'f2'],
  facts: [
    { id: 'f1', key: 'home_city', status: 'active', value: 'Ana lives in Lyon', ts: '2026-03-01T09:00:00.000Z' },
    { id: 'f2', key: '<b>odd key</b>', status: 'superseded', value: 'Ana lives in Paris', ts: '2026-02-01T09:00:00.000Z' },
  ],
  missingIds: [],
  flaggedCount: 1,
  flagged: ['f9'],
  relinkedCount: 1,
  relinked: [{ id: 'f0', field: 'supersededBy', from: 'f1', to: null }],
  clearedCount: 1,
  orphanedCount: 0,
  proposalsAffected: 0,
  truncated: false,
};

describe('delete impact', () => {
  it('says what goes, what gets flagged and which chains are relinked, naming facts by key and value', async () => {
    await mountWithProviders(
      (seeded) => (
        <ImpactSummary
          preview={{
            ...IMPACT,
            partitionId: seeded.mainPartition,
            flagged: [seeded.flaggedId, 'f9'],
            relinked: [{ id: seeded.homeCityFirst, field: 'supersededBy', from: seeded.homeCityHead, to: null }],
          }}
        />
      ),
      (seeded) => ({ partitionId: seeded.mainPartition }),
    );
    const flagged = await screen.findByRole('list', { name: 'Facts to flag' });
    await waitFor(() => expect(flagged.querySelectorAll('.fact-ref-key')).toHaveLength(1));
    expect(flagged.textContent).toContain('a fact that no longer exists');
    const relinks = screen.getByRole('region', { name: 'Chains relinked' });
    await waitFor(() => expect([...relinks.querySelectorAll('.fact-ref-key')].map((b) => b.textContent)).toEqual(['home_city', 'home_city']));
    expect(relinks.textContent).toContain('Ana lives in Lyon');
    expect(screen.getByTestId('impact-delete-count').textContent).toBe('2 facts');
    expect(screen.getByTestId('impact-flag-count').textContent).toBe('1 fact');
    expect(screen.getByRole('region', { name: 'Facts to delete' }).textContent).toContain('<b>odd key</b>');
    expect(screen.getByRole('region', { name: 'Chains relinked' }).textContent).toContain('superseded by');
    expect(screen.getByRole('region', { name: 'Chains relinked' }).textContent).toContain('cleared');
    const conditions = within(screen.getByRole('region', { name: 'Selection' }))
      .getAllByRole('listitem')
      .map((li) => li.textContent);
    expect(conditions).toEqual(['validity: valid now', 'search: every word of "home"']);
  });

  it('shows how the assembled context would change', () => {
    const before = assembly('state_based', [
      { id: 'f1', label: 'home_city', text: 'Munich' },
      { id: 'f2', label: 'budget', text: 'capped' },
    ]);
    const after = assembly('state_based', [
      { id: 'f2', label: 'budget', text: 'capped' },
      { id: 'f5', label: 'old_note', text: 'trivia' },
    ]);
    render(
      <ContextImpactView
        change={{ before, after, removed: [{ kind: 'fact', id: 'f1', label: 'home_city' }], added: [{ kind: 'fact', id: 'f5', label: 'old_note' }] }}
      />,
    );
    expect(screen.getByTestId('context-removed-count').textContent).toBe('1');
    expect(screen.getByRole('region', { name: 'Would enter the context' }).textContent).toContain('old_note');
  });
});

describe('after the delete: what the scrub reached', () => {
  const base: ScrubReport = {
    checkpoint: { busy: false, walFrames: 0, checkpointedFrames: 0 },
    remnantsFound: 0,
    remnantsAfter: 0,
    remedy: 'zero',
    rebuilt: [],
    complete: true,
    detail: 'file detail',
  };
  const note = (scrub: ScrubReport) => {
    cleanup();
    render(<ScrubNote scrub={scrub} />);
    return screen.getByTestId('scrub-note').textContent;
  };

  it("claims the file and its log only for a file's complete scrub; a server's says what it reached; an incomplete one says what lingers", () => {
    expect(note(base)).toBe('The deleted text is gone from the database file and its write-ahead log.');
    const server = { ...base, remedy: 'vacuum', detail: "VACUUM (FULL) rewrote facts; the server's WAL keeps it until recycled." } as const;
    expect(note(server)).toBe(server.detail);
    expect(note({ ...server, complete: false, detail: 'a transaction older than the delete is still open' })).toBe(
      'The text may linger: a transaction older than the delete is still open',
    );
  });
});

describe('broad deletes', () => {
  it('are those over 1,000 facts, or by filter over half the partition; the typed count may carry separators', () => {
    expect(isBroadDelete(1001, null, false)).toBe(true);
    expect(isBroadDelete(1000, 100_000, true)).toBe(false);
    expect(isBroadDelete(51, 100, true)).toBe(true);
    expect(isBroadDelete(51, 100, false)).toBe(false);
    expect(isBroadDelete(50, 100, true)).toBe(false);
    expect(isBroadDelete(1, 1, true)).toBe(false);
    expect(typedCountMatches('19,400', 19400)).toBe(true);
    expect(typedCountMatches(' 19 400 ', 19400)).toBe(true);
    expect(typedCountMatches('1940', 19400)).toBe(false);
    expect(typedCountMatches('', 19400)).toBe(false);
  });
});

describe('delete flow on a real database', () => {
  it('asks for the count typed before deleting most of a partition by filter', async () => {
    const m = await mountInspector({
      initial: (s) => ({ partitionId: s.mainPartition, deleteRequest: { kind: 'filter', filter: { validity: 'valid' }, count: null } }),
    });
    const dialog = await screen.findByRole('dialog', { name: 'Delete every fact matching the filter' });
    const box = await within(dialog).findByTestId('broad-delete');
    const count = Number((within(dialog).getByTestId('impact-delete-count').textContent ?? '').replace(/\D/g, ''));
    expect(box.textContent).toMatch(/% of this partition/);
    expect(within(dialog).queryByTestId('confirm-tick')).toBeNull();
    const confirm = within(dialog).getByTestId('confirm-delete') as HTMLButtonElement;
    const field = within(dialog).getByLabelText(`Type ${count.toLocaleString('en-US')} to confirm`);
    fireEvent.change(field, { target: { value: String(count - 1) } });
    expect(confirm.disabled).toBe(true);
    fireEvent.change(field, { target: { value: count.toLocaleString('en-US') } });
    expect(confirm.disabled).toBe(false);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(m.calls).not.toContain('deletion.apply');
  });

  it('previews, compares the context, confirms, deletes and refreshes the views', async () => {
    const m = await mountInspector();
    const grid = await screen.findByRole('grid', { name: 'Memories' });
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search memories' }), { target: { value: 'zebra' } });
    await waitFor(() => expect(within(grid).getAllByRole('row').length).toBe(m.backend.seeded.zebraCount + 1));
    fireEvent.click(screen.getByRole('button', { name: 'Delete all matching…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete every fact matching the filter' });
    await waitFor(() => expect(within(dialog).getByTestId('impact-delete-count').textContent).toBe(`${m.backend.seeded.zebraCount} facts`));
    fireEvent.change(within(dialog).getByLabelText('Query'), { target: { value: 'zebra crossing office' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Show context change' }));
    await within(dialog).findByTestId('context-impact');
    const confirm = within(dialog).getByTestId('confirm-delete') as HTMLButtonElement;
    expect(confirm.disabled).toBe(true);
    fireEvent.click(within(dialog).getByTestId('confirm-tick'));
    expect(confirm.disabled).toBe(false);
    fireEvent.click(confirm);
    const summary = await within(dialog).findByTestId('delete-summary');
    expect(summary.textContent).toContain(`Deleted ${m.backend.seeded.zebraCount} facts`);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    await screen.findByText('No fact matches these filters');
  });

  it('deletes one fact from its detail panel and flags its dependents', async () => {
    const m = await mountInspector({ initial: (s) => ({ partitionId: s.mainPartition, factId: s.homeCityFirst }) });
    const panel = await screen.findByRole('complementary', { name: 'Fact detail' });
    fireEvent.click(await within(panel).findByRole('button', { name: 'Delete…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete this fact' });
    await waitFor(() => expect(within(dialog).getByTestId('impact-flag-count').textContent).toMatch(/^\d+ facts?$/));
    expect(within(dialog).queryByTestId('confirm-tick')).toBeNull();
    fireEvent.click(within(dialog).getByTestId('confirm-delete'));
    await within(dialog).findByTestId('delete-summary');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.getByRole('grid', { name: 'Memories' }).querySelector(`[data-fact-id="${m.backend.seeded.homeCityFirst}"]`)).toBeNull());
  });

  it('shows the refusal of a meaningless or empty filter and offers no delete', async () => {
    for (const filter of [{ search: '*' }, { validity: 'all' as const }]) {
      const m = await mountInspector({ initial: (s) => ({ partitionId: s.mainPartition, deleteRequest: { kind: 'filter', filter, count: 5 } }) });
      const dialog = await screen.findByRole('dialog', { name: 'Delete every fact matching the filter' });
      const alert = await within(dialog).findByRole('alert');
      expect(alert.textContent).toMatch(filter.search ? /has no word to look for/ : /restricts nothing/);
      expect((within(dialog).getByTestId('confirm-delete') as HTMLButtonElement).disabled).toBe(true);
      expect(within(dialog).queryByTestId('impact-preview')).toBeNull();
      expect(m.calls).not.toContain('deletion.apply');
      cleanup();
    }
  });
});
