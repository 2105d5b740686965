// A unified line diff, rendered as text rows (+ added, - removed), unchanged runs folded.
import { useMemo } from 'react';
import { diffLines, type DiffOp } from './diff';

const CONTEXT = 2;

type Row = DiffOp | { kind: 'fold'; count: number };

function fold(ops: readonly DiffOp[]): Row[] {
  const rows: Row[] = [];
  let i = 0;
  while (i < ops.length) {
    const op = ops[i] as DiffOp;
    if (op.kind !== 'same') {
      rows.push(op);
      i++;
      continue;
    }
    let j = i;
    while (j < ops.length && (ops[j] as DiffOp).kind === 'same') j++;
    const run = ops.slice(i, j);
    const keepHead = i === 0 ? 0 : CONTEXT;
    const keepTail = j === ops.length ? 0 : CONTEXT;
    if (run.length > keepHead + keepTail + 1) {
      rows.push(...run.slice(0, keepHead));
      rows.push({ kind: 'fold', count: run.length - keepHead - keepTail });
      rows.push(...run.slice(run.length - keepTail));
    } else rows.push(...run);
    i = j;
  }
  return rows;
}

export function DiffView({ before, after, beforeLabel, afterLabel }: { before: string; after: string; beforeLabel: string; afterLabel: string }) {
  const { rows, added, removed, truncated } = useMemo(() => {
    const d = diffLines(before, after);
    return {
      rows: fold(d.ops),
      added: d.ops.filter((o) => o.kind === 'add').length,
      removed: d.ops.filter((o) => o.kind === 'remove').length,
      truncated: d.truncated,
    };
  }, [before, after]);
  return (
    <div className="diff" aria-label={`Differences between ${beforeLabel} and ${afterLabel}`}>
      <div className="row diff-summary">
        <span className="diff-remove-text">
          − {removed} line{removed === 1 ? '' : 's'} only in {beforeLabel}
        </span>
        <span className="diff-add-text">
          + {added} line{added === 1 ? '' : 's'} only in {afterLabel}
        </span>
        {truncated ? <span className="faint">(compared the first lines only)</span> : null}
      </div>
      {added === 0 && removed === 0 ? <p className="muted">The two texts are identical.</p> : null}
      <pre className="diff-body">
        {rows.map((r, i) =>
          r.kind === 'fold' ? (
            <div key={i} className="diff-fold">
              ⋯ {r.count} unchanged line{r.count === 1 ? '' : 's'}
            </div>
          ) : (
            <div key={i} className={`diff-line diff-${r.kind}`}>
              <span className="diff-sign" aria-hidden="true">
                {r.kind === 'add' ? '+' : r.kind === 'remove' ? '−' : ' '}
              </span>
              <span className="sr-only">{r.kind === 'add' ? 'added: ' : r.kind === 'remove' ? 'removed: ' : ''}</span>
              {r.text}
            </div>
          ),
        )}
      </pre>
    </div>
  );
}
