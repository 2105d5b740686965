// The agent-side write vocabulary (library, CLI ingest, MCP). The inspector's IPC contract has
// no channel that accepts these: users delete, agents create.
import { z } from 'zod';
import { CapabilityLevel, ConstraintType, MemoryType, Scope, SupersessionRule } from './domain';
import { Timestamp } from './timestamp';

export const MAX_VALUE_CHARS = 100_000;
/** How deep objects and arrays may nest inside one value (a value is data, not a tree walk). */
export const MAX_VALUE_DEPTH = 64;

/** Whether `value` nests objects or arrays deeper than `limit`, found without recursion so that
 * a hostile value cannot overflow the stack while it is being judged. */
export function nestsDeeperThan(value: unknown, limit: number): boolean {
  const pending: Array<{ node: unknown; depth: number }> = [{ node: value, depth: 0 }];
  for (let item = pending.pop(); item !== undefined; item = pending.pop()) {
    if (typeof item.node !== 'object' || item.node === null) continue;
    const depth = item.depth + 1;
    if (depth > limit) return true;
    for (const child of Object.values(item.node)) if (typeof child === 'object' && child !== null) pending.push({ node: child, depth });
  }
  return false;
}

/** Why a structured value (an object or array) is refused, or undefined when it is within the
 * limits: nested at most MAX_VALUE_DEPTH deep and at most MAX_VALUE_CHARS as JSON text, the form
 * in which it is stored. */
export function structuredValueProblem(value: unknown): string | undefined {
  if (nestsDeeperThan(value, MAX_VALUE_DEPTH)) return `nests objects or arrays deeper than ${MAX_VALUE_DEPTH} levels`;
  const text = JSON.stringify(value);
  if (text.length > MAX_VALUE_CHARS) return `is ${text.length} characters as JSON, over the limit of ${MAX_VALUE_CHARS}`;
  return undefined;
}

/** A fact's value: text, a number, a boolean, or an object or array kept as its JSON text; the
 * same size limit applies to the text however the value is given. */
export const FactValue = z.union([
  z.string().max(MAX_VALUE_CHARS),
  z.number(),
  z.boolean(),
  z.union([z.record(z.string(), z.unknown()), z.array(z.unknown())]).superRefine((v, ctx) => {
    const problem = structuredValueProblem(v);
    if (problem) ctx.addIssue({ code: 'custom', message: `the value ${problem}` });
  }),
]);
const ref = z.string().min(1).max(500);

export const SourceInput = z.strictObject({
  type: z.string().min(1).max(100).default('user'),
  identity: z.string().max(200).nullable().optional(),
  authority: z.string().max(100).nullable().optional(),
  turnIndex: z.number().int().nonnegative().nullable().optional(),
  eventIndex: z.number().int().nonnegative().nullable().optional(),
});
export type SourceInput = z.input<typeof SourceInput>;

/** Importance of a fact written without one: every memory starts equal (1.0) and only a writer
 * that knows better ranks it higher or lower; constraints start higher so the checks that bound a
 * decision are not the first facts a full budget drops. */
export const DEFAULT_IMPORTANCE = 1.0;
export const DEFAULT_CONSTRAINT_IMPORTANCE = 1.6;

export const FactWriteInput = z.strictObject({
  /** The source's own label for the fact (not unique: StateBench reuses `W-AUTO`). */
  label: z.string().max(500).nullable().optional(),
  key: z.string().min(1).max(500),
  value: FactValue,
  /** The source, or only the name of who said it ("CFO"). */
  source: z
    .union([
      SourceInput,
      z
        .string()
        .min(1)
        .max(200)
        .transform((identity): z.output<typeof SourceInput> => ({ type: 'user', identity })),
    ])
    .optional(),
  ts: Timestamp.optional(),
  importance: z.number().min(0).max(10).optional(),
  memoryType: MemoryType.optional(),
  level: CapabilityLevel.optional(),
  scope: Scope.optional(),
  scopeId: z.string().max(200).nullable().optional(),
  /** A fact id, source label or key, resolved in that order inside the partition. */
  supersedes: ref.nullable().optional(),
  /** Rule to record when `supersedes` is given (defaults to explicit). */
  rule: SupersessionRule.optional(),
  reason: z.string().max(2000).optional(),
  dependsOn: z.array(ref).max(1000).optional(),
  derivedFacts: z.array(ref).max(1000).optional(),
  isConstraint: z.boolean().optional(),
  constraintType: ConstraintType.nullable().optional(),
  timeSensitive: z.boolean().optional(),
  /** The entity the fact is about ("Q3 offsite", "home address"): a write naming the same entity
   * as a current fact, under another key, can supersede it (see the supersession rules). */
  entity: z.string().min(1).max(200).nullable().optional(),
});
export type FactWriteInput = z.input<typeof FactWriteInput>;

/** How a write ended: a new valid fact, one that superseded another, a subordinate proposal
 * (lower authority), a stale write (older timestamp on a time-sensitive key) or a duplicate. */
export const WriteOutcome = z.enum(['created', 'superseded', 'proposal', 'stale', 'duplicate']);
export type WriteOutcome = z.infer<typeof WriteOutcome>;

/** The authority a write was ranked with: the role its authority text names (word by word), or
 * `peer` when no role was recognised; `origin` says whether the text came from the write's source
 * or from the writing session's identity (the user's own words carry the user's authority). */
export const WriteAuthority = z.strictObject({
  role: z.enum(['policy', 'executive', 'director', 'manager', 'employee', 'peer', 'contractor', 'intern', 'guest']),
  recognised: z.boolean(),
  by: z.string().nullable(),
  origin: z.enum(['source', 'identity', 'none']),
});
export type WriteAuthority = z.infer<typeof WriteAuthority>;

export const WriteResult = z.strictObject({
  factId: z.string(),
  outcome: WriteOutcome,
  supersededId: z.string().nullable(),
  rule: SupersessionRule.nullable(),
  /** Why the rule applied, with its evidence (null for a created fact or a duplicate). */
  reason: z.string().nullable(),
  authority: WriteAuthority,
  unresolvedSupersedes: z.string().nullable(),
  unresolvedDependencies: z.array(z.string()),
  flagged: z.array(z.string()),
});
export type WriteResult = z.infer<typeof WriteResult>;
