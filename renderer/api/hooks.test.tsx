import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { StrictMode, useState } from 'react';
import { describe, expect, it } from 'vitest';
import { externalWrite } from '../../test/e2e/helpers/backend';
import type { CallChannel } from '../../shared/contract';
import type { FactFilterInput, FactSort } from '../../shared/query';
import { gatedTransport } from '../test-utils/gated-transport';
import { startSeeded, transportFor } from '../test-utils/harness';
import { useFactPages } from './fact-pages';
import { ApiProvider, INVALIDATION_COALESCE_MS, useMutation, useQuery } from './hooks';

const NEWEST: FactSort = { column: 'ts', direction: 'desc' };

const count = (calls: readonly string[], channel: CallChannel) => calls.filter((c) => c === channel).length;
const settle = () => act(() => new Promise((resolve) => setTimeout(resolve, INVALIDATION_COALESCE_MS * 4)));

describe('queries on the real backend', () => {
  it('two views asking the same thing share one call, first and on every refresh', async () => {
    const backend = await startSeeded();
    const calls: string[] = [];
    const pid = backend.seeded.mainPartition;
    function Facts({ label }: { label: string }) {
      const q = useQuery('partitions.list', {});
      return <p data-testid={label}>{q.data ? String(q.data.partitions.find((p) => p.id === pid)?.facts) : 'loading'}</p>;
    }
    render(
      <ApiProvider transport={transportFor(backend, calls)}>
        <Facts label="a" />
        <Facts label="b" />
      </ApiProvider>,
    );
    await waitFor(() => expect(screen.getByTestId('a').textContent).toMatch(/^\d+$/));
    const before = Number(screen.getByTestId('a').textContent);
    expect(screen.getByTestId('b').textContent).toBe(String(before));
    expect(count(calls, 'partitions.list')).toBe(1);

    externalWrite(backend.dbPath, { key: 'shared_probe', value: 'written elsewhere', ts: '2030-01-01T00:00:00.000Z' });
    await waitFor(() => expect(screen.getByTestId('a').textContent).toBe(String(before + 1)));
    expect(screen.getByTestId('b').textContent).toBe(String(before + 1));
    expect(count(calls, 'partitions.list')).toBe(2);
  });

  it('keeps the old rows on screen while the table re-reads after a change, then shows the new one', async () => {
    const backend = await startSeeded();
    const gate = gatedTransport(transportFor(backend));
    function Table() {
      const p = useFactPages(backend.seeded.mainPartition, {}, NEWEST);
      return (
        <div>
          <p data-testid="state">{p.loading ? 'loading' : p.refreshing ? 'refreshing' : 'idle'}</p>
          <ul aria-label="rows">
            {p.rows.map((r) => (
              <li key={r.id}>{r.value}</li>
            ))}
          </ul>
        </div>
      );
    }
    render(
      <ApiProvider transport={gate.transport}>
        <Table />
      </ApiProvider>,
    );
    await waitFor(() => expect(screen.getByTestId('state').textContent).toBe('idle'));
    const rowsBefore = screen.getByRole('list', { name: 'rows' }).children.length;
    expect(rowsBefore).toBeGreaterThan(10);

    gate.shut('facts.list');
    externalWrite(backend.dbPath, { key: 'swr_probe', value: 'the newest fact', ts: '2030-01-01T00:00:00.000Z' });
    await waitFor(() => expect(screen.getByTestId('state').textContent).toBe('refreshing'));
    await waitFor(() => expect(gate.held).toContain('facts.list'));
    // The refetch is out: the rows it will replace are still there, all of them.
    expect(screen.getByRole('list', { name: 'rows' }).children.length).toBe(rowsBefore);
    expect(screen.queryByText('the newest fact')).toBeNull();

    gate.open();
    await waitFor(() => expect(screen.getByRole('list', { name: 'rows' }).firstElementChild?.textContent).toBe('the newest fact'));
    expect(screen.getByTestId('state').textContent).toBe('idle');
  });

  it("a filter whose query fails shows its error alone: the previous filter's rows are not kept beside it", async () => {
    const backend = await startSeeded();
    const gate = gatedTransport(transportFor(backend));
    const seen: Array<{ rows: number; reloading: boolean; error: string | undefined }> = [];
    function Table() {
      const [filter, setFilter] = useState<FactFilterInput>({ search: 'zebra' });
      const p = useFactPages(backend.seeded.mainPartition, filter, NEWEST);
      seen.push({ rows: p.rows.length, reloading: p.reloading, error: p.error?.code });
      return (
        <div>
          <button onClick={() => setFilter({ search: '((' })}>garbage</button>
          <p data-testid="rows">{p.rows.length}</p>
          <p data-testid="flags">{`${p.reloading ? 'reloading' : 'current'} ${p.error ? p.error.code : 'ok'}`}</p>
        </div>
      );
    }
    render(
      <ApiProvider transport={gate.transport}>
        <Table />
      </ApiProvider>,
    );
    await waitFor(() => expect(screen.getByTestId('rows').textContent).toBe(String(backend.seeded.zebraCount)));

    gate.shut('facts.list');
    fireEvent.click(screen.getByRole('button', { name: 'garbage' }));
    // While the new query is out, the old rows are shown but marked as another filter's.
    await waitFor(() => expect(gate.held).toContain('facts.list'));
    expect(screen.getByTestId('flags').textContent).toBe('reloading ok');
    expect(screen.getByTestId('rows').textContent).toBe(String(backend.seeded.zebraCount));

    gate.open();
    await waitFor(() => expect(screen.getByTestId('flags').textContent).toBe('current INVALID_INPUT'));
    expect(screen.getByTestId('rows').textContent).toBe('0');
    // Never the old rows presented as this filter's result, nor beside its error.
    const afterSwitch = seen.slice(seen.findIndex((s) => s.reloading));
    expect(afterSwitch.filter((s) => s.rows > 0 && !s.reloading)).toEqual([]);
    expect(seen.filter((s) => s.rows > 0 && s.error !== undefined)).toEqual([]);
  });

  it('a mutation holds refreshes until it has landed and its onSuccess has run, then one refresh runs', async () => {
    const backend = await startSeeded();
    const calls: string[] = [];
    const gate = gatedTransport(transportFor(backend, calls));
    const pid = backend.seeded.mainPartition;
    const factId = backend.seeded.flaggedId;
    const events: string[] = [];
    const off = backend.subscribe((name) => {
      if (name === 'data.changed') events.push(name);
    });
    const order: string[] = [];
    function Panel() {
      const q = useQuery('facts.get', { partitionId: pid, factId });
      const dismiss = useMutation('review.dismiss', { onSuccess: () => order.push(`onSuccess with ${count(calls, 'facts.get')} reads`) });
      return (
        <div>
          <p data-testid="flag">{q.data ? (q.data.fact.needsReview ? 'flagged' : 'clear') : 'loading'}</p>
          <button onClick={() => void dismiss.mutate({ partitionId: pid, factIds: [factId] }).then(() => order.push('answered'))}>dismiss</button>
        </div>
      );
    }
    // In strict mode, as the app runs in development: effects are set up, torn down and set up again.
    render(
      <StrictMode>
        <ApiProvider transport={gate.transport}>
          <Panel />
        </ApiProvider>
      </StrictMode>,
    );
    await waitFor(() => expect(screen.getByTestId('flag').textContent).toBe('flagged'));
    expect(count(calls, 'facts.get')).toBe(1);

    gate.shut('review.dismiss');
    fireEvent.click(screen.getByRole('button', { name: 'dismiss' }));
    // The engine has written and announced the change; the answer is still on its way.
    await waitFor(() => expect(events.length).toBeGreaterThan(0));
    await settle();
    expect(count(calls, 'facts.get')).toBe(1);
    expect(screen.getByTestId('flag').textContent).toBe('flagged');

    gate.open();
    await waitFor(() => expect(screen.getByTestId('flag').textContent).toBe('clear'));
    await settle();
    off();
    expect(order).toEqual(['onSuccess with 1 reads', 'answered']);
    expect(count(calls, 'facts.get')).toBe(2);
  });
});
