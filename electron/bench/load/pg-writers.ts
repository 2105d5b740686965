// Several agent processes writing the same keys of one PostgreSQL partition at once (see
// pg-writer-process), and the check of what they left: one valid fact per key and every
// supersession chain whole. Shared by the concurrency test (scaled down) and the benchmark.
import { SyncPg } from '../../engine/db/pg/sync-client';
import { quoteIdent } from '../../engine/db/pg/sync-client';
import { benchScript, spawnScript, type ChildMessage, type ScriptChild } from '../child-process';

export interface PgWritersOptions {
  readonly url: string;
  readonly schema?: string;
  readonly writers: number;
  readonly writes: number;
  readonly keys: number;
  readonly batch?: number;
  readonly org?: string;
  readonly user?: string;
  /** Writer 0's transaction (from 0) that stays open once written, to be killed mid-way. */
  readonly holdAt?: number;
}

export interface PgWritersRun {
  readonly children: ScriptChild[];
  readonly partition: number;
  /** Resolves with every writer's done line (in writer order) and the wall time of the writes. */
  readonly finished: Promise<{ done: ChildMessage[]; seconds: number }>;
}

/** Starts the writers, waits until every one has its store open, then lets them go together. */
export async function startPgWriters(o: PgWritersOptions): Promise<PgWritersRun> {
  const startAt = Date.now() + 60_000;
  const children = Array.from({ length: o.writers }, (_, writer) =>
    spawnScript(benchScript('load/pg-writer-process.ts'), [
      ...['--url', o.url, '--schema', o.schema ?? 'statelens', '--org', o.org ?? 'acme', '--user', o.user ?? 'shared'],
      ...['--writer', String(writer), '--writes', String(o.writes), '--keys', String(o.keys), '--batch', String(o.batch ?? 1)],
      ...['--start-at', String(startAt)],
      ...(writer === 0 && o.holdAt !== undefined ? ['--hold-at', String(o.holdAt)] : []),
    ]),
  );
  const ready = await Promise.all(children.map((c) => c.waitFor((m) => m.type === 'ready', 120_000)));
  const partition = Number(ready[0]?.partition);
  // All are open: start now rather than at the far-off time given (a start line they all poll).
  const go = Date.now();
  for (const c of children) c.proc.kill('SIGUSR2');
  const finished = Promise.all(children.map((c) => c.waitFor((m) => m.type === 'done', 600_000))).then((done) => ({
    done,
    seconds: (Date.now() - go) / 1000,
  }));
  return { children, partition, finished };
}

export interface ChainReport {
  readonly facts: number;
  readonly keys: number;
  /** Keys whose number of valid facts is not exactly one. */
  readonly keysWithoutOneValid: Array<{ key: string; valid: number }>;
  /** Superseded facts whose superseded_by is missing or names a fact of another key. */
  readonly brokenLinks: string[];
  /** Keys whose chain, followed from the first fact, does not pass every fact to end at the valid one. */
  readonly incompleteChains: Array<{ key: string; facts: number; walked: number }>;
}

/** Reads every fact of a partition and checks its chains. */
export function checkChains(url: string, schema: string, partition: number): ChainReport {
  const conn = SyncPg.open({ kind: 'server', url }, { searchPath: quoteIdent(schema) });
  try {
    const rows = conn.query<{ id: string; key: string; is_valid: number; superseded_by: string | null; rid: number }>(
      'SELECT id, key, is_valid::int AS is_valid, superseded_by, rid FROM facts WHERE partition_id = $1 ORDER BY rid',
      [partition],
    ).rows;
    const byId = new Map(rows.map((r) => [r.id, r]));
    const byKey = new Map<string, typeof rows>();
    for (const r of rows) byKey.set(r.key, [...(byKey.get(r.key) ?? []), r]);
    const report: ChainReport = { facts: rows.length, keys: byKey.size, keysWithoutOneValid: [], brokenLinks: [], incompleteChains: [] };
    for (const r of rows) {
      if (r.is_valid === 1) continue;
      const next = r.superseded_by === null ? undefined : byId.get(r.superseded_by);
      if (!next || next.key !== r.key) report.brokenLinks.push(r.id);
    }
    for (const [key, facts] of byKey) {
      const valid = facts.filter((f) => f.is_valid === 1).length;
      if (valid !== 1) report.keysWithoutOneValid.push({ key, valid });
      let at = facts[0];
      let walked = 1;
      const seen = new Set<string>();
      while (at && at.is_valid !== 1 && at.superseded_by !== null && !seen.has(at.id)) {
        seen.add(at.id);
        at = byId.get(at.superseded_by);
        if (at) walked++;
      }
      if (at?.is_valid !== 1 || walked !== facts.length) report.incompleteChains.push({ key, facts: facts.length, walked });
    }
    return report;
  } finally {
    conn.close();
  }
}
