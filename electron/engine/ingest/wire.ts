// The agents' wire format: one JSON event per line in StateBench's event shapes
// (conversation_turn, state_write, supersession, query) plus `identity`, each optionally naming
// its partition. Strict objects: a misspelt field is an error naming it, not a silent default.
import { z } from 'zod';
import { ConstraintType, CapabilityLevel, MemoryType, Scope, SupersessionRule } from '../../../shared/domain';
import { FactValue, MAX_VALUE_CHARS } from '../../../shared/writes';
import { PartitionDesignation } from './designation';
import { Timestamp } from '../../../shared/timestamp';

const ts = Timestamp;
const ref = z.string().min(1).max(500);
const refs = z.array(ref).max(1000).nullable().optional();
const value = FactValue;

const common = {
  /** Overrides the run's partition for this line. */
  partition: PartitionDesignation.optional(),
  session_id: z.string().min(1).max(200).optional(),
};

export const WireSource = z.strictObject({
  type: z.string().min(1).max(100).nullable().optional(),
  identity: z.string().max(200).nullable().optional(),
  authority: z.string().max(100).nullable().optional(),
});

export const WireWrite = z.strictObject({
  /** The source's label for the fact (StateBench's write id; not unique). */
  id: z.string().max(500).nullable().optional(),
  layer: z.enum(['persistent_facts', 'environment', 'working_set']).default('persistent_facts'),
  key: z.string().min(1).max(500),
  value,
  /** The source, or only the name of who said it ("CFO"). */
  source: z
    .union([
      WireSource,
      z
        .string()
        .min(1)
        .max(200)
        .transform((identity) => ({ type: null, identity, authority: null })),
    ])
    .nullable()
    .optional(),
  scope: Scope.nullable().optional(),
  scope_id: z.string().max(200).nullable().optional(),
  supersedes: ref.nullable().optional(),
  rule: SupersessionRule.optional(),
  reason: z.string().max(2000).optional(),
  depends_on: refs,
  derived_facts: refs,
  is_constraint: z.boolean().nullable().optional(),
  constraint_type: ConstraintType.nullable().optional(),
  importance: z.number().min(0).max(10).optional(),
  memory_type: MemoryType.optional(),
  level: CapabilityLevel.optional(),
  time_sensitive: z.boolean().optional(),
  /** The entity the fact is about, when its key does not say (see the supersession rules). */
  entity: z.string().min(1).max(200).nullable().optional(),
  /** working_set only. */
  expires_at: ts.nullable().optional(),
  priority: z.number().min(-1000).max(1000).optional(),
});
export type WireWrite = z.infer<typeof WireWrite>;

export const WireEvent = z.discriminatedUnion('type', [
  z.strictObject({
    type: z.literal('conversation_turn'),
    ts,
    speaker: z.string().min(1).max(200),
    text: z.string().max(MAX_VALUE_CHARS),
    turn_index: z.number().int().nonnegative().optional(),
    implicit_supersession: z.unknown().optional(),
    ...common,
  }),
  z.strictObject({ type: z.literal('state_write'), ts, writes: z.array(WireWrite).min(1).max(10_000), ...common }),
  z.strictObject({ type: z.literal('supersession'), ts, writes: z.array(WireWrite).min(1).max(10_000), ...common }),
  z.strictObject({
    type: z.literal('query'),
    ts: ts.nullable().optional(),
    prompt: z.string().min(1).max(MAX_VALUE_CHARS),
    label: z.string().min(1).max(200).optional(),
    ground_truth: z.record(z.string(), z.unknown()).nullable().optional(),
    ...common,
  }),
  z.strictObject({
    type: z.literal('identity'),
    identity_role: z.strictObject({
      user_name: z.string().max(1000),
      user_id: z.string().max(1000).optional(),
      authority: z.string().max(1000),
      department: z.string().max(1000),
      organization: z.string().max(1000),
      permissions: z.array(z.string().max(1000)).max(200).optional(),
      communication_style: z.string().max(1000).nullable().optional(),
    }),
    ...common,
  }),
]);
export type WireEvent = z.infer<typeof WireEvent>;
export type WireEventInput = z.input<typeof WireEvent>;
export const WIRE_EVENT_TYPES = ['conversation_turn', 'state_write', 'supersession', 'query', 'identity'] as const;
