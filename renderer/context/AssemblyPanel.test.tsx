import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { assembly } from '../test-utils/fixtures';
import { AssemblyPanel, MissingDocument } from './AssemblyPanel';
import { ComparePanel } from './ContextView';
import { itemDiff, includedOf, pieces } from './spans';

afterEach(cleanup);

const A = assembly(
  'state_based',
  [
    { id: 'f1', label: 'home_city', text: 'Ana is based in Munich' },
    { id: 'f2', label: 'q3_budget', text: 'Budget <script>alert(1)</script> capped' },
  ],
  [
    { id: 'f3', label: 'old_city', reason: 'superseded' },
    { id: 'f4', label: 'trivia', reason: 'budget' },
    { id: 'f5', label: 'more trivia', reason: 'budget' },
  ],
);
const B = assembly('recent', [
  { id: 'f2', label: 'q3_budget', text: 'Budget <script>alert(1)</script> capped' },
  { id: 'f4', label: 'trivia', text: 'Coffee at nine' },
]);

describe('provenance spans', () => {
  it('cuts the text into plain pieces and item spans covering it exactly', () => {
    const parts = pieces(A.text, includedOf(A.provenance));
    expect(parts.map((p) => p.text).join('')).toBe(A.text);
    expect(parts.filter((p) => p.item).map((p) => p.text)).toEqual(['Ana is based in Munich', 'Budget <script>alert(1)</script> capped']);
  });

  it('diffs the items two strategies included', () => {
    const d = itemDiff(includedOf(A.provenance), includedOf(B.provenance));
    expect(d.onlyA.map((p) => p.id)).toEqual(['f1']);
    expect(d.onlyB.map((p) => p.id)).toEqual(['f4']);
    expect(d.both.map((x) => [x.a.rank, x.b.rank])).toEqual([[2, 1]]);
  });
});

describe('AssemblyPanel', () => {
  it('highlights each included fact, shows provenance on hover and groups exclusions', () => {
    const onOpen = vi.fn();
    render(<AssemblyPanel result={A} onOpenFact={onOpen} />);
    const panel = screen.getByRole('article', { name: 'Context assembled by state_based' });
    const spans = panel.querySelectorAll('mark.prov-span');
    expect(spans).toHaveLength(2);
    expect(panel.querySelector('script')).toBeNull();
    expect(panel.textContent).toContain('<script>alert(1)</script>');
    fireEvent.mouseEnter(spans[0] as Element);
    const tip = screen.getByRole('tooltip');
    expect(tip.textContent).toContain('home_city');
    expect(tip.textContent).toContain('#1');
    expect(tip.textContent).toContain('f1');
    fireEvent.click(spans[1] as Element);
    expect(onOpen).toHaveBeenCalledWith('f2');
    const excluded = within(panel).getByRole('region', { name: 'Excluded by state_based' });
    expect(excluded.textContent).toContain('out of budget');
    expect(excluded.textContent).toContain('superseded');
    expect(within(panel).getAllByRole('meter').length).toBeGreaterThanOrEqual(2);
  });

  it('compares two strategies item by item and line by line', () => {
    render(<ComparePanel results={[A, B]} />);
    const diff = screen.getByTestId('item-diff');
    expect(within(diff).getByRole('region', { name: 'Only in state_based' }).textContent).toContain('home_city');
    expect(within(diff).getByRole('region', { name: 'Only in recent' }).textContent).toContain('trivia');
    expect(screen.getByLabelText('Differences between state_based and recent').textContent).toContain('Coffee at nine');
  });
});

describe('MissingDocument', () => {
  const session = (sessionId: string, contextDocumentVersions: number) => ({
    sessionId,
    workingItems: 0,
    hasAgentState: false,
    contextDocumentVersions,
    lastActivityAt: null,
  });

  it("says the session's first version came after the as-of time, and offers the others", () => {
    const onSelect = vi.fn();
    render(
      <MissingDocument
        sessionId="s1"
        asOf="2025-01-01T00:00:00.000Z"
        sessions={[session('s1', 2), session('s2', 1), session('s3', 0)]}
        onSelectSession={onSelect}
      />,
    );
    const notice = screen.getByTestId('missing-document');
    expect(notice.textContent).toContain('Session “s1” had no context document yet as of 2025-01-01 00:00:00 UTC');
    const list = within(notice).getByRole('list', { name: 'Sessions with a context document' });
    expect(
      within(list)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['s2']);
    fireEvent.click(within(list).getByRole('button', { name: 's2' }));
    expect(onSelect).toHaveBeenCalledWith('s2');
  });

  it('says when no session has one', () => {
    render(<MissingDocument sessionId="default" asOf={null} sessions={[session('s3', 0)]} />);
    expect(screen.getByTestId('missing-document').textContent).toContain('No session of this partition has a context document.');
  });
});
