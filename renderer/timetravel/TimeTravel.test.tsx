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
    expect((within(control).getByLabelText('As of (UTC)') as HTMLInputElement).value).toBe('2025-04-01 12:00');

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
    expect((within(control).getByLabelText('As of (UTC)') as HTMLInputElement).value).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d$/);

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

describe('the whole inspector as of a past instant', () => {
  it('shows the open fact, the partition counts and the status bar as they stood then', async () => {
    await mountInspector({ initial: (s) => ({ partitionId: s.mainPartition, factId: s.homeCityFirst }) });
    const panel = await screen.findByRole('complementary', { name: 'Fact detail' });
    await within(panel).findByRole('article', { name: 'Fact home_city' });
    expect(within(panel).queryByTestId('fact-asof')).toBeNull();
    const status = await screen.findByTestId('status-counts');
    await waitFor(() => expect(status.textContent).toMatch(/: 67 valid of 72 facts/));
    expect(status.textContent).not.toContain('as of');

    fireEvent.click(screen.getByRole('button', { name: 'Time travel' }));
    const control = await screen.findByRole('group', { name: 'Time travel' });
    fireEvent.change(within(control).getByLabelText('As of (UTC)'), { target: { value: '2025-04-01T12:00' } });

    // The detail: Lyon was no longer valid on 1 April; Paris was.
    const asOf = await within(panel).findByTestId('fact-asof');
    expect(asOf.getAttribute('data-state')).toBe('ended');
    expect(asOf.textContent).toContain('As of 2025-04-01 12:00:00 UTC: no longer valid then');
    expect(within(asOf).getByRole('link', { name: /^Open home_city: Ana lives in Paris now/ })).toBeTruthy();
    // Its dependent, the commute plan, was recorded by then.
    expect(within(within(panel).getByRole('region', { name: 'Derived facts' })).getByText('commute_plan')).toBeTruthy();

    // The status bar and the sidebar count the facts recorded by then and valid then.
    await waitFor(() => expect(screen.getByTestId('status-counts').textContent).toContain('as of 2025-04-01 12:00:00 UTC: 66 valid of 67 facts recorded then'));
    const tree = screen.getByRole('navigation', { name: 'Partitions' });
    expect(within(tree).getByTestId('partition-asof').textContent).toBe('Counts as of 2025-04-01 12:00:00 UTC');
    const mainLabel = within(tree)
      .getAllByRole('button')
      .map((b) => b.getAttribute('aria-label') ?? '')
      .find((l) => l.startsWith('acme / user ana:'));
    expect(mainLabel).toBe('acme / user ana: 66 valid of 67 facts as of 2025-04-01 12:00:00 UTC');

    // The version valid then, opened from the table, says so.
    fireEvent.click(within(screen.getByRole('grid', { name: 'Memories' })).getByText('Ana lives in Paris now'));
    await waitFor(() => expect(within(panel).getByTestId('fact-asof').getAttribute('data-state')).toBe('valid'));
    expect(within(panel).getByTestId('fact-asof').textContent).toContain('It stayed valid until 2025-06-01 09:00:00 UTC.');

    // Back to now: every part shows today again.
    fireEvent.click(within(control).getByRole('button', { name: 'Now (leave time travel)' }));
    await waitFor(() => expect(within(panel).queryByTestId('fact-asof')).toBeNull());
    await waitFor(() => expect(screen.getByTestId('status-counts').textContent).toMatch(/: 67 valid of 72 facts/));
    expect(within(tree).queryByTestId('partition-asof')).toBeNull();
  });

  it('draws date ticks and the change density over the history', async () => {
    await mountInspector();
    await screen.findByRole('grid', { name: 'Memories' });
    fireEvent.click(screen.getByRole('button', { name: 'Time travel' }));
    const control = await screen.findByRole('group', { name: 'Time travel' });
    const strip = await within(control).findByRole('img', { name: /^Changes over time: / });
    // 71 facts took effect (the proposal never did) and 4 versions were replaced.
    expect(strip.getAttribute('aria-label')).toMatch(/^Changes over time: 75 changes, most around 2024-06-15$/);
    const bars = [...strip.querySelectorAll('g')].map((g) => Number(g.getAttribute('data-changes')));
    expect(bars).toHaveLength(80);
    expect(bars.reduce((a, b) => a + b, 0)).toBe(75);
    // The history runs from June 2024 to September 2025: month ticks.
    const ticks = [...within(control).getByTestId('time-ticks').querySelectorAll('.time-tick')].map((t) => t.textContent);
    expect(ticks.length).toBeGreaterThanOrEqual(4);
    for (const t of ticks) expect(t).toMatch(/^\d{4}-\d\d$/);
  });

  it('lists what changed between two times, each change a link to its fact', async () => {
    await mountInspector();
    await screen.findByRole('grid', { name: 'Memories' });
    fireEvent.click(screen.getByRole('button', { name: 'Time travel' }));
    const control = await screen.findByRole('group', { name: 'Time travel' });
    const compare = within(control).getByRole('button', { name: 'What changed between two times' }) as HTMLButtonElement;
    await waitFor(() => expect(compare.disabled).toBe(false));
    fireEvent.click(compare);
    const dialog = await screen.findByRole('dialog', { name: 'What changed between two times' });
    fireEvent.change(within(dialog).getByLabelText('From (UTC)'), { target: { value: '2025-02-01T00:00' } });
    fireEvent.change(within(dialog).getByLabelText('To (UTC)'), { target: { value: '2025-04-01T00:00' } });
    await waitFor(() =>
      expect(within(dialog).getByTestId('changes-summary').textContent).toBe(
        'Between 2025-02-01 00:00:00 UTC and 2025-04-01 00:00:00 UTC: 3 became valid · 1 superseded · 0 invalidated · 0 deleted',
      ),
    );
    const items = () => within(within(dialog).getByRole('list', { name: 'Changes' })).getAllByRole('listitem');
    await waitFor(() =>
      expect(items().map((li) => li.textContent)).toContain(
        '2025-03-01 09:00:00 UTCsupersededhome_cityAna lives in Lyonsupersededby home_cityAna lives in Paris nowsuperseded',
      ),
    );
    expect(items().map((li) => li.getAttribute('data-kind'))).toEqual(['became-valid', 'became-valid', 'superseded', 'became-valid']);
    expect(items()[0]?.textContent).toContain('release_date');
    expect(items()[0]?.textContent).toContain('Launch is planned for 1 October');

    // A reference opens its fact (and closes the dialog).
    fireEvent.click(within(items()[3] as HTMLElement).getByRole('link', { name: /^Open home_city: Ana lives in Paris now/ }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const panel = await screen.findByRole('complementary', { name: 'Fact detail' });
    await within(panel).findByText('Ana lives in Paris now', { selector: '.fact-value *' });
  });
});
