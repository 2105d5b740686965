// `reference`: the StateBench `state_based` baseline as an ablation, for side-by-side comparison.
// Every valid fact by timestamp (no relevance, no budget), in the baseline's sections: identity,
// environment, active constraints, current facts, facts to recalculate, the working set, and the
// last ten conversation turns verbatim. Only validity (and scope) filter anything out.
import { environmentLines, factLine, factMarks, identityLines, isTurn, itemLine, itemMarks } from '../format';
import { readableItems, scopeExclusion, type Exclusion } from '../provenance';
import { identityOf, signals, validFactsOrderedByTs } from '../source';
import { ContextBuilder } from '../text';
import type { StrategyInput, StrategyOutput } from './types';

/** The baseline keeps a window of this many recent conversation items. */
export const REFERENCE_TURN_WINDOW = 10;

const SECTIONS = [
  { name: 'identity', title: 'Identity' },
  { name: 'environment', title: 'Environment' },
  { name: 'constraints', title: 'Active constraints' },
  { name: 'facts', title: 'Current facts' },
  { name: 'review', title: 'Must recalculate' },
  { name: 'working', title: 'Working set' },
  { name: 'conversation', title: 'Recent conversation' },
] as const;

export function assembleReference(input: StrategyInput): StrategyOutput {
  const { ctx, req, view, tokenizer, log } = input;
  const builder = new ContextBuilder(tokenizer, null, SECTIONS);
  for (const line of identityLines(identityOf(ctx, req.sessionId))) builder.add('identity', line);
  for (const line of environmentLines(view.now, signals(ctx, view.now), input.fetched)) builder.add('environment', line);

  for (const f of validFactsOrderedByTs(ctx, view)) {
    const out = scopeExclusion(f, req);
    if (out) {
      log.exclude('fact', f.id, f.key, out);
      continue;
    }
    const marks = factMarks(f, f.needs_review === 1);
    const section = marks.includes('needs_review') ? 'review' : marks.includes('constraint') ? 'constraints' : 'facts';
    builder.add(section, factLine(f, marks, f.value), { kind: 'fact', id: f.id, label: f.key, score: 0, marks });
  }

  const items = readableItems(ctx, view, req.sessionId, log).filter((w) => {
    if (view.asOf !== null && w.created_at > view.asOf) {
      log.exclude('working_item', w.id, w.key, { reason: 'future', detail: `created ${w.created_at}` });
      return false;
    }
    if (w.expires_at !== null && w.expires_at <= view.now) {
      log.exclude('working_item', w.id, w.key, { reason: 'expired', detail: `expired ${w.expires_at}` });
      return false;
    }
    return true;
  });
  const turns = items.filter(isTurn);
  const window = new Set(turns.slice(-REFERENCE_TURN_WINDOW));
  items.forEach((w) => {
    const marks = itemMarks(w);
    const ref = { kind: 'working_item' as const, id: w.id, label: w.key, score: 0, marks };
    if (!isTurn(w)) builder.add('working', itemLine(w, marks), ref);
    else if (window.has(w)) builder.add('conversation', itemLine(w, marks), ref);
    else log.exclude('working_item', w.id, w.key, { reason: 'budget', detail: `older than the last ${REFERENCE_TURN_WINDOW} turns` });
  });
  const out: Exclusion = { reason: 'scope', detail: 'not placed by the reference' };
  return { builder, unplaced: () => out };
}
