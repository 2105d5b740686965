import { act, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { Button } from './Button';
import { Dialog } from './Dialog';

function Confirming({ onClose }: { onClose: () => void }) {
  const [done, setDone] = useState(false);
  return (
    <Dialog
      title="Delete"
      onClose={onClose}
      footer={
        done ? (
          <Button onClick={onClose} data-autofocus>
            Close
          </Button>
        ) : (
          <>
            <Button onClick={onClose}>Cancel</Button>
            <Button onClick={() => setDone(true)}>Confirm</Button>
          </>
        )
      }
    >
      <p>{done ? 'Deleted.' : 'Sure?'}</p>
    </Dialog>
  );
}

describe('Dialog', () => {
  it('keeps the focus inside when the focused control is replaced, so Escape still closes it', async () => {
    const onClose = vi.fn();
    render(<Confirming onClose={onClose} />);
    const confirm = screen.getByRole('button', { name: 'Confirm' });
    confirm.focus();
    fireEvent.click(confirm);
    // The observer runs after the DOM change, as a microtask.
    await act(async () => {
      await Promise.resolve();
    });
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Close' }));
    fireEvent.keyDown(document.activeElement as Element, { key: 'Escape' });
    expect(onClose).toHaveBeenCalledTimes(1);
  });
});
