import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { PartitionSummary } from '../../shared/domain';
import { groupPartitions, PartitionTree } from './PartitionTree';

afterEach(cleanup);

const p = (id: number, ref: PartitionSummary['ref'], facts = 10): PartitionSummary => ({
  id,
  ref,
  label:
    ref.kind === 'user'
      ? `${ref.org} / user ${ref.user}`
      : ref.kind === 'capability'
        ? `${ref.org} / capability ${ref.capability}`
        : `${ref.org} / organisational knowledge`,
  maturity: ref.kind === 'capability' ? 'senior' : null,
  facts,
  validFacts: facts - 1,
  needsReview: id === 2 ? 4 : 0,
  workingItems: 0,
  documents: 0,
});

describe('partition picker', () => {
  it('groups organisations into users, capabilities and organisational knowledge with counts', () => {
    const parts = [
      p(1, { kind: 'user', org: 'acme', user: 'ana' }),
      p(2, { kind: 'capability', org: 'acme', capability: 'bot' }),
      p(3, { kind: 'organizational', org: 'acme' }),
      p(4, { kind: 'user', org: 'globex', user: 'bob' }),
    ];
    expect(groupPartitions(parts).map((g) => [g.org, g.kinds.map((k) => k.kind)])).toEqual([
      ['acme', ['user', 'capability', 'organizational']],
      ['globex', ['user']],
    ]);
    const onSelect = vi.fn();
    render(<PartitionTree partitions={parts} selectedId={1} onSelect={onSelect} />);
    const nav = screen.getByRole('navigation', { name: 'Partitions' });
    expect(within(nav).getByRole('button', { name: 'acme / capability bot: 9 valid of 10 facts, 4 need review' })).toBeTruthy();
    expect(
      within(nav)
        .getByRole('button', { name: /acme \/ user ana/ })
        .getAttribute('aria-current'),
    ).toBe('true');
    fireEvent.click(within(nav).getByRole('button', { name: /globex \/ user bob/ }));
    expect(onSelect).toHaveBeenCalledWith(4);
    expect(within(nav).queryByRole('searchbox')).toBeNull();
  });

  it('offers a filter when there are many partitions', () => {
    const parts = Array.from({ length: 30 }, (_, i) => p(i + 1, { kind: 'user', org: 'sb', user: `S-${String(i).padStart(3, '0')}` }));
    render(<PartitionTree partitions={parts} selectedId={1} onSelect={() => {}} />);
    fireEvent.change(screen.getByRole('searchbox', { name: 'Filter partitions' }), { target: { value: 's-02' } });
    const names = screen.getAllByRole('button').map((b) => b.getAttribute('aria-label'));
    expect(names.length).toBe(11);
    expect(names.filter((n) => n?.includes('S-02'))).toHaveLength(10);
  });

  it('organisations collapse: with many partitions only the chosen one starts open', () => {
    const parts = Array.from({ length: 20 }, (_, i) => p(i + 1, { kind: 'user', org: i < 10 ? 'acme' : 'globex', user: `u${i}` }));
    const { container } = render(<PartitionTree partitions={parts} selectedId={15} onSelect={() => {}} />);
    const orgs = [...container.querySelectorAll('details.partition-org')] as HTMLDetailsElement[];
    expect(orgs.map((d) => [d.querySelector('summary')?.textContent, d.open])).toEqual([
      ['acme10', false],
      ['globex10', true],
    ]);
  });
});
