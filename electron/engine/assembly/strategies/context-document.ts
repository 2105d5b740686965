// `context_document`: the session's stored context document (its latest version, as of the
// assembly's time), cut at a token boundary when it is longer than the budget.
import type { Exclusion } from '../provenance';
import { latestContextDocument } from '../source';
import { ContextBuilder } from '../text';
import type { StrategyInput, StrategyOutput } from './types';

export function assembleContextDocument(input: StrategyInput): StrategyOutput {
  const { ctx, req, view, tokenizer, log } = input;
  const doc = latestContextDocument(ctx, req.sessionId, view.asOf);
  const title = doc ? `Context document (session ${req.sessionId}, version ${doc.version})` : `Context document (session ${req.sessionId})`;
  const builder = new ContextBuilder(tokenizer, req.budget, [{ name: 'document', title }]);
  if (doc) {
    const id = `${req.sessionId}@${doc.version}`;
    // The document is one item; its body keeps its own line breaks. The estimate counts a
    // trailing newline and the header, so shrink until the composer accepts it.
    let room = req.budget - tokenizer.count(`## ${title}\n`);
    let added = false;
    while (room > 0 && !added) {
      const body = tokenizer.truncate(doc.body, room);
      if (body.length === 0) break;
      const coverage = body.length / Math.max(1, doc.body.length);
      const ref = { kind: 'document' as const, id, label: title, score: coverage, components: [{ name: 'coverage' as const, value: coverage }], marks: [] };
      added = builder.tryAdd('document', body, ref);
      room -= Math.max(1, Math.ceil(room * 0.01));
    }
    if (!added) log.exclude('document', id, title, { reason: 'budget', detail: 'no room for any of the document' });
  }
  const out: Exclusion = { reason: 'not_relevant', detail: 'the context_document strategy shows the stored document, not facts' };
  return { builder, unplaced: () => out };
}
