import { describe, expect, it } from 'vitest';
import type { ChannelOutput } from '../../shared/contract';
import type { FactRowView } from '../../shared/inspect';
import { pagesWithin } from './fact-pages';

type Page = ChannelOutput<'facts.list'>;

function page(rows: number, next: string | null): Page {
  return { rows: Array.from({ length: rows }, (_, i) => ({ id: `f${i}` }) as FactRowView), nextCursor: next, total: null };
}

describe('pagesWithin (what a live refresh re-reads of a deep scroll)', () => {
  const data = {
    pages: [page(200, 'a'), page(500, 'b'), page(500, 'c'), page(500, null)],
    pageParams: [
      { after: null, limit: 200 },
      { after: 'a', limit: 500 },
      { after: 'b', limit: 500 },
      { after: 'c', limit: 500 },
    ],
  };

  it('keeps every page when they fit under the cap, as the same object', () => {
    expect(pagesWithin(data, 1700)).toBe(data);
  });

  it('lets go of the pages past the cap, their cursors with them', () => {
    const kept = pagesWithin(data, 1300);
    expect(kept.pages.map((p) => p.rows.length)).toEqual([200, 500, 500]);
    expect(kept.pageParams.map((p) => p.after)).toEqual([null, 'a', 'b']);
  });

  it('keeps the first page whatever its size', () => {
    expect(pagesWithin(data, 10).pages).toHaveLength(1);
  });
});
