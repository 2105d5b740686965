// Line and token diffs for comparing assembled contexts, context-document versions and fact
// values, on the `diff` package's Myers diff (memory grows with the edit, not with the texts'
// product). Texts beyond the line cap are compared by their first lines only (and say so).
import { diffArrays } from 'diff';

export type DiffOp = { readonly kind: 'same' | 'add' | 'remove'; readonly text: string };

/** More lines than a diff view can usefully show: the rest is left out (and the view says so). */
export const DIFF_LINE_CAP = 4000;
/** Beyond this many edits the two sides are shown as replaced wholesale: a diff that large
 * explains nothing and would take long to find. */
export const MAX_EDITS = 1000;

/** One op per token: unchanged, removed from `a` or added in `b`, in reading order. */
export function diffTokens(a: readonly string[], b: readonly string[]): DiffOp[] {
  const changes = diffArrays([...a], [...b], { maxEditLength: MAX_EDITS });
  if (!changes) return [...a.map((text) => ({ kind: 'remove' as const, text })), ...b.map((text) => ({ kind: 'add' as const, text }))];
  const ops: DiffOp[] = [];
  for (const c of changes) {
    const kind = c.added ? 'add' : c.removed ? 'remove' : 'same';
    for (const text of c.value) ops.push({ kind, text });
  }
  return ops;
}

export function diffLines(a: string, b: string): { ops: DiffOp[]; truncated: boolean } {
  const la = a.split('\n');
  const lb = b.split('\n');
  const truncated = la.length > DIFF_LINE_CAP || lb.length > DIFF_LINE_CAP;
  return { ops: diffTokens(la.slice(0, DIFF_LINE_CAP), lb.slice(0, DIFF_LINE_CAP)), truncated };
}
