import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { FactFilterInput } from '../../shared/query';
import { FilterBar } from './FilterBar';

beforeEach(() => vi.useFakeTimers());
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

/** A bar whose filter comes back only when the test says so, as a slow inspector's would. */
function slowBar(initial: FactFilterInput = {}) {
  const sent: FactFilterInput[] = [];
  const view = render(<FilterBar filter={initial} onChange={(f) => sent.push(f)} />);
  const field = () => screen.getByRole<HTMLInputElement>('searchbox', { name: 'Search memories' });
  const echo = (filter: FactFilterInput) => view.rerender(<FilterBar filter={filter} onChange={(f) => sent.push(f)} />);
  const type = (text: string) => fireEvent.change(field(), { target: { value: text } });
  const wait = (ms: number) => act(() => vi.advanceTimersByTime(ms));
  return { sent, field, echo, type, wait, unmount: view.unmount };
}

describe('the search field of the filter bar', () => {
  it('commits a search once typing pauses', () => {
    const bar = slowBar();
    bar.type('ly');
    bar.wait(100);
    bar.type('lyon');
    bar.wait(249);
    expect(bar.sent).toEqual([]);
    bar.wait(1);
    expect(bar.sent).toEqual([{ search: 'lyon' }]);
  });

  it('keeps an edit made after a commit when that commit comes back late', () => {
    const bar = slowBar();
    bar.type('lyon');
    bar.wait(250);
    expect(bar.sent).toEqual([{ search: 'lyon' }]);
    // The user clears the field before the inspector has taken the committed search.
    bar.type('');
    bar.echo({ search: 'lyon' });
    expect(bar.field().value).toBe('');
    bar.wait(250);
    expect(bar.sent).toEqual([{ search: 'lyon' }, {}]);
    bar.echo({});
    expect(bar.field().value).toBe('');
  });

  it('never commits the text from before an edit, however close the edit is to the debounce', () => {
    const bar = slowBar();
    bar.type('lyon');
    bar.wait(249);
    bar.type('');
    bar.wait(1);
    bar.wait(500);
    expect(bar.sent).toEqual([]);
  });

  it('takes a search from outside (navigation, Back) and drops an edit still waiting', () => {
    const bar = slowBar({ search: 'paris' });
    expect(bar.field().value).toBe('paris');
    bar.type('paris x');
    bar.echo({ search: 'rome' });
    expect(bar.field().value).toBe('rome');
    bar.wait(500);
    expect(bar.sent).toEqual([]);
    // A search this bar once committed still comes in when it arrives from outside later.
    bar.type('lyon');
    bar.wait(250);
    bar.echo({ search: 'lyon' });
    bar.echo({});
    expect(bar.field().value).toBe('');
    bar.echo({ search: 'lyon' });
    expect(bar.field().value).toBe('lyon');
  });

  it('commits an edit still waiting when the bar goes away', () => {
    const bar = slowBar({ search: 'lyon' });
    bar.type('');
    bar.unmount();
    expect(bar.sent).toEqual([{}]);
  });

  it('↓ commits what is typed at once and hands over to the results; Escape is left to the view', () => {
    const down = vi.fn();
    const sent: FactFilterInput[] = [];
    render(<FilterBar filter={{}} onChange={(f) => sent.push(f)} onArrowDown={down} />);
    const field = screen.getByRole<HTMLInputElement>('searchbox', { name: 'Search memories' });
    fireEvent.change(field, { target: { value: 'lyon' } });
    fireEvent.keyDown(field, { key: 'ArrowDown' });
    expect(sent).toEqual([{ search: 'lyon' }]);
    expect(down).toHaveBeenCalledTimes(1);
    const outer = vi.fn();
    document.addEventListener('keydown', outer);
    try {
      // The bar keeps the text on Escape: leaving (and a second Escape clearing) is the shortcut system's.
      fireEvent.keyDown(field, { key: 'Escape' });
      expect(field.value).toBe('lyon');
      expect(outer).toHaveBeenCalledTimes(1);
    } finally {
      document.removeEventListener('keydown', outer);
    }
  });
});
