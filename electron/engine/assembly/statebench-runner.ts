// The StateBench runner: imports a split into a fresh database (or into a store it is given),
// assembles a context at every saved query "as of" the query's time (facts valid then, turns said
// by then, now = query time), writes one JSONL line per query and judges the contexts with
// StateBench's phrase rule, beside the `reference` ablation from the same run. Ground truth is
// read only by the judge, never by assembly. Default budget: 8,000 tokens (cl100k), the budget
// every baseline of the published StateBench evaluation ran under, so figures compare with those.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AssemblyResult, AssemblyStrategy, TokenizerName } from '../../../shared/assembly';
import { importStatebenchParsed, readStatebenchFile, type ParsedLine } from '../import/statebench';
import { sqliteOf } from '../db/connection';
import { Store } from '../store';
import type { AssembleOptions } from './assemble';
import { figures, judgeContext, type JudgedQuery, type StatebenchFigures } from './judge';

export const DEFAULT_STATEBENCH_BUDGET = 8_000;

export interface StatebenchRunOptions {
  readonly file: string;
  /** FILE's timelines, already read and validated (a caller that checks them before opening its
   * store); read from `file` otherwise. */
  readonly lines?: readonly ParsedLine[];
  readonly strategy: AssemblyStrategy;
  readonly budget?: number;
  /** JSONL output path; omitted: nothing is written. */
  readonly out?: string;
  readonly compareWith?: AssemblyStrategy | null;
  readonly tokenizer?: TokenizerName;
  /** Import into this open store (a file or a PostgreSQL schema; it must not hold the timelines
   * yet) instead of a temporary database. The caller keeps it open and closes it. */
  readonly store?: Store;
  readonly assembleOptions?: AssembleOptions;
}

export interface StatebenchQueryResult {
  readonly timelineId: string;
  readonly queryIndex: number;
  readonly track: string | null;
  readonly judged: JudgedQuery;
  readonly text: string;
  readonly tokens: number;
}

export interface StatebenchRun {
  readonly file: string;
  readonly budget: number;
  readonly timelines: number;
  readonly primary: StatebenchFigures;
  readonly comparison: StatebenchFigures | null;
  readonly results: StatebenchQueryResult[];
  readonly comparisonResults: StatebenchQueryResult[];
}

function jsonlLine(timelineId: string, queryIndex: number, r: AssemblyResult): string {
  return JSON.stringify({
    timeline_id: timelineId,
    query_index: queryIndex,
    strategy: r.strategy,
    context: r.text,
    tokens: r.tokens,
    included: r.provenance.filter((p) => p.status === 'included').map((p) => ({ kind: p.kind, id: p.id, label: p.label, section: p.section })),
    excluded: r.provenance.filter((p) => p.status === 'excluded').map((p) => ({ kind: p.kind, id: p.id, label: p.label, reason: p.reason })),
  });
}

/** Reads each timeline's track from the file (for per-track breakdowns; not used by assembly). */
function tracksOf(file: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    try {
      const t = JSON.parse(line) as { id?: unknown; track?: unknown };
      if (typeof t.id === 'string' && typeof t.track === 'string') out.set(t.id, t.track);
    } catch {
      // The importer reports malformed lines; tracks are only a label here.
    }
  }
  return out;
}

export async function runStatebench(options: StatebenchRunOptions): Promise<StatebenchRun> {
  const budget = options.budget ?? DEFAULT_STATEBENCH_BUDGET;
  const tokenizer = options.tokenizer ?? 'cl100k_base';
  const compareWith = options.compareWith === undefined ? 'reference' : options.compareWith;
  // Read and validated before any database is made: a bad file touches nothing.
  const lines = options.lines ?? readStatebenchFile(options.file);
  const tmp = options.store ? undefined : fs.mkdtempSync(path.join(os.tmpdir(), 'statelens-statebench-'));
  const store = options.store ?? Store.open(path.join(tmp as string, 'statebench.db'));
  // A throwaway database: no fsync per commit (a crash loses nothing worth keeping).
  if (tmp) sqliteOf(store.db, 'PRAGMA synchronous').pragma('synchronous = OFF');
  const outFd = options.out ? fs.openSync(options.out, 'w') : undefined;
  try {
    const stats = importStatebenchParsed(store, lines, { sourceName: options.file });
    const tracks = tracksOf(options.file);
    const results: StatebenchQueryResult[] = [];
    const comparisonResults: StatebenchQueryResult[] = [];
    for (const pid of stats.partitionIds) {
      const handle = store.scopeById(pid);
      const ref = handle.ref;
      const timelineId = ref.kind === 'user' ? ref.user : String(pid);
      handle.savedQueries().forEach((q, queryIndex) => {
        const request = { budget, query: q.prompt, tokenizer, ...(q.ts ? { asOf: q.ts } : {}) } as const;
        const r = handle.assemble({ ...request, strategy: options.strategy }, options.assembleOptions);
        if (outFd !== undefined) fs.writeSync(outFd, `${jsonlLine(timelineId, queryIndex, r)}\n`);
        const track = tracks.get(timelineId) ?? null;
        results.push({ timelineId, queryIndex, track, judged: judgeContext(r.text, q.groundTruth), text: r.text, tokens: r.tokens });
        if (compareWith) {
          const c = handle.assemble({ ...request, strategy: compareWith }, options.assembleOptions);
          comparisonResults.push({ timelineId, queryIndex, track, judged: judgeContext(c.text, q.groundTruth), text: c.text, tokens: c.tokens });
        }
      });
    }
    return {
      file: options.file,
      budget,
      timelines: stats.timelines,
      primary: figures(options.strategy, results),
      comparison: compareWith ? figures(compareWith, comparisonResults) : null,
      results,
      comparisonResults,
    };
  } finally {
    if (outFd !== undefined) fs.closeSync(outFd);
    if (tmp) {
      store.close();
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  }
}

function pct(x: number): string {
  return `${(x * 100).toFixed(1)}%`;
}

/** StateBench's figures as a table, both strategies side by side. */
export function formatFigures(run: StatebenchRun): string[] {
  const rows = [run.primary, ...(run.comparison ? [run.comparison] : [])];
  const lines = [
    `${path.basename(run.file)}: ${run.timelines} timelines, ${run.primary.queries} queries, budget ${run.budget} tokens (reference: no budget)`,
    `${'strategy'.padEnd(14)} ${'must_not_mention exposure'.padStart(26)} ${'must_mention presence'.padStart(22)} ${'tokens (chars/4)'.padStart(17)} ${'tokens (exact)'.padStart(15)}`,
  ];
  for (const f of rows) {
    lines.push(
      `${f.strategy.padEnd(14)} ${pct(f.mustNotMentionExposure).padStart(26)} ${pct(f.mustMentionPresence).padStart(22)} ${f.meanTokensApprox.toFixed(1).padStart(17)} ${f.meanTokens.toFixed(1).padStart(15)}`,
    );
  }
  return lines;
}
