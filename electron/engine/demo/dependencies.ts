// The demo's dependency web: one organisation's plan for its first project, written as facts
// that rest on one another, so the dependency graph has something to show. A budget fans out to
// department allocations, each to workstreams, each to purchase decisions (over two thousand
// facts within three hops of the budget); decisions also rest on shared vendor quotes (fan-in);
// forecasts rest on several decisions and an outlook on the forecasts, so chains run five levels
// deep. Late in the year one allocation and one vendor quote are corrected, which flags every
// fact downstream of them for review. The plan is fixed for a size; values come from the seed.
import type { FactWriteInput, SourceInput } from '../../../shared/writes';
import type { Rng } from './prng';
import { slug, type DemoOrg } from './vocabulary';

/** One fact of the web; `dependsOn` and `supersedes` name earlier facts of the web by key. */
export interface WebFact {
  readonly key: string;
  readonly value: (rng: Rng) => string;
  readonly dependsOn: readonly string[];
  readonly supersedes?: string;
}

const DEPARTMENTS = [
  'Operations',
  'Finance',
  'Procurement',
  'Warehousing',
  'Fleet',
  'Customs',
  'IT',
  'Facilities',
  'Sales',
  'Service',
  'Legal',
  'People',
] as const;
const WORKSTREAMS = [
  'tooling',
  'training',
  'hardware',
  'licences',
  'contractors',
  'travel',
  'audits',
  'pilots',
  'integration',
  'reporting',
  'security',
  'rollout',
] as const;

export const WEB_SOURCE: SourceInput = { type: 'finance_system', identity: 'Planning system', authority: 'manager' };

/** Facts per workstream at full size (12 departments x 12 workstreams x this many decisions). */
const FULL_DECISIONS = 14;

/** The size of the web for a demo of `total` facts: none below 2,000, full (about 2,230
 * facts) from 10,000, a quarter of the facts in between. */
export function webBudget(total: number): number {
  if (total < 2000) return 0;
  if (total >= 10_000) return Number.POSITIVE_INFINITY;
  return Math.floor(total / 4);
}

export function planWeb(org: DemoOrg, budget: number): WebFact[] {
  if (budget <= 0) return [];
  const project = org.projects[0] ?? 'Atlas';
  const p = slug(project);
  const cur = org.currency;
  const money = (rng: Rng, lo: number, hi: number) => `${cur}${(rng.int(lo, hi) * 1000).toLocaleString('en-US')}`;
  const vendors = org.vendors.slice(0, 6);
  const perStream = Number.isFinite(budget)
    ? Math.max(1, Math.min(FULL_DECISIONS, Math.floor((budget - 220) / (DEPARTMENTS.length * WORKSTREAMS.length))))
    : FULL_DECISIONS;
  const out: WebFact[] = [];
  const root = `plan.${p}.budget`;
  out.push({ key: root, value: (r) => `${project} has ${money(r, 2200, 2600)} for the year across ${DEPARTMENTS.length} departments`, dependsOn: [] });
  const quote = (v: string) => `quote.${slug(v)}.${slug(org.unit)}_cost`;
  for (const v of vendors)
    out.push({
      key: quote(v),
      value: (r) => `${v} quotes ${cur}${r.int(14, 60)}.${String(r.int(0, 99)).padStart(2, '0')} per ${org.unit} for ${project}`,
      dependsOn: [],
    });
  const allocation = (d: string) => `plan.${p}.${slug(d)}.allocation`;
  for (const d of DEPARTMENTS)
    out.push({ key: allocation(d), value: (r) => `${d} receives ${money(r, 120, 260)} of the ${project} budget`, dependsOn: [root] });
  const stream = (d: string, w: string) => `plan.${p}.${slug(d)}.${w}`;
  for (const d of DEPARTMENTS)
    for (const w of WORKSTREAMS) out.push({ key: stream(d, w), value: (r) => `${d} sets aside ${money(r, 8, 22)} for ${w}`, dependsOn: [allocation(d)] });
  const decision = (d: string, w: string, i: number) => `decision.${p}.${slug(d)}.${w}.${String(i + 1).padStart(2, '0')}`;
  let n = 0;
  for (let i = 0; i < perStream; i++) {
    for (const d of DEPARTMENTS) {
      for (const w of WORKSTREAMS) {
        const vendor = vendors[n++ % vendors.length] as string;
        // One decision in five also rests on a vendor quote: several hundred facts fan in to each.
        const deps = n % 5 === 0 ? [stream(d, w), quote(vendor)] : [stream(d, w)];
        out.push({
          key: decision(d, w, i),
          value: (r) => `Approve order ${r.int(50_000, 99_999)} with ${vendor}: ${money(r, 1, 9)} from ${d} ${w}`,
          dependsOn: deps,
        });
      }
    }
  }
  // Forecasts per department rest on the first decision of six workstreams (fan-in), and the
  // outlook on every forecast: budget -> allocation -> workstream -> decision -> forecast -> outlook.
  const forecast = (d: string) => `forecast.${p}.${slug(d)}.spend`;
  for (const d of DEPARTMENTS)
    out.push({
      key: forecast(d),
      value: (r) => `${d} expects to spend ${r.int(82, 99)}% of its ${project} allocation`,
      dependsOn: WORKSTREAMS.slice(0, 6).map((w) => decision(d, w, 0)),
    });
  out.push({
    key: `forecast.${p}.outlook`,
    value: (r) => `${project} is on course to close the year ${money(r, 20, 90)} under budget`,
    dependsOn: DEPARTMENTS.map(forecast),
  });
  // The corrections that flag their downstream facts.
  const fleet = allocation('Fleet');
  out.push({
    key: fleet,
    value: (r) => `Correction: Fleet receives ${money(r, 60, 90)} of the ${project} budget after the CFO review`,
    dependsOn: [root],
    supersedes: fleet,
  });
  const firstQuote = quote(vendors[0] as string);
  out.push({
    key: firstQuote,
    value: (r) => `Correction: ${vendors[0] ?? ''} quotes ${cur}${r.int(61, 80)}.00 per ${org.unit} once the surcharge applies`,
    dependsOn: [],
    supersedes: firstQuote,
  });
  return out;
}

/** Turns a planned fact into a write, resolving the keys it names to the ids written so far. */
export function webWrite(f: WebFact, rng: Rng, ts: string, ids: ReadonlyMap<string, string>): FactWriteInput {
  const deps = f.dependsOn.map((k) => ids.get(k)).filter((id): id is string => id !== undefined);
  return {
    key: f.key,
    value: f.value(rng),
    source: WEB_SOURCE,
    ts,
    ...(deps.length > 0 ? { dependsOn: deps } : {}),
    ...(f.supersedes ? { supersedes: ids.get(f.supersedes) ?? f.supersedes } : {}),
  };
}
