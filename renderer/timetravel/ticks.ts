// Date ticks for the time-travel scrubber: round UTC instants (years, months, days, hours,
// minutes) between two times, at most a given number, each labelled as precisely as its step.

export interface Tick {
  readonly at: number;
  readonly label: string;
}

type Unit = 'year' | 'month' | 'day' | 'hour' | 'minute';
interface Step {
  readonly unit: Unit;
  readonly n: number;
  /** Approximate length, to pick the step. */
  readonly ms: number;
}

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
const STEPS: readonly Step[] = [
  ...[1, 5, 15, 30].map((n) => ({ unit: 'minute' as const, n, ms: n * MIN })),
  ...[1, 3, 6, 12].map((n) => ({ unit: 'hour' as const, n, ms: n * HOUR })),
  ...[1, 2, 7, 14].map((n) => ({ unit: 'day' as const, n, ms: n * DAY })),
  ...[1, 2, 3, 6].map((n) => ({ unit: 'month' as const, n, ms: n * 30 * DAY })),
  ...[1, 2, 5, 10, 20, 50, 100].map((n) => ({ unit: 'year' as const, n, ms: n * 365 * DAY })),
];

/** The first instant at or after `t` on the step's grid (UTC). */
function firstOnGrid(t: number, step: Step): Date {
  const d = new Date(t);
  switch (step.unit) {
    case 'minute':
      return new Date(Math.ceil(t / (step.n * MIN)) * step.n * MIN);
    case 'hour':
      return new Date(Math.ceil(t / (step.n * HOUR)) * step.n * HOUR);
    case 'day':
      return new Date(Math.ceil(t / DAY) * DAY);
    case 'month': {
      const m = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1));
      if (m.getTime() < t) m.setUTCMonth(m.getUTCMonth() + 1);
      while (m.getUTCMonth() % step.n !== 0) m.setUTCMonth(m.getUTCMonth() + 1);
      return m;
    }
    case 'year': {
      const y = new Date(Date.UTC(d.getUTCFullYear(), 0, 1));
      if (y.getTime() < t) y.setUTCFullYear(y.getUTCFullYear() + 1);
      while (y.getUTCFullYear() % step.n !== 0) y.setUTCFullYear(y.getUTCFullYear() + 1);
      return y;
    }
  }
}

function advance(d: Date, step: Step): Date {
  const next = new Date(d.getTime());
  if (step.unit === 'year') next.setUTCFullYear(next.getUTCFullYear() + step.n);
  else if (step.unit === 'month') next.setUTCMonth(next.getUTCMonth() + step.n);
  else next.setTime(next.getTime() + step.ms);
  return next;
}

function label(d: Date, unit: Unit, spansDays: boolean): string {
  const iso = d.toISOString();
  switch (unit) {
    case 'year':
      return iso.slice(0, 4);
    case 'month':
      return iso.slice(0, 7);
    case 'day':
      return iso.slice(0, 10);
    default:
      // Hours and minutes: the day too when the range crosses days.
      return spansDays ? `${iso.slice(5, 10)} ${iso.slice(11, 16)}` : iso.slice(11, 16);
  }
}

/** Round instants in [lo, hi], the finest step giving at most `max` of them. */
export function timeTicks(lo: number, hi: number, max = 8): Tick[] {
  if (!Number.isFinite(lo) || !Number.isFinite(hi) || hi <= lo || max < 1) return [];
  const step = STEPS.find((s) => (hi - lo) / s.ms <= max) ?? STEPS[STEPS.length - 1];
  if (!step) return [];
  const spansDays = new Date(lo).toISOString().slice(0, 10) !== new Date(hi).toISOString().slice(0, 10);
  const out: Tick[] = [];
  for (let d = firstOnGrid(lo, step); d.getTime() <= hi && out.length <= max; d = advance(d, step)) {
    out.push({ at: d.getTime(), label: label(d, step.unit, spansDays) });
  }
  return out.slice(0, max);
}
