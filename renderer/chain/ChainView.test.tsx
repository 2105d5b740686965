import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Fact } from '../../shared/domain';
import { chainFixture, fact } from '../test-utils/fixtures';
import { ChainDiagram } from './ChainView';
import { boxesOverlap, CARD_H, cardBox, clampLines, GAP, labelBox, layoutChain, segmentCrossesBox, splitLanes, validAt } from './layout';
import { diffWords } from './value-diff';

afterEach(cleanup);

const T = (d: string) => `2026-${d}T08:00:00.000Z`;

/** A price chain like the demo's: two versions arrived late with older timestamps (written after
 * the version that had already replaced their time), and a proposal against the head. */
function lateChain(): { versions: Fact[]; proposals: Fact[] } {
  const temporal = (after: string, before: string) => `newer timestamp on a time-sensitive key (${after} after ${before})`;
  const late = (ts: string, current: string) =>
    `arrived late with an older timestamp (${ts}) than the current fact (${current}); in the history from its timestamp until the next fact's`;
  const base = { key: 'quote.price', status: 'superseded' as const, isValid: false, supersessionRule: 'temporal' as const };
  const a = fact({
    ...base,
    id: 'a',
    value: '$18.40 per pallet',
    ts: T('01-08'),
    createdAt: T('11-25'),
    supersededBy: 'b',
    supersessionReason: temporal(T('01-11'), T('01-08')),
  });
  const b = fact({
    ...base,
    id: 'b',
    value: '$19.10 per pallet',
    ts: T('01-11'),
    createdAt: T('11-26'),
    supersedes: 'a',
    supersededBy: 'd',
    supersessionReason: temporal(T('06-07'), T('01-11')),
  });
  const c = fact({
    ...base,
    id: 'c',
    value: '$17.90 per pallet',
    ts: T('01-09'),
    createdAt: T('11-27'),
    supersededBy: 'b',
    supersessionReason: late(T('01-09'), T('01-11')),
  });
  const d = fact({
    ...base,
    id: 'd',
    value: '$72.51 per pallet',
    ts: T('06-07'),
    createdAt: T('11-28'),
    supersedes: 'b',
    supersededBy: 'f',
    supersessionReason: temporal(T('06-17'), T('06-07')),
  });
  const e = fact({
    ...base,
    id: 'e',
    value: '$70.92 per pallet',
    ts: T('06-04'),
    createdAt: T('11-30'),
    supersededBy: 'f',
    supersessionReason: late(T('06-04'), T('06-17')),
  });
  const f = fact({
    ...base,
    id: 'f',
    value: '$86.39 per pallet',
    ts: T('06-17'),
    createdAt: T('11-29'),
    supersedes: 'd',
    supersededBy: 'g',
    supersessionReason: temporal(T('08-30'), T('06-17')),
  });
  const g = fact({ id: 'g', key: 'quote.price', value: '$46.01 per pallet', ts: T('08-30'), createdAt: T('12-01'), supersedes: 'f' });
  const p = fact({
    id: 'p',
    key: 'quote.price',
    value: '$32.16 per pallet',
    ts: T('12-02'),
    createdAt: T('12-02'),
    status: 'proposal',
    isValid: false,
    proposalFor: 'g',
    supersessionRule: 'authority',
    supersessionReason: 'intern may not override employee; kept as a subordinate proposal',
  });
  // Ordered by timestamp, as the engine lists a chain.
  return { versions: [a, c, b, e, d, f, g], proposals: [p] };
}

describe('chain layout', () => {
  it('places versions in time order without overlap and proposals under their target', () => {
    const { versions, proposals } = chainFixture();
    const l = layoutChain(versions, proposals, null);
    const ys = l.cards.filter((c) => c.kind === 'version').map((c) => c.y);
    for (let i = 1; i < ys.length; i++) expect((ys[i] ?? 0) - (ys[i - 1] ?? 0)).toBeGreaterThanOrEqual(CARD_H + GAP);
    const p = l.cards.find((c) => c.kind === 'proposal');
    const target = l.cards.find((c) => c.fact.id === 'v3');
    expect(p?.y).toBe(target?.y);
    expect(p && target && p.x > target.x).toBe(true);
    expect(l.arrows.map((a) => [a.step, a.from.fact.id, a.to.fact.id, a.rule])).toEqual([
      [1, 'v1', 'v2', 'implicit'],
      [2, 'v2', 'v3', 'authority'],
      [3, 'p1', 'v3', 'authority'],
    ]);
  });

  it('draws versions that arrived late in their own lane, the main line in the order it replaced itself', () => {
    const { versions, proposals } = lateChain();
    expect(splitLanes(versions).main.map((v) => v.id)).toEqual(['a', 'b', 'd', 'f', 'g']);
    expect(splitLanes(versions).late.map((v) => v.id)).toEqual(['c', 'e']);
    const l = layoutChain(versions, proposals, null);
    const main = l.cards.filter((c) => c.kind === 'version');
    const side = l.cards.filter((c) => c.kind !== 'version');
    expect(new Set(main.map((c) => c.x)).size).toBe(1);
    expect(side.map((c) => c.fact.id)).toEqual(['c', 'e', 'p']);
    for (const s of side) expect(s.x).toBeGreaterThan((main[0]?.x ?? 0) + 184);
    // A late version sits beside the moment it belongs to: between the versions around its time.
    const y = (id: string) => l.cards.find((c) => c.fact.id === id)?.y ?? NaN;
    expect(y('c')).toBeGreaterThanOrEqual(y('a'));
    expect(y('c')).toBeLessThan(y('b'));
    // Main-line arrows join neighbours only.
    const mainArrows = l.arrows.filter((a) => a.kind === 'supersession').map((a) => `${a.from.fact.id}>${a.to.fact.id}`);
    expect(mainArrows).toEqual(['a>b', 'b>d', 'd>f', 'f>g']);
    const lateArrows = l.arrows.filter((a) => a.kind === 'late');
    expect(lateArrows.map((a) => `${a.from.fact.id}>${a.to.fact.id}`)).toEqual(['c>b', 'e>f']);
  });

  it('routes no arrow behind a card and hides no label, whatever the chain', () => {
    for (const { versions, proposals } of [lateChain(), chainFixture()]) {
      const l = layoutChain(versions, proposals, null);
      for (const a of l.arrows) {
        for (let i = 1; i < a.points.length; i++) {
          const p = a.points[i - 1];
          const q = a.points[i];
          if (!p || !q) continue;
          for (const c of l.cards) expect(segmentCrossesBox(p, q, cardBox(c)), `arrow ${a.step} crosses ${c.fact.id}`).toBe(false);
        }
        for (const c of l.cards) expect(boxesOverlap(labelBox(a), cardBox(c)), `label ${a.step} over ${c.fact.id}`).toBe(false);
        for (const b of l.arrows) if (b !== a) expect(boxesOverlap(labelBox(a), labelBox(b)), `labels ${a.step} and ${b.step}`).toBe(false);
        expect(a.labelAt.x).toBeGreaterThanOrEqual(0);
        expect(a.labelAt.y).toBeGreaterThanOrEqual(0);
        expect(labelBox(a).x + labelBox(a).w).toBeLessThanOrEqual(l.width);
      }
      for (const c of l.cards) for (const d of l.cards) if (c !== d) expect(boxesOverlap(cardBox(c), cardBox(d))).toBe(false);
    }
  });

  it('labels each arrow with what happened: a late arrival is not a newer time', () => {
    const l = layoutChain(...(Object.values(lateChain()) as [Fact[], Fact[]]), null);
    const byFrom = new Map(l.arrows.map((a) => [a.from.fact.id, a]));
    expect(byFrom.get('a')?.label).toBe('temporal: newer time');
    expect(byFrom.get('c')?.label).toBe('temporal: arrived late');
    expect(byFrom.get('c')?.reason).toMatch(/^arrived late with an older timestamp/);
    expect(byFrom.get('p')?.label).toBe('failed: lower authority');
  });

  it('finds segments that enter a box, not those that pass beside it', () => {
    const box = { x: 0, y: 0, w: 10, h: 10 };
    expect(segmentCrossesBox({ x: -5, y: 5 }, { x: 15, y: 5 }, box)).toBe(true);
    expect(segmentCrossesBox({ x: 5, y: -5 }, { x: 5, y: 3 }, box)).toBe(true);
    expect(segmentCrossesBox({ x: -5, y: -1 }, { x: 15, y: -1 }, box)).toBe(false);
    expect(segmentCrossesBox({ x: 10, y: 5 }, { x: 20, y: 5 }, box)).toBe(false);
  });

  it('knows which version was valid at a past instant', () => {
    const { versions } = chainFixture();
    const [v1, v2, v3] = versions;
    if (!v1 || !v2 || !v3) throw new Error('fixture');
    expect(validAt(v1, '2025-02-01T00:00:00.000Z')).toBe(true);
    expect(validAt(v2, '2025-02-01T00:00:00.000Z')).toBe(false);
    expect(validAt(v2, '2025-05-01T00:00:00.000Z')).toBe(true);
    expect(validAt(v3, '2025-05-01T00:00:00.000Z')).toBe(false);
    expect(validAt(v3, null)).toBe(true);
  });

  it('clamps long values into a few lines', () => {
    const lines = clampLines('one two three four five six seven eight nine ten eleven twelve', 12, 2);
    expect(lines).toHaveLength(2);
    expect(lines[1]?.endsWith('…')).toBe(true);
  });

  it('diffs consecutive values word by word', () => {
    expect(diffWords('$18.40 per pallet', '$19.10 per pallet')).toEqual([
      { kind: 'remove', text: '$18.40' },
      { kind: 'add', text: '$19.10' },
      { kind: 'same', text: ' per pallet' },
    ]);
    expect(diffWords('', 'new')).toEqual([{ kind: 'add', text: 'new' }]);
    expect(diffWords('same', 'same')).toEqual([{ kind: 'same', text: 'same' }]);
  });
});

describe('ChainDiagram', () => {
  it('shows every version with value, time, source, the rule, and proposals beside', () => {
    const { versions, proposals } = chainFixture();
    const onSelect = vi.fn();
    render(<ChainDiagram versions={versions} proposals={proposals} asOf={null} selectedId="v3" onSelect={onSelect} />);
    const svg = screen.getByTestId('chain-svg');
    const cards = within(svg).getAllByRole('button');
    expect(cards).toHaveLength(4);
    expect(svg.textContent).toContain('Ana lives in Lyon');
    expect(svg.textContent).toContain('Ana lives in Paris <b>now</b>'.slice(0, 20));
    expect(svg.querySelector('b')).toBeNull();
    expect(svg.textContent).toContain('implicit: same key, new value');
    expect(svg.textContent).toContain('failed: lower authority');
    expect(svg.textContent).toContain('authority: outranked');
    expect(svg.textContent).toContain('document · executive');
    expect(svg.textContent).toContain('2025-08-01');
    fireEvent.click(cards[0] as Element);
    expect(onSelect).toHaveBeenCalledWith('v1');
    fireEvent.keyDown(cards[1] as Element, { key: 'Enter' });
    expect(onSelect).toHaveBeenCalledWith('v2');
  });

  it('lists every step with its full reason and the value diff', () => {
    const { versions, proposals } = lateChain();
    render(<ChainDiagram versions={versions} proposals={proposals} asOf={null} selectedId="g" onSelect={() => {}} />);
    const steps = within(screen.getByRole('list', { name: 'What happened at each step' })).getAllByRole('listitem');
    expect(steps).toHaveLength(7);
    const late = steps.find((s) => s.textContent?.includes('temporal: arrived late'));
    expect(late?.textContent).toContain(
      "arrived late with an older timestamp (2026-01-09 08:00:00 UTC) than the current fact (2026-01-11 08:00:00 UTC); in the history from its timestamp until the next fact's",
    );
    expect(late?.querySelector('del')?.textContent).toContain('$17.90');
    expect(late?.querySelector('ins')?.textContent).toContain('$19.10');
    // Versions are named by value and speaker, not by their time alone.
    expect(late?.querySelector('.chain-step-route')?.textContent).toMatch(/“\$17\.90[^”]*” \(\w+\) was already outdated by “\$19\.10/);
  });

  it('marks the as-of instant and the version valid then', () => {
    const { versions, proposals } = chainFixture();
    render(<ChainDiagram versions={versions} proposals={proposals} asOf="2025-05-01T00:00:00.000Z" selectedId={null} onSelect={() => {}} />);
    const svg = screen.getByTestId('chain-svg');
    expect(svg.textContent).toContain('as of 2025-05-01');
    const validThen = svg.querySelectorAll('.chain-card.valid-at');
    expect(validThen).toHaveLength(1);
    expect(validThen[0]?.getAttribute('data-fact-id')).toBe('v2');
  });
});
