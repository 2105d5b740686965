// The budgeted text composer every strategy fills: named sections of lines, each line optionally
// tied to a provenance item. Filling uses per-line token counts (memoised); `finish` counts the
// FINAL joined text exactly and drops the last-filled lines until it fits, so headers and joins
// can never push a context over its budget. Spans are UTF-16 offsets into the final text.
import type { AssemblySection, IncludedProvenance, ItemMark, ProvenanceKind, ScoreComponent, Span } from '../../../shared/assembly';
import type { Tokenizer } from './tokenizer';

export interface ItemRef {
  readonly kind: ProvenanceKind;
  readonly id: string;
  readonly label: string;
  readonly score: number;
  /** What the score is made of; a strategy may fill it after placing (before `finish`). */
  readonly components?: readonly ScoreComponent[];
  readonly marks: readonly ItemMark[];
}

export interface SectionSpec {
  readonly name: string;
  readonly title: string;
}

interface Line {
  readonly text: string;
  readonly ref: ItemRef | undefined;
  /** Display order inside the section (lines are shown sorted by it; ties keep fill order). */
  readonly order: number;
  readonly seq: number;
  readonly cost: number;
}

export interface Composed {
  readonly text: string;
  readonly tokens: number;
  readonly sections: AssemblySection[];
  readonly included: IncludedProvenance[];
  /** Items that were filled but had to go when the exact count of the final text was over. */
  readonly trimmed: ItemRef[];
}

const JOIN = '\n\n';
/** A line the additive count may rely on (see `counts`). */
const SAFE_LINE = /^[^\s/][^\r\n]*$/u;

export class ContextBuilder {
  private readonly specs: SectionSpec[];
  private readonly lines = new Map<string, Line[]>();
  private readonly fillOrder: Line[] = [];
  private seq = 0;
  private estimate = 0;

  /** `budget` null: nothing is ever refused (the unbudgeted reference ablation). */
  constructor(
    readonly tokenizer: Tokenizer,
    readonly budget: number | null,
    sections: readonly SectionSpec[],
  ) {
    this.specs = [...sections];
    for (const s of sections) this.lines.set(s.name, []);
  }

  /** Estimated tokens used so far (upper-bound style: headers and joins included). */
  get used(): number {
    return this.estimate;
  }

  /** Estimated tokens of the given section so far (header included once it has lines). */
  sectionUsed(name: string): number {
    const ls = this.lines.get(name) ?? [];
    if (ls.length === 0) return 0;
    return this.headerCost(name) + ls.reduce((a, l) => a + l.cost, 0);
  }

  private headerCost(name: string): number {
    const spec = this.spec(name);
    return this.tokenizer.count(`## ${spec.title}\n`) + 1; // + the blank-line join before it
  }

  private spec(name: string): SectionSpec {
    const s = this.specs.find((x) => x.name === name);
    if (!s) throw new Error(`unknown section ${name}`);
    return s;
  }

  /** What adding `text` to `section` would cost, header included if the section is empty. */
  cost(section: string, text: string): number {
    const empty = (this.lines.get(section)?.length ?? 0) === 0;
    return this.tokenizer.count(`${text}\n`) + (empty ? this.headerCost(section) : 0);
  }

  /**
   * Adds the line if the estimate stays within `limit` (the budget by default) and, for a
   * section cap, within `sectionLimit` tokens for that section. Returns false when it does not fit.
   */
  tryAdd(section: string, text: string, ref?: ItemRef, options: { order?: number; limit?: number; sectionLimit?: number } = {}): boolean {
    const c = this.cost(section, text);
    const limit = Math.min(options.limit ?? Infinity, this.budget ?? Infinity);
    if (this.estimate + c > limit) return false;
    if (options.sectionLimit !== undefined && this.sectionUsed(section) + c > options.sectionLimit) return false;
    this.push(section, text, ref, c, options.order);
    return true;
  }

  /** Adds unconditionally (only for unbudgeted assembly). */
  add(section: string, text: string, ref?: ItemRef, order?: number): void {
    this.push(section, text, ref, this.budget === null ? 0 : this.cost(section, text), order);
  }

  private push(section: string, text: string, ref: ItemRef | undefined, cost: number, order: number | undefined): void {
    const list = this.lines.get(section);
    if (!list) throw new Error(`unknown section ${section}`);
    const seq = this.seq++;
    const line: Line = { text, ref, order: order ?? seq, seq, cost };
    list.push(line);
    this.fillOrder.push(line);
    this.estimate += cost;
  }

  private render(): {
    text: string;
    sections: Array<{ spec: SectionSpec; start: number; end: number; lines: string[] }>;
    spans: Map<Line, Span>;
    rankOf: Map<Line, number>;
  } {
    let text = '';
    const sections: Array<{ spec: SectionSpec; start: number; end: number; lines: string[] }> = [];
    const spans = new Map<Line, Span>();
    for (const spec of this.specs) {
      const list = this.lines.get(spec.name) ?? [];
      if (list.length === 0) continue;
      if (text.length > 0) text += JOIN;
      const start = text.length;
      const header = `## ${spec.title}`;
      text += header;
      const lines = [header];
      const shown = [...list].sort((a, b) => a.order - b.order || a.seq - b.seq);
      for (const l of shown) {
        text += '\n';
        const s = text.length;
        text += l.text;
        lines.push(l.text);
        spans.set(l, [s, text.length]);
      }
      sections.push({ spec, start, end: text.length, lines });
    }
    const rankOf = new Map<Line, number>();
    let rank = 0;
    for (const l of this.fillOrder) if (l.ref) rankOf.set(l, ++rank);
    return { text, sections, spans, rankOf };
  }

  /**
   * Exact token counts of the rendered text and of each section alone. When every line is
   * non-empty, holds no line break and starts with neither whitespace nor "/", no pre-tokenizer
   * piece of cl100k or o200k spans two lines, so the count of the whole is the sum of the counts
   * of its lines with their line breaks: short strings, memoised. Otherwise count it all.
   */
  private counts(r: ReturnType<ContextBuilder['render']>): { total: number; sections: number[] } {
    const additive = r.sections.every((s) => s.lines.every((l) => SAFE_LINE.test(l)));
    if (!additive) return { total: this.tokenizer.count(r.text), sections: r.sections.map((s) => this.tokenizer.count(r.text.slice(s.start, s.end))) };
    let total = 0;
    const sections = r.sections.map((s, i) => {
      let own = 0;
      s.lines.forEach((line, j) => {
        const last = j === s.lines.length - 1;
        own += this.tokenizer.count(last ? line : `${line}\n`);
        if (last) total += this.tokenizer.count(i === r.sections.length - 1 ? line : `${line}${JOIN}`);
      });
      total += own - this.tokenizer.count(s.lines[s.lines.length - 1] ?? '');
      return own;
    });
    return { total, sections };
  }

  finish(): Composed {
    const trimmed: ItemRef[] = [];
    let r = this.render();
    let c = this.counts(r);
    while (this.budget !== null && c.total > this.budget && this.fillOrder.length > 0) {
      // Drop from the end of the fill order: the lowest-priority line goes first.
      const drop = Math.max(1, Math.ceil(((c.total - this.budget) / Math.max(c.total, 1)) * this.fillOrder.length * 0.5));
      for (let i = 0; i < drop && this.fillOrder.length > 0; i++) {
        const line = this.fillOrder.pop();
        if (!line) break;
        for (const list of this.lines.values()) {
          const at = list.indexOf(line);
          if (at >= 0) list.splice(at, 1);
        }
        if (line.ref) trimmed.push(line.ref);
      }
      r = this.render();
      c = this.counts(r);
    }
    const tokens = c.total;
    const sections: AssemblySection[] = r.sections.map((s, i) => ({
      name: s.spec.name,
      title: s.spec.title,
      tokens: c.sections[i] ?? 0,
      span: [s.start, s.end],
    }));
    const included: IncludedProvenance[] = [];
    for (const [name, list] of this.lines) {
      for (const l of list) {
        if (!l.ref) continue;
        const span = r.spans.get(l);
        if (!span) continue;
        included.push({
          kind: l.ref.kind,
          id: l.ref.id,
          label: l.ref.label,
          status: 'included',
          rank: r.rankOf.get(l) ?? 0,
          score: l.ref.score,
          components: l.ref.components ? l.ref.components.map((c) => ({ ...c })) : [],
          section: name,
          span,
          marks: [...l.ref.marks],
        });
      }
    }
    included.sort((a, b) => a.rank - b.rank);
    return { text: r.text, tokens, sections, included, trimmed };
  }
}
