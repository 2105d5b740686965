import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { externalWritesAt } from '../../test/e2e/helpers/backend';
import { mountInspector } from '../test-utils/harness';
import { formatTime } from '../ui/format';

/** Three supersessions by another process, each at a known, later time than anything seeded;
 * returns their times as the log shows them, newest first. */
function supersedeThreeTimes(dbPath: string): string[] {
  const times = ['2040-01-01T00:00:00.000Z', '2040-01-02T00:00:00.000Z', '2040-01-03T00:00:00.000Z', '2040-01-04T00:00:00.000Z'];
  externalWritesAt(
    dbPath,
    times.map((at, i) => ({ at, input: { key: 'audit_order', value: `version ${i}`, ts: at, ...(i > 0 ? { supersedes: 'audit_order' } : {}) } })),
  );
  return times.slice(1).reverse().map(formatTime);
}

describe('audit log', () => {
  it('lists supersessions of the partition, newest first, and narrows to one fact', async () => {
    const m = await mountInspector({ initial: (s) => ({ partitionId: s.mainPartition, view: 'audit' }) });
    const view = await screen.findByRole('region', { name: 'Audit log' });
    await waitFor(() => expect(view.querySelectorAll('tr[data-audit-action="supersede"]').length).toBeGreaterThanOrEqual(3));
    const seeded = view.querySelectorAll('tbody tr').length;
    const newest = supersedeThreeTimes(m.backend.dbPath);
    await waitFor(() => expect(view.querySelectorAll('tbody tr').length).toBe(seeded + 3));
    const times = [...view.querySelectorAll('tbody tr td:first-child')].map((td) => td.textContent ?? '');
    // The three latest entries lead, latest first, and no row is newer than the one above it.
    expect(times.slice(0, 3)).toEqual(newest);
    expect([...times].sort().reverse()).toEqual(times);
    fireEvent.change(within(view).getByLabelText('Fact id'), { target: { value: m.backend.seeded.homeCityFirst } });
    await waitFor(() => {
      const rows = view.querySelectorAll('tbody tr');
      expect(rows.length).toBeGreaterThanOrEqual(1);
      for (const r of rows) expect(r.getAttribute('title') ?? r.querySelector('td[title]')?.getAttribute('title')).toContain(m.backend.seeded.homeCityFirst);
    });
  });

  it('reads like a history: actions in words, facts by key and value, a delete says its text is erased', async () => {
    const m = await mountInspector({ initial: (s) => ({ partitionId: s.mainPartition, view: 'audit' }) });
    const p = m.backend.seeded.mainPartition;
    await m.transport.call('review.dismiss', { partitionId: p, factIds: [m.backend.seeded.flaggedId], reason: 'still right' });
    await m.transport.call('deletion.apply', { partitionId: p, selection: { filter: { search: 'zebra' } }, reason: 'test data' });
    const view = await screen.findByRole('region', { name: 'Audit log' });
    const row = (action: string) => view.querySelector(`tr[data-audit-action="${action}"]`) as HTMLElement;
    await waitFor(() => expect(row('delete')).toBeTruthy());
    expect(row('delete').textContent).toContain(`Deleted ${m.backend.seeded.zebraCount} facts matching a filter on validity, search text`);
    expect(row('delete').textContent).toContain('Key and text erased with them');
    expect(row('delete').textContent).toContain('test data');
    await waitFor(() => expect(row('dismiss_review').textContent).toMatch(/Dismissed the review flag of commute_plan.*raised by a change to home_city/));
    await waitFor(() => expect(row('supersede').textContent).toMatch(/^.*Replaced \S+.* with .*, by /));
    // No engine names or raw ids in what is read.
    const text = [...view.querySelectorAll('tbody td')].map((td) => td.textContent ?? '').join(' ');
    expect(text).not.toMatch(/dismiss_review|supersede\b|f_[0-9a-z]{8,}/);
    expect(text).not.toContain(m.backend.seeded.flaggedId);
  });
});
