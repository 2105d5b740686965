// Benchmark section: context-assembly latency (median and p95) of state_based and balanced at
// 1k, 10k, 100k and 1M valid facts with an 8,000-token budget (quick mode stops at 100k), beside
// the unbudgeted reference as a baseline. Prints figures, asserts nothing.
//
// Each strategy is timed on both paths an assembly takes:
// - the agent path: provenance 'included' (what an agent takes: the text and what is in it); the
//   issue's targets (state_based at most 10 ms median at 100k facts, 50 ms at 1M) are for it;
// - the preview path: full provenance (the inspector's preview: every fact of the partition listed,
//   included or excluded with a reason, so its cost grows with the partition).
// Both are timed as previews (assembleContext, a pure read): taking a context also records access.
//
// Data: one user partition grown in steps by direct inserts (the write path has its own bench):
// per valid fact a quarter as many superseded versions, 5% constraints, 2% hypothetical, keys and
// values from a fixed vocabulary of 400 companies and 40 attributes; a 60-turn working set. Run
// alone: statelens bench --only assembly [--quick]; STATELENS_ASSEMBLY_SIZES=1000,100000 picks the sizes.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AssemblyRequestInput } from '../../shared/assembly';
import { sqliteOf } from '../engine/db/connection';
import { mulberry32 } from '../engine/demo/prng';
import type { PartitionHandle } from '../engine/partition-handle';
import { Store } from '../engine/store';
import type { BenchOptions, BenchRow, BenchSection } from './section';

export interface AssemblyBenchOptions extends BenchOptions {
  /** Override the sizes (valid facts) measured. */
  readonly sizes?: readonly number[];
}

const SYLLABLES = ['zor', 'vex', 'tal', 'mir', 'qua', 'dro', 'nix', 'bel', 'kan', 'sur', 'ple', 'gio', 'fen', 'yar', 'oth', 'lum', 'pax', 'rid', 'cas', 'ven'];
const COMPANIES = Array.from({ length: 400 }, (_, i) => {
  const a = SYLLABLES[i % 20] as string;
  const b = SYLLABLES[Math.floor(i / 20) % 20] as string;
  return `${a[0]?.toUpperCase()}${a.slice(1)}${b}corp`;
});
const ATTRIBUTES = [
  'discount',
  'budget',
  'deadline',
  'owner',
  'renewal',
  'contract',
  'pricing',
  'headcount',
  'region',
  'priority',
  'invoice',
  'payment',
  'shipping',
  'warranty',
  'support',
  'license',
  'security',
  'compliance',
  'audit',
  'roadmap',
  'meeting',
  'launch',
  'migration',
  'vendor',
  'hosting',
  'training',
  'onboarding',
  'escalation',
  'forecast',
  'quota',
  'margin',
  'refund',
  'capacity',
  'latency',
  'uptime',
  'backup',
  'retention',
  'staffing',
  'travel',
  'hiring',
];
const CONSTRAINT_WORDS = ['must not exceed', 'is capped at', 'requires approval above', 'no later than'];
const QUERIES = [
  'What discount did we agree with Zorvexcorp?',
  'When is the renewal deadline for Talmircorp?',
  'Who owns the migration budget at Quadrocorp?',
  'What is the support priority for Belkancorp?',
  'Can we offer more than 15% discount on the license?',
  'What changed in the hosting contract with Nixsurcorp?',
  'Is the launch still on track for Venpaxcorp?',
  'What is our refund policy for Casridcorp invoices?',
];

const pick = <T>(r: () => number, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)] as T;

/** Grows the partition to `validTarget` valid facts (plus superseded versions) by direct inserts. */
export function grow(handle: PartitionHandle, from: number, validTarget: number, r: () => number): void {
  const db = handle.ctx.db;
  const insert = db.prepare(`INSERT INTO facts (id, partition_id, org_id, label, key, value, source_type, source_authority, ts, created_at,
      importance, memory_type, scope, status, is_valid, superseded_by, supersedes, supersession_rule, valid_to, is_constraint, constraint_type)
    VALUES (@id, @pid, @org, NULL, @key, @value, @source, @authority, @ts, @ts, @importance, 'user', @scope, @status, @valid, @supersededBy, @supersedes, @rule, @validTo, @constraint, @ctype)`);
  const base = Date.UTC(2024, 0, 1);
  db.transaction(() => {
    for (let i = from; i < validTarget; i++) {
      const company = pick(r, COMPANIES);
      const attribute = pick(r, ATTRIBUTES);
      const isConstraint = r() < 0.05;
      const key = `${company.toLowerCase()}_${attribute}`;
      const ts = new Date(base + i * 60_000).toISOString();
      const value = (n: number): string =>
        isConstraint
          ? `${company} ${attribute} ${pick(r, CONSTRAINT_WORDS)} $${(n % 90) + 10}k per policy`
          : `${company} ${attribute} is ${n % 2 === 0 ? `${(n % 40) + 1}%` : `set for week ${(n % 52) + 1}`} after the ${pick(r, ATTRIBUTES)} review`;
      const id = `f_b${i}`;
      const priorCount = r() < 0.25 ? 1 : 0;
      for (let k = 0; k < priorCount; k++) {
        insert.run({
          id: `${id}_v${k}`,
          pid: handle.id,
          org: handle.ctx.orgId,
          key,
          value: value(Math.floor(r() * 1000)),
          source: 'user',
          authority: 'peer',
          ts: new Date(base + i * 60_000 - 30_000).toISOString(),
          importance: 0.5,
          scope: 'global',
          status: 'superseded',
          valid: 0,
          supersededBy: id,
          supersedes: null,
          rule: 'explicit',
          validTo: ts,
          constraint: 0,
          ctype: null,
        });
      }
      insert.run({
        id,
        pid: handle.id,
        org: handle.ctx.orgId,
        key,
        value: value(Math.floor(r() * 1000)),
        source: isConstraint ? 'policy' : 'user',
        authority: isConstraint ? 'policy' : 'peer',
        ts,
        importance: Math.round(r() * 100) / 10,
        scope: r() < 0.02 ? 'hypothetical' : 'global',
        status: 'active',
        valid: 1,
        supersededBy: null,
        supersedes: priorCount > 0 ? `${id}_v0` : null,
        rule: null,
        validTo: null,
        constraint: isConstraint ? 1 : 0,
        ctype: isConstraint ? 'policy' : null,
      });
    }
  })();
}

export function seedSession(handle: PartitionHandle, r: () => number): void {
  handle.setIdentity({ userName: 'Bench User', userId: 'bench', authority: 'manager', department: 'Sales', organization: 'Bench Org', permissions: [] });
  handle.setEnvironment([
    { key: 'timezone', value: 'UTC' },
    { key: 'region', value: 'EU' },
  ]);
  handle.addWorkingItems(
    Array.from({ length: 60 }, (_, i) => ({
      key: `turn:${i}`,
      value: `${pick(r, COMPANIES)} asked about the ${pick(r, ATTRIBUTES)} and the ${pick(r, ATTRIBUTES)} timeline`,
      itemType: 'turn',
      speaker: i % 2 === 0 ? 'user' : 'assistant',
      createdAt: new Date(Date.UTC(2026, 0, 1, 9, i)).toISOString(),
    })),
  );
}

/** Wall-clock median and p95, plus the median CPU time of this process (on a shared machine
 * the wall clock also counts the time spent waiting for a core). */
interface Timing {
  readonly median: number;
  readonly p95: number;
  readonly cpu: number;
}

function time(fn: () => void, reps: number): Timing {
  const xs: number[] = [];
  const cs: number[] = [];
  for (let i = 0; i < reps; i++) {
    const c = process.cpuUsage();
    const t = performance.now();
    fn();
    xs.push(performance.now() - t);
    const u = process.cpuUsage(c);
    cs.push((u.user + u.system) / 1000);
  }
  xs.sort((a, b) => a - b);
  cs.sort((a, b) => a - b);
  const at = (v: number[], q: number): number => v[Math.min(v.length - 1, Math.floor(q * v.length))] ?? 0;
  return { median: at(xs, 0.5), p95: at(xs, 0.95), cpu: at(cs, 0.5) };
}

const round = (x: number): number => Math.round(x * 100) / 100;

/** CPU time per iteration of a dependent multiply-add loop: how fast this core runs right now
 * (a shared or throttled machine shows it here and in every latency alike). */
function speedProbe(): number {
  const n = 20_000_000;
  let x = 0;
  const c = process.cpuUsage();
  for (let i = 0; i < n; i++) x = (x * 31 + i) | 0;
  const u = process.cpuUsage(c);
  if (x === 42) console.log(''); // keeps the loop from being optimised away
  return ((u.user + u.system) * 1000) / n;
}

export async function runAssemblyBench(opts: AssemblyBenchOptions = {}): Promise<BenchRow[]> {
  const log = opts.log ?? (() => {});
  const fromEnv = (process.env.STATELENS_ASSEMBLY_SIZES ?? '')
    .split(',')
    .map(Number)
    .filter((x) => Number.isInteger(x) && x > 0);
  const sizes = opts.sizes ?? (fromEnv.length > 0 ? fromEnv : opts.quick ? [1_000, 10_000, 100_000] : [1_000, 10_000, 100_000, 1_000_000]);
  const dir = fs.mkdtempSync(path.join(opts.dir ?? os.tmpdir(), 'statelens-bench-assembly-'));
  const store = Store.open(path.join(dir, 'bench.db'));
  const sqlite = sqliteOf(store.db, 'The assembly benchmark');
  sqlite.pragma('synchronous = OFF');
  const rows: BenchRow[] = [];
  try {
    rows.push({ metric: 'load average (1 min) at start', value: round(os.loadavg()[0] ?? 0), unit: '', baseline: `${os.cpus().length} cores` });
    rows.push({
      metric: 'machine speed probe (dependent integer loop)',
      value: round(speedProbe()),
      unit: 'ns/it',
      baseline: 'CPU time per iteration: compare runs on different machines by it',
    });
    const handle = store.scope({ kind: 'user', org: 'bench', user: 'bench' }, { create: true });
    const r = mulberry32(42);
    seedSession(handle, r);
    let have = 0;
    for (const n of sizes) {
      const t0 = performance.now();
      grow(handle, have, n, r);
      have = n;
      sqlite.pragma('optimize');
      log(`assembly: ${n.toLocaleString('en')} valid facts ready (${((performance.now() - t0) / 1000).toFixed(1)} s to grow)`);
      const label = n >= 1_000_000 ? `${n / 1_000_000}M` : `${n / 1000}k`;
      const reps = n >= 1_000_000 ? 15 : 40;
      // A preview lists every fact of the partition (a million entries at 1M): fewer runs.
      const previewReps = n >= 1_000_000 ? 3 : n >= 100_000 ? 7 : 20;
      let q = 0;
      const run = (req: Omit<AssemblyRequestInput, 'query'>) => () => {
        handle.assemble({ ...req, query: QUERIES[q++ % QUERIES.length] as string });
      };
      const agent = { budget: 8000, provenance: 'included' as const };
      const preview = { budget: 8000, provenance: 'full' as const };
      // Warm the caches (statements, tokenizer merges, compiled code: the smallest size runs first
      // in a fresh process) on both paths of both strategies, as a running app would be.
      for (const strategy of ['state_based', 'balanced'] as const) {
        for (let i = 0; i < 3; i++) run({ ...agent, strategy })();
        run({ ...preview, strategy })();
      }
      const sb = time(run({ ...agent, strategy: 'state_based' }), reps);
      const bal = time(run({ ...agent, strategy: 'balanced' }), reps);
      const sbPreview = time(run({ ...preview, strategy: 'state_based' }), previewReps);
      const balPreview = time(run({ ...preview, strategy: 'balanced' }), previewReps);
      let ref: Timing | undefined;
      if (n <= 100_000) ref = time(run({ ...agent, strategy: 'reference' }), n >= 100_000 ? 3 : 10);
      const baseline = (t: Timing): string =>
        ref
          ? `reference ${round(ref.median)} ms median (x${round(ref.median / Math.max(t.median, 0.001))} of this)`
          : 'reference not timed at 1M (unbudgeted: the whole partition as text)';
      const target = n === 100_000 ? '≤ 10 ms median' : n === 1_000_000 ? '≤ 50 ms median' : undefined;
      const first = rows.length;
      const push = (name: string, t: Timing, extra: { target?: string; cpu?: boolean } = {}): void => {
        rows.push({
          metric: `${name} median @${label}`,
          value: round(t.median),
          unit: 'ms',
          ...(extra.target ? { target: extra.target } : {}),
          baseline: baseline(t),
        });
        rows.push({ metric: `${name} p95 @${label}`, value: round(t.p95), unit: 'ms' });
        if (extra.cpu) rows.push({ metric: `${name} CPU-time median @${label}`, value: round(t.cpu), unit: 'ms' });
      };
      push('state_based agent path (provenance included)', sb, { ...(target ? { target } : {}), cpu: true });
      push('balanced agent path (provenance included)', bal, { cpu: true });
      push('state_based preview (full provenance)', sbPreview);
      push('balanced preview (full provenance)', balPreview);
      if (ref) rows.push({ metric: `reference median @${label}`, value: round(ref.median), unit: 'ms' });
      for (const row of rows.slice(first)) log(`  ${row.metric}: ${row.value} ${row.unit}${row.target ? ` (target ${row.target})` : ''}`);
    }
  } finally {
    store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
  return rows;
}

/** The section the bench runner lists. */
export const assemblySection: BenchSection = {
  name: 'assembly',
  run: (opts: BenchOptions) => runAssemblyBench(opts),
};
