// The simple strategies over valid facts: `recent` (last touch: the last access, or when the
// fact was established if it was never accessed), `important` (importance) and `balanced` (importance x 1/(1 + hours since established)).
// Each fills in its order until the next fact does not fit. SQL does the ordering, so only the
// facts that fit are ever read and tokenised.
import { factLine, factMarks } from '../format';
import { scopeExclusion, type Exclusion } from '../provenance';
import { validFactsOrdered, type SimpleOrder } from '../source';
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
  for (const f of validFactsOrdered(ctx, view, order, req.budget / 16 + 16)) {
    const out = scopeExclusion(f, req);
    if (out) {
      log.exclude('fact', f.id, f.key, out);
      continue;
    }
    const marks = factMarks(f, false);
    const ref = { kind: 'fact' as const, id: f.id, label: f.key, score: f.score, marks };
    if (!builder.tryAdd('facts', factLine(f, marks, f.value), ref)) break;
  }
  const out: Exclusion = { reason: 'budget', detail: `after the budget was full (${order} order)` };
  return { builder, unplaced: () => out };
}
