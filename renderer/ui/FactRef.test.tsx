import { act, render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ApiProvider } from '../api/hooks';
import { gatedTransport } from '../test-utils/gated-transport';
import { startSeeded, transportFor } from '../test-utils/harness';
import { useFactBriefs } from './FactRef';

function Briefs({ partitionId, ids }: { partitionId: number; ids: readonly string[] }) {
  const { briefFor } = useFactBriefs(partitionId, ids);
  return (
    <ul aria-label="briefs">
      {ids.map((id) => {
        const b = briefFor(id);
        return <li key={id}>{b === undefined ? 'unknown' : b === null ? 'gone' : b.key}</li>;
      })}
    </ul>
  );
}

describe('useFactBriefs', () => {
  it('while a longer list loads, an id the previous answer did not cover is unknown, never "gone"', async () => {
    const backend = await startSeeded();
    const pid = backend.seeded.mainPartition;
    const gate = gatedTransport(transportFor(backend));
    const page = await gate.transport.call('facts.list', { partitionId: pid, page: { limit: 2 } });
    const [a, b] = page.rows;
    expect(a && b).toBeTruthy();
    const { rerender } = render(
      <ApiProvider transport={gate.transport}>
        <Briefs partitionId={pid} ids={[a!.id]} />
      </ApiProvider>,
    );
    await waitFor(() => expect(screen.getByRole('list', { name: 'briefs' }).textContent).toBe(a!.key));

    gate.shut('facts.briefs');
    rerender(
      <ApiProvider transport={gate.transport}>
        <Briefs partitionId={pid} ids={[a!.id, b!.id]} />
      </ApiProvider>,
    );
    await waitFor(() => expect(gate.held).toContain('facts.briefs'));
    const items = () => [...screen.getByRole('list', { name: 'briefs' }).children].map((li) => li.textContent);
    expect(items()).toEqual([a!.key, 'unknown']);

    await act(async () => gate.open());
    await waitFor(() => expect(items()).toEqual([a!.key, b!.key]));
  });
});
