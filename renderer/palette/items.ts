// What the command palette offers for a typed text: views, actions, partitions and facts, each
// a labelled entry that names what choosing it does. Pure, so ranking is testable without React.

export type PaletteSection = 'Views' | 'Actions' | 'Partitions' | 'Facts';

export interface PaletteEntry {
  readonly id: string;
  readonly section: PaletteSection;
  readonly label: string;
  /** Secondary text: a value snippet, a partition's counts, a shortcut. */
  readonly detail?: string;
  /** Facts: the partition the fact lives in (facts come grouped by it). */
  readonly group?: string;
  /** Facts: the fact's address, so the entry is a real link (middle-click opens a new tab). */
  readonly href?: string;
  /** Facts: where the search matched in the key (the label), marked in it. */
  readonly keyRanges?: ReadonlyArray<readonly [number, number]>;
  readonly run: () => void;
}

/** How well `text` matches `label`: 0 is no match, higher is better (prefix > word > substring >
 * letters in order). Case-insensitive. */
export function matchScore(label: string, text: string): number {
  const q = text.trim().toLowerCase();
  if (q === '') return 1;
  const l = label.toLowerCase();
  if (l.startsWith(q)) return 4;
  if (new RegExp(`\\b${q.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`).test(l)) return 3;
  if (l.includes(q)) return 2;
  let at = 0;
  for (const ch of q) {
    at = l.indexOf(ch, at);
    if (at < 0) return 0;
    at += 1;
  }
  return 1;
}

/** Most facts the palette lists (over every partition). */
export const PALETTE_FACT_LIMIT = 16;

/** Entries matching `text`, best first within the fixed section order; facts (already matched by
 * the engine's search and grouped by partition, the current one first) keep their order and come last. */
export function rankEntries(text: string, entries: readonly PaletteEntry[], limitPerSection = 8): PaletteEntry[] {
  const order: PaletteSection[] = ['Views', 'Actions', 'Partitions', 'Facts'];
  const out: PaletteEntry[] = [];
  for (const section of order) {
    const inSection = entries.filter((e) => e.section === section);
    const ranked =
      section === 'Facts'
        ? inSection
        : inSection
            .map((e, i) => ({ e, i, score: matchScore(e.label, text) }))
            .filter((x) => x.score > 0)
            .sort((a, b) => b.score - a.score || a.i - b.i)
            .map((x) => x.e);
    out.push(...ranked.slice(0, section === 'Facts' ? PALETTE_FACT_LIMIT : limitPerSection));
  }
  return out;
}

/** A search the engine accepts: at least one letter or digit (punctuation alone is refused). */
export function searchableText(text: string): string | null {
  const t = text.trim();
  return /[\p{L}\p{N}]/u.test(t) ? t : null;
}
