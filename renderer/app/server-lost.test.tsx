import { act, render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { StatelensError } from '../../shared/errors';
import type { Transport } from '../api/transport';
import { startSeeded, transportFor } from '../test-utils/harness';
import { Root } from './Root';

describe('a database server that stops answering', () => {
  it('shows as reconnecting in the status bar, retries, and is live again when the server answers', async () => {
    const backend = await startSeeded();
    const real = transportFor(backend);
    let serverDown = false;
    let retried = 0;
    const transport: Transport = {
      ...real,
      async call(channel, input) {
        if (serverDown && channel === 'partitions.list') {
          retried += 1;
          throw new StatelensError('DB_UNAVAILABLE', 'The PostgreSQL connection to db.example:5432 is unavailable: Connection terminated');
        }
        return real.call(channel, input);
      },
    };
    await act(async () => {
      render(<Root transport={transport} initial={{ partitionId: backend.seeded.mainPartition }} />);
    });
    await screen.findByRole('grid', { name: 'Memories' });
    expect(screen.getByTestId('live-indicator').getAttribute('data-connection')).toBe('live');
    serverDown = true;
    // An engine change makes the views ask again: the server's absence shows.
    await act(async () => backend.services.events.emit('data.changed', { origin: 'external', partitionIds: [], what: ['external write'] }));
    await waitFor(() => expect(screen.getByTestId('live-indicator').getAttribute('data-connection')).toBe('reconnecting'));
    expect(screen.getByTestId('live-indicator').textContent).toMatch(/database server does not answer/);
    const before = retried;
    await waitFor(() => expect(retried).toBeGreaterThan(before));
    serverDown = false;
    await waitFor(() => expect(screen.getByTestId('live-indicator').getAttribute('data-connection')).toBe('live'));
  }, 30_000);
});
