import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ErrorBoundary } from './ErrorBoundary';

afterEach(cleanup);

/** A view that throws while `broken.now` is true: the test mends it before "Try again". */
const broken = { now: true };
function Boom(): React.ReactNode {
  if (broken.now) throw new Error('<b>broken</b> view');
  return <p>fine</p>;
}

describe('ErrorBoundary', () => {
  it('turns a crashed view into an error state that says what to do, and "Try again" draws it anew', () => {
    const spy = vi.spyOn(console, 'error').mockImplementation(() => {});
    broken.now = true;
    render(
      <ErrorBoundary label="Memories">
        <Boom />
      </ErrorBoundary>,
    );
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toContain('The Memories view failed to draw');
    expect(alert.textContent).toContain('<b>broken</b> view');
    expect(alert.querySelector('b')).toBeNull();
    // Still broken: trying again shows the error again (no blank, no crash of the page).
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(screen.getByRole('alert').textContent).toContain('failed to draw');
    // Mended (e.g. the data that tripped it changed): trying again draws the view.
    broken.now = false;
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByText('fine')).toBeTruthy();
    spy.mockRestore();
  });
});
