// Renders text with highlighted ranges in <mark>, each piece a React text node (never HTML):
// search matches the engine found (RangeText) or terms matched here (Highlight).
import { useMemo } from 'react';
import { highlightSegments, mergeRanges, segments, type Segment } from './highlight';

function Pieces({ segs, className }: { segs: readonly Segment[]; className?: string }) {
  return <span className={className}>{segs.map((s, i) => (s.match ? <mark key={i}>{s.text}</mark> : <span key={i}>{s.text}</span>))}</span>;
}

export function Highlight({ text, terms, className }: { text: string; terms: readonly string[]; className?: string }) {
  const segs = useMemo(() => (terms.length === 0 ? [{ text, match: false }] : highlightSegments(text, terms)), [text, terms]);
  return <Pieces segs={segs} className={className} />;
}

/** `text` with the [start, end) `ranges` marked; ellipses where the text was clipped. Newlines
 * flatten to spaces (one-line cells) without moving the ranges. */
export function RangeText({
  text,
  ranges,
  clippedStart,
  clippedEnd,
  className,
}: {
  text: string;
  ranges: ReadonlyArray<readonly [number, number]>;
  clippedStart?: boolean;
  clippedEnd?: boolean;
  className?: string;
}) {
  const segs = useMemo(() => {
    const flat = text.replace(/[\r\n\t]/g, ' ');
    const valid = ranges.filter(([s, e]) => s >= 0 && e > s && s < flat.length).map(([s, e]) => [s, Math.min(e, flat.length)] as const);
    const out = segments(flat, mergeRanges(valid));
    if (clippedStart) out.unshift({ text: '…', match: false });
    if (clippedEnd) out.push({ text: '…', match: false });
    return out;
  }, [text, ranges, clippedStart, clippedEnd]);
  return <Pieces segs={segs} className={className} />;
}
