// The shape of one StateBench timeline line, as the importer accepts it. Objects are loose:
// the public data carries extra keys (detection_mode, metadata, implicit_supersession, ...)
// that the importer ignores; the keys it reads are checked strictly for type.
import { z } from 'zod';
import { Timestamp } from '../../../shared/timestamp';
import { FactValue } from '../../../shared/writes';

const text = z.string().max(100_000);
const nullableText = text.nullable().optional();
const refList = z.array(z.string().min(1).max(500)).max(1000).nullable().optional();
/** StateBench values are strings; structured values are kept as their JSON text. */
const value = FactValue;

export const StatebenchSource = z.looseObject({
  type: z.string().min(1).max(100).nullable().optional(),
  identity: z.string().max(200).nullable().optional(),
  authority: z.string().max(100).nullable().optional(),
});

export const StatebenchFact = z.looseObject({
  id: z.string().min(1).max(500),
  key: z.string().min(1).max(500),
  value,
  source: StatebenchSource.nullable().optional(),
  ts: Timestamp.nullable().optional(),
  supersedes: z.string().min(1).max(500).nullable().optional(),
  superseded_by: z.string().min(1).max(500).nullable().optional(),
  is_valid: z.boolean().nullable().optional(),
  scope: z.string().max(100).nullable().optional(),
  depends_on: refList,
  derived_facts: refList,
  is_constraint: z.boolean().nullable().optional(),
  constraint_type: z.string().max(100).nullable().optional(),
});
export type StatebenchFact = z.infer<typeof StatebenchFact>;

export const StatebenchWrite = z.looseObject({
  id: z.string().max(500).nullable().optional(),
  layer: z.enum(['persistent_facts', 'environment', 'working_set']),
  key: z.string().min(1).max(500),
  value,
  source: StatebenchSource.nullable().optional(),
  scope: z.string().max(100).nullable().optional(),
  supersedes: z.string().min(1).max(500).nullable().optional(),
  depends_on: refList,
  derived_facts: refList,
  is_constraint: z.boolean().nullable().optional(),
  constraint_type: z.string().max(100).nullable().optional(),
});
export type StatebenchWrite = z.infer<typeof StatebenchWrite>;

const ts = Timestamp;

export const StatebenchEvent = z.discriminatedUnion('type', [
  z.looseObject({ type: z.literal('conversation_turn'), ts, speaker: z.string().min(1).max(200), text }),
  z.looseObject({ type: z.literal('state_write'), ts, writes: z.array(StatebenchWrite).max(10_000) }),
  z.looseObject({ type: z.literal('supersession'), ts, writes: z.array(StatebenchWrite).max(10_000) }),
  z.looseObject({
    type: z.literal('query'),
    ts: ts.nullable().optional(),
    prompt: text.min(1),
    ground_truth: z.record(z.string(), z.unknown()).nullable().optional(),
  }),
]);
export type StatebenchEvent = z.infer<typeof StatebenchEvent>;

export const StatebenchWorkingItem = z.looseObject({
  item_type: z.string().min(1).max(100).nullable().optional(),
  content: value,
  ts: ts.nullable().optional(),
  priority: z.number().min(-1000).max(1000).nullable().optional(),
});

export const StatebenchTimeline = z.looseObject({
  id: z.string().min(1).max(200),
  actors: z.looseObject({
    user: z.looseObject({
      id: z.string().min(1).max(200),
      role: nullableText,
      org: z.string().min(1).max(200),
    }),
  }),
  initial_state: z.looseObject({
    identity_role: z
      .looseObject({
        user_name: z.string().max(1000),
        authority: z.string().max(1000),
        department: z.string().max(1000),
        organization: z.string().max(1000),
        communication_style: z.string().max(1000).nullable().optional(),
        permissions: z.array(z.string().max(1000)).max(200).nullable().optional(),
      })
      .nullable()
      .optional(),
    persistent_facts: z.array(StatebenchFact).max(100_000).nullable().optional(),
    working_set: z.array(StatebenchWorkingItem).max(100_000).nullable().optional(),
    environment: z.record(z.string().min(1).max(500), z.unknown()).nullable().optional(),
  }),
  events: z.array(StatebenchEvent).max(1_000_000),
});
export type StatebenchTimeline = z.infer<typeof StatebenchTimeline>;
