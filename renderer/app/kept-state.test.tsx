import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { KeptStateProvider, useKeptState } from './kept-state';

afterEach(cleanup);

let setLater: ((v: string) => void) | undefined;

function Field({ scope }: { scope: string }) {
  const [text, setText] = useKeptState(`field:${scope}`, 'initial');
  setLater = setText;
  return <output aria-label="text">{text}</output>;
}

function Shell({ show, scope }: { show: boolean; scope: string }) {
  return <KeptStateProvider>{show ? <Field scope={scope} /> : <span>elsewhere</span>}</KeptStateProvider>;
}

describe('kept state', () => {
  it('keeps a value per key across unmounting, including an update that lands meanwhile', () => {
    const { rerender } = render(<Shell show scope="p1" />);
    act(() => setLater?.('typed in p1'));
    expect(screen.getByLabelText('text').textContent).toBe('typed in p1');
    const lateSetter = setLater;
    rerender(<Shell show={false} scope="p1" />);
    act(() => lateSetter?.('result arrived while away'));
    rerender(<Shell show scope="p2" />);
    expect(screen.getByLabelText('text').textContent).toBe('initial');
    rerender(<Shell show scope="p1" />);
    expect(screen.getByLabelText('text').textContent).toBe('result arrived while away');
  });
});
