// A fact key on one line that, when it does not fit, gives way in the middle (CSS: the beginning
// shrinks first and ends in an ellipsis; the distinguishing tail stays, and when even the tail is
// too long it keeps its end, cut right after that ellipsis). The full key is in the
// title (hover) and the accessible name; search matches stay marked on either side of the cut.
import { useMemo } from 'react';
import { mergeRanges, segments, type Segment } from './highlight';
import { keyTailStart } from './key-text';

function split(segs: readonly Segment[], at: number): [Segment[], Segment[]] {
  const head: Segment[] = [];
  const tail: Segment[] = [];
  let pos = 0;
  for (const s of segs) {
    const end = pos + s.text.length;
    if (end <= at) head.push(s);
    else if (pos >= at) tail.push(s);
    else {
      head.push({ text: s.text.slice(0, at - pos), match: s.match });
      tail.push({ text: s.text.slice(at - pos), match: s.match });
    }
    pos = end;
  }
  return [head, tail];
}

function Pieces({ segs }: { segs: readonly Segment[] }) {
  return <>{segs.map((s, i) => (s.match ? <mark key={i}>{s.text}</mark> : <span key={i}>{s.text}</span>))}</>;
}

export function KeyText({ text, ranges = [], className }: { text: string; ranges?: ReadonlyArray<readonly [number, number]>; className?: string }) {
  const [head, tail] = useMemo(() => {
    const flat = text.replace(/[\r\n\t]/g, ' ');
    const valid = ranges.filter(([s, e]) => s >= 0 && e > s && s < flat.length).map(([s, e]) => [s, Math.min(e, flat.length)] as const);
    return split(segments(flat, mergeRanges(valid)), keyTailStart(flat));
  }, [text, ranges]);
  return (
    <span className={`key-text${className ? ` ${className}` : ''}`} title={text} data-key-text={text}>
      {head.length > 0 ? (
        <span className="key-text-head">
          <Pieces segs={head} />
        </span>
      ) : null}
      <span className={head.length > 0 ? 'key-text-tail' : 'key-text-tail key-text-whole'}>
        {/* One left-to-right run, so a tail cut at its start keeps its order. */}
        <bdi>
          <Pieces segs={tail} />
        </bdi>
      </span>
    </span>
  );
}
