// The context-assembly vocabulary: what a caller asks for (strategy, budget, query, time) and
// what comes back (the text, its exact token count, sections and per-item provenance with
// character spans). Shared by the engine, the CLI and the IPC contract.
import { z } from 'zod';
import { Timestamp } from './timestamp';

export const ASSEMBLY_STRATEGIES = ['recent', 'important', 'balanced', 'state_based', 'reference', 'context_document'] as const;
export const AssemblyStrategy = z.enum(ASSEMBLY_STRATEGIES);
export type AssemblyStrategy = z.infer<typeof AssemblyStrategy>;

/** The token budget every caller (app, CLI, MCP, contract) uses when none is given. */
export const DEFAULT_BUDGET = 8000;

/** Strategies that ignore the budget (the StateBench ablation has none by design). */
export const UNBUDGETED_STRATEGIES: readonly AssemblyStrategy[] = ['reference'];

export const TOKENIZER_NAMES = ['cl100k_base', 'o200k_base'] as const;
export const TokenizerName = z.enum(TOKENIZER_NAMES);
export type TokenizerName = z.infer<typeof TokenizerName>;

/**
 * Why an item is not in the text. `superseded` also covers proposals (a lower-authority write
 * that never became valid) and working-set turns asserting a superseded value; `future` is an
 * item established after the as-of time of the assembly.
 */
export const EXCLUSION_REASONS = ['superseded', 'budget', 'scope', 'permission', 'expired', 'not_relevant', 'future'] as const;
export const ExclusionReason = z.enum(EXCLUSION_REASONS);
export type ExclusionReason = z.infer<typeof ExclusionReason>;

export const PROVENANCE_KINDS = ['fact', 'working_item', 'document'] as const;
export const ProvenanceKind = z.enum(PROVENANCE_KINDS);
export type ProvenanceKind = z.infer<typeof ProvenanceKind>;

export const MAX_BUDGET = 2_000_000;
export const DEFAULT_FACT_SHARE = 0.7;

/** The strategy used wherever a caller names none: importance weighted by recency is the
 * general-purpose order (recent-only loses important long-term knowledge in a conversation). */
export const DEFAULT_STRATEGY: AssemblyStrategy = 'balanced';

export const AssemblyRequest = z.strictObject({
  strategy: AssemblyStrategy.default(DEFAULT_STRATEGY),
  /** Token budget of the whole text; ignored by `reference`. */
  budget: z.number().int().min(0).max(MAX_BUDGET).default(DEFAULT_BUDGET),
  /** What the agent is about to answer; drives relevance in `state_based`. */
  query: z.string().max(20_000).default(''),
  tokenizer: TokenizerName.default('cl100k_base'),
  /** Share of the budget left after identity and environment that facts may use (state_based). */
  factShare: z.number().gt(0).max(1).default(DEFAULT_FACT_SHARE),
  /** Assemble the state as it was at this time (ISO): facts valid then, items created by then. */
  asOf: Timestamp.optional(),
  /** Session whose working set, session-scoped facts and context document are used. */
  sessionId: z.string().min(1).max(200).default('default'),
  /** Task whose task-scoped facts apply; task facts of other tasks are out of scope. */
  taskId: z.string().min(1).max(200).optional(),
  /** `full`: an entry for every fact, item and document; `included`: only what is in the text
   * (for very large partitions, where listing a million exclusions costs more than assembling). */
  provenance: z.enum(['full', 'included']).default('full'),
});
export type AssemblyRequest = z.infer<typeof AssemblyRequest>;
export type AssemblyRequestInput = z.input<typeof AssemblyRequest>;

/** [start, end) offsets into the text, in UTF-16 code units (JavaScript string indices). */
export const Span = z.tuple([z.number().int().min(0), z.number().int().min(0)]);
export type Span = z.infer<typeof Span>;

export const AssemblySection = z.strictObject({
  name: z.string(),
  title: z.string(),
  /** Tokens of the section's own text (header included), counted alone. */
  tokens: z.number().int().min(0),
  span: Span,
});
export type AssemblySection = z.infer<typeof AssemblySection>;

/** `redacted`: a superseded value quoted in the item was withheld; `superseded`: a turn that
 * asserted a since-superseded value, shown only as history (for why / what-happened queries). */
export const ITEM_MARKS = ['constraint', 'hypothetical', 'draft', 'task', 'session', 'needs_review', 'redacted', 'superseded'] as const;
export const ItemMark = z.enum(ITEM_MARKS);
export type ItemMark = z.infer<typeof ItemMark>;

/** What a ranking score is made of: `relevance` (BM25 of the query terms, or term overlap for
 * working items and documents), `recency` (1 / (1 + hours since the fact was established or last
 * touched), in (0, 1]), `importance` (the fact's stored importance), `constraint` (the multiplier a
 * constraint gets among relevant facts) and `coverage` (the share of a document that fitted). */
export const SCORE_COMPONENTS = ['relevance', 'recency', 'importance', 'constraint', 'coverage'] as const;
export const ScoreComponentName = z.enum(SCORE_COMPONENTS);
export type ScoreComponentName = z.infer<typeof ScoreComponentName>;
export const ScoreComponent = z.strictObject({ name: ScoreComponentName, value: z.number() });
export type ScoreComponent = z.infer<typeof ScoreComponent>;

const provenanceBase = {
  kind: ProvenanceKind,
  id: z.string(),
  /** The fact's key, the item's key or the document's title. */
  label: z.string(),
};

export const IncludedProvenance = z.strictObject({
  ...provenanceBase,
  status: z.literal('included'),
  /** 1-based position in the strategy's selection order. */
  rank: z.number().int().min(1),
  /** The strategy's ranking score (higher ranks first; meaning depends on the strategy). */
  score: z.number(),
  /** What the score is made of, for this strategy (empty when it ranks by position alone). */
  components: z.array(ScoreComponent),
  section: z.string(),
  span: Span,
  marks: z.array(ItemMark),
});
export type IncludedProvenance = z.infer<typeof IncludedProvenance>;

export const ExcludedProvenance = z.strictObject({
  ...provenanceBase,
  status: z.literal('excluded'),
  reason: ExclusionReason,
  detail: z.string().optional(),
});
export type ExcludedProvenance = z.infer<typeof ExcludedProvenance>;

export const ProvenanceEntry = z.discriminatedUnion('status', [IncludedProvenance, ExcludedProvenance]);
export type ProvenanceEntry = z.infer<typeof ProvenanceEntry>;

/** An environment signal fetched fresh from a provider for one assembly (never stored): its value,
 * or null with why when the provider failed or did not answer by the deadline. */
export const FetchedSignal = z.strictObject({
  key: z.string(),
  value: z.string().nullable(),
  provider: z.string(),
  fetchedAt: z.string(),
  status: z.enum(['ok', 'failed', 'timeout']),
  error: z.string().optional(),
});
export type FetchedSignal = z.infer<typeof FetchedSignal>;

export const AssemblyResult = z.strictObject({
  strategy: AssemblyStrategy,
  tokenizer: TokenizerName,
  text: z.string(),
  /** Exact token count of `text` with the chosen tokenizer. */
  tokens: z.number().int().min(0),
  /** null for strategies that take no budget (`reference`). */
  budget: z.number().int().min(0).nullable(),
  query: z.string(),
  /** The time the environment's "now" was taken as (the as-of time, or the clock). */
  now: z.string(),
  asOf: z.string().nullable(),
  sections: z.array(AssemblySection),
  provenance: z.array(ProvenanceEntry),
  /** False when only included items are listed (request.provenance = 'included'). */
  provenanceComplete: z.boolean(),
  /** Included items, and exclusions by reason (with provenance 'included': only the exclusions
   * the strategy met while filling, not every fact of the partition). */
  counts: z.strictObject({
    included: z.number().int().min(0),
    excluded: z.record(z.string(), z.number().int().min(0)),
  }),
  /** Signals fetched fresh from the partition's environment providers for this assembly. */
  fetchedSignals: z.array(FetchedSignal).optional(),
});
export type AssemblyResult = z.infer<typeof AssemblyResult>;
