// Context assembly's entry points. `assembleContext` is a pure read (a preview changes nothing,
// not even access counts); `takeContext` is the agent taking a context: the same assembly plus,
// in the same transaction, last_accessed_at / access_count of every fact it included.
import { AssemblyRequest, type AssemblyRequestInput, type AssemblyResult, type FetchedSignal } from '../../../shared/assembly';
import { StatelensError } from '../../../shared/errors';
import type { PartitionContext, WritablePartition } from '../context';
import { stmt } from '../db/statements';
import { sessionIdentity } from '../layers/identity';
import { readerKey } from './permissions';
import { parseInput } from '../query/validate';
import { ProvenanceLog } from './provenance';
import type { TimeView } from './source';
import { assembleContextDocument } from './strategies/context-document';
import { assembleReference } from './strategies/reference';
import { assembleSimple } from './strategies/simple';
import { assembleStateBased, DEFAULT_TUNING, type StateBasedTuning } from './strategies/state-based';
import type { StrategyInput, StrategyOutput } from './strategies/types';
import { getTokenizer } from './tokenizer';

export function parseAssemblyRequest(input: AssemblyRequestInput): AssemblyRequest {
  const req = parseInput(AssemblyRequest, input, 'assembly request');
  if (req.asOf !== undefined && Number.isNaN(Date.parse(req.asOf))) throw new StatelensError('INVALID_INPUT', `asOf is not a date: "${req.asOf}"`);
  return req;
}

export interface AssembleOptions {
  /** Overrides of state_based's ranking choices (experiments and tests). */
  readonly tuning?: Partial<StateBasedTuning>;
  /** Environment signals fetched fresh for this assembly (they join the stored ones). */
  readonly fetched?: readonly FetchedSignal[];
}

function run(input: StrategyInput, options: AssembleOptions): StrategyOutput {
  switch (input.req.strategy) {
    case 'recent':
    case 'important':
    case 'balanced':
      return assembleSimple(input, input.req.strategy);
    case 'state_based':
      return assembleStateBased(input, { ...DEFAULT_TUNING, ...options.tuning });
    case 'reference':
      return assembleReference(input);
    case 'context_document':
      return assembleContextDocument(input);
  }
}

/** Assembles a context for one partition. Reads only. */
export function assembleContext(ctx: PartitionContext, request: AssemblyRequestInput, options: AssembleOptions = {}): AssemblyResult {
  const req = parseAssemblyRequest(request);
  // The reader is the session's identity: what it may not see is withheld from every strategy.
  const view: TimeView = { now: req.asOf ?? ctx.clock.now(), asOf: req.asOf ?? null, reader: readerKey(sessionIdentity(ctx, req.sessionId)) };
  const log = new ProvenanceLog();
  const tokenizer = getTokenizer(req.tokenizer);
  // One read transaction: every query of this assembly sees the same snapshot.
  const fetched = options.fetched ?? [];
  const out = ctx.db.transaction(() => {
    const result = run({ ctx, req, view, tokenizer, log, fetched }, options);
    const composed = result.builder.finish();
    for (const t of composed.trimmed) log.exclude(t.kind, t.id, t.label, { reason: 'budget', detail: 'over the budget once the final text was counted' });
    const complete = req.provenance === 'full';
    if (complete) {
      const included = new Set(composed.included.filter((i) => i.kind === 'fact').map((i) => i.id));
      log.sweepFacts(ctx, view, req, included, (id) => result.unplaced(id));
    }
    return { composed, ...log.entries(composed.included, complete), complete };
  })();
  return {
    strategy: req.strategy,
    tokenizer: req.tokenizer,
    text: out.composed.text,
    tokens: out.composed.tokens,
    budget: req.strategy === 'reference' ? null : req.budget,
    query: req.query,
    now: view.now,
    asOf: view.asOf,
    sections: out.composed.sections,
    provenance: out.provenance,
    provenanceComplete: out.complete,
    counts: out.counts,
    ...(options.fetched ? { fetchedSignals: [...options.fetched] } : {}),
  };
}

/** The agent takes a context: assemble, then record the access of every included fact, in one
 * IMMEDIATE transaction (announced as a change). */
export function takeContext(partition: WritablePartition, request: AssemblyRequestInput, options: AssembleOptions = {}): AssemblyResult {
  return partition.transact('context taken', (ctx) => {
    const result = assembleContext(ctx, request, options);
    const now = ctx.clock.now();
    const touch = stmt(ctx.db, 'UPDATE facts SET last_accessed_at = ?, access_count = access_count + 1 WHERE id = ? AND partition_id = ?');
    for (const p of result.provenance) if (p.status === 'included' && p.kind === 'fact') touch.run(now, p.id, ctx.partitionId);
    return result;
  });
}
