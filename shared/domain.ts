// Domain vocabulary shared by the engine, the contract and the renderer.
// Schemas are zod so the IPC contract, the CLI and the engine validate with one definition;
// every TypeScript type here is inferred from a schema, never written twice.
import { z } from 'zod';
import { OrgName, PartitionName } from './partition-name';

export const MEMORY_TYPES = ['user', 'capability', 'organizational'] as const;
export const SCOPES = ['global', 'task', 'hypothetical', 'draft', 'session'] as const;
export const SUPERSESSION_RULES = ['explicit', 'implicit', 'authority', 'temporal'] as const;
export const CONSTRAINT_TYPES = ['budget', 'deadline', 'capacity', 'policy'] as const;
export const CAPABILITY_LEVELS = ['event', 'heuristic', 'strategy'] as const;
export const MATURITIES = ['junior', 'senior', 'master'] as const;
export const PARTITION_KINDS = ['user', 'capability', 'organizational'] as const;
/** Fact status: `active` is valid; `superseded` lost to a newer fact; `proposal` is a
 * lower-authority write kept beside the fact it failed to replace. */
export const FACT_STATUSES = ['active', 'superseded', 'proposal'] as const;

export const MemoryType = z.enum(MEMORY_TYPES);
export type MemoryType = z.infer<typeof MemoryType>;
export const Scope = z.enum(SCOPES);
export type Scope = z.infer<typeof Scope>;
export const SupersessionRule = z.enum(SUPERSESSION_RULES);
export type SupersessionRule = z.infer<typeof SupersessionRule>;
export const ConstraintType = z.enum(CONSTRAINT_TYPES);
export type ConstraintType = z.infer<typeof ConstraintType>;
export const CapabilityLevel = z.enum(CAPABILITY_LEVELS);
export type CapabilityLevel = z.infer<typeof CapabilityLevel>;
export const Maturity = z.enum(MATURITIES);
export type Maturity = z.infer<typeof Maturity>;
export const PartitionKind = z.enum(PARTITION_KINDS);
export type PartitionKind = z.infer<typeof PartitionKind>;
export const FactStatus = z.enum(FACT_STATUSES);
export type FactStatus = z.infer<typeof FactStatus>;

const id = z.string().min(1).max(200);
const shortText = z.string().max(1000);

// Partition names: normalised and checked by the rules in partition-name.ts.
export { OrgName, showUnsafe, UNSAFE_NAME } from './partition-name';

/** Names one partition: org -> user memory, org + capability -> capability memory,
 * org -> organisational knowledge. */
export const PartitionRef = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('user'), org: OrgName, user: PartitionName }),
  z.strictObject({ kind: z.literal('capability'), org: OrgName, capability: PartitionName }),
  z.strictObject({ kind: z.literal('organizational'), org: OrgName }),
]);
export type PartitionRef = z.infer<typeof PartitionRef>;

export const PartitionSummary = z.strictObject({
  id: z.number().int(),
  ref: PartitionRef,
  label: z.string(),
  maturity: Maturity.nullable(),
  facts: z.number().int(),
  validFacts: z.number().int(),
  needsReview: z.number().int(),
  workingItems: z.number().int(),
  documents: z.number().int(),
});
export type PartitionSummary = z.infer<typeof PartitionSummary>;

export const Identity = z.strictObject({
  userName: shortText,
  userId: shortText,
  authority: shortText,
  department: shortText,
  organization: shortText,
  permissions: z.array(shortText).max(200),
  communicationStyle: shortText.nullable().optional(),
});
export type Identity = z.infer<typeof Identity>;

export const Source = z.strictObject({
  type: shortText,
  identity: shortText.nullable(),
  authority: shortText.nullable(),
  turnIndex: z.number().int().nullable(),
  eventIndex: z.number().int().nullable(),
});
export type Source = z.infer<typeof Source>;

/** A persistent fact as stored: the agent's fact fields plus our own id. */
export const Fact = z.strictObject({
  id,
  label: z.string().nullable(),
  key: z.string(),
  value: z.string(),
  source: Source,
  ts: z.string(),
  createdAt: z.string(),
  lastAccessedAt: z.string().nullable(),
  accessCount: z.number().int(),
  importance: z.number(),
  memoryType: MemoryType,
  level: CapabilityLevel.nullable(),
  scope: Scope,
  scopeId: z.string().nullable(),
  status: FactStatus,
  isValid: z.boolean(),
  supersededBy: z.string().nullable(),
  supersedes: z.string().nullable(),
  supersessionRule: SupersessionRule.nullable(),
  supersessionReason: z.string().nullable(),
  validTo: z.string().nullable(),
  proposalFor: z.string().nullable(),
  needsReview: z.boolean(),
  reviewCause: z.string().nullable(),
  reviewCauseFact: z.string().nullable(),
  isConstraint: z.boolean(),
  constraintType: ConstraintType.nullable(),
  timeSensitive: z.boolean(),
  dependsOn: z.array(z.string()),
  derivedFacts: z.array(z.string()),
});
export type Fact = z.infer<typeof Fact>;

export const WorkingItem = z.strictObject({
  id,
  sessionId: z.string(),
  key: z.string(),
  value: z.string(),
  itemType: z.string(),
  speaker: z.string().nullable(),
  turnIndex: z.number().int().nullable(),
  createdAt: z.string(),
  expiresAt: z.string().nullable(),
  priority: z.number(),
});
export type WorkingItem = z.infer<typeof WorkingItem>;

export const EnvironmentSignal = z.strictObject({
  key: z.string(),
  value: z.string(),
  observedAt: z.string(),
});
export type EnvironmentSignal = z.infer<typeof EnvironmentSignal>;

/** Signal keys with a meaning of their own in the environment; every other signal is external
 * data. The current time is never stored: it is the time the environment is read at. */
export const ENVIRONMENT_FIELD_KEYS = { timezone: 'timezone', location: 'location' } as const;

/** Layer 4 as a whole at one instant: the time, the date in the environment's timezone, where,
 * and the external data (API values, system state), latest observation per key. */
export const Environment = z.strictObject({
  currentTime: z.string(),
  /** YYYY-MM-DD of currentTime in `timezone`. */
  currentDate: z.string(),
  /** An IANA time zone; UTC when none was observed. */
  timezone: z.string(),
  location: z.string().nullable(),
  externalData: z.record(z.string(), z.string()),
});
export type Environment = z.infer<typeof Environment>;

export const OrgDocument = z.strictObject({
  id,
  title: z.string(),
  body: z.string(),
  acl: z.array(z.string()),
  createdAt: z.string(),
});
export type OrgDocument = z.infer<typeof OrgDocument>;

export const AuditEntry = z.strictObject({
  id: z.number().int(),
  at: z.string(),
  actor: z.string(),
  action: z.string(),
  partitionId: z.number().int().nullable(),
  targetIds: z.array(z.string()),
  reason: z.string().nullable(),
  details: z.record(z.string(), z.unknown()),
});
export type AuditEntry = z.infer<typeof AuditEntry>;

export const SavedQuery = z.strictObject({
  id: z.number().int(),
  label: z.string(),
  prompt: z.string(),
  ts: z.string().nullable(),
  groundTruth: z.record(z.string(), z.unknown()).nullable(),
});
export type SavedQuery = z.infer<typeof SavedQuery>;

// Agent state: assumptions, expectations, hypotheses, items.
export const ExpectationStatus = z.enum(['pending', 'confirmed', 'failed']);
export const Assumption = z.strictObject({
  id,
  hypothesis: z.string(),
  confidence: z.number().min(0).max(1),
  evidence: z.array(z.string()).optional(),
});
export const Expectation = z.strictObject({
  id: z.string().optional(),
  action: z.string(),
  expected_outcome: z.string(),
  expected_ids: z.array(z.string()).optional(),
  expected_type: z.string().optional(),
  expected_count: z.number().int().optional(),
  invariant: z.string().optional(),
  status: ExpectationStatus.optional(),
  last_checked_at: z.string().optional(),
});
export const Hypothesis = z.strictObject({ id, hypothesis: z.string(), reason: z.string().optional() });
export const AgentStateItem = z.strictObject({
  id,
  kind: z.enum(['task', 'doc', 'note', 'idea', 'question']),
  title: z.string(),
  details: z.string().optional(),
  status: z.enum(['active', 'resolved', 'discarded']),
  relatedEntityIds: z.array(z.string()).optional(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export const AgentState = z.strictObject({
  sessionId: z.string(),
  current_understanding: z.strictObject({
    entities: z.array(z.strictObject({ id: z.string(), kind: z.string(), name: z.string().optional() })),
    dependencies: z.array(z.strictObject({ from: z.string(), to: z.string(), rel: z.string().optional() })),
  }),
  assumptions: z.array(Assumption),
  expectations: z.array(Expectation),
  tentative_hypotheses: z.array(Hypothesis),
  items: z.array(AgentStateItem),
  lastSummarizedAt: z.string().optional(),
});
export type Assumption = z.infer<typeof Assumption>;
export type Expectation = z.infer<typeof Expectation>;
export type Hypothesis = z.infer<typeof Hypothesis>;
export type AgentStateItem = z.infer<typeof AgentStateItem>;
export type AgentState = z.infer<typeof AgentState>;

export const ContextDocumentVersion = z.strictObject({
  sessionId: z.string(),
  version: z.number().int(),
  body: z.string(),
  createdAt: z.string(),
});
export type ContextDocumentVersion = z.infer<typeof ContextDocumentVersion>;
