import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { StatelensError } from '../../shared/errors';
import { MAX_DISMISS_IDS } from '../../shared/inspect';
import { MAX_PAGE_SIZE } from '../../shared/query';
import { mountInspector, startSeeded, transportFor } from '../test-utils/harness';
import { batchesOf, dismissInBatches } from './bulk-dismiss';

describe('review queue on a real database', () => {
  it('lists flagged facts with their upstream change and dismisses a flag', async () => {
    const m = await mountInspector({ initial: (s) => ({ partitionId: s.mainPartition, view: 'review' }) });
    const view = await screen.findByRole('region', { name: 'Review queue' });
    fireEvent.click(within(view).getByRole('button', { name: 'Flat list' }));
    await waitFor(() => expect(within(view).getByTestId('review-total').textContent).toBe('3 facts need review'));
    const card = await within(view).findByRole('listitem', { name: 'Review commute_plan' });
    expect(card.textContent).toContain('Upstream change: home_cityAna lives in Lyon');
    expect(within(card).getByRole('link', { name: /^Open home_city: Ana lives in Lyon/ })).toBeTruthy();
    expect(card.textContent).toContain('→ now');
    fireEvent.click(within(card).getByRole('button', { name: 'Dismiss flag' }));
    await waitFor(() => expect(within(view).getByTestId('review-total').textContent).toBe('2 facts need review'));
    expect(within(view).queryByRole('listitem', { name: 'Review commute_plan' })).toBeNull();
    // The dismissal is in the audit log.
    const audit = await m.transport.call('audit.list', { partitionId: m.backend.seeded.mainPartition, factId: m.backend.seeded.flaggedId });
    expect(audit.entries.some((e) => /dismiss/.test(e.action))).toBe(true);
  });

  it('opens a flagged fact in the graph with its propagation path', async () => {
    await mountInspector({ initial: (s) => ({ partitionId: s.mainPartition, view: 'review' }) });
    const view = await screen.findByRole('region', { name: 'Review queue' });
    fireEvent.click(within(view).getByRole('button', { name: 'Flat list' }));
    const card = await within(view).findByRole('listitem', { name: 'Review weekend_trips' });
    fireEvent.click(within(card).getByRole('button', { name: 'Open' }));
    const note = await screen.findByTestId('propagation-note');
    expect(note.textContent).toContain('2 steps');
    // The note comes with the path; the edges are drawn once the neighbourhood has loaded.
    await waitFor(() => expect(screen.getByTestId('graph-svg').querySelectorAll('line.on-path')).toHaveLength(2));
  });

  it('dismisses the selected flags in one go and clears the selection', async () => {
    const m = await mountInspector({ initial: (s) => ({ partitionId: s.mainPartition, view: 'review' }) });
    const view = await screen.findByRole('region', { name: 'Review queue' });
    fireEvent.click(within(view).getByRole('button', { name: 'Flat list' }));
    await waitFor(() => expect(within(view).getByTestId('review-total').textContent).toBe('3 facts need review'));
    for (const key of ['commute_plan', 'deploy_plan']) fireEvent.click(await within(view).findByRole('checkbox', { name: `Select ${key}` }));
    fireEvent.click(within(view).getByRole('button', { name: 'Dismiss 2 selected' }));
    await waitFor(() => expect(within(view).getByTestId('review-total').textContent).toBe('1 fact need review'));
    expect(await screen.findByText('Dismissed 2 flags')).toBeTruthy();
    expect(within(view).queryByRole('button', { name: /^Dismiss \d+ selected$/ })).toBeNull();
    expect(within(view).getByRole('listitem', { name: 'Review weekend_trips' })).toBeTruthy();
    const queue = await m.transport.call('review.queue', { partitionId: m.backend.seeded.mainPartition });
    expect(queue.entries.map((e) => e.fact.key)).toEqual(['weekend_trips']);
  });
});

describe('bulk dismissal in batches', () => {
  it('sends a selection larger than one request may hold in batches of the contract cap', async () => {
    const backend = await startSeeded({ bulk: MAX_DISMISS_IDS + 50, graph: 40 });
    const transport = transportFor(backend);
    const partitionId = backend.seeded.mainPartition;
    const ids: string[] = [];
    let after: string | null = null;
    do {
      const page: { rows: Array<{ id: string }>; nextCursor: string | null } = await transport.call('facts.list', {
        partitionId,
        page: { limit: MAX_PAGE_SIZE, after },
      });
      ids.push(...page.rows.map((r) => r.id));
      after = page.nextCursor;
    } while (after);
    expect(ids.length).toBeGreaterThan(MAX_DISMISS_IDS);
    // One request with all of them is refused by the contract: hence the batches.
    await expect(transport.call('review.dismiss', { partitionId, factIds: ids })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    expect((await transport.call('review.queue', { partitionId })).total).toBe(3);

    const sizes: number[] = [];
    const r = await dismissInBatches(ids, (factIds) => {
      sizes.push(factIds.length);
      return transport.call('review.dismiss', { partitionId, factIds, reason: 'bulk test' });
    });
    expect(r.error).toBeUndefined();
    expect(sizes).toEqual([MAX_DISMISS_IDS, ids.length - MAX_DISMISS_IDS]);
    expect(r.batches).toBe(2);
    expect(r.done).toHaveLength(ids.length);
    expect(r.remaining).toEqual([]);
    expect(r.dismissed).toBe(3);
    expect((await transport.call('review.queue', { partitionId })).total).toBe(0);
  }, 60_000);

  it('stops at the first failed batch and says which ids were not dismissed', async () => {
    const ids = Array.from({ length: 25 }, (_, i) => `f_${i}`);
    const seen: string[][] = [];
    const r = await dismissInBatches(
      [...ids, 'f_3'],
      async (batch) => {
        seen.push(batch);
        if (seen.length === 2) throw new StatelensError('NOT_FOUND', 'gone');
        return { dismissed: batch.slice(0, 2), notFlagged: batch.slice(2), auditId: seen.length };
      },
      10,
    );
    expect(seen.map((b) => b.length)).toEqual([10, 10]);
    expect(r.done).toEqual(ids.slice(0, 10));
    expect(r.remaining).toEqual(ids.slice(10));
    expect(r.dismissed).toBe(2);
    expect(r.batches).toBe(1);
    expect(r.error).toMatchObject({ code: 'NOT_FOUND' });
    expect(batchesOf([1, 2, 3, 4, 5], 2)).toEqual([[1, 2], [3, 4], [5]]);
    expect(() => batchesOf([1], 0)).toThrow(RangeError);
  });
});
