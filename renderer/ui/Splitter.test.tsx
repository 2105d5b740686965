import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { panelWidth } from '../memories/MemoriesView';
import { Splitter } from './Splitter';

afterEach(cleanup);
beforeEach(() => {
  window.localStorage.clear();
  vi.resetModules();
});

/** A splitter whose size lives in the stored layout, as the inspector's do. */
async function sized(name: string, initial: number) {
  const { useLayoutSize } = await import('../app/layout-sizes');
  return function Sized() {
    const [stored, set, reset] = useLayoutSize(name);
    return <Splitter label="Sidebar width" value={stored ?? initial} min={180} max={480} onChange={set} onReset={reset} />;
  };
}

const now = () => Number(screen.getByRole('separator', { name: 'Sidebar width' }).getAttribute('aria-valuenow'));

describe('splitter', () => {
  it('is a named vertical separator that arrows, Shift, Home and End move within its bounds', async () => {
    const Sized = await sized('sidebar', 260);
    render(<Sized />);
    const sep = screen.getByRole('separator', { name: 'Sidebar width' });
    expect(sep.getAttribute('aria-orientation')).toBe('vertical');
    expect([sep.getAttribute('aria-valuemin'), sep.getAttribute('aria-valuemax'), sep.tabIndex]).toEqual(['180', '480', 0]);
    expect(now()).toBe(260);
    fireEvent.keyDown(sep, { key: 'ArrowRight' });
    expect(now()).toBe(270);
    fireEvent.keyDown(sep, { key: 'ArrowLeft', shiftKey: true });
    expect(now()).toBe(220);
    fireEvent.keyDown(sep, { key: 'Home' });
    expect(now()).toBe(180);
    fireEvent.keyDown(sep, { key: 'ArrowLeft' });
    expect(now()).toBe(180);
    fireEvent.keyDown(sep, { key: 'End' });
    expect(now()).toBe(480);
    fireEvent.keyDown(sep, { key: 'Enter' });
    expect(now()).toBe(260);
  });

  it('keeps the size for the next load; a double-click forgets it', async () => {
    let Sized = await sized('sidebar', 260);
    const first = render(<Sized />);
    fireEvent.keyDown(screen.getByRole('separator'), { key: 'ArrowRight', shiftKey: true });
    expect(now()).toBe(310);
    first.unmount();

    vi.resetModules();
    Sized = await sized('sidebar', 260);
    render(<Sized />);
    expect(now()).toBe(310);
    fireEvent.doubleClick(screen.getByRole('separator'));
    expect(now()).toBe(260);
    expect(JSON.parse(window.localStorage.getItem('statelens.layout') ?? '{}')).toEqual({});
  });

  it('ignores stored sizes that are not positive numbers', async () => {
    window.localStorage.setItem('statelens.layout', JSON.stringify({ sidebar: 'wide', 'column.key': -4, detail: 400 }));
    const { useLayoutSizesUnder } = await import('../app/layout-sizes');
    const Sized = await sized('sidebar', 260);
    let detail: Readonly<Record<string, number>> = {};
    function Probe() {
      detail = useLayoutSizesUnder('');
      return null;
    }
    render(
      <>
        <Sized />
        <Probe />
      </>,
    );
    expect(now()).toBe(260);
    expect(detail).toEqual({ detail: 400 });
  });
});

describe('fact panel width', () => {
  it('takes its share by default and never leaves the table less than its minimum', () => {
    expect(panelWidth(1180, false, null)).toEqual({ width: 378, min: 300, max: 660 });
    expect(panelWidth(1020, false, null).width).toBe(340);
    expect(panelWidth(1020, false, 900).width).toBe(500);
    expect(panelWidth(1020, true, null).width).toBe(500);
    expect(panelWidth(1400, true, null).width).toBe(700);
    expect(panelWidth(600, false, 900).width).toBe(300);
  });
});
