// The agent-state delta vocabulary (merges, upserts, item deltas, and tool results for the
// expectation matcher), with bounded zod schemas. The stored shape is AgentState in domain.ts.
import { z } from 'zod';
import { AgentState, Assumption, Expectation } from './domain';

const id = z.string().min(1).max(200);
const text = z.string().max(10_000);
const list = <T extends z.ZodType>(item: T, max = 1000) => z.array(item).max(max);

export const EntityInput = z.strictObject({ id, kind: z.string().min(1).max(200), name: z.string().max(1000).optional() });
export const DependencyInput = z.strictObject({ from: id, to: id, rel: z.string().max(200).optional() });

export const AssumptionInput = z.strictObject({
  id,
  hypothesis: text,
  confidence: z.number().min(0).max(1),
  evidence: list(z.string().max(1000), 200).optional(),
});

export const ExpectationStatusInput = z.enum(['pending', 'confirmed', 'failed']);
export const ExpectationInput = z.strictObject({
  /** Omitted: the engine assigns one (a new expectation). */
  id: id.optional(),
  action: text,
  expected_outcome: text,
  expected_ids: list(id, 10_000).optional(),
  expected_type: z.string().max(200).optional(),
  expected_count: z.number().int().nonnegative().optional(),
  invariant: text.optional(),
  status: ExpectationStatusInput.optional(),
  last_checked_at: z.string().max(64).optional(),
});

export const HypothesisInput = z.strictObject({ id, hypothesis: text, reason: text.optional() });

const ItemKind = z.enum(['task', 'doc', 'note', 'idea', 'question']);
const ItemStatus = z.enum(['active', 'resolved', 'discarded']);
const itemFields = {
  kind: ItemKind,
  title: z.string().max(1000),
  details: text.optional(),
  status: ItemStatus,
  relatedEntityIds: list(id).optional(),
  createdAt: z.string().max(64),
  updatedAt: z.string().max(64),
};

/** Item deltas: add (timestamps default to now), update (a partial patch), remove. */
export const AgentStateItemUpdate = z.discriminatedUnion('op', [
  z.strictObject({
    op: z.literal('add'),
    item: z.strictObject({ id, ...itemFields, createdAt: itemFields.createdAt.optional(), updatedAt: itemFields.updatedAt.optional() }),
  }),
  // A patch may repeat the item's id (a Partial of the whole item); it never changes it.
  z.strictObject({ op: z.literal('update'), id, patch: z.strictObject({ id, ...itemFields }).partial() }),
  z.strictObject({ op: z.literal('remove'), id }),
]);
export type AgentStateItemUpdate = z.infer<typeof AgentStateItemUpdate>;

/** One delta: entities and dependencies merge, assumptions / expectations / hypotheses upsert
 * by id, items apply their ops in order. */
export const AgentStateUpdate = z.strictObject({
  current_understanding: z
    .strictObject({
      entities: list(EntityInput, 5000).optional(),
      dependencies: list(DependencyInput, 5000).optional(),
    })
    .optional(),
  assumptions: list(AssumptionInput).optional(),
  expectations: list(ExpectationInput).optional(),
  tentative_hypotheses: list(HypothesisInput).optional(),
  items: list(AgentStateItemUpdate).optional(),
  lastSummarizedAt: z.string().max(64).optional(),
});
export type AgentStateUpdate = z.infer<typeof AgentStateUpdate>;

/** The end-of-turn summarizer's output as it returns it: item ops and the state delta under
 * their own names. Accepted wherever a delta is, and applied as one. */
export const SummarizerOutput = z.strictObject({
  agent_state_item_updates: list(AgentStateItemUpdate).optional(),
  agent_state_updates: AgentStateUpdate.omit({ items: true }).optional(),
});
export type SummarizerOutput = z.infer<typeof SummarizerOutput>;

/** A delta in either shape: the flat update, or the summarizer's output. */
export const AgentStateDelta = z.union([AgentStateUpdate, SummarizerOutput]);
export type AgentStateDelta = z.infer<typeof AgentStateDelta>;
export type AgentStateUpdateInput = z.input<typeof AgentStateDelta>;

/** True for the summarizer's shape (checked on the raw input too, so that a bad delta is
 * reported against the one schema it was meant for, not as a failed union). */
export function isSummarizerOutput(delta: unknown): delta is SummarizerOutput {
  return typeof delta === 'object' && delta !== null && ('agent_state_item_updates' in delta || 'agent_state_updates' in delta);
}

/** The flat update a delta of either shape stands for. */
export function flattenAgentStateDelta(delta: AgentStateDelta): AgentStateUpdate {
  if (!isSummarizerOutput(delta)) return delta;
  const items = delta.agent_state_item_updates;
  return { ...(delta.agent_state_updates ?? {}), ...(items ? { items } : {}) };
}

/** The structured part of a tool's result that the deterministic matcher compares. */
export const ToolResult = z.strictObject({
  id,
  ids: list(z.string().max(200), 10_000).optional(),
  types: list(z.string().max(200)).optional(),
  count: z.number().int().nonnegative().optional(),
  /** A short human summary, used in the assumption a mismatch adds. */
  summary: z.string().max(2000).optional(),
});
export type ToolResult = z.infer<typeof ToolResult>;

/** `skip`: not enough structure to compare, so the matcher does not guess. */
export const MatchVerdict = z.enum(['match', 'mismatch', 'skip']);
export type MatchVerdict = z.infer<typeof MatchVerdict>;

export const VerificationResult = z.strictObject({
  outcome: z.enum(['confirmed', 'failed', 'skipped']),
  verdict: MatchVerdict,
  /** Which criterion decided (ids, type, count), or null for a skip. */
  criterion: z.enum(['ids', 'type', 'count']).nullable(),
  reason: z.string(),
  expectation: Expectation,
  /** The assumption a mismatch added. */
  assumption: Assumption.nullable(),
  state: AgentState,
});
export type VerificationResult = z.infer<typeof VerificationResult>;

/** A session's stored agent state; both null when the session has none yet. */
export const AgentStateRecord = z.strictObject({ state: AgentState.nullable(), updatedAt: z.string().nullable() });
export type AgentStateRecord = z.infer<typeof AgentStateRecord>;
