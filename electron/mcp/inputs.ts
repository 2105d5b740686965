// The tools' arguments as agents send them, in shapes that publish in the portable schema subset
// (see portable-schema.ts): a partition as text, a value as text, optional fields simply optional,
// one closed object where the engine takes a union. Each reuses the shared field schemas (bounds
// included) and yields the engine's own input, which the engine validates again.
import { z } from 'zod';
import { AgentStateDelta, AgentStateItemUpdate, AgentStateUpdate, SummarizerOutput, isSummarizerOutput } from '../../shared/agent-state';
import { Identity } from '../../shared/domain';
import { Timestamp } from '../../shared/timestamp';
import { FactWriteInput, MAX_VALUE_CHARS, SourceInput } from '../../shared/writes';
import { parseDesignation } from '../engine/ingest/designation';

const PARTITION_FORMS = '"user:ORG/USER" (one user\'s memory), "capability:ORG/NAME" (an agent capability) or "org:ORG" (organisational knowledge)';

/** A partition, as text in one of its short forms; yields the PartitionRef. */
export const PartitionArgument = z
  .string({ error: (issue) => (issue.input === undefined ? undefined : `a partition is text: ${PARTITION_FORMS}`) })
  .max(500)
  .transform((text, ctx) => {
    try {
      return parseDesignation(text);
    } catch (e) {
      ctx.addIssue({ code: 'custom', message: e instanceof Error ? e.message : String(e) });
      return z.NEVER;
    }
  })
  .describe(`The partition: ${PARTITION_FORMS}`);

/** `optional(nullable(T))` as plain `optional(T)`: optional fields are simply left out (a null the
 * client sends anyway is dropped before parsing, see `withoutNulls`). */
function plainOptional(field: z.ZodType): z.ZodType {
  let inner = field;
  let optional = false;
  for (;;) {
    if (inner instanceof z.ZodOptional) {
      optional = true;
      inner = inner.unwrap() as z.ZodType;
    } else if (inner instanceof z.ZodNullable) inner = inner.unwrap() as z.ZodType;
    else break;
  }
  return optional ? inner.optional() : inner;
}

function plainShape<T extends z.ZodRawShape>(shape: T): T {
  return Object.fromEntries(Object.entries(shape).map(([k, v]) => [k, plainOptional(v as z.ZodType)])) as unknown as T;
}

/** Deeper than any tool's arguments go: below it a value is passed on untouched, for the schema
 * to refuse (a value nested thousands deep must not overflow the stack here). */
const MAX_ARGUMENT_DEPTH = 16;

/** Object properties whose value is null, removed at every depth the tools' arguments use:
 * clients that make every property required (the strict function-calling modes) send null for
 * the ones left out. */
export function withoutNulls(value: unknown, depth = 0): unknown {
  if (depth > MAX_ARGUMENT_DEPTH) return value;
  if (Array.isArray(value)) return value.map((v) => withoutNulls(v, depth + 1));
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, v]) => v !== null)
      .map(([k, v]) => [k, withoutNulls(v, depth + 1)]),
  );
}

/** Parses `value` with `schema` inside a transform, reporting its issues at their own paths. */
function reparse<S extends z.ZodType>(schema: S, value: unknown, ctx: z.RefinementCtx): z.output<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  for (const issue of parsed.error.issues) ctx.addIssue({ code: 'custom', message: issue.message, path: issue.path });
  return z.NEVER;
}

const definedOnly = (o: Record<string, unknown>) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));

const SourceArgument = z
  .strictObject(plainShape(SourceInput.shape))
  .describe('Where the fact comes from: type (user, system, tool, policy…), identity (who said it, e.g. "CFO"), authority (their role)');

/** One fact to write: the shared write fields, with the value as text. */
export const FactArgument = z.strictObject({
  ...plainShape(FactWriteInput.shape),
  value: z.string().max(MAX_VALUE_CHARS).describe('The value as text; structured data as JSON text (e.g. {"city":"Hamburg"})'),
  source: SourceArgument.optional(),
});

export const IdentityArgument = z.strictObject(plainShape(Identity.shape));

/** One environment signal: text in `value`, or structured data as JSON text in `value_json`. */
export const SignalArgument = z
  .strictObject({
    key: z.string().min(1).max(500),
    value: z.string().max(MAX_VALUE_CHARS).optional().describe('The value as text (a timezone such as "Europe/Paris", a location, a status)'),
    value_json: z.string().max(MAX_VALUE_CHARS).optional().describe('Instead of value: structured data (a number, a list, an object) as JSON text'),
    observed_at: Timestamp.optional(),
  })
  .transform((s, ctx) => {
    if ((s.value === undefined) === (s.value_json === undefined)) {
      ctx.addIssue({ code: 'custom', message: 'give exactly one of value (text) or value_json (JSON text)', path: ['value'] });
      return z.NEVER;
    }
    let value: unknown = s.value;
    if (s.value_json !== undefined) {
      try {
        value = JSON.parse(s.value_json) as unknown;
      } catch (e) {
        ctx.addIssue({ code: 'custom', message: `not JSON: ${e instanceof Error ? e.message : String(e)}`, path: ['value_json'] });
        return z.NEVER;
      }
    }
    return { key: s.key, value, ...(s.observed_at ? { observedAt: s.observed_at } : {}) };
  });

const [AddItem, UpdateItem] = AgentStateItemUpdate.options;

/** One item operation as one closed object (the engine's tagged union, flattened): `op` says which
 * of `item` (add), `id` with `patch` (update) or `id` (remove) it carries. */
const ItemOpArgument = z
  .strictObject({
    op: z.enum(['add', 'update', 'remove']),
    id: UpdateItem.shape.id.optional().describe('The item to update or remove'),
    item: AddItem.shape.item.optional().describe('The new item (add)'),
    patch: UpdateItem.shape.patch.optional().describe('The fields to change (update)'),
  })
  .transform((v, ctx) => reparse(AgentStateItemUpdate, definedOnly(v), ctx));

const itemOps = z.array(ItemOpArgument).max(1000);
const FLAT_KEYS = Object.keys(AgentStateUpdate.shape);

/** An agent-state delta in either of its shapes (flat, or the summarizer's output), as one closed
 * object; mixing the two shapes is refused. */
export const AgentStateDeltaArgument = z
  .strictObject({
    ...AgentStateUpdate.shape,
    items: itemOps.optional(),
    agent_state_item_updates: itemOps.optional(),
    agent_state_updates: SummarizerOutput.shape.agent_state_updates,
  })
  .transform((v, ctx) => {
    const delta = definedOnly(v);
    const flat = Object.keys(delta).filter((k) => FLAT_KEYS.includes(k));
    if (isSummarizerOutput(delta) && flat.length > 0) {
      ctx.addIssue({
        code: 'custom',
        message: `give either the flat delta or the summarizer's output (agent_state_item_updates, agent_state_updates), not both (also given: ${flat.join(', ')})`,
      });
      return z.NEVER;
    }
    return reparse(AgentStateDelta, delta, ctx);
  });

/** One environment provider (the engine checks which fields each kind needs). */
export const ProviderArgument = z.strictObject({
  kind: z.enum(['clock', 'calendar', 'recent_files']),
  timezone: z.string().min(1).max(100).optional().describe('IANA time zone (clock, calendar)'),
  source: z.string().min(1).max(2000).optional().describe('calendar: an absolute .ics path, a file: URL or a localhost URL'),
  folder: z.string().min(1).max(2000).optional().describe('recent_files: an absolute folder path'),
  limit: z.number().int().min(1).max(50).optional().describe('How many meetings or files (calendar 3, recent_files 5 by default)'),
});
