// What each tool returns as `structuredContent`, as zod schemas built from the shared domain types:
// published as the tools' output schemas, and what clients validate every result against.
import { z } from 'zod';
import { AgentStateRecord, VerificationResult } from '../../shared/agent-state';
import { AssemblyResult, AssemblyStrategy } from '../../shared/assembly';
import { AgentState, ContextDocumentVersion, Environment, EnvironmentSignal, Fact, Identity } from '../../shared/domain';
import { FactPage } from '../../shared/inspect';
import { WriteResult } from '../../shared/writes';
import { ProviderArgument } from './inputs';

/** Where a call landed: every partition-scoped result starts with these. */
const where = {
  partitionId: z.number().int().describe("The partition's id in this database"),
  partition: z.string().describe('The partition as people read it ("acme / user alice")'),
  exists: z.boolean().describe('Whether the partition exists (a read of one not created yet answers as an empty one)'),
};
/** A read may name a partition that does not exist yet: then it has no id. */
const readWhere = { ...where, partitionId: where.partitionId.nullable() };
const sessionId = z.string();

const TurnConflict = z.strictObject({
  factId: z.string(),
  outcome: z.enum(['superseded', 'needs_review']),
  newFactId: z.string().nullable(),
  cue: z.string(),
  entity: z.string(),
  changes: z.array(z.strictObject({ kind: z.string(), from: z.string(), to: z.string() })).readonly(),
  doubt: z.string().nullable(),
  reason: z.string(),
});

export const OUTPUTS = {
  record_facts: z.strictObject({ ...where, results: z.array(WriteResult) }),
  record_turns: z.strictObject({
    ...where,
    sessionId,
    items: z.array(z.strictObject({ id: z.string(), turnIndex: z.number().int(), conflicts: z.array(TurnConflict).readonly() })),
  }),
  set_identity: z.strictObject({ ...where, sessionId, identity: Identity.optional() }),
  end_session: z.strictObject({ ...where, sessionId, workingItemsCleared: z.number().int(), identityReleased: z.boolean() }),
  set_environment: z.strictObject({ ...where, environment: z.array(EnvironmentSignal), state: Environment }),
  set_environment_providers: z.strictObject({ ...where, providers: z.array(ProviderArgument) }),
  update_agent_state: z.strictObject({ ...where, state: AgentState }),
  get_agent_state: z.strictObject({ ...where, ...AgentStateRecord.shape }),
  verify_expectation: z.strictObject({ ...where, ...VerificationResult.shape }),
  assemble_context: z.strictObject({
    ...where,
    strategy: AssemblyStrategy,
    text: z.string(),
    tokens: z.number().int(),
    budget: z.number().int().nullable(),
    sections: z.array(z.strictObject({ name: z.string(), title: z.string(), tokens: z.number().int() })),
    counts: AssemblyResult.shape.counts,
    provenance: AssemblyResult.shape.provenance.optional(),
    fetchedSignals: AssemblyResult.shape.fetchedSignals,
  }),
  get_context: z.strictObject({ ...readWhere, document: ContextDocumentVersion.nullable() }),
  put_context: z.strictObject({ ...where, document: ContextDocumentVersion }),
  search_facts: z.strictObject({ ...readWhere, facts: z.array(Fact), total: FactPage.shape.total }),
  await_consistency: z.strictObject({
    consistent: z.boolean(),
    dataVersion: z.number(),
    partitionId: readWhere.partitionId.optional(),
    partition: where.partition.optional(),
    exists: where.exists.optional(),
  }),
} satisfies Record<string, z.ZodObject>;

export type ToolName = keyof typeof OUTPUTS;
