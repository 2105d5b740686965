import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { Progress } from '../../shared/contract';
import { mountInspector, type Mounted } from '../test-utils/harness';
import { ExportOutcome } from './ExportDialog';

/** Opens the dialog for a JSON snapshot of the whole database and records the backend's answers. */
async function openDatabaseExport(m: Mounted) {
  const answers: Array<{ channel: string; value: unknown }> = [];
  const call = m.transport.call.bind(m.transport);
  vi.spyOn(m.transport, 'call').mockImplementation(async (channel, input) => {
    const value = await call(channel, input);
    answers.push({ channel, value });
    return value;
  });
  await screen.findByRole('grid', { name: 'Memories' });
  fireEvent.keyDown(document.body, { key: 'e' });
  const dialog = await screen.findByRole('dialog', { name: 'Export a snapshot' });
  fireEvent.change(within(dialog).getByLabelText('Format'), { target: { value: 'json' } });
  fireEvent.change(within(dialog).getByLabelText('What to export'), { target: { value: 'database' } });
  return { dialog, answers };
}

/** Every file the browser-mode export folder holds (finished downloads and partial files). */
function exportFiles(m: Mounted): string[] {
  return m.backend.exportFiles();
}

describe('export', () => {
  it('exports the partition as NDJSON and offers the download', async () => {
    await mountInspector();
    await screen.findByRole('grid', { name: 'Memories' });
    fireEvent.keyDown(document.body, { key: 'e' });
    const dialog = await screen.findByRole('dialog', { name: 'Export a snapshot' });
    fireEvent.change(within(dialog).getByLabelText('Format'), { target: { value: 'ndjson' } });
    expect((within(dialog).getByLabelText('What to export') as HTMLSelectElement).value).toBe('partition');
    fireEvent.click(within(dialog).getByTestId('export-start'));
    const outcome = await within(dialog).findByTestId('export-outcome');
    await waitFor(() => expect(outcome.textContent).toMatch(/ndjson export is ready \(\d/));
    const link = within(dialog).getByTestId('export-download') as HTMLAnchorElement;
    expect(link.getAttribute('href')).toMatch(/^\/api\/download\/[A-Za-z0-9_-]+\?token=/);
  });

  it("exports the table's filter and an as-of time in any format, not only CSV", async () => {
    const m = await mountInspector({ initial: (s) => ({ partitionId: s.mainPartition, filter: { validity: 'all', search: 'home_city' } }) });
    const sent: unknown[] = [];
    const call = m.transport.call.bind(m.transport);
    vi.spyOn(m.transport, 'call').mockImplementation(async (channel, input) => {
      if (channel === 'export.start') sent.push(input);
      return call(channel, input);
    });
    await screen.findByRole('grid', { name: 'Memories' });
    fireEvent.keyDown(document.body, { key: 'e' });
    const dialog = await screen.findByRole('dialog', { name: 'Export a snapshot' });
    fireEvent.change(within(dialog).getByLabelText('Format'), { target: { value: 'markdown' } });
    const only = within(dialog).getByLabelText("Only the facts of the table's current filter (1 condition)") as HTMLInputElement;
    expect(only.disabled).toBe(false);
    fireEvent.click(only);
    fireEvent.click(within(dialog).getByLabelText('The state as of a time'));
    fireEvent.change(within(dialog).getByLabelText('Export as of (UTC)'), { target: { value: '2025-02-01T00:00' } });
    expect(within(dialog).getByLabelText('The state as of 2025-02-01 00:00:00 UTC')).toBeTruthy();
    fireEvent.click(within(dialog).getByTestId('export-start'));
    await waitFor(() => expect(within(dialog).getByTestId('export-outcome').textContent).toMatch(/markdown export is ready/));
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ format: 'markdown', filter: { validity: 'all', search: 'home_city', asOf: '2025-02-01T00:00:00.000Z' } });
    const link = within(dialog).getByTestId('export-download') as HTMLAnchorElement;
    expect(link.getAttribute('download')).toMatch(/-filtered-as-of-20250201T000000Z\.md$/);
  });

  it('offers no filter when the table has none, and starts as of the time travelled to', async () => {
    await mountInspector({ initial: (s) => ({ partitionId: s.mainPartition, asOf: '2025-03-01T00:00:00.000Z' }) });
    await screen.findByRole('grid', { name: 'Memories' });
    fireEvent.keyDown(document.body, { key: 'e' });
    const dialog = await screen.findByRole('dialog', { name: 'Export a snapshot' });
    expect((within(dialog).getByLabelText("Only the facts of the table's current filter (none set)") as HTMLInputElement).disabled).toBe(true);
    expect((within(dialog).getByLabelText('The state as of 2025-03-01 00:00:00 UTC') as HTMLInputElement).checked).toBe(true);
    fireEvent.click(within(dialog).getByTestId('export-start'));
    const link = (await within(dialog).findByTestId('export-download', {}, { timeout: 30_000 })) as HTMLAnchorElement;
    // The state as of a time, with no filter: named for the time only.
    expect(link.getAttribute('download')).toMatch(/-acme-ana-as-of-20250301T000000Z\.snapshot\.ndjson$/);
  });

  it('cancels an export the moment it starts: the backend answers cancelled and keeps no file', async () => {
    const m = await mountInspector();
    const { dialog, answers } = await openDatabaseExport(m);
    const before = exportFiles(m);
    // Start, then cancel at once: the export request is still on its way to the engine.
    fireEvent.click(within(dialog).getByTestId('export-start'));
    fireEvent.click(within(dialog).getByTestId('export-cancel'));
    const outcome = await within(dialog).findByTestId('export-outcome');
    expect(outcome.textContent).toBe('The export was cancelled; no file was kept.');
    expect(answers.find((a) => a.channel === 'export.cancel')?.value).toEqual({ cancelled: true });
    expect(answers.find((a) => a.channel === 'export.start')?.value).toMatchObject({ status: 'cancelled' });
    expect(exportFiles(m)).toEqual(before);

    // Nothing of the cancelled one lingers: the next export runs to the end.
    fireEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    fireEvent.keyDown(document.body, { key: 'e' });
    const again = await screen.findByRole('dialog', { name: 'Export a snapshot' });
    fireEvent.click(within(again).getByTestId('export-start'));
    await waitFor(() => expect(within(again).getByTestId('export-outcome').textContent).toMatch(/ndjson export is ready/));
    expect(exportFiles(m)).toHaveLength(before.length + 1);
  });

  it('cancels an export while the engine is writing it: no file is left behind', async () => {
    // 20,000 facts: the JSON snapshot takes the engine a few hundred milliseconds.
    const m = await mountInspector({ seed: { bulk: 20_000, graph: 40 } });
    const { dialog, answers } = await openDatabaseExport(m);
    const before = exportFiles(m);
    const seen: Progress[] = [];
    let cancelledAt: Progress | undefined;
    // Cancel from the first progress report of the export, i.e. once records are being written.
    const stop = m.transport.on('progress', (p) => {
      if (p.operation !== 'export') return;
      seen.push(p);
      if (cancelledAt || p.done === 0) return;
      cancelledAt = p;
      fireEvent.click(within(dialog).getByTestId('export-cancel'));
    });
    try {
      fireEvent.click(within(dialog).getByTestId('export-start'));
      const outcome = await within(dialog).findByTestId('export-outcome', {}, { timeout: 30_000 });
      expect(outcome.textContent, `progress seen: ${JSON.stringify(seen)}`).toBe('The export was cancelled; no file was kept.');
    } finally {
      stop();
    }
    expect(cancelledAt?.done).toBeGreaterThan(0);
    expect(cancelledAt?.done).toBeLessThan(cancelledAt?.total ?? 0);
    expect(answers.find((a) => a.channel === 'export.cancel')?.value).toEqual({ cancelled: true });
    // The engine stopped, and the partial file went with it.
    expect(seen.some((p) => p.finished)).toBe(false);
    await act(async () => {
      await new Promise((r) => setTimeout(r, 50));
    });
    expect(exportFiles(m)).toEqual(before);
  }, 60_000);

  it('says when an export was cancelled or saved', () => {
    render(<ExportOutcome result={{ status: 'cancelled', operationId: 'op-12345678' }} />);
    expect(screen.getByTestId('export-outcome').textContent).toContain('cancelled');
    cleanup();
    render(<ExportOutcome result={{ status: 'saved', operationId: 'op-12345678', format: 'sqlite', path: '/tmp/x.db', bytes: 2048, records: 3 }} />);
    expect(screen.getByTestId('export-outcome').textContent).toContain('/tmp/x.db');
  });
});
