// The live-agent scenario: a child process writes facts at a steady rate while this process
// does what the inspector does (pages, searches, assembles, exports, deletes). Every call is
// timed; any error is collected. Shared by the benchmark (60 s) and the load test (short).
import fs from 'node:fs';
import path from 'node:path';
import { isStatelensError } from '../../../shared/errors';
import { listFacts } from '../../engine/query';
import { exportStore } from '../../engine/snapshot/export';
import { Store } from '../../engine/store';
import { verifyDatabase } from '../../engine/verify/verify';
import { benchScript, sleep, spawnScript, type ScriptChild } from '../child-process';

export interface LoadOptions {
  readonly dir: string;
  readonly seconds: number;
  /** Facts per second the writer aims for. */
  readonly rate?: number;
  readonly batch?: number;
  readonly users?: number;
}

export interface OpStats {
  count: number;
  totalMs: number;
  maxMs: number;
  samples: number[];
}

export interface LoadReport {
  readonly seconds: number;
  readonly writer: {
    /** Facts the writer handed to the engine; each is written (has an outcome) or its transaction failed. */
    attempted: number;
    written: number;
    /** Facts per second it aimed for, and what it achieved (a figure to print, not a test). */
    targetRate: number;
    rate: number;
    transactions: number;
    maxTxMs: number;
    errorCount: number;
    errors: Array<{ code: string; message: string }>;
    outcomes: Record<string, number>;
  };
  readonly rowsByPartition: Record<string, { written: number; deleted: number; stored: number }>;
  readonly ops: Record<string, OpStats>;
  readonly errors: string[];
  readonly exportsChecked: number;
  readonly slowest: { op: string; ms: number };
  readonly externalChangesSeen: number;
  /** Deletions whose text could not yet be proven gone (a reader held the WAL); reported, not an error. */
  readonly scrubIncomplete: number;
}

function record(ops: Record<string, OpStats>, name: string, ms: number): void {
  const s = (ops[name] ??= { count: 0, totalMs: 0, maxMs: 0, samples: [] });
  s.count++;
  s.totalMs += ms;
  s.maxMs = Math.max(s.maxMs, ms);
  if (s.samples.length < 100_000) s.samples.push(ms);
}

export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return 0;
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

/** Checks an NDJSON snapshot is whole: a header first, an end record last whose count matches. */
export function checkNdjsonComplete(file: string): { records: number } {
  const lines = fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.length > 0);
  const first = JSON.parse(lines[0] ?? '{}') as { type?: string };
  const last = JSON.parse(lines[lines.length - 1] ?? '{}') as { type?: string; records?: number };
  if (first.type !== 'header') throw new Error(`${file}: first line is not the header`);
  if (last.type !== 'end') throw new Error(`${file}: last line is not the end record (truncated export)`);
  if (last.records !== lines.length - 2) throw new Error(`${file}: end record says ${last.records} records, file has ${lines.length - 2}`);
  for (const l of lines) JSON.parse(l);
  return { records: lines.length - 2 };
}

export interface WriterOptions {
  readonly db: string;
  readonly seconds: number;
  /** Facts per second it aims for. */
  readonly rate: number;
  /** Facts per transaction. */
  readonly batch: number;
  /** Partitions (one user each) it writes into. */
  readonly users: number;
}

/** The agent process (writer-process.ts): writes into `db` until `seconds` pass or SIGTERM. */
export function spawnWriter(o: WriterOptions): ScriptChild {
  const args = ['--db', o.db, '--seconds', String(o.seconds), '--rate', String(o.rate), '--batch', String(o.batch), '--users', String(o.users)];
  return spawnScript(benchScript('load/writer-process.ts'), args);
}

export async function runConcurrentLoad(options: LoadOptions): Promise<LoadReport> {
  const dbPath = path.join(options.dir, 'live.db');
  // The inspector opens (and creates) the database first, as the app would; then the agent starts.
  const store = Store.open(dbPath);
  const writer = spawnWriter({ db: dbPath, seconds: options.seconds, rate: options.rate ?? 1200, batch: options.batch ?? 10, users: options.users ?? 4 });
  const ops: Record<string, OpStats> = {};
  const errors: string[] = [];
  const deleted = new Map<number, number>();
  let exportsChecked = 0;
  let externalChangesSeen = 0;
  let scrubIncomplete = 0;
  let writerDone = false;

  const timed = async <T>(name: string, fn: () => T | Promise<T>): Promise<T | undefined> => {
    const t0 = performance.now();
    try {
      return await fn();
    } catch (e) {
      const label = isStatelensError(e) ? `${e.code}: ${e.message}` : `UNTYPED ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`;
      errors.push(`${name}: ${label}`);
      return undefined;
    } finally {
      record(ops, name, performance.now() - t0);
    }
  };

  try {
    const ready = await writer.waitFor((m) => m.type === 'ready', 60_000);
    const partitionIds = ready.partitions as number[];
    const done = writer
      .waitFor((m) => m.type === 'done', (options.seconds + 120) * 1000)
      .then((m) => {
        writerDone = true;
        return m;
      });
    done.catch(() => undefined);
    let round = 0;
    while (!writerDone) {
      const pid = partitionIds[round % partitionIds.length] ?? 1;
      round++;
      await timed('poll data_version', () => {
        if (store.pollExternalChanges()) externalChangesSeen++;
      });
      await timed('list partitions', () => store.listPartitions());
      const handle = store.scopeById(pid);
      // The memories table: a first page (with its capped count), then keyset pages after it.
      let page = await timed('list facts: first page', () => listFacts(handle.ctx, { sort: { column: 'ts', direction: 'desc' }, page: { limit: 100 } }));
      for (let i = 0; i < 3 && page?.nextCursor; i++) {
        const after = page.nextCursor;
        page = await timed('list facts: next page', () => listFacts(handle.ctx, { sort: { column: 'ts', direction: 'desc' }, page: { limit: 100, after } }));
      }
      await timed('search (first page)', () => listFacts(handle.ctx, { filter: { search: round % 2 ? 'budget' : 'deadline item' }, page: { limit: 100 } }));
      await timed('filter valid + sort key', () =>
        listFacts(handle.ctx, { filter: { validity: 'valid' }, sort: { column: 'key', direction: 'asc' }, page: { limit: 100 } }),
      );
      await timed('as-of read (100)', () => handle.factsAsOf(new Date().toISOString(), { limit: 100 }));
      await timed('current value', () => handle.currentValue(`budget_${(round * 7) % 300}`));
      const head = await timed('assemble state_based', () =>
        handle.assemble({ strategy: 'state_based', budget: 2000, query: 'What is the budget and the deadline?', provenance: 'included' }),
      );
      if (head && head.tokens > 2000) errors.push(`assemble state_based: ${head.tokens} tokens over a 2000 budget`);
      if (round % 5 === 0) await timed('assemble recent', () => handle.assemble({ strategy: 'recent', budget: 1000, provenance: 'included' }));
      if (round % 10 === 0) {
        const out = path.join(options.dir, `export-${round}.ndjson`);
        const summary = await timed('export ndjson (partition)', () => exportStore(store, { format: 'ndjson', out, partitionId: pid }));
        if (summary) {
          try {
            const { records } = checkNdjsonComplete(out);
            if (records !== summary.records) throw new Error(`summary says ${summary.records}, file holds ${records}`);
            exportsChecked++;
          } catch (e) {
            errors.push(`export check: ${String(e)}`);
          }
          fs.rmSync(out, { force: true });
        }
      }
      // The user deletes: always previewed first; a single fact, a handful, or a whole key's chain.
      if (round % 3 === 0 && page && page.rows.length > 0) {
        const rows = page.rows;
        const pickId = () => rows[Math.floor(Math.random() * rows.length)]?.id ?? '';
        const kind = round % 9;
        const selection =
          kind === 0
            ? { filter: { key: rows[0]?.key ?? 'budget_1' } }
            : kind === 3
              ? { ids: [...new Set([pickId(), pickId(), pickId(), pickId(), pickId()])] }
              : { ids: [pickId()] };
        const label = kind === 0 ? 'delete by filter (key chain)' : kind === 3 ? 'delete list' : 'delete one';
        const preview = await timed('delete preview', () => handle.previewDeletion(selection));
        // A fact named in the preview may have been superseded meanwhile, never removed: ids stay valid.
        const result = await timed(label, () => handle.deleteFacts(selection, { actor: 'load-test', reason: 'concurrent deletion' }));
        if (result) {
          deleted.set(pid, (deleted.get(pid) ?? 0) + result.deleted);
          if (preview && 'ids' in selection && result.deleted !== preview.toDelete)
            errors.push(`${label}: preview said ${preview.toDelete}, deleted ${result.deleted}`);
          if (result.scrub && !result.scrub.complete) scrubIncomplete++;
        }
      }
      // Let the child's output be read and timers fire between UI calls.
      await sleep(1);
    }
    const final = await done;
    await writer.exited;
    const rowsByPartition: LoadReport['rowsByPartition'] = {};
    const writtenBy = final.rowsByPartition as Record<string, number>;
    for (const [pid, written] of Object.entries(writtenBy)) {
      const stored = store.db.prepare('SELECT count(*) FROM facts WHERE partition_id = ?').pluck().get(Number(pid)) as number;
      rowsByPartition[pid] = { written, deleted: deleted.get(Number(pid)) ?? 0, stored };
    }
    const verify = verifyDatabase(store);
    for (const c of verify.checks) if (!c.ok) errors.push(`verify after the run: ${c.name}: ${c.detail}`);
    let slowest = { op: '', ms: 0 };
    for (const [op, s] of Object.entries(ops)) if (s.maxMs > slowest.ms) slowest = { op, ms: s.maxMs };
    return {
      seconds: options.seconds,
      writer: {
        attempted: final.attempted as number,
        written: final.written as number,
        targetRate: final.targetRate as number,
        rate: final.rate as number,
        transactions: final.transactions as number,
        maxTxMs: final.maxTxMs as number,
        errorCount: final.errorCount as number,
        errors: final.errors as Array<{ code: string; message: string }>,
        outcomes: final.outcomes as Record<string, number>,
      },
      rowsByPartition,
      ops,
      errors,
      exportsChecked,
      slowest,
      externalChangesSeen,
      scrubIncomplete,
    };
  } finally {
    writer.killHard();
    store.close();
  }
}

/** Errors of the inspector or the writer that are SQLite lock contention (SQLITE_BUSY or
 * SQLITE_LOCKED, typed as BUSY or raw): each one a lock wait that escaped to a caller. */
export function busyErrors(r: LoadReport): string[] {
  return [...r.errors, ...r.writer.errors.map((e) => `writer: ${e.code}: ${e.message}`)].filter((e) => /BUSY|LOCKED|database is locked/i.test(e));
}

/** The per-operation table the test and the benchmark print. */
export function formatLoadReport(r: LoadReport): string {
  const lines = [
    `writer: ${r.writer.written} of ${r.writer.attempted} facts attempted, in ${r.writer.transactions} transactions over ${r.seconds} s = ${r.writer.rate.toFixed(0)} facts/s achieved, target ${r.writer.targetRate} facts/s (slowest transaction ${r.writer.maxTxMs.toFixed(1)} ms; outcomes ${JSON.stringify(r.writer.outcomes)}; writer errors ${r.writer.errorCount})`,
    `inspector: ${Object.values(r.ops).reduce((n, s) => n + s.count, 0)} calls, ${r.errors.length} errors, ${r.exportsChecked} complete exports checked, ${r.externalChangesSeen} external changes seen, ${Object.entries(r.rowsByPartition).reduce((n, [, p]) => n + p.deleted, 0)} facts deleted (${r.scrubIncomplete} scrubs deferred by a busy WAL)`,
    '| call | count | median ms | p99 ms | max ms |',
    '|---|---:|---:|---:|---:|',
    ...Object.entries(r.ops).map(
      ([op, s]) => `| ${op} | ${s.count} | ${percentile(s.samples, 50).toFixed(2)} | ${percentile(s.samples, 99).toFixed(2)} | ${s.maxMs.toFixed(2)} |`,
    ),
    `slowest inspector call: ${r.slowest.op} ${r.slowest.ms.toFixed(1)} ms`,
    ...r.errors.slice(0, 10).map((e) => `error: ${e.slice(0, 600)}`),
  ];
  return lines.join('\n');
}
