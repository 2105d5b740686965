// Benchmark section: the engine on PostgreSQL beside SQLite in the same run — batched ingest,
// keyset paging (deep pages), state_based assembly, deleting facts, writes per second with
// 1, 4 and 8 writer processes, and a writer's commit while another org holds every lock it can. Target: the server of STATELENS_BENCH_PG_URL or
// STATELENS_TEST_PG_URL (in a scratch database created and dropped here), else PGlite in process.
// Run alone: statelens bench --only postgres [--quick]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FactPage } from '../../shared/inspect';
import { migratePg } from '../engine/db/pg/schema';
import { quoteIdent, SyncPg } from '../engine/db/pg/sync-client';
import { redactUrl, type PgTarget } from '../engine/db/pg/target';
import type { PartitionHandle } from '../engine/partition-handle';
import { Store } from '../engine/store';
import { WriteStream } from './ingest';
import { crossOrgLockRows } from './cross-org-locks';
import { checkChains, startPgWriters } from './load/pg-writers';
import { envInt, median, round, sizeLabel, type BenchOptions, type BenchRow, type BenchSection } from './section';

const SCHEMA = 'statelens';
const CHUNK = 5_000;
const PAGE = 500;

/** Where the PostgreSQL figures are measured: a server (its admin URL) or PGlite, and why. */
export type PgBenchTarget = { readonly kind: 'server'; readonly url: string; readonly from: string } | { readonly kind: 'pglite'; readonly why: string };

/** The server the command names (--db URL) first, then the bench's own URL (a dedicated
 * machine), then the test server's, else PGlite. */
export function choosePgBenchTarget(env: Readonly<Record<string, string | undefined>>, named?: string): PgBenchTarget {
  if (named?.trim()) return { kind: 'server', url: named.trim(), from: '--db' };
  for (const name of ['STATELENS_BENCH_PG_URL', 'STATELENS_TEST_PG_URL']) {
    const url = env[name]?.trim();
    if (url) return { kind: 'server', url, from: name };
  }
  return { kind: 'pglite', why: 'neither STATELENS_BENCH_PG_URL nor STATELENS_TEST_PG_URL is set' };
}

/** The URL of database `name` on the server of `url` (same host, user and options). */
export function databaseUrl(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.href;
}

interface Scratch {
  readonly target: PgTarget;
  /** For writer processes (server only). */
  readonly url?: string;
  readonly label: string;
  drop(): void;
}

function scratchServer(adminUrl: string): Scratch {
  const name = `s15_bench_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = SyncPg.open({ kind: 'server', url: adminUrl });
  try {
    admin.exec(`CREATE DATABASE ${quoteIdent(name)}`);
  } finally {
    admin.close();
  }
  const url = databaseUrl(adminUrl, name);
  return {
    target: { kind: 'server', url },
    url,
    label: `PostgreSQL server ${new URL(adminUrl).host}`,
    drop() {
      const again = SyncPg.open({ kind: 'server', url: adminUrl });
      try {
        again.exec(`DROP DATABASE IF EXISTS ${quoteIdent(name)} WITH (FORCE)`);
      } finally {
        again.close();
      }
    },
  };
}

function scratchPglite(dir: string): Scratch {
  const dataDir = fs.mkdtempSync(path.join(dir, 'statelens-bench-pglite-'));
  return { target: { kind: 'pglite', dataDir }, label: 'PGlite in process', drop: () => fs.rmSync(dataDir, { recursive: true, force: true }) };
}

const reason = (e: unknown): string => (e instanceof Error ? e.message : String(e)).split('\n')[0] ?? 'unknown error';

/** A figure that could not be measured: the row says why instead of failing the run. */
export function notMeasured(metric: string, unit: string, why: string): BenchRow {
  return { metric, value: NaN, unit, baseline: `not measured: ${why}` };
}

function timed<T>(fn: () => T): [T, number] {
  const t0 = performance.now();
  const r = fn();
  return [r, performance.now() - t0];
}

/** Ingests `n` facts of the benchmark's write stream; facts per second of the writes alone. */
function ingest(handle: PartitionHandle, n: number): number {
  const stream = new WriteStream('postgres-bench');
  let ms = 0;
  for (let done = 0; done < n; done += CHUNK) {
    const chunk = stream.next(Math.min(CHUNK, n - done));
    ms += timed(() => handle.writeFacts(chunk))[1];
  }
  return n / (ms / 1000);
}

/** Walks the partition by cursor in pages of 500 (newest first): median page and the deepest one. */
function paging(handle: PartitionHandle): { median: number; deep: number; depth: number } {
  const times: number[] = [];
  let after: string | null = null;
  let depth = 0;
  do {
    const cursor: string | null = after;
    const [page, t] = timed((): FactPage => handle.listFacts({ sort: { column: 'ts', direction: 'desc' }, page: { limit: PAGE, after: cursor } }));
    times.push(t);
    depth += page.rows.length;
    after = page.nextCursor;
  } while (after && times.length < 400);
  return { median: median(times.slice(1)), deep: times[times.length - 1] ?? NaN, depth };
}

function assembleMs(handle: PartitionHandle): number {
  const query = 'What is the current budget and deadline for the vendor contract?';
  const times: number[] = [];
  for (let i = 0; i < 3; i++) times.push(timed(() => handle.assemble({ strategy: 'state_based', budget: 8000, query, provenance: 'included' }))[1]);
  return median(times);
}

/** Deletes `count` facts spread over the partition in one call; milliseconds. */
function deleteMs(handle: PartitionHandle, total: number, count: number): number {
  const ids: string[] = [];
  const stride = Math.max(1, Math.floor(total / count));
  let after: string | null = null;
  let seen = 0;
  do {
    const page: FactPage = handle.listFacts({ sort: { column: 'ts', direction: 'asc' }, page: { limit: PAGE, after } });
    for (const r of page.rows) if (seen++ % stride === 0 && ids.length < count) ids.push(r.id);
    after = page.nextCursor;
  } while (after && ids.length < count);
  return timed(() => handle.deleteFacts({ ids }, { actor: 'bench', reason: 'postgres benchmark' }))[1];
}

/** One engine store, measured: every step that fails leaves its figure undefined with the reason. */
interface StoreFigures {
  ingest?: number;
  paging?: { median: number; deep: number; depth: number };
  assembly?: number;
  /** The same assembly once ANALYZE has given the planner statistics of the table as filled. */
  analyzedAssembly?: number;
  delete?: number;
  errors: Record<string, string>;
}

function measureStore(open: () => Store, n: number, deletes: number, log: (l: string) => void, name: string): StoreFigures {
  const f: StoreFigures = { errors: {} };
  const store = open();
  try {
    const handle = store.scope({ kind: 'user', org: 'bench', user: 'agent' }, { create: true });
    const step = <T>(key: string, fn: () => T): T | undefined => {
      try {
        return fn();
      } catch (e) {
        f.errors[key] = reason(e);
        log(`  ${name}: ${key} failed: ${f.errors[key]}`);
        return undefined;
      }
    };
    f.ingest = step('ingest', () => ingest(handle, n));
    if (f.ingest === undefined) return f;
    f.paging = step('paging', () => paging(handle));
    f.assembly = step('assembly', () => assembleMs(handle));
    f.analyzedAssembly = step('analyzedAssembly', () => {
      store.db.exec('ANALYZE');
      return assembleMs(handle);
    });
    f.delete = step('delete', () => deleteMs(handle, n, deletes));
    log(
      `  ${name}: ingest ${round(f.ingest)} facts/s, page ${round(f.paging?.median ?? NaN)} ms (deep ${round(f.paging?.deep ?? NaN)} ms), assembly ${round(f.assembly ?? NaN)} ms (after ANALYZE ${round(f.analyzedAssembly ?? NaN)} ms), delete ${round(f.delete ?? NaN)} ms`,
    );
    return f;
  } finally {
    store.close();
  }
}

const vs = (pg: number, lite: number | undefined, unit: string): string =>
  lite === undefined ? 'SQLite: not measured' : `SQLite ${round(lite).toLocaleString('en-US')} ${unit} (PostgreSQL/SQLite ${(pg / lite).toFixed(2)})`;

export async function runPostgresBench(opts: BenchOptions = {}): Promise<BenchRow[]> {
  const log = opts.log ?? (() => undefined);
  const n = envInt('STATELENS_PG_BENCH_FACTS', opts.quick ? 5_000 : 100_000);
  const deletes = Math.min(opts.quick ? 1_000 : 10_000, Math.floor(n / 2));
  const writes = envInt('STATELENS_PG_BENCH_WRITES', opts.quick ? 100 : 1_000);
  const dir = fs.mkdtempSync(path.join(opts.dir ?? os.tmpdir(), 'statelens-bench-postgres-'));
  const chosen = choosePgBenchTarget(process.env, opts.pgUrl);
  const rows: BenchRow[] = [];
  let scratch: Scratch;
  try {
    if (chosen.kind === 'server') {
      try {
        scratch = scratchServer(chosen.url);
      } catch (e) {
        log(`postgres: cannot use the server of ${chosen.from}, ${redactUrl(chosen.url)} (${reason(e)}); measuring PGlite in process instead`);
        rows.push(notMeasured(`PostgreSQL server of ${chosen.from}`, '', `cannot reach it or create a scratch database (${reason(e)})`));
        scratch = scratchPglite(dir);
      }
    } else {
      log(`postgres: ${chosen.why}; measuring PGlite in process`);
      scratch = scratchPglite(dir);
    }
    const on = `on ${scratch.label}`;
    const at = `@${sizeLabel(n)}`;
    try {
      const setup = SyncPg.open(scratch.target);
      try {
        migratePg(setup, { schema: SCHEMA });
      } finally {
        setup.close();
      }
      log(`postgres: ${sizeLabel(n)} facts on SQLite, then ${on}${scratch.url ? ` (scratch database ${redactUrl(scratch.url)})` : ''}`);
      const lite = measureStore(() => Store.open(path.join(dir, 'baseline.db')), n, deletes, log, 'SQLite');
      const pg = measureStore(() => Store.openPostgres(scratch.target, { schema: SCHEMA }), n, deletes, log, 'PostgreSQL');
      const add = (metric: string, unit: string, key: string, value: number | undefined, sqlite: number | undefined, target?: string): void => {
        if (value === undefined) rows.push(notMeasured(`${metric} ${on} ${at}`, unit, pg.errors[key] ?? 'an earlier step failed'));
        else rows.push({ metric: `${metric} ${on} ${at}`, value: round(value), unit, ...(target ? { target } : {}), baseline: vs(value, sqlite, unit) });
      };
      add('batched ingest', 'facts/s', 'ingest', pg.ingest, lite.ingest);
      add(`keyset page of ${PAGE}, median`, 'ms', 'paging', pg.paging?.median, lite.paging?.median);
      add(`keyset page of ${PAGE} at depth ${(pg.paging?.depth ?? n).toLocaleString('en-US')}`, 'ms', 'paging', pg.paging?.deep, lite.paging?.deep);
      add('assembly state_based, budget 8,000, median of 3', 'ms', 'assembly', pg.assembly, lite.assembly);
      // Right after a bulk ingest the planner has no statistics of the filled table (autovacuum
      // analyzes it later, or never when it is off): the same figure once ANALYZE has run.
      add('assembly state_based, budget 8,000, median of 3, after ANALYZE', 'ms', 'analyzedAssembly', pg.analyzedAssembly, lite.analyzedAssembly);
      add(`delete ${deletes.toLocaleString('en-US')} facts with cascades`, 'ms', 'delete', pg.delete, lite.delete);
      rows.push(...(await writerRows(scratch, writes, log)));
      rows.push(...crossOrgRows(scratch, log));
    } finally {
      scratch.drop();
    }
    return rows;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** A writer's commit while another org's sessions hold every lock they can (see cross-org-locks). Server only. */
function crossOrgRows(scratch: Scratch, log: (l: string) => void): BenchRow[] {
  const metric = "writer's commit while another org holds every lock it can take";
  if (!scratch.url) return [notMeasured(metric, 'ms', 'PGlite has one connection, so no second session can hold a lock')];
  log('postgres: a writer while another org holds every lock it can take');
  try {
    return crossOrgLockRows(scratch.url, log);
  } catch (e) {
    return [notMeasured(metric, 'ms', reason(e))];
  }
}

/** Writes per second of 1, 4 and 8 writer processes on the same 50 keys, each count in a
 * partition of its own, with the chain check after each run. Server only. */
async function writerRows(scratch: Scratch, writes: number, log: (l: string) => void): Promise<BenchRow[]> {
  const counts = [1, 4, 8];
  const metric = (w: number) => `writes with ${w} concurrent writer process${w === 1 ? '' : 'es'} (${writes} each, 50 shared keys)`;
  if (!scratch.url) {
    const why = 'PGlite lives inside one process, so other processes cannot write to it';
    log(`postgres: writer processes skipped: ${why}`);
    return counts.map((w) => notMeasured(metric(w), 'writes/s', why));
  }
  const rows: BenchRow[] = [];
  let single: number | undefined;
  for (const w of counts) {
    try {
      const run = await startPgWriters({ url: scratch.url, schema: SCHEMA, writers: w, writes, keys: 50, user: `writers${w}` });
      const { done, seconds } = await run.finished;
      const committed = done.reduce((a, d) => a + Number(d.committed), 0);
      const errors = done.reduce((a, d) => a + Number(d.errorCount), 0);
      const chains = checkChains(scratch.url, SCHEMA, run.partition);
      const whole = chains.keysWithoutOneValid.length + chains.brokenLinks.length + chains.incompleteChains.length === 0;
      const rate = committed / seconds;
      single ??= rate;
      rows.push({
        metric: `${metric(w)} on ${scratch.label}`,
        value: round(rate),
        unit: 'writes/s',
        baseline: `${w === 1 ? '' : `1 writer ${round(single).toLocaleString('en-US')} writes/s (${(rate / single).toFixed(2)}x); `}${committed} committed, ${errors} errors, chains ${whole ? 'whole' : 'BROKEN'}`,
      });
      log(`  ${w} writer(s): ${round(rate)} writes/s, ${errors} errors, chains ${whole ? 'whole' : 'BROKEN'}`);
    } catch (e) {
      rows.push(notMeasured(metric(w), 'writes/s', reason(e)));
    }
  }
  return rows;
}

export const postgresSection: BenchSection = { name: 'postgres', run: runPostgresBench };
