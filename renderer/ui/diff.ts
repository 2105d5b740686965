// Line diff (longest common subsequence) for comparing assembled contexts and context-document
// versions. Texts beyond the cap are compared by their first lines only (and say so).

export type DiffOp = { readonly kind: 'same' | 'add' | 'remove'; readonly text: string };

export const DIFF_LINE_CAP = 4000;

export function diffLines(a: string, b: string): { ops: DiffOp[]; truncated: boolean } {
  let la = a.split('\n');
  let lb = b.split('\n');
  const truncated = la.length > DIFF_LINE_CAP || lb.length > DIFF_LINE_CAP;
  la = la.slice(0, DIFF_LINE_CAP);
  lb = lb.slice(0, DIFF_LINE_CAP);
  // Trim the common head and tail first: most edits are local, which keeps the table small.
  let head = 0;
  while (head < la.length && head < lb.length && la[head] === lb[head]) head++;
  let tail = 0;
  while (tail < la.length - head && tail < lb.length - head && la[la.length - 1 - tail] === lb[lb.length - 1 - tail]) tail++;
  const ma = la.slice(head, la.length - tail);
  const mb = lb.slice(head, lb.length - tail);
  const n = ma.length;
  const m = mb.length;
  const ops: DiffOp[] = la.slice(0, head).map((text) => ({ kind: 'same', text }));
  if (n * m > 16_000_000) {
    for (const text of ma) ops.push({ kind: 'remove', text });
    for (const text of mb) ops.push({ kind: 'add', text });
  } else {
    const dp = new Uint32Array((n + 1) * (m + 1));
    for (let i = n - 1; i >= 0; i--) {
      for (let j = m - 1; j >= 0; j--) {
        dp[i * (m + 1) + j] =
          ma[i] === mb[j] ? (dp[(i + 1) * (m + 1) + j + 1] ?? 0) + 1 : Math.max(dp[(i + 1) * (m + 1) + j] ?? 0, dp[i * (m + 1) + j + 1] ?? 0);
      }
    }
    let i = 0;
    let j = 0;
    while (i < n && j < m) {
      if (ma[i] === mb[j]) {
        ops.push({ kind: 'same', text: ma[i] as string });
        i++;
        j++;
      } else if ((dp[(i + 1) * (m + 1) + j] ?? 0) >= (dp[i * (m + 1) + j + 1] ?? 0)) {
        ops.push({ kind: 'remove', text: ma[i] as string });
        i++;
      } else {
        ops.push({ kind: 'add', text: mb[j] as string });
        j++;
      }
    }
    while (i < n) ops.push({ kind: 'remove', text: ma[i++] as string });
    while (j < m) ops.push({ kind: 'add', text: mb[j++] as string });
  }
  for (const text of la.slice(la.length - tail)) ops.push({ kind: 'same', text });
  return { ops, truncated };
}
