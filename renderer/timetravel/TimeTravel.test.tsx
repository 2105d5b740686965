import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mountInspector } from '../test-utils/harness';

const grid = () => screen.getByRole('grid', { name: 'Memories' });
/** Value cells of the table's rows, in order. */
const values = () =>
  within(grid())
    .getAllByRole('row')
    .slice(1)
    .map((r) => r.querySelectorAll('[role="gridcell"]')[2]?.textContent ?? '');

async function searchFor(text: string): Promise<void> {
  fireEvent.change(await screen.findByRole('searchbox', { name: 'Search memories' }), { target: { value: text } });
}

describe('time travel on a real database', () => {
  it('shows the facts valid at an exact past time in the table, with a banner, and comes back to now', async () => {
    await mountInspector();
    await screen.findByRole('grid', { name: 'Memories' });
    await searchFor('home_city');
    // Now the table lists every version (validity: all): the current one and those it replaced.
    await waitFor(() => expect(values()).toContain('HR record: Ana is based in Munich'));
    expect(values()).toEqual(expect.arrayContaining(['Ana lives in Lyon', 'Ana lives in Paris now']));

    fireEvent.click(screen.getByRole('button', { name: 'Time travel' }));
    const control = await screen.findByRole('group', { name: 'Time travel' });
    fireEvent.change(within(control).getByLabelText('As of (UTC)'), { target: { value: '2025-04-01T12:00' } });
    const banner = await screen.findByTestId('time-banner');
    expect(banner.textContent).toContain('Showing the state as of 2025-04-01 12:00:00 UTC');
    // On 1 April 2025 Ana lived in Paris: Lyon was replaced, Berlin and Munich came later.
    await waitFor(() => expect(values()).toEqual(['Ana lives in Paris now']));
    const row = within(grid()).getAllByRole('row')[1] as HTMLElement;
    expect(row.textContent).toContain('valid then');
    expect(row.textContent).toContain('now superseded');
    expect((within(control).getByLabelText('As of (UTC)') as HTMLInputElement).value).toBe('2025-04-01T12:00');

    fireEvent.click(within(banner).getByRole('button', { name: 'Back to now' }));
    await waitFor(() => expect(screen.queryByTestId('time-banner')).toBeNull());
    await waitFor(() => expect(values()).toContain('HR record: Ana is based in Munich'));
    expect(values()).toEqual(expect.arrayContaining(['Ana lives in Lyon', 'Ana lives in Paris now']));
    expect((within(control).getByRole('button', { name: 'Now (leave time travel)' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it("moves through the partition's history with the slider, and closes back to now", async () => {
    await mountInspector();
    await screen.findByRole('grid', { name: 'Memories' });
    // The shortcut opens it too.
    fireEvent.keyDown(document.body, { key: 't' });
    const control = await screen.findByRole('group', { name: 'Time travel' });
    const slider = within(control).getByRole('slider') as HTMLInputElement;
    // Enabled once the partition's first and last times are known; at the right end it is now.
    await waitFor(() => expect(slider.disabled).toBe(false));
    expect(slider.value).toBe('1000');
    expect(slider.getAttribute('aria-valuetext')).toBe('now');

    // All the way left: the time of the partition's oldest fact, where only that fact was valid.
    fireEvent.change(slider, { target: { value: '0' } });
    fireEvent.keyUp(slider, { key: 'Home' });
    const banner = await screen.findByTestId('time-banner');
    await waitFor(() => expect(within(grid()).getAllByRole('row').slice(1)).toHaveLength(1));
    const first = within(grid()).getAllByRole('row')[1] as HTMLElement;
    const oldest = first.querySelectorAll('[role="gridcell"]')[1]?.textContent ?? '';
    expect(oldest).toMatch(/^budget_0+$/);
    expect(slider.getAttribute('aria-valuetext')).toBe(banner.textContent?.match(/as of (.+? UTC)/)?.[1]);
    expect((within(control).getByLabelText('As of (UTC)') as HTMLInputElement).value).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d$/);

    // Halfway: more facts were valid than at the start, fewer than now.
    fireEvent.change(slider, { target: { value: '500' } });
    fireEvent.keyUp(slider, { key: 'ArrowRight' });
    await waitFor(() => expect(within(grid()).getAllByRole('row').slice(1).length).toBeGreaterThan(1));

    // Closing leaves time travel: the banner goes and the button comes back.
    fireEvent.click(within(control).getByRole('button', { name: 'Close time travel' }));
    await waitFor(() => expect(screen.queryByTestId('time-banner')).toBeNull());
    expect(screen.queryByRole('group', { name: 'Time travel' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Time travel' })).toBeTruthy();
  });
});
