import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { externalWrite } from '../../test/e2e/helpers/backend';
import type { ConnectionMonitor, ConnectionState } from '../api/transport';
import { Root } from './Root';
import { parseAddress } from './address';
import { mountInspector, startSeeded, transportFor } from '../test-utils/harness';
import { render } from '@testing-library/react';

async function gridReady() {
  const grid = await screen.findByRole('grid', { name: 'Memories' });
  await waitFor(() => expect(within(grid).getAllByRole('row').length).toBeGreaterThan(5));
  return grid;
}

describe('the inspector frame', () => {
  it('moves through facts with the keyboard and selects with x', async () => {
    await mountInspector();
    const grid = await gridReady();
    grid.focus();
    fireEvent.keyDown(grid, { key: 'j' });
    await waitFor(() => expect(grid.querySelector('.grid-row.active')?.getAttribute('aria-rowindex')).toBe('2'));
    fireEvent.keyDown(grid, { key: 'ArrowDown' });
    fireEvent.keyDown(grid, { key: 'j' });
    await waitFor(() => expect(grid.querySelector('.grid-row.active')?.getAttribute('aria-rowindex')).toBe('4'));
    fireEvent.keyDown(grid, { key: 'k' });
    await waitFor(() => expect(grid.querySelector('.grid-row.active')?.getAttribute('aria-rowindex')).toBe('3'));
    fireEvent.keyDown(grid, { key: 'x' });
    fireEvent.keyDown(grid, { key: 'ArrowDown', shiftKey: true });
    await waitFor(() => expect(screen.getByTestId('selection-count').textContent).toBe('2 selected'));
    expect(grid.querySelectorAll('[aria-selected="true"]')).toHaveLength(2);
    expect(screen.getByRole('complementary', { name: 'Fact detail' })).toBeTruthy();
    fireEvent.keyDown(grid, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByTestId('selection-count')).toBeNull());
  });

  it('opens the shortcut overlay with ? and closes it with Escape', async () => {
    await mountInspector();
    await gridReady();
    fireEvent.keyDown(document.body, { key: '?', shiftKey: true });
    const dialog = await screen.findByRole('dialog', { name: 'Keyboard shortcuts' });
    expect(within(dialog).getByText('Focus the search box')).toBeTruthy();
    expect(dialog.contains(document.activeElement)).toBe(true);
    fireEvent.keyDown(dialog, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('Escape leaves the search field so view keys work, and a cleared search is never brought back', async () => {
    await mountInspector();
    await gridReady();
    const search = screen.getByRole('searchbox', { name: 'Search memories' });
    search.focus();
    fireEvent.change(search, { target: { value: 'zzqq-nothing' } });
    await waitFor(() => expect(screen.getByRole('button', { name: 'Clear filters' }).hasAttribute('disabled')).toBe(false));
    // Clear it and leave for another view before the debounce has run.
    fireEvent.change(search, { target: { value: '' } });
    fireEvent.keyDown(search, { key: 'Escape' });
    expect(document.activeElement).not.toBe(search);
    fireEvent.keyDown(document.body, { key: '5' });
    expect(await screen.findByRole('heading', { name: 'Audit log' })).toBeTruthy();
    fireEvent.keyDown(document.body, { key: '1' });
    await gridReady();
    expect((screen.getByRole('searchbox', { name: 'Search memories' }) as HTMLInputElement).value).toBe('');
    expect(screen.getByRole('button', { name: 'Clear filters' }).hasAttribute('disabled')).toBe(true);
  });

  it('Escape leaves a text field keeping its text, a second Escape clears it, and ↓ from the search enters the results', async () => {
    await mountInspector();
    const grid = await gridReady();
    const search = screen.getByRole<HTMLInputElement>('searchbox', { name: 'Search memories' });
    search.focus();
    fireEvent.change(search, { target: { value: 'Lyon' } });
    fireEvent.keyDown(search, { key: 'Escape' });
    expect(document.activeElement).not.toBe(search);
    expect(search.value).toBe('Lyon');
    fireEvent.keyDown(document.body, { key: 'Escape' });
    expect(search.value).toBe('');
    // ↓ moves into the rows and opens the first.
    search.focus();
    fireEvent.change(search, { target: { value: 'Lyon' } });
    fireEvent.keyDown(search, { key: 'ArrowDown' });
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('grid', { name: 'Memories' })));
    await screen.findByRole('complementary', { name: 'Fact detail' });
    expect(grid.getAttribute('aria-activedescendant')).toBe('fact-row-0');
  });

  it('the command palette (Ctrl+K) jumps to a view and to a fact by key, from the keyboard', async () => {
    await mountInspector();
    await gridReady();
    const search = screen.getByRole('searchbox', { name: 'Search memories' });
    search.focus();
    fireEvent.keyDown(search, { key: 'k', ctrlKey: true });
    let dialog = await screen.findByRole('dialog', { name: 'Go to…' });
    let box = within(dialog).getByRole('combobox');
    expect(document.activeElement).toBe(box);
    fireEvent.change(box, { target: { value: 'audit' } });
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(await screen.findByRole('heading', { name: 'Audit log' })).toBeTruthy();
    fireEvent.keyDown(document.body, { key: '1' });
    await gridReady();
    fireEvent.keyDown(document.body, { key: 'k', metaKey: true });
    dialog = await screen.findByRole('dialog', { name: 'Go to…' });
    box = within(dialog).getByRole('combobox');
    fireEvent.change(box, { target: { value: 'q3_budget' } });
    await within(dialog).findByRole('option', { name: /^Facts\s*q3_budget/ });
    // Arrows move the choice; facts come after views, actions and partitions.
    while (dialog.querySelector('[role="option"][aria-selected="true"]')?.getAttribute('data-section') !== 'Facts')
      fireEvent.keyDown(box, { key: 'ArrowDown' });
    fireEvent.keyDown(box, { key: 'Enter' });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const detail = await screen.findByRole('complementary', { name: 'Fact detail' });
    await waitFor(() => expect(detail.textContent).toContain('capped at $50,000'));
  });

  it('switches views with number keys and the theme with its toggle', async () => {
    await mountInspector();
    await gridReady();
    fireEvent.keyDown(document.body, { key: '5' });
    expect(await screen.findByRole('heading', { name: 'Audit log' })).toBeTruthy();
    expect(window.location.hash).toMatch(/^#\/audit\/\d+/);
    fireEvent.keyDown(document.body, { key: '1' });
    await gridReady();
    const toggle = screen.getByRole('button', { name: /^Theme: system/ });
    fireEvent.click(toggle);
    expect(document.documentElement.dataset.theme).toBe('dark');
    fireEvent.click(screen.getByRole('button', { name: /^Theme: dark/ }));
    expect(document.documentElement.dataset.theme).toBeUndefined();
  });

  it('shows facts another process writes once the engine announces the change, keeping the open fact and selection', async () => {
    const m = await mountInspector();
    const grid = await gridReady();
    const rows = within(grid).getAllByRole('row');
    const second = rows[2] as HTMLElement;
    const secondId = second.getAttribute('data-fact-id');
    fireEvent.click(second);
    fireEvent.click(within(rows[3] as HTMLElement).getByRole('checkbox'));
    const announced: unknown[] = [];
    const off = m.backend.subscribe((name, payload) => {
      if (name === 'data.changed') announced.push(payload);
    });
    const callsBefore = m.calls.length;
    // Another process: its own connection to the same file, writing through the engine. Nothing
    // in this window reloads or polls the list: only the engine's data.changed can bring it in.
    externalWrite(m.backend.dbPath, { key: 'live_note', value: 'written by another process', ts: '2030-01-01T00:00:00.000Z' });
    await waitFor(() => expect(within(screen.getByRole('grid', { name: 'Memories' })).getByText('written by another process')).toBeTruthy());
    off();
    expect(announced).toContainEqual(expect.objectContaining({ origin: 'external' }));
    expect(m.calls.slice(callsBefore)).toContain('facts.list');
    await waitFor(() => expect(screen.getByTestId('live-indicator').textContent).toContain('another process'));
    const active = screen.getByRole('grid', { name: 'Memories' }).querySelector('.grid-row.active');
    expect(active?.getAttribute('data-fact-id')).toBe(secondId);
    expect(screen.getByTestId('selection-count').textContent).toBe('1 selected');
  });

  it('time travel shows only the facts valid at a past instant', async () => {
    const m = await mountInspector();
    await gridReady();
    fireEvent.click(screen.getByRole('button', { name: 'Time travel' }));
    const when = await screen.findByLabelText('As of (UTC)');
    await act(async () => {
      fireEvent.change(when, { target: { value: '2025-04-01T00:00' } });
    });
    expect((await screen.findByTestId('time-banner')).textContent).toContain('2025-04-01');
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search memories' }), { target: { value: 'lives' } });
    await waitFor(() => {
      const g = screen.getByRole('grid', { name: 'Memories' });
      const text = g.textContent ?? '';
      expect(text).toContain('Ana lives in Paris now');
      expect(text).not.toContain('Munich');
      expect(text).not.toContain('Berlin');
      expect(text).not.toContain('Ana lives in Lyon');
    });
    fireEvent.click(screen.getByRole('button', { name: 'Back to now' }));
    await waitFor(() => expect(screen.queryByTestId('time-banner')).toBeNull());
    expect(m.calls).toContain('facts.list');
  });
});

describe('links and the connection, told truthfully', () => {
  function linkState(hash: string) {
    const link = parseAddress(hash);
    return { ...link.place, notice: link.problems.length > 0 ? link.problems.join(' ') : null };
  }

  it('a damaged link shows what is wrong and the inspector stays usable', async () => {
    await mountInspector({ initial: (s) => linkState(`#/memories/${s.mainPartition}/%E0%A4%A`) });
    expect((await screen.findByTestId('link-notice')).textContent).toContain('not valid percent-encoding');
    const grid = await gridReady();
    fireEvent.click(within(grid).getAllByRole('row')[2] as HTMLElement);
    await screen.findByRole('tab', { name: 'Chain' });
    // Opening a fact is moving on: the notice goes.
    await waitFor(() => expect(screen.queryByTestId('link-notice')).toBeNull());
  });

  it('an unknown view or partition in the address says so instead of falling back silently', async () => {
    const m = await mountInspector();
    await gridReady();
    await act(async () => {
      window.location.hash = `#/memroies/${m.backend.seeded.mainPartition}`;
    });
    await waitFor(() => expect(screen.getByTestId('link-notice').textContent).toContain('view "memroies" that does not exist'));
    await act(async () => {
      window.location.hash = '#/audit/999';
    });
    await waitFor(() => expect(screen.getByTestId('link-notice').textContent).toContain('There is no partition 999 in this database'));
    expect(await screen.findByRole('heading', { name: 'Audit log' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByTestId('link-notice')).toBeNull();
  });

  it('a link to a missing fact does not leave its alert behind when the address moves on', async () => {
    const m = await mountInspector();
    await gridReady();
    const pid = m.backend.seeded.mainPartition;
    await act(async () => {
      window.location.hash = `#/memories/${pid}/no_such_fact`;
    });
    expect(await screen.findByText('This fact is gone')).toBeTruthy();
    await act(async () => {
      window.location.hash = `#/memories/${pid}`;
    });
    await waitFor(() => expect(screen.queryByRole('complementary', { name: 'Fact detail' })).toBeNull());
    expect(screen.queryByText('This fact is gone')).toBeNull();
    expect(window.location.hash).toBe(`#/memories/${pid}`);
  });

  it('an address the browser moved to is followed even when the state changes before its hashchange arrives', async () => {
    const m = await mountInspector();
    const grid = await gridReady();
    const pid = m.backend.seeded.mainPartition;
    const factId = m.backend.seeded.homeCityHead;
    await waitFor(() => expect(window.location.hash).toBe(`#/memories/${pid}`));
    await act(async () => {
      // The browser has moved to the fact's address (a followed link), and before its hashchange
      // is delivered the state changes (a row ticked): the address must win, not the state.
      window.history.pushState(null, '', `#/memories/${pid}/${factId}`);
      fireEvent.click(grid.querySelector('[role="row"][data-fact-id] input[type="checkbox"]') as HTMLElement);
    });
    await act(async () => {
      window.dispatchEvent(new HashChangeEvent('hashchange'));
    });
    expect(await screen.findByRole('tab', { name: 'Chain' })).toBeTruthy();
    expect(window.location.hash).toBe(`#/memories/${pid}/${factId}`);
    expect(screen.getByTestId('selection-count').textContent).toBe('1 selected');
  });

  it('the footer says live only while the change stream is connected', async () => {
    const backend = await startSeeded();
    let state: ConnectionState = 'live';
    const listeners = new Set<() => void>();
    const connection: ConnectionMonitor = {
      current: () => state,
      subscribe(l) {
        listeners.add(l);
        return () => listeners.delete(l);
      },
    };
    const calls: string[] = [];
    const transport = { ...transportFor(backend, calls), connection };
    const move = (next: ConnectionState) =>
      act(async () => {
        state = next;
        for (const l of listeners) l();
      });
    await act(async () => {
      render(<Root transport={transport} initial={{ partitionId: backend.seeded.mainPartition }} />);
    });
    await gridReady();
    const indicator = () => screen.getByTestId('live-indicator');
    expect(indicator().textContent).toMatch(/^live/);
    await move('reconnecting');
    expect(indicator().textContent).toBe('reconnecting…');
    await move('offline');
    expect(indicator().textContent).toMatch(/^offline/);
    // Back: what changed meanwhile was never announced, so the views read again.
    const before = calls.filter((c) => c === 'facts.list').length;
    externalWrite(backend.dbPath, { key: 'while_offline', value: 'written while the stream was down', ts: '2030-01-01T00:00:00.000Z' });
    await move('live');
    expect(indicator().textContent).toMatch(/^live/);
    await waitFor(() => expect(calls.filter((c) => c === 'facts.list').length).toBeGreaterThan(before));
  });
});
