// What every strategy receives: one partition, the parsed request, the time view, a tokenizer
// and the provenance log it records special exclusions in.
import type { AssemblyRequest, FetchedSignal } from '../../../../shared/assembly';
import type { PartitionContext } from '../../context';
import type { Exclusion, ProvenanceLog } from '../provenance';
import type { ContextBuilder } from '../text';
import type { TimeView } from '../source';
import type { Tokenizer } from '../tokenizer';

export interface StrategyInput {
  readonly ctx: PartitionContext;
  readonly req: AssemblyRequest;
  readonly view: TimeView;
  readonly tokenizer: Tokenizer;
  readonly log: ProvenanceLog;
  /** Environment signals fetched fresh for this assembly. */
  readonly fetched: readonly FetchedSignal[];
}

export interface StrategyOutput {
  readonly builder: ContextBuilder;
  /** Why an eligible fact (by id) the strategy did not place is out (the final sweep of complete
   * provenance asks it of every such fact: return shared objects, not new ones). */
  unplaced(id: string): Exclusion;
}
