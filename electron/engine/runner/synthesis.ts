// The default, deterministic context synthesis: previous context document + one
// session's structured state -> the next document, with sections Facts (current session wins,
// superseded removed), Timeline (every session date, in order), Entities (recent relation wins,
// removed ones dropped), Preferences (latest wins) and Notes. The word cap (and the store's
// character cap) is hard: the oldest, least-referenced unprotected items go first; when the
// protected content (recent facts, the whole Timeline) alone is too long, the Timeline is
// compacted (detail dropped but every date kept, then the oldest dates merged into ranges) and
// only then are the oldest protected facts cut, so the document always fits.
import { StatelensError } from '../../../shared/errors';
import { countWords, MAX_CONTEXT_DOCUMENT_CHARS } from '../context-documents/context-documents';
import type { Session } from './types';

export const SECTIONS = ['Facts', 'Timeline', 'Entities', 'Preferences', 'Notes'] as const;

interface Tracked {
  /** Date (YYYY-MM-DD) of the last session that stated or mentioned it. */
  seen: string;
  /** How many times it was stated or mentioned. */
  refs: number;
}
interface FactItem extends Tracked {
  value: string;
}
interface EntityItem extends Tracked {
  kind: string;
  relation: string;
}
interface NoteItem extends Tracked {
  text: string;
}
interface TimelineItem {
  /** The session's date; for a merged range, its first date. */
  date: string;
  /** '' once compacted to a bare date (the session id and summary dropped to fit the cap). */
  session: string;
  summary: string;
  /** A range of merged older sessions (the last resort before cutting recent facts): its last
   * date and how many sessions it stands for. */
  until?: string;
  count?: number;
}

export interface ContextModel {
  facts: Map<string, FactItem>;
  timeline: TimelineItem[];
  entities: Map<string, EntityItem>;
  preferences: Map<string, FactItem>;
  notes: NoteItem[];
}

export function emptyModel(): ContextModel {
  return { facts: new Map(), timeline: [], entities: new Map(), preferences: new Map(), notes: [] };
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
/** Compacted timeline lines: "2025-01-06, 2025-01-09" (dates only) and "2025-01-06..2025-03-01 ×20". */
const DATE_LIST_LINE = /^\d{4}-\d{2}-\d{2}(?:, \d{4}-\d{2}-\d{2})*$/;
const RANGE_LINE = /^(\d{4}-\d{2}-\d{2})\.\.(\d{4}-\d{2}-\d{2}) ×(\d+)$/;

const oneLine = (s: string): string => s.replace(/\s*\r?\n\s*/g, ' ').trim();
const SEEN = / — seen (\d{4}-\d{2}-\d{2}[^,]*), ×(\d+)$/;

function tracked(line: string): { body: string; seen: string; refs: number } {
  const m = SEEN.exec(line);
  if (!m) return { body: line, seen: '', refs: 1 };
  return { body: line.slice(0, m.index), seen: m[1] ?? '', refs: Number(m[2]) || 1 };
}

function splitKey(body: string): [string, string] | undefined {
  const at = body.indexOf(': ');
  return at > 0 ? [body.slice(0, at), body.slice(at + 2)] : undefined;
}

/** Reads a document this module wrote (or one close to it): lines it does not recognise are
 * kept as notes rather than lost. */
export function parseContext(text: string | null): ContextModel {
  const model = emptyModel();
  if (!text) return model;
  let section: string | undefined;
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    const heading = /^##\s+(.+)$/.exec(line);
    if (heading) {
      section = heading[1]?.trim();
      continue;
    }
    if (!line.startsWith('- ')) continue;
    const item = line.slice(2);
    const t = tracked(item);
    switch (section) {
      case 'Facts':
      case 'Preferences': {
        const kv = splitKey(t.body);
        if (!kv) break;
        (section === 'Facts' ? model.facts : model.preferences).set(kv[0], { value: kv[1], seen: t.seen, refs: t.refs });
        continue;
      }
      case 'Timeline': {
        const range = RANGE_LINE.exec(item);
        if (range) {
          model.timeline.push({ date: range[1] ?? '', session: '', summary: '', until: range[2] ?? '', count: Number(range[3]) });
          continue;
        }
        if (DATE_LIST_LINE.test(item)) {
          for (const date of item.split(', ')) model.timeline.push({ date, session: '', summary: '' });
          continue;
        }
        const m = /^(\S+) · (\S+)(?: · (.*))?$/.exec(item);
        if (m) {
          model.timeline.push({ date: m[1] ?? '', session: m[2] ?? '', summary: m[3] ?? '' });
          continue;
        }
        // Not a timeline line this module writes: kept as a note (below) rather than lost.
        break;
      }
      case 'Entities': {
        const m = /^(.+?) \(([^)]*)\): (.*)$/.exec(t.body);
        if (m) {
          model.entities.set(m[1] ?? '', { kind: m[2] ?? '', relation: m[3] ?? '', seen: t.seen, refs: t.refs });
          continue;
        }
        break;
      }
    }
    model.notes.push({ text: t.body, seen: t.seen, refs: t.refs });
  }
  return model;
}

function mentions(text: string, name: string): boolean {
  const needle = name.replace(/_/g, ' ').toLowerCase();
  return needle.length >= 3 && text.toLowerCase().includes(needle);
}

/** Folds one session into the model: later statements win, in message order. */
export function mergeSession(model: ContextModel, session: Session): ContextModel {
  const date = session.date;
  // Compacted timeline lines are recognised by their dates, so only real dates may enter it.
  if (!ISO_DATE.test(date)) throw new StatelensError('INVALID_INPUT', `Session ${session.id} has date "${date}"; a session date is YYYY-MM-DD`);
  const next: ContextModel = {
    facts: new Map(model.facts),
    timeline: [...model.timeline],
    entities: new Map(model.entities),
    preferences: new Map(model.preferences),
    notes: [...model.notes],
  };
  const touched = new Set<string>();
  for (const m of session.messages) {
    const x = m.extracted;
    if (x) {
      for (const f of x.facts ?? []) {
        if (f.supersedes && f.supersedes !== f.key) next.facts.delete(f.supersedes);
        const prev = next.facts.get(f.key);
        next.facts.set(f.key, { value: oneLine(f.value), seen: date, refs: (prev?.refs ?? 0) + 1 });
        touched.add(`f:${f.key}`);
      }
      for (const e of x.entities ?? []) {
        if (e.removed) {
          next.entities.delete(e.name);
          continue;
        }
        const prev = next.entities.get(e.name);
        next.entities.set(e.name, {
          kind: e.kind ?? prev?.kind ?? 'entity',
          relation: oneLine(e.relation ?? prev?.relation ?? ''),
          seen: date,
          refs: (prev?.refs ?? 0) + 1,
        });
        touched.add(`e:${e.name}`);
      }
      for (const p of x.preferences ?? []) {
        const prev = next.preferences.get(p.topic);
        next.preferences.set(p.topic, { value: oneLine(p.value), seen: date, refs: (prev?.refs ?? 0) + 1 });
      }
      for (const n of x.notes ?? []) {
        const text = oneLine(n);
        const i = next.notes.findIndex((o) => o.text === text);
        if (i >= 0) next.notes[i] = { text, seen: date, refs: (next.notes[i]?.refs ?? 0) + 1 };
        else next.notes.push({ text, seen: date, refs: 1 });
      }
    }
    // A later mention in free text is a reference too: it keeps an item from being pruned first.
    for (const [name, e] of next.entities)
      if (!touched.has(`e:${name}`) && mentions(m.text, name)) next.entities.set(name, { ...e, refs: e.refs + 1, seen: date });
    for (const [key, f] of next.facts) if (!touched.has(`f:${key}`) && mentions(m.text, key)) next.facts.set(key, { ...f, refs: f.refs + 1 });
  }
  const topics = [...new Set(session.messages.flatMap((m) => (m.extracted?.facts ?? []).map((f) => f.key)))].slice(0, 4);
  const summary = `${session.messages.length} messages${topics.length > 0 ? `; topics: ${topics.join(', ')}` : ''}`;
  next.timeline = next.timeline.filter((t) => t.session !== session.id);
  next.timeline.push({ date, session: session.id, summary });
  next.timeline.sort((a, b) => (a.date === b.date ? a.session.localeCompare(b.session) : a.date.localeCompare(b.date)));
  return next;
}

interface Line {
  readonly section: (typeof SECTIONS)[number];
  readonly text: string;
  readonly words: number;
  readonly seen: string;
  readonly refs: number;
  readonly protected: boolean;
}

const line = (section: Line['section'], text: string, seen: string, refs: number, isProtected: boolean): Line => ({
  section,
  text,
  words: countWords(text),
  seen,
  refs,
  protected: isProtected,
});

/** Every section but the Timeline, whose lines depend on how far it is compacted. */
function itemLines(model: ContextModel, recentDates: ReadonlySet<string>): Line[] {
  const out: Line[] = [];
  const suffix = (t: Tracked): string => (t.seen ? ` — seen ${t.seen}, ×${t.refs}` : '');
  for (const [k, f] of model.facts) out.push(line('Facts', `- ${k}: ${f.value}${suffix(f)}`, f.seen, f.refs, recentDates.has(f.seen)));
  for (const [k, e] of model.entities) out.push(line('Entities', `- ${k} (${e.kind}): ${e.relation}${suffix(e)}`, e.seen, e.refs, false));
  for (const [k, p] of model.preferences) out.push(line('Preferences', `- ${k}: ${p.value}${suffix(p)}`, p.seen, p.refs, false));
  model.notes.forEach((n) => out.push(line('Notes', `- ${n.text}${suffix(n)}`, n.seen, n.refs, false)));
  return out;
}

/** How far the Timeline is compacted; each step applies to the oldest entries first. */
interface TimelinePlan {
  /** The oldest `bare` entries lose their summary ("date · session"). */
  readonly bare: number;
  /** The oldest `dates` entries keep only their date, listed several to a line. */
  readonly dates: number;
  /** The oldest `ranges` groups of `groups` become one "first..last ×count" line each. */
  readonly groups: readonly Group[];
  readonly ranges: number;
}
/** Consecutive timeline entries [start, end) that one range line would stand for. */
interface Group {
  readonly start: number;
  readonly end: number;
}

const FULL_PLAN: TimelinePlan = { bare: 0, dates: 0, groups: [], ranges: 0 };
/** Dates per line once compacted: short lines keep the document readable and diff-friendly. */
const DATES_PER_LINE = 8;
/** Ranges start at this many sessions each: a range line costs three words, so shorter ones save nothing. */
const FIRST_RANGE_SIZE = 4;

const sessionsIn = (t: TimelineItem): number => t.count ?? 1;

/** Splits the timeline, oldest first, into runs of consecutive entries holding at least `size`
 * sessions each (a range read back from an earlier document counts for all its sessions). */
function groupsOf(timeline: readonly TimelineItem[], size: number): Group[] {
  const out: Group[] = [];
  let start = 0;
  let sessions = 0;
  timeline.forEach((t, i) => {
    sessions += sessionsIn(t);
    if (sessions >= size) {
      out.push({ start, end: i + 1 });
      start = i + 1;
      sessions = 0;
    }
  });
  if (start < timeline.length) out.push({ start, end: timeline.length });
  return out;
}

function timelineLines(timeline: readonly TimelineItem[], plan: TimelinePlan): Line[] {
  const out: Line[] = [];
  let pending: string[] = [];
  const flushDates = (): void => {
    for (let i = 0; i < pending.length; i += DATES_PER_LINE) {
      const chunk = pending.slice(i, i + DATES_PER_LINE);
      out.push(line('Timeline', `- ${chunk.join(', ')}`, chunk[0] ?? '', Number.MAX_SAFE_INTEGER, true));
    }
    pending = [];
  };
  const range = (from: string, until: string, count: number): void => {
    flushDates();
    out.push(line('Timeline', `- ${from}..${until} ×${count}`, from, Number.MAX_SAFE_INTEGER, true));
  };
  const merged = plan.groups.slice(0, plan.ranges);
  let i = 0;
  for (const g of merged) {
    const items = timeline.slice(g.start, g.end);
    const first = items[0];
    if (!first) continue;
    if (items.length === 1 && first.count === undefined) pending.push(first.date);
    else
      range(
        first.date,
        items.map((t) => t.until ?? t.date).reduce((a, b) => (b > a ? b : a)),
        items.reduce((a, t) => a + sessionsIn(t), 0),
      );
    i = g.end;
  }
  for (; i < timeline.length; i++) {
    const t = timeline[i] as TimelineItem;
    if (t.count !== undefined) range(t.date, t.until ?? t.date, t.count);
    else if (i < plan.dates || !t.session) pending.push(t.date);
    else {
      flushDates();
      const summary = i >= plan.bare && t.summary ? ` · ${t.summary}` : '';
      out.push(line('Timeline', `- ${t.date} · ${t.session}${summary}`, t.date, Number.MAX_SAFE_INTEGER, true));
    }
  }
  flushDates();
  return out;
}

const HEADER = '# Context document';

function render(all: readonly Line[]): string {
  const parts = [HEADER];
  for (const section of SECTIONS) {
    parts.push('', `## ${section}`);
    parts.push(...all.filter((l) => l.section === section).map((l) => l.text));
  }
  return `${parts.join('\n')}\n`;
}

interface Size {
  readonly words: number;
  readonly chars: number;
}
/** What lines add to a rendered document: their words, and their text plus one newline each. */
const sizeOf = (ls: readonly Line[]): Size => ls.reduce((a, l) => ({ words: a.words + l.words, chars: a.chars + l.text.length + 1 }), { words: 0, chars: 0 });

/** Smallest n in [0, max] with ok(n), assuming ok grows with n; undefined when even ok(max) fails.
 * The answer always satisfies ok, even where the assumption bends at an edge. */
function smallest(max: number, ok: (n: number) => boolean): number | undefined {
  if (!ok(max)) return undefined;
  let lo = 0;
  let hi = max;
  while (lo < hi) {
    const mid = Math.floor((lo + hi) / 2);
    if (ok(mid)) hi = mid;
    else lo = mid + 1;
  }
  return hi;
}

export interface SynthesisOptions {
  readonly maxWords: number;
  /** Facts seen in this many most recent session dates are kept ahead of everything but the
   * Timeline's dates: cut (oldest first) only when nothing else is left to give. */
  readonly protectRecentSessions: number;
  /** Character cap; default the store's (a longer document would be refused like a longer one). */
  readonly maxChars?: number;
}

export interface Synthesis {
  readonly text: string;
  readonly words: number;
  /** Lines removed (facts, entities, preferences, notes). */
  readonly pruned: number;
  /** How many of the oldest Timeline entries had to be compacted (0 when the full Timeline fit). */
  readonly compacted: number;
}

/** Renders the model within the caps, giving up, in this order, only what the previous steps
 * could not save:
 * 1. unprotected lines, oldest first, then the least referenced, notes before entities before
 *    preferences before facts;
 * 2. Timeline summaries, oldest first ("date · session" stays);
 * 3. Timeline session ids, oldest first: the oldest entries become plain date lists, so every
 *    session date is still there;
 * 4. the oldest dates merged into "first..last ×count" ranges, as few and as small as fit, but
 *    only until the Timeline takes at most half the cap: past that point the recent facts, not the
 *    distant past, are what is too long;
 * 5. recent (protected) facts, oldest first;
 * 6. more ranges, down to a single line spanning every session, when the cap is tiny.
 * The result always fits; a cap too small for even the headings is refused. */
export function renderWithinCap(model: ContextModel, options: SynthesisOptions): Synthesis {
  const maxChars = options.maxChars ?? MAX_CONTEXT_DOCUMENT_CHARS;
  const timeline = [...model.timeline].sort((a, b) => (a.date === b.date ? a.session.localeCompare(b.session) : a.date.localeCompare(b.date)));
  const dates = [...new Set(timeline.flatMap((t) => (t.until ? [t.date, t.until] : [t.date])))].sort();
  const recent = new Set(dates.slice(-options.protectRecentSessions));
  const base: Size = { words: countWords(render([])), chars: render([]).length };
  if (base.words > options.maxWords || base.chars > maxChars)
    throw new StatelensError('INVALID_INPUT', `A context document of at most ${options.maxWords} words cannot hold even its headings`);

  let items = itemLines(model, recent);
  let itemsSize = sizeOf(items);
  let plan = FULL_PLAN;
  let timelineSize = sizeOf(timelineLines(timeline, plan));
  const fitsWith = (t: Size): boolean => base.words + itemsSize.words + t.words <= options.maxWords && base.chars + itemsSize.chars + t.chars <= maxChars;
  const fits = (): boolean => fitsWith(timelineSize);
  const sizeWith = (p: TimelinePlan): Size => sizeOf(timelineLines(timeline, p));
  let pruned = 0;

  const drop = (pool: Line[]): void => {
    const rank: Record<Line['section'], number> = { Notes: 0, Entities: 1, Preferences: 2, Facts: 3, Timeline: 4 };
    pool.sort((a, b) => (a.seen !== b.seen ? a.seen.localeCompare(b.seen) : a.refs !== b.refs ? a.refs - b.refs : rank[a.section] - rank[b.section]));
    const gone = new Set<Line>();
    for (const l of pool) {
      if (fits()) break;
      gone.add(l);
      itemsSize = { words: itemsSize.words - l.words, chars: itemsSize.chars - l.text.length - 1 };
      pruned++;
    }
    items = items.filter((l) => !gone.has(l));
  };
  // One compaction step: the smallest setting of `step` that makes `ok` hold, else the largest.
  const compact = (max: number, next: (n: number) => TimelinePlan, ok: (t: Size) => boolean): boolean => {
    const n = smallest(max, (k) => ok(sizeWith(next(k))));
    plan = next(n ?? max);
    timelineSize = sizeWith(plan);
    return n !== undefined;
  };
  // Ranges of FIRST_RANGE_SIZE sessions, doubling while even merging every group is not enough.
  const compactRanges = (ok: (t: Size) => boolean): void => {
    const dated = plan;
    for (let size = FIRST_RANGE_SIZE; ; size *= 2) {
      const groups = groupsOf(timeline, size);
      if (compact(groups.length, (k) => ({ ...dated, groups, ranges: k }), ok) || groups.length <= 1) return;
    }
  };
  const n = timeline.length;

  if (!fits()) drop(items.filter((l) => !l.protected));
  if (!fits()) compact(n, (k) => ({ ...plan, bare: k }), fitsWith);
  if (!fits()) compact(n, (k) => ({ ...plan, dates: k }), fitsWith);
  if (!fits()) compactRanges((t) => fitsWith(t) || (t.words <= options.maxWords / 2 && t.chars <= maxChars / 2));
  if (!fits()) drop(items.filter((l) => l.protected));
  if (!fits()) compactRanges(fitsWith);

  const text = render([...items, ...timelineLines(timeline, plan)]);
  const words = countWords(text);
  // The sums above are exact; this guards the arithmetic, since the store would refuse the text.
  if (words > options.maxWords || text.length > maxChars)
    throw new StatelensError('INTERNAL', `Synthesis produced ${words} words and ${text.length} characters, over the cap`);
  const compacted = plan === FULL_PLAN ? 0 : Math.max(plan.bare, plan.dates, plan.groups[plan.ranges - 1]?.end ?? 0);
  return { text, words, pruned, compacted };
}

/** previous document + one session -> next document (the whole synthesis, deterministic). */
export function synthesize(previous: string | null, session: Session, options: SynthesisOptions): Synthesis {
  return renderWithinCap(mergeSession(parseContext(previous), session), options);
}
