// Benchmark sections for figures no timing section covers: the StateBench context-quality
// figures of state_based beside the reference on both shared splits, and store calls and time per
// session of the two context runners on a generated 50-session dataset. Print figures, assert nothing.
// Run alone: statelens bench --only statebench,runners [--quick]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runStatebench } from '../engine/assembly/statebench-runner';
import { RunnerConfig } from '../engine/runner/config';
import { generateDataset } from '../engine/runner/dataset';
import { compareRunners } from '../engine/runner/run';
import { Store } from '../engine/store';
import { packageRoot } from '../cli/package-root';
import { round, type BenchOptions, type BenchRow, type BenchSection } from './section';

const pct = (x: number) => round(x * 100);

/** state_based vs the reference ablation on each shared split, judged by StateBench's phrase rule. */
export async function runStatebenchFigures(opts: BenchOptions = {}): Promise<BenchRow[]> {
  const log = opts.log ?? (() => undefined);
  const rows: BenchRow[] = [];
  for (const split of ['dev', 'test']) {
    const file = path.resolve(packageRoot(), '..', 'shared', 'statebench', `${split}.jsonl`);
    if (!fs.existsSync(file)) {
      log(`statebench: ${file} is absent; its figures are skipped`);
      continue;
    }
    log(`statebench: ${split} split, state_based beside reference`);
    const t0 = performance.now();
    const run = await runStatebench({ file, strategy: 'state_based', compareWith: 'reference' });
    const seconds = (performance.now() - t0) / 1000;
    const f = run.primary;
    const ref = run.comparison;
    const refNote = (x: number | undefined, unit: string) => (x === undefined ? undefined : `reference ${x}${unit}`);
    const base = (metric: string, value: number, unit: string, target: string, baseline: string | undefined): BenchRow => ({
      metric: `${metric} (${split}, ${f.queries} queries)`,
      value,
      unit,
      target,
      ...(baseline ? { baseline } : {}),
    });
    rows.push(
      base(
        'state_based must_not_mention exposure',
        pct(f.mustNotMentionExposure),
        '%',
        '≤ 20%',
        refNote(ref ? pct(ref.mustNotMentionExposure) : undefined, '%'),
      ),
    );
    rows.push(
      base('state_based must_mention presence', pct(f.mustMentionPresence), '%', '≥ reference', refNote(ref ? pct(ref.mustMentionPresence) : undefined, '%')),
    );
    rows.push(
      base('state_based mean tokens (chars/4)', round(f.meanTokensApprox), 'tokens', '≤ reference', refNote(ref ? round(ref.meanTokensApprox) : undefined, '')),
    );
    rows.push({
      metric: `statebench run, both strategies (${split})`,
      value: round(seconds),
      unit: 's',
      baseline: `budget ${run.budget} tokens, ${run.timelines} timelines`,
    });
    log(
      `  exposure ${pct(f.mustNotMentionExposure)}% (ref ${ref ? pct(ref.mustNotMentionExposure) : '?'}%), presence ${pct(f.mustMentionPresence)}% (ref ${ref ? pct(ref.mustMentionPresence) : '?'}%), tokens ${round(f.meanTokensApprox)} (ref ${ref ? round(ref.meanTokensApprox) : '?'})`,
    );
  }
  return rows;
}

/** The entries runner and the context-only runner on the same 50 generated sessions. */
export async function runRunnerFigures(opts: BenchOptions = {}): Promise<BenchRow[]> {
  const log = opts.log ?? (() => undefined);
  const dir = fs.mkdtempSync(path.join(opts.dir ?? os.tmpdir(), 'statelens-bench-runners-'));
  const store = Store.open(path.join(dir, 'runners.db'));
  try {
    const sessions = generateDataset({ sessions: 50 });
    const config = RunnerConfig.parse({});
    const results = await compareRunners(store, config, sessions, () => undefined);
    const rows: BenchRow[] = [];
    for (const r of results) {
      const n = r.sessions.length || 1;
      const calls = r.totalCalls / n;
      rows.push({
        metric: `${r.runner} runner: store calls per session (${n} sessions)`,
        value: round(calls),
        unit: 'calls',
        ...(r.runner === 'context_only' ? { target: 'exactly 3' } : {}),
        baseline: `min ${Math.min(...r.sessions.map((s) => s.storeCalls))}, max ${Math.max(...r.sessions.map((s) => s.storeCalls))}`,
      });
      rows.push({
        metric: `${r.runner} runner: time per session`,
        value: round(r.totalMs / n),
        unit: 'ms',
        baseline: `final context document ${r.finalDocument ? r.finalDocument.split(/\s+/).length : 0} words (cap 5,000)`,
      });
      log(`  ${r.runner}: ${round(calls)} store calls and ${round(r.totalMs / n)} ms per session`);
    }
    return rows;
  } finally {
    store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export const statebenchSection: BenchSection = { name: 'statebench', run: runStatebenchFigures };
export const runnersSection: BenchSection = { name: 'runners', run: runRunnerFigures };
