// The simple strategies over valid facts: `recent` (last touch: the last access, or when the
// fact was established if it was never accessed), `important` (importance) and `balanced` (importance x 1/(1 + hours since established)).
// Each fills in its order until the next fact does not fit. SQL does the ordering, so only the
// facts that fit are ever read and tokenised.
import { factLine, factMarks } from '../format';
import { scopeExclusion, type Exclusion } from '../provenance';
import type { ScoreComponent } from '../../../../shared/assembly';
import { rankingInputs, shadowedInView, validFactsOrdered, type SimpleOrder, type TimeView } from '../source';
import { ContextBuilder } from '../text';
import type { StrategyInput, StrategyOutput } from './types';

const TITLES: Record<SimpleOrder, string> = {
  recent: 'Memories (most recently accessed or created first)',
  important: 'Memories (most important first)',
  balanced: 'Memories (importance weighted by recency)',
};

export function assembleSimple(input: StrategyInput, order: SimpleOrder): StrategyOutput {
  const { ctx, req, view, tokenizer, log } = input;
  const builder = new ContextBuilder(tokenizer, req.budget, [{ name: 'facts', title: TITLES[order] }]);
  // Ranked first: enough facts to fill the budget with lines of 16 tokens (a fact line is rarely
  // shorter); a strategy that takes more gets the continuation.
  const placed: Array<{ rid: number; components: ScoreComponent[] }> = [];
  const shadowed = shadowedInView(ctx, view, req);
  for (const f of validFactsOrdered(ctx, view, order, req.budget / 16 + 16)) {
    const out = scopeExclusion(f, req, shadowed);
    if (out) {
      log.exclude('fact', f.id, f.key, out);
      continue;
    }
    const marks = factMarks(f, false);
    const components: ScoreComponent[] = [];
    const ref = { kind: 'fact' as const, id: f.id, label: f.key, score: f.score, components, marks };
    if (!builder.tryAdd('facts', factLine(f, marks, f.value), ref)) break;
    placed.push({ rid: f.rid, components });
  }
  // The parts of each placed fact's score, read once for the placed facts only (the ranking
  // query returns the combined score alone).
  const inputs = rankingInputs(
    ctx,
    placed.map((p) => p.rid),
  );
  for (const p of placed) {
    const i = inputs.get(p.rid);
    if (i) p.components.push(...scoreComponents(order, i, view));
  }
  const out: Exclusion = { reason: 'budget', detail: `after the budget was full (${order} order)` };
  return { builder, unplaced: () => out };
}

/** 1 / (1 + hours from `at` to the view's now), never above 1; undefined when `at` is no date. */
function recency(at: string, view: TimeView): number | undefined {
  const t = Date.parse(at);
  const now = Date.parse(view.now);
  if (Number.isNaN(t) || Number.isNaN(now)) return undefined;
  return 1 / (1 + Math.max(0, (now - t) / 3_600_000));
}

/** recent ranks by last touch, important by importance, balanced by importance x recency. */
export function scoreComponents(order: SimpleOrder, i: { importance: number; ts: string; touched: string }, view: TimeView): ScoreComponent[] {
  const out: ScoreComponent[] = [];
  if (order !== 'recent') out.push({ name: 'importance', value: i.importance });
  const r = recency(order === 'recent' ? i.touched : i.ts, view);
  if (order !== 'important' && r !== undefined) out.push({ name: 'recency', value: r });
  return out;
}
