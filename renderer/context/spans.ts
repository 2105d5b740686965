// Cuts an assembled text into plain pieces and provenance spans (each included item's [start,
// end) range), so the view can highlight every item and show where it came from.
import type { IncludedProvenance } from '../../shared/assembly';

export type TextPiece = { readonly text: string; readonly item: IncludedProvenance | null };

export function pieces(text: string, included: readonly IncludedProvenance[]): TextPiece[] {
  const spans = included.filter((p) => p.span[1] > p.span[0] && p.span[0] < text.length).sort((a, b) => a.span[0] - b.span[0] || b.span[1] - a.span[1]);
  const out: TextPiece[] = [];
  let pos = 0;
  for (const p of spans) {
    const [s, e] = [Math.max(p.span[0], pos), Math.min(p.span[1], text.length)];
    if (e <= s) continue; // overlapped by an earlier span
    if (s > pos) out.push({ text: text.slice(pos, s), item: null });
    out.push({ text: text.slice(s, e), item: p });
    pos = e;
  }
  if (pos < text.length) out.push({ text: text.slice(pos), item: null });
  return out;
}

export interface ItemDiff {
  readonly onlyA: IncludedProvenance[];
  readonly onlyB: IncludedProvenance[];
  readonly both: Array<{ a: IncludedProvenance; b: IncludedProvenance }>;
}

/** Items one strategy included and the other did not, and those both included (ranks side by side). */
export function itemDiff(a: readonly IncludedProvenance[], b: readonly IncludedProvenance[]): ItemDiff {
  const key = (p: IncludedProvenance) => `${p.kind}:${p.id}`;
  const mb = new Map(b.map((p) => [key(p), p]));
  const ma = new Map(a.map((p) => [key(p), p]));
  return {
    onlyA: a.filter((p) => !mb.has(key(p))),
    onlyB: b.filter((p) => !ma.has(key(p))),
    both: a.flatMap((p) => {
      const other = mb.get(key(p));
      return other ? [{ a: p, b: other }] : [];
    }),
  };
}

export function includedOf(provenance: ReadonlyArray<{ status: string }>): IncludedProvenance[] {
  return provenance.filter((p): p is IncludedProvenance => p.status === 'included');
}
