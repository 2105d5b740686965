// Environmental freshness: signals carry their own observation time, and on any one subject the
// latest observation wins; an older signal, or a turn said before a fresher signal on its
// subject, is stale (the temporal supersession rule applied to the environment).
import type { SignalRow } from './source';
import { stemSet } from './terms';

/** Two texts speak of the same subject: at least two shared word stems, a quarter of the smaller. */
export function sameSubject(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  let shared = 0;
  for (const s of a) if (b.has(s)) shared++;
  return shared >= 2 && shared >= 0.25 * Math.min(a.size, b.size);
}

/** Signals observed by `now`, split into the freshest per subject and those a later one replaced. */
export function freshSignals(all: readonly SignalRow[], now: string): { fresh: SignalRow[]; stale: Array<{ signal: SignalRow; by: SignalRow }> } {
  const seen = all.filter((s) => s.key.toLowerCase() !== 'now' && s.observed_at <= now);
  const stems = new Map(seen.map((s) => [s, stemSet(s.value)]));
  const fresh: SignalRow[] = [];
  const stale: Array<{ signal: SignalRow; by: SignalRow }> = [];
  for (const s of seen) {
    const by = seen.find((o) => o.observed_at > s.observed_at && sameSubject(stems.get(s) ?? new Set(), stems.get(o) ?? new Set()));
    if (by) stale.push({ signal: s, by });
    else fresh.push(s);
  }
  return { fresh, stale };
}
