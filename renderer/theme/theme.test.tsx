import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ThemeProvider, useTheme } from './theme';

/** jsdom has no matchMedia: a controllable system preference for these tests. */
function systemPrefersDark(dark: boolean): { set(dark: boolean): void } {
  const listeners = new Set<() => void>();
  const mq = {
    matches: dark,
    addEventListener: (_: string, l: () => void) => listeners.add(l),
    removeEventListener: (_: string, l: () => void) => listeners.delete(l),
  };
  Object.defineProperty(window, 'matchMedia', { configurable: true, value: () => mq });
  return {
    set(d: boolean) {
      mq.matches = d;
      for (const l of listeners) l();
    },
  };
}

function Probe() {
  const t = useTheme();
  return (
    <button type="button" onClick={t.toggle}>
      {t.preference}:{t.resolved}
    </button>
  );
}

afterEach(() => {
  cleanup();
  window.localStorage.clear();
  delete document.documentElement.dataset.theme;
});

describe('theme', () => {
  it('follows the system until the user picks, then remembers the pick', () => {
    const system = systemPrefersDark(true);
    render(
      <ThemeProvider>
        <Probe />
      </ThemeProvider>,
    );
    expect(screen.getByRole('button').textContent).toBe('system:dark');
    act(() => system.set(false));
    expect(screen.getByRole('button').textContent).toBe('system:light');
    fireEvent.click(screen.getByRole('button'));
    expect(screen.getByRole('button').textContent).toBe('dark:dark');
    expect(document.documentElement.dataset.theme).toBe('dark');
    expect(window.localStorage.getItem('statelens.theme')).toBe('dark');
    fireEvent.click(screen.getByRole('button'));
    expect(screen.getByRole('button').textContent).toBe('system:light');
    expect(document.documentElement.dataset.theme).toBeUndefined();
  });
});
