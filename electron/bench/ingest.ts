// Benchmark section: batched ingest through the engine's write path (supersession resolution,
// inference, dependency edges, full-text indexing) at 10k, 100k and 1M facts (quick: 10k and
// 100k), beside raw better-sqlite3 INSERTs into a plain table and the floors the schema itself
// sets (full, and reduced to what every agent write needs), all in the same process; deleting
// 10,000 facts with cascades; as-of-time reads (the whole state, paged); the demo generator end
// to end. Prints figures, asserts nothing. Run alone: statelens bench --only ingest [--quick]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { sqliteOf } from '../engine/db/connection';
import { generateDemo } from '../engine/demo';
import { Rng } from '../engine/demo/prng';
import type { PartitionHandle } from '../engine/partition-handle';
import { Store } from '../engine/store';
import type { FactWriteInput } from '../../shared/writes';
import { median, round, sizeLabel, type BenchOptions, type BenchRow, type BenchSection } from './section';

const CHUNK = 10_000;
const DELETE_COUNT = 10_000;
const ATTRIBUTES = ['owner', 'contract_value', 'renewal', 'region', 'contact', 'plan', 'priority', 'notes'];
const WORDS = [
  'quarterly',
  'vendor',
  'invoice',
  'shipment',
  'approved',
  'review',
  'Rotterdam',
  'Singapore',
  'discount',
  'contract',
  'migration',
  'support',
  'pilot',
  'budget',
  'travel',
  'hiring',
  'roadmap',
  'security',
  'audit',
  'launch',
];
const START = Date.parse('2026-01-01T00:00:00.000Z');

/**
 * A deterministic agent write stream, generated chunk by chunk (a million inputs are not held
 * in memory at once): 70% new facts, 17% updates of a recent key (implicit supersession), 5%
 * corrections naming the old fact by key, 4% time-sensitive updates (temporal rule), 2% facts
 * depending on a recent key, 2% policy constraints.
 */
export class WriteStream {
  private readonly rng: Rng;
  private readonly recent: string[] = [];
  private n = 0;

  constructor(seed: string | number) {
    this.rng = new Rng(seed);
  }

  private sentence(): string {
    const r = this.rng;
    const words = Array.from({ length: r.int(6, 12) }, () => r.pick(WORDS));
    return `${words.join(' ')} ${r.int(1, 99_999)}`;
  }

  private ts(): string {
    return new Date(START + this.n * 1000).toISOString();
  }

  next(count: number): FactWriteInput[] {
    const r = this.rng;
    const out: FactWriteInput[] = [];
    const source = { type: 'user', identity: 'bench agent', authority: 'peer' };
    for (let i = 0; i < count; i++) {
      this.n++;
      const ts = this.ts();
      const op =
        this.recent.length < 100
          ? 'new'
          : r.weighted([
              ['new', 70],
              ['update', 17],
              ['named', 5],
              ['temporal', 4],
              ['depends', 2],
              ['policy', 2],
            ] as const);
      switch (op) {
        case 'update':
          out.push({ key: r.pick(this.recent), value: this.sentence(), source, ts });
          continue;
        case 'named': {
          const key = r.pick(this.recent);
          out.push({ key, value: `corrected: ${this.sentence()}`, source, ts, supersedes: key });
          continue;
        }
        case 'temporal':
          out.push({ key: `quote.Q-${r.int(1, 2000)}.price`, value: `$${r.int(10, 99)}.${r.int(10, 99)} per unit`, source, ts });
          continue;
        case 'depends':
          out.push({ key: `decision.D-${this.n}`, value: `go ahead: ${this.sentence()}`, source, ts, dependsOn: [r.pick(this.recent)] });
          continue;
        case 'policy':
          out.push({
            key: `policy.limit.${r.int(1, 500)}`,
            value: `Spend must not exceed $${r.int(1, 90)},000 per quarter`,
            source: { type: 'policy', identity: 'policy office', authority: 'policy' },
            ts,
          });
          continue;
        case 'new': {
          const key = `account.A-${this.n}.${r.pick(ATTRIBUTES)}`;
          if (this.recent.length < 5000) this.recent.push(key);
          else this.recent[r.int(0, 4999)] = key;
          out.push({ key, value: this.sentence(), source, ts });
        }
      }
    }
    return out;
  }
}

function fresh(dir: string, name: string): string {
  const p = path.join(dir, name);
  for (const s of ['', '-wal', '-shm']) fs.rmSync(p + s, { force: true });
  return p;
}

/** Plain INSERTs into a simple table, 10k rows per transaction: the ceiling of this machine. */
function rawInsertRate(dir: string, n: number): number {
  const file = fresh(dir, 'raw.db');
  const db = new Database(file);
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, key TEXT NOT NULL, value TEXT NOT NULL, ts TEXT NOT NULL)');
    const insert = db.prepare('INSERT INTO t (key, value, ts) VALUES (?, ?, ?)');
    const rng = new Rng('raw');
    const t0 = performance.now();
    for (let start = 0; start < n; start += CHUNK) {
      const rows: Array<[string, string, string]> = [];
      for (let i = start; i < Math.min(n, start + CHUNK); i++)
        rows.push([`account.A-${i}.owner`, `${rng.pick(WORDS)} ${rng.pick(WORDS)} ${rng.pick(WORDS)} ${i}`, new Date(START + i * 1000).toISOString()]);
      db.transaction(() => {
        for (const row of rows) insert.run(row);
      })();
    }
    return n / ((performance.now() - t0) / 1000);
  } finally {
    db.close();
    for (const s of ['', '-wal', '-shm']) fs.rmSync(file + s, { force: true });
  }
}

const SCHEMA_COLUMNS = [
  'id',
  'partition_id',
  'org_id',
  'key',
  'value',
  'source_type',
  'source_identity',
  'source_authority',
  'ts',
  'created_at',
  'importance',
  'memory_type',
  'scope',
  'status',
  'is_valid',
] as const;
const SCHEMA_ROWS_PER_STATEMENT = 512;

/** The facts-table indexes that serve only the inspector's sorting and lookups (migrations 1
 * and 2): dropped for the "required minimum" ceiling, which keeps just what every agent write
 * needs: the table, its unique id, the key index supersession resolution reads, and full text. */
const NON_ESSENTIAL_INDEXES = [
  'facts_partition_valid_key',
  'facts_partition_ts',
  'facts_partition_label',
  'facts_partition_review',
  'facts_superseded_by',
  'facts_supersedes',
  'facts_proposal_for',
  'facts_sort_value',
  'facts_sort_importance',
  'facts_sort_access_count',
  'facts_sort_last_accessed',
  'facts_sort_created',
  'facts_sort_memory_type',
  'facts_sort_scope',
  'facts_sort_authority',
  'facts_sort_source_type',
  'facts_sort_status',
] as const;

interface SchemaFloor {
  /** Pre-built rows inserted per second. */
  readonly insertRate: number;
  /** Milliseconds to delete 10,000 rows spread over the table by plain SQL, commit included. */
  readonly deleteMs: number;
}

/** The ceiling the schema itself sets: rows of new facts, built beforehand, inserted into a
 * migrated Statelens database the way the batched write path inserts them (512 per statement,
 * 10k per transaction), so every index of the facts table, the full-text trigger and the
 * constraints are paid, but nothing of the engine (no validation, inference, lookups,
 * supersession or audit). Ingest cannot beat this figure on the same machine. Then the floor of
 * a delete: 10,000 rows spread over the table removed by plain DELETEs, with the full-text
 * index cleaned the way the engine's bulk path cleans it (one merge), nothing else.
 * `minimal` first drops every index but the ones each agent write needs (see above). */
function schemaFloor(dir: string, n: number, minimal: boolean): SchemaFloor {
  const file = fresh(dir, minimal ? 'schema-minimal.db' : 'schema.db');
  const store = Store.open(file);
  try {
    const handle = store.scope({ kind: 'user', org: 'bench', user: 'agent' }, { create: true });
    if (minimal) for (const index of NON_ESSENTIAL_INDEXES) store.db.exec(`DROP INDEX ${index}`);
    const tuple = `(${SCHEMA_COLUMNS.map(() => '?').join(', ')})`;
    const sql = (k: number): string => `INSERT INTO facts (${SCHEMA_COLUMNS.join(', ')}) VALUES ${Array.from({ length: k }, () => tuple).join(', ')}`;
    const full = store.db.prepare(sql(SCHEMA_ROWS_PER_STATEMENT));
    const rng = new Rng('schema');
    let ms = 0;
    for (let start = 0; start < n; start += CHUNK) {
      const params: unknown[][] = [];
      for (let at = start; at < Math.min(n, start + CHUNK); at += SCHEMA_ROWS_PER_STATEMENT) {
        const p: unknown[] = [];
        for (let i = at; i < Math.min(n, start + CHUNK, at + SCHEMA_ROWS_PER_STATEMENT); i++) {
          const ts = new Date(START + i * 1000).toISOString();
          const value = `${Array.from({ length: rng.int(6, 12) }, () => rng.pick(WORDS)).join(' ')} ${rng.int(1, 99_999)}`;
          p.push(
            store.services.newId('f'),
            handle.id,
            'bench',
            `account.A-${i}.${rng.pick(ATTRIBUTES)}`,
            value,
            'user',
            'bench agent',
            'peer',
            ts,
            ts,
            0.5,
            'user',
            'global',
            'active',
            1,
          );
        }
        params.push(p);
      }
      const t0 = performance.now();
      store.db
        .transaction(() => {
          for (const p of params)
            (p.length === SCHEMA_ROWS_PER_STATEMENT * SCHEMA_COLUMNS.length ? full : store.db.prepare(sql(p.length / SCHEMA_COLUMNS.length))).run(p);
        })
        .immediate();
      ms += performance.now() - t0;
    }
    const step = Math.max(1, Math.floor(n / DELETE_COUNT));
    const remove = store.db.prepare('DELETE FROM facts WHERE rid > ? AND rid <= ? AND rid % ? = 0');
    // As the engine's delete does: foreign keys are checked set-based afterwards, not per row
    // (per row, a facts table without its pointer indexes would scan the whole table each time).
    sqliteOf(store.db, 'The ingest benchmark').pragma('foreign_keys = OFF');
    const d0 = performance.now();
    store.db
      .transaction(() => {
        store.db.exec("INSERT INTO facts_fts (facts_fts, rank) VALUES ('secure-delete', 0)");
        for (let lo = 0; lo < n; lo += step * 500) remove.run(lo, lo + step * 500, step);
        store.db.exec("INSERT INTO facts_fts (facts_fts) VALUES ('optimize')");
        store.db.exec("INSERT INTO facts_fts (facts_fts, rank) VALUES ('secure-delete', 1)");
      })
      .immediate();
    return { insertRate: n / (ms / 1000), deleteMs: performance.now() - d0 };
  } finally {
    store.close();
    for (const s of ['', '-wal', '-shm']) fs.rmSync(file + s, { force: true });
  }
}

interface IngestRun {
  rate: number;
  facts: number;
  supersessions: number;
  cpuRate: number;
}

/** Ingests `n` facts of the stream, one transaction per 10k chunk; times only the writes. */
function ingest(handle: PartitionHandle, n: number, log: (l: string) => void): IngestRun {
  const stream = new WriteStream('ingest');
  let ms = 0;
  let cpu = 0;
  let facts = 0;
  let supersessions = 0;
  for (let done = 0; done < n; done += CHUNK) {
    const chunk = stream.next(Math.min(CHUNK, n - done));
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    const results = handle.writeFacts(chunk);
    ms += performance.now() - t0;
    const c = process.cpuUsage(c0);
    cpu += (c.user + c.system) / 1000;
    for (const r of results) {
      if (r.outcome !== 'duplicate') facts++;
      if (r.supersededId) supersessions++;
    }
    if ((done / CHUNK) % 10 === 9)
      log(`    ${(done + CHUNK).toLocaleString('en-US')} facts, ${Math.round(facts / (ms / 1000)).toLocaleString('en-US')} facts/s so far`);
  }
  return { rate: facts / (ms / 1000), facts, supersessions, cpuRate: facts / (cpu / 1000) };
}

/** Deletes 10,000 facts spread over the partition (valid and superseded ones, so chains are
 * relinked and dependents flagged); the transaction and the scrub of the file are timed apart. */
function deleteBench(handle: PartitionHandle, label: string, rows: BenchRow[], log: (l: string) => void): void {
  const ids = handle.ctx.db
    .prepare('SELECT id FROM facts WHERE partition_id = ? AND rid % ? = 0 ORDER BY rid LIMIT ?')
    .pluck()
    .all(handle.id, Math.max(1, Math.floor(countFacts(handle) / DELETE_COUNT)), DELETE_COUNT) as string[];
  const t0 = performance.now();
  let scrubAt: number | undefined;
  const result = handle.deleteFacts(
    { ids },
    {
      actor: 'bench',
      reason: 'benchmark',
      onProgress: (_d, _t, phase) => void (phase === 'scrub' && scrubAt === undefined ? (scrubAt = performance.now()) : undefined),
    },
  );
  const end = performance.now();
  const txMs = (scrubAt ?? end) - t0;
  const detail = `${result.deleted} deleted, ${result.flagged} flagged, ${result.relinked} relinked, ${result.cleared} cleared`;
  rows.push({
    metric: `delete ${ids.length.toLocaleString('en-US')} facts with cascades (transaction) @${label}`,
    value: round(txMs),
    unit: 'ms',
    target: '≤ 1,000 ms',
    baseline: detail,
  });
  rows.push({
    metric: `delete ${ids.length.toLocaleString('en-US')} facts: scrubbing the file and WAL afterwards @${label}`,
    value: round(end - (scrubAt ?? end)),
    unit: 'ms',
    baseline: `remedy ${result.scrub?.remedy ?? 'none'}, complete ${result.scrub?.complete ?? false}`,
  });
  log(`  delete: ${round(txMs)} ms transaction + ${round(end - (scrubAt ?? end))} ms scrub (${detail})`);
}

function countFacts(handle: PartitionHandle): number {
  return handle.ctx.db.prepare('SELECT count(*) FROM facts WHERE partition_id = ?').pluck().get(handle.id) as number;
}

const AS_OF_PAGE = 10_000;

/** Reads the whole state as of mid-history, page by page (keyset pages: nothing is truncated),
 * and the inspector's first page of it. */
function asOfBench(handle: PartitionHandle, n: number, label: string, rows: BenchRow[], log: (l: string) => void): void {
  const at = new Date(START + Math.floor(n / 2) * 1000).toISOString();
  const times: number[] = [];
  let got = 0;
  let pages = 0;
  for (let i = 0; i < 3; i++) {
    const t0 = performance.now();
    got = 0;
    pages = 0;
    let after: string | null = null;
    do {
      const page = handle.factsAsOf(at, { limit: AS_OF_PAGE, after });
      got += page.facts.length;
      pages++;
      after = page.next;
    } while (after !== null);
    times.push(performance.now() - t0);
  }
  rows.push({
    metric: `as-of-time read of the whole state at mid-history (${got.toLocaleString('en-US')} facts in ${pages} pages of ≤ ${AS_OF_PAGE.toLocaleString('en-US')}) @${label}`,
    value: round(median(times)),
    unit: 'ms',
    baseline: `${round(got / (median(times) / 1000)).toLocaleString('en-US')} facts/s`,
  });
  const page: number[] = [];
  for (let i = 0; i < 5; i++) {
    const t0 = performance.now();
    handle.listFacts({ filter: { asOf: at }, page: { limit: 100 } });
    page.push(performance.now() - t0);
  }
  rows.push({ metric: `as-of-time first page of 100 (inspector) @${label}`, value: round(median(page)), unit: 'ms' });
  log(`  as-of: whole state read in ${round(median(times))} ms: ${got.toLocaleString('en-US')} facts in ${pages} pages; first page ${round(median(page))} ms`);
}

export async function runIngestBench(opts: BenchOptions = {}): Promise<BenchRow[]> {
  const log = opts.log ?? (() => undefined);
  const dir = fs.mkdtempSync(path.join(opts.dir ?? os.tmpdir(), 'statelens-bench-ingest-'));
  const sizes = opts.quick ? [10_000, 100_000] : [10_000, 100_000, 1_000_000];
  const rows: BenchRow[] = [];
  try {
    for (const n of sizes) {
      const label = sizeLabel(n);
      log(`ingest ${label}:`);
      const raw = rawInsertRate(dir, n);
      const schemaRun = schemaFloor(dir, n, false);
      const minimalRun = schemaFloor(dir, n, true);
      const schema = schemaRun.insertRate;
      const store = Store.open(fresh(dir, `ingest-${label}.db`));
      try {
        const handle = store.scope({ kind: 'user', org: 'bench', user: 'agent' }, { create: true });
        const run = ingest(handle, n, log);
        const ratio = run.rate / raw;
        rows.push({
          metric: `batched ingest (supersession + full-text) @${label}`,
          value: round(run.rate),
          unit: 'facts/s',
          target: '≥ 100,000 facts/s',
          baseline: `raw INSERT ${Math.round(raw).toLocaleString('en-US')} rows/s; ratio ${ratio.toFixed(2)}; schema ceiling ${Math.round(schema).toLocaleString('en-US')} rows/s; required minimum ${Math.round(minimalRun.insertRate).toLocaleString('en-US')} rows/s`,
        });
        rows.push({ metric: `raw better-sqlite3 INSERT baseline @${label}`, value: round(raw), unit: 'rows/s' });
        rows.push({
          metric: `schema ceiling: pre-built new-fact rows inserted into the facts table, no engine logic @${label}`,
          value: round(schema),
          unit: 'rows/s',
          baseline: 'every index (11 sort, 7 lookup, unique id), the full-text trigger and the constraints; 512 rows per statement',
        });
        rows.push({
          metric: `required-minimum ceiling: the same rows into a facts table keeping only its unique id, the key index and full text, no engine logic @${label}`,
          value: round(minimalRun.insertRate),
          unit: 'rows/s',
          baseline: 'what any schema meeting this issue pays per write; above 100,000 it would leave room for the engine',
        });
        if (n === sizes[sizes.length - 1])
          rows.push({
            metric: `delete floor: plain DELETE of ${DELETE_COUNT.toLocaleString('en-US')} rows spread over the facts table, full-text merge and commit, no engine logic @${label}`,
            value: round(schemaRun.deleteMs),
            unit: 'ms',
            baseline: `required-minimum table: ${round(minimalRun.deleteMs)} ms`,
          });
        rows.push({
          metric: `ingest CPU-time rate (wall rate is lower on a loaded machine) @${label}`,
          value: round(run.cpuRate),
          unit: 'facts/s',
          baseline: `${run.supersessions.toLocaleString('en-US')} supersessions resolved`,
        });
        log(
          `  ingest ${Math.round(run.rate)} facts/s (raw ${Math.round(raw)} rows/s, ratio ${ratio.toFixed(2)}; schema ceiling ${Math.round(schema)} rows/s, required minimum ${Math.round(minimalRun.insertRate)} rows/s), ${run.supersessions} supersessions`,
        );
        log(`  delete floor (plain SQL, 10k spread rows): ${round(schemaRun.deleteMs)} ms; required-minimum table ${round(minimalRun.deleteMs)} ms`);
        const big = n === sizes[sizes.length - 1];
        if (big) {
          asOfBench(handle, n, label, rows, log);
          deleteBench(handle, label, rows, log);
        }
      } finally {
        store.close();
        for (const s of ['', '-wal', '-shm']) fs.rmSync(path.join(dir, `ingest-${label}.db${s}`), { force: true });
      }
    }
    const demoSize = opts.quick ? 10_000 : 100_000;
    const store = Store.open(fresh(dir, 'demo.db'));
    try {
      log(`demo generator ${sizeLabel(demoSize)}:`);
      const stats = generateDemo(store, { facts: demoSize, seed: 'bench' });
      rows.push({
        metric: `demo generator end to end (3 orgs, 27 partitions) @${sizeLabel(demoSize)}`,
        value: round(stats.facts / stats.seconds),
        unit: 'facts/s',
        baseline: `${stats.outcomes.superseded.toLocaleString('en-US')} supersessions, ${stats.outcomes.proposal.toLocaleString('en-US')} proposals, ${stats.flagged.toLocaleString('en-US')} review flags`,
      });
      log(`  demo ${Math.round(stats.facts / stats.seconds)} facts/s`);
    } finally {
      store.close();
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  return rows;
}

export const ingestSection: BenchSection = { name: 'ingest', run: runIngestBench };
