// Keeping dead values out of a context: a superseded fact's value must not come back through a
// turn that asserted it or a valid fact that quotes it. A verbatim quote is found by normalised
// containment; a turn "clearly restates" a dead value when it holds every word that tells that
// value apart from the value that replaced it, and at least half of its words overall (labels
// opening a value, "[VP]", are not words anyone says). Text that
// a valid fact still states (as its whole value) is never dead. A valid fact has a quote withheld
// only when it frames the quote as wrong ("invalidated", "was based on", ...): otherwise the quote
// may be the start of a value the fact extends. A turn said after a value died asserts it anew,
// unless the conversation came back to its replacement later still (the last word stands).
// Lookups go through a word index, so thousands of dead values cost little per line.
import { hasCorrectionCue } from '../facts/inference';
import { withoutLabels } from './labels';
import { stemSet, words } from './terms';

const MIN_QUOTE_CHARS = 6;
const INVALIDATION_CUE =
  /\b(invalidated|invalid|superseded|obsolete|outdated|no longer|was based on|wrong|incorrect|previously|originally|original|formerly|retracted|replaced)\b/i;
export const REDACTED = '[superseded value withheld]';

/** Lower-cased, whitespace-collapsed, without trailing punctuation: the form quotes compare in. */
export function normalised(text: string): string {
  return norm(text);
}

const normCache = new Map<string, string>();

function norm(text: string): string {
  const hit = normCache.get(text);
  if (hit !== undefined) return hit;
  const out = text
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .replace(/[\s.,;:!?'"]+$/u, '')
    .trim();
  if (normCache.size >= 50_000) normCache.clear();
  normCache.set(text, out);
  return out;
}

/** A dead value: a superseded fact (or stale signal), when it died and, when known up front,
 * the value that replaced it (otherwise asked of `successors` when first needed). */
export interface DeadSource {
  readonly id: string;
  readonly key: string;
  readonly value: string;
  readonly valid_to: string | null;
  readonly successor_value?: string | null;
}

/** Was `value` (which replaced `dead`) said again after `at`? */
export type Reaffirmed = (value: string, dead: string, at: string) => boolean;

/**
 * Does `text` restate `value` as against `other`: does it hold every word of `value` that
 * `other` lacks (there must be one) and at least half of the words of `value`? The rule a turn
 * restating a dead value is caught by, usable the other way round.
 */
export function restatesAgainst(text: string | ReadonlySet<string>, value: string, other: string): boolean {
  const stems = typeof text === 'string' ? stemSet(text) : text;
  const own = stemSet(withoutLabels(value));
  const theirs = stemSet(withoutLabels(other));
  let distinct = 0;
  let held = 0;
  for (const x of own) {
    const has = stems.has(x);
    if (has) held++;
    if (!theirs.has(x)) {
      if (!has) return false;
      distinct++;
    }
  }
  return distinct > 0 && held / Math.max(1, own.size) >= 0.5;
}

export interface DeadHit {
  readonly fact: DeadSource;
  readonly how: 'quotes' | 'restates' | 'recounts';
}

interface DeadValue {
  readonly fact: DeadSource;
  readonly text: string;
  /** Filled when restatement is first checked (stemming thousands of values costs). */
  stems?: ReadonlySet<string>;
  distinct?: ReadonlySet<string>;
  /** The words of the replacing value that this one lacks (filled with `distinct`). */
  added?: ReadonlySet<string>;
  next?: string | null;
}

export class DeadValues {
  private readonly byWord = new Map<string, DeadValue[]>();
  private readonly all: DeadValue[] = [];
  private byStem: Map<string, DeadValue[]> | undefined;
  private readonly liveCache = new Map<string, boolean>();
  private count = 0;

  /**
   * `isLive(value)`: does a fact valid in this view state exactly this value?
   * `successors(ids)`: the values of the facts that replaced these (for restatement checks).
   */
  constructor(
    dead: readonly DeadSource[],
    private readonly isLive: (value: string) => boolean,
    private readonly successors: (ids: readonly string[]) => Map<string, string> = () => new Map(),
  ) {
    const seen = new Set<string>();
    for (const f of dead) {
      const text = norm(f.value);
      if (text.length < MIN_QUOTE_CHARS || !/[\p{L}\p{N}]/u.test(text) || seen.has(text)) continue;
      seen.add(text);
      const d: DeadValue = { fact: f, text };
      this.count++;
      this.all.push(d);
      // Anchor each value on its longest word: a text can only quote it if it holds that word.
      let anchor = '';
      for (const w of words(text)) if (w.length > anchor.length) anchor = w;
      if (anchor) push(this.byWord, anchor, d);
    }
  }

  /** Index by every stem of each value (built on first use; successors are not needed yet). */
  private stemIndex(): Map<string, DeadValue[]> {
    if (this.byStem) return this.byStem;
    this.byStem = new Map();
    for (const d of this.all) {
      d.stems = stemSet(withoutLabels(d.fact.value));
      if (d.stems.size >= 2) for (const s of d.stems) push(this.byStem, s, d);
    }
    return this.byStem;
  }

  /** Fills the distinctive stems (those the replacing value lacks) of the given values. */
  private withDistinct(ds: readonly DeadValue[]): void {
    const need = ds.filter((d) => d.distinct === undefined);
    if (need.length === 0) return;
    const asked = this.successors(need.filter((d) => d.fact.successor_value === undefined).map((d) => d.fact.id));
    for (const d of need) {
      const next = d.fact.successor_value === undefined ? asked.get(d.fact.id) : d.fact.successor_value;
      const successor = next === undefined || next === null ? new Set<string>() : stemSet(withoutLabels(next));
      d.next = next ?? null;
      d.distinct = new Set([...(d.stems ?? [])].filter((x) => !successor.has(x)));
      d.added = new Set([...successor].filter((x) => !d.stems?.has(x)));
    }
  }

  get size(): number {
    return this.count;
  }

  private live(d: DeadValue): boolean {
    let v = this.liveCache.get(d.text);
    if (v === undefined) {
      v = this.isLive(d.fact.value);
      this.liveCache.set(d.text, v);
    }
    return v;
  }

  /** The value that replaced `d`, if known. */
  private successorOf(d: DeadValue): string | null {
    if (d.next !== undefined) return d.next;
    if (d.fact.successor_value !== undefined) return d.fact.successor_value;
    return this.successors([d.fact.id]).get(d.fact.id) ?? null;
  }

  /**
   * Does `d` count against a text said at `at`? When the text was said before `d` died, yes.
   * Said after, it asserts `d` again, which is newer evidence, unless the conversation came
   * back to the value that replaced `d` after it (`reaffirmed`): the last word stands.
   */
  private deadAt(d: DeadValue, at: string | undefined, reaffirmed: Reaffirmed | undefined): boolean {
    if (diedAfter(d, at)) return true;
    if (!reaffirmed || at === undefined) return false;
    const next = this.successorOf(d);
    return next !== null && reaffirmed(next, d.fact.value, at);
  }

  private quoted(t: string, at: string | undefined, reaffirmed?: Reaffirmed): DeadValue[] {
    const out: DeadValue[] = [];
    const seen = new Set<DeadValue>();
    for (const w of new Set(words(t))) {
      for (const d of this.byWord.get(w) ?? []) {
        if (seen.has(d)) continue;
        seen.add(d);
        if (wholeWordsAt(t, d.text) >= 0 && this.deadAt(d, at, reaffirmed) && !this.live(d)) out.push(d);
      }
    }
    return out.sort((a, b) => b.text.length - a.text.length);
  }

  /**
   * The dead value a text quotes verbatim or (when allowed) clearly restates, if any. With `at`
   * (when the text was said), only values that died at or after it count: a value asserted
   * again after it was superseded is newer evidence, not a stale assertion, unless `reaffirmed`
   * says its replacement was said again later still.
   */
  find(text: string, options: { restates?: boolean; at?: string; reaffirmed?: Reaffirmed } = {}): DeadHit | undefined {
    if (this.count === 0) return undefined;
    const allowRestates = options.restates ?? true;
    const q = this.quoted(norm(text), options.at, options.reaffirmed)[0];
    if (q) return { fact: q.fact, how: 'quotes' };
    if (!allowRestates) return undefined;
    const stems = stemSet(text);
    const index = this.stemIndex();
    const shared = new Map<DeadValue, number>();
    for (const x of stems) for (const d of index.get(x) ?? []) shared.set(d, (shared.get(d) ?? 0) + 1);
    const close = [...shared].filter(([d, n]) => n / (d.stems?.size ?? 1) >= 0.5 && this.deadAt(d, options.at, options.reaffirmed)).map(([d]) => d);
    this.withDistinct(close);
    for (const d of close) {
      const distinct = d.distinct ?? new Set<string>();
      if (distinct.size === 0) continue;
      let all = true;
      for (const x of distinct) if (!stems.has(x)) all = false;
      if (all && !this.live(d)) return { fact: d.fact, how: 'restates' };
    }
    return undefined;
  }

  /**
   * The dead value a text recounts beside the value that replaced it, if any: said no earlier
   * than the value died (`at`), it holds two or more of the words that tell the dead value apart
   * and at least half (two or more) of those that tell the current one apart ("Eva estimated
   * 3 weeks; the VP directed shipping by Friday with reduced scope"). Such a summary hands
   * the dead value over beside the current one, which the current fact already states alone.
   */
  recounts(text: string, at?: string): DeadHit | undefined {
    if (this.count === 0) return undefined;
    const stems = stemSet(text);
    const index = this.stemIndex();
    const shared = new Map<DeadValue, number>();
    for (const x of stems) for (const d of index.get(x) ?? []) shared.set(d, (shared.get(d) ?? 0) + 1);
    const close = [...shared].filter(([d, n]) => n >= 2 && (at === undefined || d.fact.valid_to === null || at >= d.fact.valid_to)).map(([d]) => d);
    this.withDistinct(close);
    for (const d of close) {
      const next = d.next;
      if (next === null || next === undefined || !this.isLiveValue(next) || this.live(d)) continue;
      if (countIn(d.distinct, stems) < 2) continue;
      const added = countIn(d.added, stems);
      if (added >= 2 && added * 2 >= (d.added?.size ?? 0)) return { fact: d.fact, how: 'recounts' };
    }
    return undefined;
  }

  /**
   * A recounting text with each sentence that names the dead value (holds a word telling it
   * apart from its replacement) withheld, so the sentences about the current value stay; null
   * when no sentence would be left.
   */
  withoutRecounted(text: string, hit: DeadHit): string | null {
    const d = this.all.find((x) => x.fact === hit.fact);
    if (!d?.distinct) return null;
    const distinct = d.distinct;
    let kept = 0;
    const out = text
      .split(/(?<=[.!?])\s+/)
      .map((sentence) => {
        for (const x of stemSet(sentence)) if (distinct.has(x)) return REDACTED;
        kept++;
        return sentence;
      })
      .filter((x, i, all) => x !== REDACTED || all[i - 1] !== REDACTED);
    return kept === 0 ? null : out.join(' ');
  }

  private isLiveValue(value: string): boolean {
    let v = this.liveCache.get(norm(value));
    if (v === undefined) {
      v = this.isLive(value);
      this.liveCache.set(norm(value), v);
    }
    return v;
  }

  /**
   * The text with every verbatim dead quote replaced by a marker, when the rest of the text frames
   * what it quotes as wrong (an invalidation cue, or with `corrections` any correction cue such as
   * "actually" or "moved"); otherwise unchanged. `at`: as in `find`.
   */
  redact(text: string, options: { at?: string; corrections?: boolean } = {}): { text: string; redacted: boolean } {
    // A frame is necessary (checked on the whole text first: cheap), then confirmed on the rest.
    if (this.count === 0 || !(INVALIDATION_CUE.test(text) || (options.corrections === true && hasCorrectionCue(text)))) return { text, redacted: false };
    const hits = this.quoted(norm(text), options.at);
    if (hits.length === 0) return { text, redacted: false };
    let out = text.replace(/\s+/g, ' ');
    for (const d of hits) {
      let at = wholeWordsAt(out.toLowerCase(), d.text);
      while (at >= 0) {
        out = `${out.slice(0, at)}${REDACTED}${out.slice(at + d.text.length)}`;
        at = wholeWordsAt(out.toLowerCase(), d.text, at + REDACTED.length);
      }
    }
    const rest = out.split(REDACTED).join(' ');
    const framed = INVALIDATION_CUE.test(rest) || (options.corrections === true && hasCorrectionCue(rest));
    return framed ? { text: out, redacted: out !== text } : { text, redacted: false };
  }
}

const WORD_CHAR = /[\p{L}\p{N}]/u;

/** Where `needle` occurs in `hay` (from `from`) not inside a longer word, or -1. */
function wholeWordsAt(hay: string, needle: string, from = 0): number {
  let at = hay.indexOf(needle, from);
  while (at >= 0) {
    const before = at === 0 ? '' : (hay[at - 1] ?? '');
    const after = hay[at + needle.length] ?? '';
    const edgeStart = !WORD_CHAR.test(needle[0] ?? '') || !WORD_CHAR.test(before);
    const edgeEnd = !WORD_CHAR.test(needle[needle.length - 1] ?? '') || !WORD_CHAR.test(after);
    if (edgeStart && edgeEnd) return at;
    at = hay.indexOf(needle, at + 1);
  }
  return -1;
}

function countIn(set: ReadonlySet<string> | undefined, stems: ReadonlySet<string>): number {
  let n = 0;
  for (const x of set ?? []) if (stems.has(x)) n++;
  return n;
}

function diedAfter(d: DeadValue, at: string | undefined): boolean {
  return at === undefined || d.fact.valid_to === null || at <= d.fact.valid_to;
}

function push<K, V>(m: Map<K, V[]>, k: K, v: V): void {
  const list = m.get(k);
  if (list) list.push(v);
  else m.set(k, [v]);
}
