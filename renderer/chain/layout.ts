// Positions of a supersession chain on a vertical timeline. The main lane holds the versions in
// the order they replaced one another; versions that arrived late (an older timestamp written
// after the newer fact) and lower-authority proposals sit in a side lane, each beside the point
// it belongs to. Every arrow is routed through empty space (the lane itself between adjacent
// cards, or the gutter between the lanes), so none passes behind a card, and every label has a
// place of its own.
import { scaleTime } from 'd3';
import type { Fact } from '../../shared/domain';

export const CARD_W = 184;
export const CARD_H = 92;
export const GAP = 46;
/** The gutter between the main lane and the side lane, where side arrows run. */
export const SIDE_GAP = 64;
/** Vertical room between stacked side cards: the label of the lower one sits in it. */
export const SIDE_STACK_GAP = 24;
/** Room on the left for the time axis labels. */
export const AXIS_W = 92;
export const MARGIN = { top: 28, left: 8, right: 16, bottom: 28 };
/** Approximate width of one character of an arrow label (11px, semibold), for collision checks. */
export const LABEL_CHAR_W = 6.4;
export const LABEL_H = 13;

export type CardKind = 'version' | 'late' | 'proposal';

export interface PlacedCard {
  readonly fact: Fact;
  readonly x: number;
  readonly y: number;
  readonly kind: CardKind;
  /** Valid at the as-of instant (time travel), or now when there is none. */
  readonly validAtAsOf: boolean;
}

export interface Point {
  readonly x: number;
  readonly y: number;
}

export interface ChainArrow {
  /** 1-based number shown on the arrow and in the list of steps below the diagram. */
  readonly step: number;
  readonly from: PlacedCard;
  readonly to: PlacedCard;
  readonly rule: string | null;
  readonly reason: string | null;
  readonly kind: 'supersession' | 'late' | 'proposal';
  /** What happened, in a few words (the full reason is in `reason`). */
  readonly label: string;
  /** The route as a polyline; the arrowhead is at the last point. */
  readonly points: readonly Point[];
  /** Top-left corner of the label's box (text baseline at y + LABEL_H - 3). */
  readonly labelAt: Point;
}

export interface ChainLayout {
  readonly cards: PlacedCard[];
  readonly arrows: ChainArrow[];
  readonly width: number;
  readonly height: number;
  /** x of the time axis. */
  readonly axisX: number;
  /** y of an instant on the (piecewise) timeline, for the as-of marker. */
  yOf(iso: string): number;
}

export function validAt(f: Fact, at: string | null): boolean {
  if (f.status === 'proposal') return false;
  if (at === null) return f.isValid;
  const t = Date.parse(at);
  const ts = Date.parse(f.ts);
  if (Number.isNaN(t) || Number.isNaN(ts) || ts > t) return false;
  if (f.validTo === null) return f.isValid || f.supersededBy === null;
  return Date.parse(f.validTo) > t;
}

const RULE_TEXT: Readonly<Record<string, string>> = {
  explicit: 'explicit correction',
  implicit: 'implicit: same key, new value',
  authority: 'authority: outranked',
  temporal: 'temporal: newer time',
};

/** The words on an arrow: the rule, and for a temporal step whether the older version was
 * replaced by a newer time or arrived after it with an older one. */
export function arrowLabel(kind: ChainArrow['kind'], rule: string | null): string {
  if (kind === 'proposal') return 'failed: lower authority';
  if (kind === 'late') return rule === 'temporal' || rule === null ? 'temporal: arrived late' : `${RULE_TEXT[rule] ?? rule}, arrived late`;
  return rule ? (RULE_TEXT[rule] ?? rule) : 'superseded';
}

const time = (iso: string): number => {
  const t = Date.parse(iso);
  return Number.isNaN(t) ? 0 : t;
};

/**
 * Splits the versions into the main line (from the head back through `supersedes`, the order
 * they replaced one another) and those that arrived late: written after the version that
 * already superseded them, with an older timestamp. A version the walk cannot reach (a link
 * removed by a deletion) stays on the main line unless it demonstrably arrived late.
 */
export function splitLanes(versions: readonly Fact[]): { main: Fact[]; late: Fact[] } {
  const byId = new Map(versions.map((v) => [v.id, v]));
  const head =
    versions.find((v) => v.isValid) ??
    [...versions].reverse().find((v) => v.supersededBy === null || !byId.has(v.supersededBy)) ??
    versions[versions.length - 1];
  const walked: Fact[] = [];
  const seen = new Set<string>();
  for (let v = head; v && !seen.has(v.id); v = v.supersedes ? byId.get(v.supersedes) : undefined) {
    seen.add(v.id);
    walked.push(v);
  }
  walked.reverse();
  const late: Fact[] = [];
  const orphans: Fact[] = [];
  for (const v of versions) {
    if (seen.has(v.id)) continue;
    const next = v.supersededBy ? byId.get(v.supersededBy) : undefined;
    if (next && v.createdAt >= next.createdAt && time(v.ts) < time(next.ts)) late.push(v);
    else orphans.push(v);
  }
  // Orphans join the main line at their place in time.
  const main = [...walked];
  for (const o of orphans) {
    const at = main.findIndex((m) => time(m.ts) > time(o.ts));
    main.splice(at < 0 ? main.length : at, 0, o);
  }
  return { main, late };
}

interface Box {
  readonly x: number;
  readonly y: number;
  readonly w: number;
  readonly h: number;
}

export function cardBox(c: PlacedCard): Box {
  return { x: c.x, y: c.y, w: CARD_W, h: CARD_H };
}

export function labelBox(a: ChainArrow): Box {
  return { x: a.labelAt.x, y: a.labelAt.y, w: labelWidth(a), h: LABEL_H };
}

export function labelText(a: ChainArrow): string {
  return `${a.step} · ${a.label}`;
}

export function labelWidth(a: ChainArrow): number {
  return labelText(a).length * LABEL_CHAR_W;
}

export function boxesOverlap(a: Box, b: Box): boolean {
  return a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
}

/** True when the segment p–q enters the inside of the box (touching its edge does not count). */
export function segmentCrossesBox(p: Point, q: Point, b: Box, inset = 1): boolean {
  const x0 = b.x + inset;
  const y0 = b.y + inset;
  const x1 = b.x + b.w - inset;
  const y1 = b.y + b.h - inset;
  // Liang–Barsky clipping: does any part of the segment lie inside the (inset) rectangle?
  let t0 = 0;
  let t1 = 1;
  const dx = q.x - p.x;
  const dy = q.y - p.y;
  const edges: Array<[number, number]> = [
    [-dx, p.x - x0],
    [dx, x1 - p.x],
    [-dy, p.y - y0],
    [dy, y1 - p.y],
  ];
  for (const [pp, qq] of edges) {
    if (pp === 0) {
      if (qq <= 0) return false;
      continue;
    }
    const r = qq / pp;
    if (pp < 0) t0 = Math.max(t0, r);
    else t1 = Math.min(t1, r);
    if (t0 >= t1) return false;
  }
  return true;
}

/**
 * A vertical timeline (it suits the narrow detail panel): main-line versions top to bottom,
 * spaced by the time between them but never closer than a card; side cards (late versions and
 * proposals) beside the moment they belong to, stacked without overlap.
 */
export function layoutChain(versions: readonly Fact[], proposals: readonly Fact[], asOf: string | null, span = 520): ChainLayout {
  const { main, late } = splitLanes(versions);
  const times = main.map((v) => Date.parse(v.ts)).filter((t) => !Number.isNaN(t));
  const lo = times.length ? Math.min(...times) : 0;
  const hi = times.length ? Math.max(...times) : 1;
  const scale = scaleTime()
    .domain([new Date(lo), new Date(hi === lo ? lo + 1 : hi)])
    .range([0, Math.max(span, main.length * (CARD_H + GAP))]);
  const ys: number[] = [];
  main.forEach((v, i) => {
    const raw = scale(new Date(Date.parse(v.ts) || lo));
    const prev = ys[i - 1];
    ys.push(prev === undefined ? raw : Math.max(raw, prev + CARD_H + GAP));
  });
  const axisX = MARGIN.left + AXIS_W;
  const cardX = axisX + 14;
  const sideX = cardX + CARD_W + SIDE_GAP;
  const mainCards: PlacedCard[] = main.map((fact, i) => ({ fact, x: cardX, y: MARGIN.top + (ys[i] ?? 0), kind: 'version', validAtAsOf: validAt(fact, asOf) }));
  const byId = new Map(mainCards.map((c) => [c.fact.id, c]));
  const points = mainCards.map((c) => ({ t: time(c.fact.ts), y: c.y }));
  const lastMain = mainCards[mainCards.length - 1];
  const lastY = (lastMain?.y ?? MARGIN.top) + CARD_H + GAP;

  /** Where an instant falls on the main line (card tops), for placing late versions. */
  const topAt = (t: number): number => {
    const first = points[0];
    const last = points[points.length - 1];
    if (!first || !last) return MARGIN.top;
    if (t <= first.t) return first.y;
    if (t >= last.t) return last.y;
    for (let i = 1; i < points.length; i++) {
      const a = points[i - 1];
      const b = points[i];
      if (a && b && t <= b.t) return b.t === a.t ? b.y : a.y + ((t - a.t) / (b.t - a.t)) * (b.y - a.y);
    }
    return last.y;
  };

  // Side cards: each wants a y (late: its time on the main line; proposal: beside its target),
  // then they are stacked in that order without overlapping.
  const wanted: Array<{ fact: Fact; kind: CardKind; y: number }> = [
    ...late.map((fact) => ({ fact, kind: 'late' as const, y: topAt(time(fact.ts)) })),
    ...proposals.map((fact) => {
      const target = fact.proposalFor ? byId.get(fact.proposalFor) : undefined;
      return { fact, kind: 'proposal' as const, y: target ? target.y : lastY };
    }),
  ].sort((a, b) => a.y - b.y || time(a.fact.ts) - time(b.fact.ts));
  const sideCards: PlacedCard[] = [];
  let floor = -Infinity;
  for (const w of wanted) {
    const y = Math.max(w.y, floor);
    sideCards.push({ fact: w.fact, x: sideX, y, kind: w.kind, validAtAsOf: w.kind === 'late' ? validAt(w.fact, asOf) : false });
    floor = y + CARD_H + SIDE_STACK_GAP;
  }

  const arrows: ChainArrow[] = [];
  // Main line: straight down the lane, from one card to the next.
  for (let i = 1; i < mainCards.length; i++) {
    const from = mainCards[i - 1] as PlacedCard;
    const to = mainCards[i] as PlacedCard;
    if (from.fact.supersededBy !== to.fact.id) continue;
    const x = from.x + 18;
    const a0 = { x, y: from.y + CARD_H };
    const a1 = { x, y: to.y - 4 };
    const mid = (from.y + CARD_H + to.y) / 2;
    arrows.push({
      step: 0,
      from,
      to,
      rule: from.fact.supersessionRule,
      reason: from.fact.supersessionReason,
      kind: 'supersession',
      label: arrowLabel('supersession', from.fact.supersessionRule),
      points: [a0, a1],
      labelAt: { x: x + 8, y: mid - LABEL_H / 2 },
    });
  }
  // Side cards: out of their left edge into the gutter, along it, into the right edge of the
  // card they were superseded by (late) or failed to replace (proposal). Each takes its own
  // track in the gutter so parallel routes stay apart.
  let track = 0;
  for (const s of sideCards) {
    const targetId = s.kind === 'late' ? s.fact.supersededBy : s.fact.proposalFor;
    const to = targetId ? byId.get(targetId) : undefined;
    if (!to) continue;
    const lane = track++ % 5;
    const gx = cardX + CARD_W + 12 + lane * 9;
    const sy = s.y + CARD_H / 2;
    const ty = to.y + CARD_H / 2 + (lane - 2) * 7;
    const pts: Point[] = [
      { x: s.x, y: sy },
      { x: gx, y: sy },
      { x: gx, y: ty },
      { x: to.x + CARD_W + 4, y: ty },
    ];
    const kind = s.kind === 'late' ? 'late' : 'proposal';
    arrows.push({
      step: 0,
      from: s,
      to,
      rule: s.fact.supersessionRule,
      reason: s.fact.supersessionReason,
      kind,
      label: arrowLabel(kind, s.fact.supersessionRule),
      points: pts,
      labelAt: { x: s.x + 2, y: s.y - LABEL_H - 5 },
    });
  }

  // Steps are numbered top to bottom, the order a reader meets them.
  arrows.sort((a, b) => a.from.y - b.from.y || a.from.x - b.from.x);
  const numbered = arrows.map((a, i) => ({ ...a, step: i + 1 }));
  const all = [...mainCards, ...sideCards];
  const labelRight = Math.max(0, ...numbered.map((a) => a.labelAt.x + labelWidth(a)));
  const width = Math.max(labelRight, ...all.map((c) => c.x + CARD_W), cardX + CARD_W) + MARGIN.right;
  const height = Math.max(...all.map((c) => c.y + CARD_H), MARGIN.top + CARD_H) + MARGIN.bottom;

  const ticks = mainCards.map((c) => ({ t: time(c.fact.ts), y: c.y + 14 }));
  function yOf(iso: string): number {
    const t = Date.parse(iso);
    const first = ticks[0];
    const lastPoint = ticks[ticks.length - 1];
    if (!first || !lastPoint || Number.isNaN(t)) return MARGIN.top;
    if (t <= first.t) return Math.max(6, first.y - GAP / 2);
    if (t >= lastPoint.t) return Math.min(height - 6, lastPoint.y + CARD_H);
    for (let i = 1; i < ticks.length; i++) {
      const a = ticks[i - 1];
      const b = ticks[i];
      if (a && b && t <= b.t) return b.t === a.t ? b.y : a.y + ((t - a.t) / (b.t - a.t)) * (b.y - a.y);
    }
    return lastPoint.y;
  }
  return { cards: all, arrows: numbered, width, height, axisX, yOf };
}

/** Splits text into at most `lines` lines of `width` characters (the last one ellipsised). */
export function clampLines(text: string, width: number, lines: number): string[] {
  const flat = text.replace(/\s+/g, ' ').trim();
  const out: string[] = [];
  let rest = flat;
  while (rest.length > 0 && out.length < lines) {
    if (rest.length <= width) {
      out.push(rest);
      rest = '';
      break;
    }
    let cut = rest.lastIndexOf(' ', width);
    if (cut < width * 0.5) cut = width;
    out.push(rest.slice(0, cut).trimEnd());
    rest = rest.slice(cut).trimStart();
  }
  if (rest.length > 0 && out.length > 0) {
    const last = out[out.length - 1] ?? '';
    out[out.length - 1] = `${last.slice(0, Math.max(0, width - 1))}…`;
  }
  return out;
}
