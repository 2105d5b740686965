// The agent-side write path for persistent facts: reference resolution (id, label, key),
// the four supersession rules, inference of unspecified fields, dependency edges and
// needs_review propagation. Callers wrap batches in one transaction (see PartitionHandle).
import { StatelensError } from '../../../shared/errors';
import {
  DEFAULT_CONSTRAINT_IMPORTANCE,
  DEFAULT_IMPORTANCE,
  FactWriteInput,
  MAX_VALUE_DEPTH,
  nestsDeeperThan,
  type WriteAuthority,
  type WriteResult,
} from '../../../shared/writes';
import type { SupersessionRule } from '../../../shared/domain';
import type { PartitionContext } from '../context';
import { stmt } from '../db/statements';
import type { EngineDb } from '../db/connection';
import { lockNames, locksNames } from '../db/write-locks';
import { FACT_COLUMNS, type FactRow } from './rows';
import { inferConstraintType, inferMemoryType, inferScope, inferTimeSensitive, levelAllowed, looksLikeConstraint } from './inference';
import { recogniseAuthority, recogniseRole, type RecognisedAuthority } from './authority';
import { entityKey, lookupEntities } from './entity';
import { checkNamedTarget, decideSupersession } from './supersession-decision';
import type { SourceInput } from '../../../shared/writes';
import { addEdge, derivedFactsOf, flagDependents, flagFact, nextReviewCause } from './dependencies';
import { recordAudit } from '../audit/audit';
import { parseInput } from '../query/validate';
import { DEFAULT_SESSION } from '../layers/identity';

const MAX_CHAIN = 100_000;

/** Where the write path reads and writes fact rows: straight SQL, or a FactWriteBatch that
 * holds new rows back to insert them many per statement (see FactWriteBatch). */
interface FactAccess {
  byId(id: string): FactRow | undefined;
  validByLabel(label: string): FactRow | undefined;
  validByKey(key: string): FactRow | undefined;
  validByKeyInScope(key: string, scope: string, scopeId: string | null): FactRow | undefined;
  insert(row: InsertRow): void;
  supersede(row: FactRow, change: SupersedeChange): void;
  addEdge(dependent: string, dependsOn: string): void;
  /** Flags every transitive dependent of `root` needs_review (see flagDependents). */
  flagDependents(root: string, cause: string): string[];
  /** The non-proposal facts of one (key, scope, scope id) history whose as-of window reaches
   * past `at` (valid_to null or later), in no particular order. */
  historyAfter(key: string, scope: string, scopeId: string | null, at: string): FactRow[];
  /** Ends a fact's as-of window earlier (its validity now is unchanged). */
  setValidTo(row: FactRow, validTo: string): void;
  /** Valid facts of one scope filed under any of `entities` (entity_key), other than `key`'s,
   * newest first (ts, then insertion), at most ENTITY_CANDIDATES. */
  entityCandidates(entities: readonly string[], scope: string, scopeId: string | null, key: string): FactRow[];
  /** The name, id and authority of a session's identity, if it set one. */
  identity(sessionId: string): IdentityAuthority | undefined;
}

interface IdentityAuthority {
  readonly user_name: string;
  readonly user_id: string;
  readonly authority: string;
}

const ENTITY_CANDIDATES = 32;
const USER_SOURCES = /^(user|conversation)$/i;
const POLICY_SOURCE = /^policy$/i;

/** The authority of the writing session's identity when the write is the user's own words (a
 * user or conversation source that names no other speaker), else null. */
function speaksAsIdentity(access: FactAccess, source: SourceInput, sessionId: string): string | null {
  if (!USER_SOURCES.test(source.type ?? 'user')) return null;
  const who = access.identity(sessionId);
  if (!who?.authority) return null;
  const speaker = source.identity?.trim().toLowerCase();
  if (speaker && speaker !== who.user_name.toLowerCase() && speaker !== who.user_id.toLowerCase()) return null;
  return who.authority;
}

function authorityOf(a: RecognisedAuthority): WriteAuthority {
  return { role: a.role, recognised: a.recognised, by: a.by, origin: a.origin };
}

interface SupersedeChange {
  by: string;
  rule: SupersessionRule | null;
  reason: string | null;
  valid_to: string;
}

// The lookups' SQL is built once: a template literal rebuilt on every call makes the statement
// cache hash a fresh ~700-character string per lookup, several per write.
const BY_ID_SQL = `SELECT ${FACT_COLUMNS} FROM facts f WHERE f.id = ? AND f.partition_id = ?`;
const VALID_BY_LABEL_SQL = `SELECT ${FACT_COLUMNS} FROM facts f WHERE f.partition_id = ? AND f.label = ? ORDER BY f.is_valid DESC, f.ts DESC, f.rid DESC LIMIT 1`;
const VALID_BY_KEY_SQL = `SELECT ${FACT_COLUMNS} FROM facts f WHERE f.partition_id = ? AND f.is_valid = 1 AND f.key = ? ORDER BY +f.ts DESC, f.rid DESC LIMIT 1`;
const VALID_BY_KEY_IN_SCOPE_SQL = `SELECT ${FACT_COLUMNS} FROM facts f WHERE f.partition_id = ? AND f.is_valid = 1 AND f.key = ? AND f.scope = ? AND f.scope_id IS ?
     ORDER BY +f.ts DESC, f.rid DESC LIMIT 1`; // '+': use the key index, not a scan of facts_partition_ts
// INDEXED BY: otherwise the planner walks the partition in ts order to skip the sort, a scan of
// every fact per write. One entity and no exclusions (most writes) take the plainest statement.
const entityCandidatesSql = (oneEntity: boolean, excluding: boolean): string =>
  `SELECT ${FACT_COLUMNS} FROM facts f INDEXED BY facts_partition_entity WHERE f.partition_id = ? AND f.is_valid = 1 AND ${
    oneEntity ? 'f.entity_key = ?' : 'f.entity_key IN (SELECT value FROM json_each(?))'
  }
     AND +f.scope = ? AND +f.scope_id IS ? AND f.key <> ?${excluding ? ' AND f.id NOT IN (SELECT value FROM json_each(?))' : ''} ORDER BY f.ts DESC, f.rid DESC LIMIT ${ENTITY_CANDIDATES}`;
const ENTITY_CANDIDATES_SQL = [
  [entityCandidatesSql(false, false), entityCandidatesSql(false, true)],
  [entityCandidatesSql(true, false), entityCandidatesSql(true, true)],
] as const;
const IDENTITY_SQL = 'SELECT user_name, user_id, authority FROM identities WHERE partition_id = ? AND session_id = ?';
const HISTORY_AFTER_SQL = `SELECT ${FACT_COLUMNS} FROM facts f WHERE f.partition_id = ? AND f.key = ? AND +f.scope = ? AND +f.scope_id IS ?
     AND +f.status <> 'proposal' AND (f.valid_to IS NULL OR f.valid_to > ?)`; // '+': the (partition_id, key) index, not (partition_id, scope)

function byId(ctx: PartitionContext, id: string): FactRow | undefined {
  return stmt<[string, number], FactRow>(ctx.db, BY_ID_SQL).get(id, ctx.partitionId);
}

function validByLabel(ctx: PartitionContext, label: string): FactRow | undefined {
  return stmt<[number, string], FactRow>(ctx.db, VALID_BY_LABEL_SQL).get(ctx.partitionId, label);
}

function validByKey(ctx: PartitionContext, key: string): FactRow | undefined {
  return stmt<[number, string], FactRow>(ctx.db, VALID_BY_KEY_SQL).get(ctx.partitionId, key);
}

function validByKeyInScope(ctx: PartitionContext, key: string, scope: string, scopeId: string | null): FactRow | undefined {
  return stmt<[number, string, string, string | null], FactRow>(ctx.db, VALID_BY_KEY_IN_SCOPE_SQL).get(ctx.partitionId, key, scope, scopeId);
}

function historyAfter(ctx: PartitionContext, key: string, scope: string, scopeId: string | null, at: string): FactRow[] {
  return stmt<[number, string, string, string | null, string], FactRow>(ctx.db, HISTORY_AFTER_SQL).all(ctx.partitionId, key, scope, scopeId, at);
}

/** entityCandidates' query; `excluded` ids (a batch's pending supersessions) are left out. */
function entityCandidates(
  ctx: PartitionContext,
  entities: readonly string[],
  scope: string,
  scopeId: string | null,
  key: string,
  excluded: readonly string[] = [],
): FactRow[] {
  const one = entities.length === 1;
  const params: unknown[] = [ctx.partitionId, one ? entities[0] : JSON.stringify(entities), scope, scopeId, key];
  if (excluded.length > 0) params.push(JSON.stringify(excluded));
  return stmt<unknown[], FactRow>(ctx.db, ENTITY_CANDIDATES_SQL[one ? 1 : 0][excluded.length > 0 ? 1 : 0]).all(params);
}

function identityOf(ctx: PartitionContext, sessionId: string): IdentityAuthority | undefined {
  return stmt<[number, string], IdentityAuthority>(ctx.db, IDENTITY_SQL).get(ctx.partitionId, sessionId);
}

function sqlAccess(ctx: PartitionContext): FactAccess {
  return {
    byId: (id) => byId(ctx, id),
    validByLabel: (label) => validByLabel(ctx, label),
    validByKey: (key) => validByKey(ctx, key),
    validByKeyInScope: (key, scope, scopeId) => validByKeyInScope(ctx, key, scope, scopeId),
    insert: (row) => {
      stmt(ctx.db, INSERT_SQL).run(row);
    },
    supersede: (row, change) => {
      stmt(ctx.db, SUPERSEDE_SQL).run({ id: row.id, partition_id: ctx.partitionId, ...change });
    },
    addEdge: (dependent, dependsOn) => addEdge(ctx, dependent, dependsOn),
    flagDependents: (root, cause) => flagDependents(ctx, root, cause),
    historyAfter: (key, scope, scopeId, at) => historyAfter(ctx, key, scope, scopeId, at),
    setValidTo: (row, validTo) => {
      stmt(ctx.db, 'UPDATE facts SET valid_to = ? WHERE id = ? AND partition_id = ?').run(validTo, row.id, ctx.partitionId);
    },
    entityCandidates: (entities, scope, scopeId, key) => entityCandidates(ctx, entities, scope, scopeId, key),
    identity: (sessionId) => identityOf(ctx, sessionId),
  };
}

function headVia(access: FactAccess, start: FactRow): FactRow {
  let current = start;
  for (let i = 0; i < MAX_CHAIN && current.superseded_by; i++) {
    const next = access.byId(current.superseded_by);
    if (!next) break;
    current = next;
  }
  return current;
}

/** Follows superseded_by pointers to the head of a chain (the fact valid now, if any). */
export function chainHead(ctx: PartitionContext, start: FactRow): FactRow {
  return headVia(sqlAccess(ctx), start);
}

export type RefResolution = { fact: FactRow; via: 'id' | 'label' | 'key' } | undefined;

function resolveVia(access: FactAccess, ref: string): RefResolution {
  const asId = access.byId(ref);
  if (asId) return { fact: asId, via: 'id' };
  const asLabel = access.validByLabel(ref);
  if (asLabel) return { fact: asLabel, via: 'label' };
  const asKey = access.validByKey(ref);
  if (asKey) return { fact: asKey, via: 'key' };
  return undefined;
}

/** Resolves a reference as a fact id, then a source label, then a key, inside the partition. */
export function resolveRef(ctx: PartitionContext, ref: string): RefResolution {
  return resolveVia(sqlAccess(ctx), ref);
}

const INSERT_SQL = `INSERT INTO facts (
  id, partition_id, org_id, label, key, value, source_type, source_identity, source_authority,
  source_turn, source_event, ts, created_at, importance, memory_type, level, scope, scope_id,
  status, is_valid, superseded_by, supersedes, supersession_rule, supersession_reason, valid_to,
  proposal_for, is_constraint, constraint_type, time_sensitive, entity, entity_key
) VALUES (
  @id, @partition_id, @org_id, @label, @key, @value, @source_type, @source_identity, @source_authority,
  @source_turn, @source_event, @ts, @created_at, @importance, @memory_type, @level, @scope, @scope_id,
  @status, @is_valid, @superseded_by, @supersedes, @supersession_rule, @supersession_reason, @valid_to,
  @proposal_for, @is_constraint, @constraint_type, @time_sensitive, @entity, @entity_key
)`;

const INSERT_COLUMNS = [
  'id',
  'partition_id',
  'org_id',
  'label',
  'key',
  'value',
  'source_type',
  'source_identity',
  'source_authority',
  'source_turn',
  'source_event',
  'ts',
  'created_at',
  'importance',
  'memory_type',
  'level',
  'scope',
  'scope_id',
  'status',
  'is_valid',
  'superseded_by',
  'supersedes',
  'supersession_rule',
  'supersession_reason',
  'valid_to',
  'proposal_for',
  'is_constraint',
  'constraint_type',
  'time_sensitive',
  'entity',
  'entity_key',
] as const;
type InsertRow = Record<(typeof INSERT_COLUMNS)[number], string | number | null>;

const SUPERSEDE_SQL = `UPDATE facts SET status = 'superseded', is_valid = 0, superseded_by = @by,
  supersession_rule = @rule, supersession_reason = @reason, valid_to = @valid_to
  WHERE id = @id AND partition_id = @partition_id`;

function later(a: string, b: string): string {
  return a > b ? a : b;
}

// As-of history (factsAsOf, assembly as of a time) reads each fact's window [ts, valid_to). The
// write path keeps the windows of one (key, scope, scope id) from overlapping, so that as of any
// instant a key has at most one value in a scope, as the inference rules intend now:
// - a fact valid from now on occupies [ts, open): every superseded window of its history that
//   reaches past its ts ends there, and one that began at or after it becomes empty (the later
//   write's claim from ts on wins; the superseded target ends the same way, later(ts, target.ts));
// - a late write (temporal rule: older ts on a time-sensitive key) occupies [its ts, the next
//   fact's ts), and the superseded fact whose window held its ts ends at its ts; unless that fact
//   outranks it (a lower authority never overrides a higher one, in the past either), when it
//   gets an empty window.
// Validity now (is_valid, the chain pointers) is not touched: only superseded windows narrow.

/** Ends, at `ts`, the windows of superseded facts of this history that reach past it, for a new
 * fact valid from `ts` on. When it supersedes the head of its own history from a ts at or after
 * the head's, no other window can reach past ts and nothing is read. */
function endHistoryAt(access: FactAccess, key: string, scope: string, scopeId: string | null, ts: string, target: FactRow | undefined): void {
  if (target && target.key === key && target.scope === scope && target.scope_id === scopeId && ts >= target.ts) return;
  for (const r of access.historyAfter(key, scope, scopeId, ts)) {
    if (r.is_valid === 0 && r.status === 'superseded' && r.id !== target?.id) access.setValidTo(r, later(r.ts, ts));
  }
}

/** Places a late write in its history (see above); returns its valid_to and, when it never took
 * effect, the fact that outranked it. */
function placeLateWrite(
  access: FactAccess,
  key: string,
  scope: string,
  scopeId: string | null,
  ts: string,
  rank: number,
  current: FactRow,
): { validTo: string; outranked: FactRow | undefined } {
  let next: FactRow | undefined;
  const holding: FactRow[] = [];
  for (const r of access.historyAfter(key, scope, scopeId, ts)) {
    if (r.ts > ts) {
      const occupies = r.valid_to === null || r.valid_to > r.ts;
      if (occupies && (!next || r.ts < next.ts)) next = r;
    } else if (r.is_valid === 0) {
      holding.push(r);
    }
  }
  const outranked = holding.find((r) => recogniseAuthority(r.source_authority, r.source_type).rank > rank);
  if (outranked) return { validTo: ts, outranked };
  for (const r of holding) access.setValidTo(r, ts);
  return { validTo: next ? next.ts : current.ts, outranked: undefined };
}

export interface WriteOptions {
  /** Who wrote, for the audit log (defaults to the source identity or 'agent'). */
  readonly actor?: string;
  /** Skip supersession inference (used by importers replaying explicitly stated history). */
  readonly inferSupersession?: boolean;
  /** The audit log's reason when the fact's own reason quotes fact text (the audit outlives
   * deleted facts and must never hold their text). */
  readonly auditReason?: string;
  /** The session writing: the user's own words carry the authority of its identity (default
   * "default", whose identity is the partition-level one); another session's is never read. */
  readonly sessionId?: string;
  /** A capability level above the partition's maturity: refused (the default), or kept as a
   * proposal for an administrator to review (consolidation proposes what the tier forbids). */
  readonly aboveTier?: 'refuse' | 'propose';
}

/** Writes one persistent fact. Must run inside a transaction owned by the caller. */
export function writeFact(ctx: PartitionContext, raw: FactWriteInput, options: WriteOptions = {}): WriteResult {
  if (locksNames(ctx.db)) lockNames(ctx.db, writeLockNames(ctx, [raw]));
  return writeVia(ctx, sqlAccess(ctx), raw, options);
}

function keyLockName(ctx: PartitionContext, key: string): string {
  return JSON.stringify([ctx.orgId, ctx.partitionId, 'key', key]);
}

function entityLockName(ctx: PartitionContext, entity: string): string {
  return JSON.stringify([ctx.orgId, ctx.partitionId, 'entity', entity]);
}

/** What the supersession decisions of these writes read, as lock names: each key (and the key a
 * `supersedes` may name), and every entity its lookup reads (among them the one its own row is
 * filed under, which other writes of that entity read). Lenient: an input the write will refuse
 * locks what it names. */
function writeLockNames(ctx: PartitionContext, inputs: readonly FactWriteInput[]): string[] {
  const names: string[] = [];
  for (const raw of inputs as readonly unknown[]) {
    // Unparsed input: what is not an object naming a key locks nothing, and is refused later.
    if (typeof raw !== 'object' || raw === null || typeof (raw as { key?: unknown }).key !== 'string') continue;
    const w = raw as FactWriteInput;
    // Too deep to serialise safely: refused by the parse, so it locks nothing.
    if (nestsDeeperThan(w.value, MAX_VALUE_DEPTH)) continue;
    names.push(keyLockName(ctx, w.key));
    // A `supersedes` ref may name a key: locked up front too, in the same order as the rest.
    if (typeof w.supersedes === 'string' && w.supersedes !== w.key) names.push(keyLockName(ctx, w.supersedes));
    const value = typeof w.value === 'string' ? w.value : JSON.stringify(w.value ?? null);
    const entity = typeof w.entity === 'string' ? w.entity : null;
    for (const e of lookupEntities({ key: w.key, value, entity })) names.push(entityLockName(ctx, e));
  }
  return names;
}

function writeVia(ctx: PartitionContext, access: FactAccess, raw: FactWriteInput, options: WriteOptions): WriteResult {
  const input = parseInput(FactWriteInput, raw, 'fact write');
  const now = ctx.clock.now();
  const ts = input.ts ?? now;
  const value = typeof input.value === 'string' ? input.value : JSON.stringify(input.value);
  const source = input.source ?? { type: 'user' };
  const sourceType = source.type ?? 'user';
  // Without a stated authority, the user's own words carry the authority of the writing
  // session's identity, and a speaker named by a title ("CFO") carries that title's (a policy source is
  // policy whoever wrote it down).
  const identityAuthority = source.authority ? null : speaksAsIdentity(access, source, options.sessionId ?? DEFAULT_SESSION);
  const titledSpeaker =
    !source.authority && !identityAuthority && !POLICY_SOURCE.test(sourceType) && source.identity && recogniseRole(source.identity) ? source.identity : null;
  const authority = source.authority ?? identityAuthority ?? titledSpeaker;
  const ranked = recogniseAuthority(authority, sourceType, identityAuthority ? 'identity' : 'source');
  const entity = input.entity ?? null;
  const memoryType = input.memoryType ?? inferMemoryType(sourceType);
  const scope = input.scope ?? inferScope(value);
  const scopeId = input.scopeId ?? null;
  const isConstraint = input.isConstraint ?? looksLikeConstraint(value, sourceType);
  const constraintType = isConstraint ? (input.constraintType ?? inferConstraintType(`${input.key} ${value}`)) : null;
  const timeSensitive = input.timeSensitive ?? inferTimeSensitive(input.key);

  let level = input.level ?? null;
  let aboveTier: string | null = null;
  if (ctx.kind === 'capability') {
    level = level ?? 'event';
    const maturity = ctx.maturity ?? 'junior';
    if (!levelAllowed(maturity, level) && options.aboveTier === 'propose')
      aboveTier = `a ${maturity} agent may not hold ${level}-level memory; kept as a proposal`;
    else if (!levelAllowed(maturity, level)) {
      throw new StatelensError('LEVEL_NOT_ALLOWED', `A ${maturity} agent may not write ${level}-level capability memory`, { maturity, level });
    }
  } else if (level !== null) {
    throw new StatelensError('INVALID_INPUT', 'Only capability memory carries a level (event, heuristic, strategy)', { level });
  }

  const id = ctx.newId('f');
  const actor = options.actor ?? source.identity ?? 'agent';
  let status: 'active' | 'superseded' | 'proposal' = 'active';
  let target: FactRow | undefined;
  let rule: SupersessionRule | null = null;
  let reason: string | null = null;
  let unresolvedSupersedes: string | null = null;
  let ownSupersededBy: string | null = null;
  let ownValidTo: string | null = null;
  let proposalFor: string | null = null;
  let outcome: WriteResult['outcome'] = 'created';
  /** A scoped write named a global fact: created beside it, the reason says what it shadows,
   * and it is filed under that fact's entity (which is how its scope's reads find what it hides). */
  let shadowing = false;
  let shadowedEntity: string | null = null;

  if (aboveTier !== null) {
    // Nothing is written above the tier: the fact is a proposal that replaces nothing.
    status = 'proposal';
    outcome = 'proposal';
    reason = aboveTier;
  } else if (input.supersedes) {
    let resolved = resolveVia(access, input.supersedes);
    if (resolved && resolved.fact.key !== input.key && locksNames(ctx.db)) {
      // The target is filed under another key, which this write did not lock: lock it now and
      // read the target again, as its writers may have moved on while this one waited.
      const fact = resolved.fact;
      lockNames(ctx.db, [keyLockName(ctx, fact.key), ...(fact.entity_key === null ? [] : [entityLockName(ctx, fact.entity_key)])]);
      resolved = resolveVia(access, input.supersedes);
    }
    if (resolved) {
      target = resolved.fact.status === 'superseded' ? headVia(access, resolved.fact) : resolved.fact;
      if (target.status === 'superseded') target = undefined; // chain ends in a deleted head: nothing valid to replace
      rule = input.rule ?? 'explicit';
      reason = input.reason ?? `named by the source as superseding ${input.supersedes} (resolved by ${resolved.via})`;
      const check = target ? checkNamedTarget(target, { scope, scopeId, authorityText: authority, sourceType, ranked, named: input.supersedes }) : null;
      if (check?.kind === 'proposal') {
        status = 'proposal';
        proposalFor = (target as FactRow).id;
        outcome = 'proposal';
        rule = 'authority';
        reason = check.reason;
        target = undefined;
      } else if (check?.kind === 'shadow') {
        rule = null;
        reason = check.reason;
        shadowing = true;
        shadowedEntity = target ? (target.entity_key ?? entityKey(target.key, null)) : null;
        target = undefined;
      }
    } else {
      unresolvedSupersedes = input.supersedes;
    }
  } else if (options.inferSupersession !== false) {
    const sameKey = access.validByKeyInScope(input.key, scope, scopeId);
    const related = sameKey ? [] : access.entityCandidates(lookupEntities({ key: input.key, value, entity }), scope, scopeId, input.key);
    const decision = decideSupersession(
      { key: input.key, value, ts, sourceType, authorityText: authority, authority: ranked, timeSensitive, entity },
      sameKey,
      related,
    );
    switch (decision.kind) {
      case 'create':
        break;
      case 'duplicate':
        return {
          factId: decision.fact.id,
          outcome: 'duplicate',
          supersededId: null,
          rule: null,
          reason: null,
          authority: authorityOf(ranked),
          unresolvedSupersedes: null,
          unresolvedDependencies: [],
          flagged: [],
        };
      case 'proposal':
        status = 'proposal';
        proposalFor = decision.fact.id;
        outcome = 'proposal';
        rule = decision.rule;
        reason = decision.reason;
        break;
      case 'stale': {
        const current = decision.fact as FactRow;
        status = 'superseded';
        ownSupersededBy = current.id;
        outcome = 'stale';
        rule = 'temporal';
        const late = placeLateWrite(access, input.key, scope, scopeId, ts, ranked.rank, current);
        ownValidTo = late.validTo;
        reason = late.outranked
          ? `arrived late with an older timestamp (${ts}) than the current fact (${current.ts}); ${late.outranked.source_authority ?? late.outranked.source_type} held the key then and outranks it, so it was never in effect`
          : `arrived late with an older timestamp (${ts}) than the current fact (${current.ts}); in the history from its timestamp until the next fact's`;
        if (decision.evidence) reason += `; same entity "${decision.evidence.entity}" (${decision.evidence.kind}: ${decision.evidence.detail})`;
        break;
      }
      case 'supersede':
        target = decision.fact as FactRow;
        rule = decision.rule;
        reason = decision.reason;
        break;
    }
  }

  if (target) outcome = 'superseded';
  if (status === 'active') endHistoryAt(access, input.key, scope, scopeId, ts, target);
  access.insert({
    id,
    partition_id: ctx.partitionId,
    org_id: ctx.orgId,
    label: input.label ?? null,
    key: input.key,
    value,
    source_type: sourceType,
    source_identity: source.identity ?? null,
    source_authority: authority,
    source_turn: source.turnIndex ?? null,
    source_event: source.eventIndex ?? null,
    ts,
    created_at: now,
    importance: input.importance ?? (isConstraint ? DEFAULT_CONSTRAINT_IMPORTANCE : DEFAULT_IMPORTANCE),
    memory_type: memoryType,
    level,
    scope,
    scope_id: scopeId,
    status,
    is_valid: status === 'active' ? 1 : 0,
    superseded_by: ownSupersededBy,
    supersedes: target ? target.id : null,
    supersession_rule: status === 'active' ? null : rule,
    supersession_reason: status === 'active' ? null : reason,
    valid_to: ownValidTo,
    proposal_for: proposalFor,
    is_constraint: isConstraint ? 1 : 0,
    constraint_type: constraintType,
    time_sensitive: timeSensitive ? 1 : 0,
    entity,
    entity_key: shadowedEntity ?? entityKey(input.key, entity),
  });

  const unresolvedDependencies: string[] = [];
  for (const ref of input.dependsOn ?? []) {
    const dep = resolveVia(access, ref);
    if (!dep) unresolvedDependencies.push(ref);
    else access.addEdge(id, dep.fact.id);
  }
  for (const ref of input.derivedFacts ?? []) {
    const derived = resolveVia(access, ref);
    if (!derived) unresolvedDependencies.push(ref);
    else access.addEdge(derived.fact.id, id);
  }

  let flagged: string[] = [];
  if (target) {
    access.supersede(target, { by: id, rule, reason, valid_to: later(ts, target.ts) });
    // Readable on its own: the new version is linked from the cause (its replacement), not named by id.
    flagged = access.flagDependents(target.id, `depends on "${target.key}", which a newer version superseded (${rule})`);
    recordAudit(ctx, {
      actor,
      action: 'supersede',
      targetIds: [target.id, id],
      reason: `${rule}: ${options.auditReason ?? reason ?? ''}`.trim(),
      details: { rule, flagged: flagged.length },
    });
  }

  return {
    factId: id,
    outcome,
    supersededId: target ? target.id : null,
    rule: outcome === 'created' ? null : rule,
    reason: outcome === 'created' && !shadowing ? null : reason,
    authority: authorityOf(ranked),
    unresolvedSupersedes,
    unresolvedDependencies,
    flagged,
  };
}

// Rows per INSERT statement: 32 parameters each stays under SQLite's 32,766 variables.
const BATCH_CHUNKS = [512, 128, 32, 8, 2, 1] as const;

const multiRowSql = new Map<string, string>();

/** Builds (once per shape: the statement cache hashes the text on every use) a multi-row SQL text. */
function memoSql(kind: string, rows: number, build: () => string): string {
  const name = `${kind}:${rows}`;
  let sql = multiRowSql.get(name);
  if (sql === undefined) {
    sql = build();
    multiRowSql.set(name, sql);
  }
  return sql;
}

/** A held row may already be flagged needs_review (see FactWriteBatch.flagDependents). */
const BATCH_INSERT_COLUMNS = [...INSERT_COLUMNS, 'needs_review', 'review_cause', 'review_cause_fact'] as const;

function multiRowInsertSql(rows: number): string {
  return memoSql('insert', rows, () => {
    const tuple = `(${BATCH_INSERT_COLUMNS.map(() => '?').join(', ')})`;
    return `INSERT INTO facts (${BATCH_INSERT_COLUMNS.join(', ')}) VALUES ${Array.from({ length: rows }, () => tuple).join(', ')}`;
  });
}

/** SQLite's BINARY collation (UTF-8 byte order) on ids; code-unit order agrees unless a
 * string holds a surrogate pair or a character above U+D7FF. */
function binaryOrder(a: string, b: string): number {
  if (/[\ud800-\uffff]/.test(a) || /[\ud800-\uffff]/.test(b)) return Buffer.compare(Buffer.from(a), Buffer.from(b));
  return a < b ? -1 : a > b ? 1 : 0;
}

// Rows per supersession UPDATE (5 parameters each).
const UPDATE_CHUNKS = [256, 64, 16, 4, 1] as const;

/** Runs one multi-row statement per chunk of `rows`, largest chunk sizes first (each size's SQL
 * is prepared once and cached), so n rows take a handful of statements instead of n. */
function runChunked<T>(
  db: EngineDb,
  rows: readonly T[],
  sizes: readonly number[],
  sqlFor: (size: number) => string,
  paramsOf: (row: T, params: unknown[]) => void,
  trailing: readonly unknown[] = [],
): void {
  let at = 0;
  for (const size of sizes) {
    if (rows.length - at < size) continue;
    const run = stmt<unknown[]>(db, sqlFor(size));
    while (rows.length - at >= size) {
      const params: unknown[] = [];
      for (let i = at; i < at + size; i++) paramsOf(rows[i] as T, params);
      params.push(...trailing);
      run.run(params);
      at += size;
    }
  }
}

/** SUPERSEDE_SQL for many rows at once: each (id, superseded_by, rule, reason, valid_to) found
 * through the unique id index. */
function multiRowSupersedeSql(rows: number): string {
  return memoSql(
    'supersede',
    rows,
    () => `UPDATE facts SET status = 'superseded', is_valid = 0, superseded_by = v.column2, supersession_rule = v.column3,
  supersession_reason = v.column4, valid_to = v.column5
  FROM (VALUES ${Array.from({ length: rows }, () => '(?, ?, ?, ?, ?)').join(', ')}) AS v
  WHERE facts.id = v.column1 AND facts.partition_id = ?`,
  );
}

// validByKey / validByKeyInScope / validByLabel for a batch whose pending supersessions (ids in
// a JSON array) the database does not show yet.
const VALID_BY_KEY_EXCLUDING_SQL = `SELECT ${FACT_COLUMNS} FROM facts f WHERE f.partition_id = ? AND f.is_valid = 1 AND f.key = ?
  AND f.id NOT IN (SELECT value FROM json_each(?)) ORDER BY +f.ts DESC, f.rid DESC LIMIT 1`;
const VALID_BY_KEY_IN_SCOPE_EXCLUDING_SQL = `SELECT ${FACT_COLUMNS} FROM facts f WHERE f.partition_id = ? AND f.is_valid = 1 AND f.key = ? AND f.scope = ? AND f.scope_id IS ?
  AND f.id NOT IN (SELECT value FROM json_each(?)) ORDER BY +f.ts DESC, f.rid DESC LIMIT 1`;
const BY_LABEL_PENDING_SQL = `SELECT ${FACT_COLUMNS} FROM facts f WHERE f.partition_id = ? AND f.label = ?
  ORDER BY (f.is_valid = 1 AND f.id NOT IN (SELECT value FROM json_each(?))) DESC, f.ts DESC, f.rid DESC LIMIT 1`;
/** A held row's rid until it is inserted: above every rid of the database, in write order. */
const HELD_RID = 2 ** 52;
const ENTITY_IN_DB_SQL = 'SELECT 1 FROM facts INDEXED BY facts_partition_entity WHERE partition_id = ? AND is_valid = 1 AND entity_key = ? LIMIT 1';
const KEY_IN_DB_SQL = 'SELECT 1 FROM facts WHERE partition_id = ? AND key = ? LIMIT 1';

/** Later wins ties: among rows of one batch, later writes; against the database, held rows
 * (they will get the higher rid when inserted). */
function bestHeld(rows: readonly FactRow[] | undefined, validOnly: boolean, match?: (r: FactRow) => boolean): FactRow | undefined {
  if (!rows) return undefined;
  let best: FactRow | undefined;
  for (let i = rows.length - 1; i >= 0; i--) {
    const r = rows[i] as FactRow;
    if (validOnly && r.is_valid !== 1) continue;
    if (match && !match(r)) continue;
    if (!best || r.is_valid > best.is_valid || (r.is_valid === best.is_valid && r.ts > best.ts)) best = r;
  }
  return best;
}

function newerOf(db: FactRow | undefined, held: FactRow | undefined): FactRow | undefined {
  if (!db) return held;
  if (!held) return db;
  if (db.is_valid !== held.is_valid) return db.is_valid > held.is_valid ? db : held;
  return db.ts > held.ts ? db : held;
}

/**
 * Writes many facts into one partition with exactly the outcome of calling writeFact for each
 * in turn, but holds new rows back and inserts them many per statement: a single-row INSERT
 * pays per-statement costs (the full-text trigger flushes its pending terms at every statement,
 * CHECK lists are rebuilt) that dominate ingest. Every lookup sees held rows as if inserted;
 * dependency edges are held with them, and needs_review walks cover held edges and flag held
 * rows in place; supersessions of rows already inserted wait too (see pendingById). Held rows,
 * then pending supersessions, then held edges are written when too many rows are held and at
 * `flush()`, which the caller must run before the transaction ends or anything else reads the
 * facts table.
 */
export class FactWriteBatch {
  private held: FactRow[] = [];
  /** Dependency edges wait with the rows: their foreign keys need both facts inserted. */
  private heldEdges: Array<[string, string]> = [];
  /** The held edges by the fact depended on: dependsOn -> dependents. */
  private readonly heldDependents = new Map<string, string[]>();
  private readonly heldById = new Map<string, FactRow>();
  private readonly heldByLabel = new Map<string, FactRow[]>();
  private readonly heldByKey = new Map<string, FactRow[]>();
  /** Rows already in the database that a write of this batch superseded, as they now read
   * (status, chain pointer, rule, reason and valid_to applied). Their UPDATEs wait for flush,
   * after the held rows they point at are inserted: one multi-row UPDATE instead of one
   * statement each, and no foreign key left dangling in between (while a deferred violation
   * is outstanding, SQLite probes five child indexes on every inserted fact). */
  private readonly pendingById = new Map<string, FactRow>();
  private readonly pendingByKey = new Map<string, FactRow[]>();
  /** Whether the database holds any row of a key, probed once per key until flush (until then
   * only held rows can add one): the lookups of a new key, most writes, skip their queries. */
  private readonly keyInDb = new Map<string, boolean>();
  private readonly entityInDb = new Map<string, boolean>();
  /** Held rows by entity_key, for entityCandidates. */
  private readonly heldByEntity = new Map<string, FactRow[]>();
  /** Each writing session's identity, read once per batch. */
  private readonly identityRows = new Map<string, IdentityAuthority | undefined>();
  private heldSeq = 0;
  private readonly access: FactAccess;

  constructor(
    readonly ctx: PartitionContext,
    private readonly maxHeld = 16_384,
  ) {
    const sql = sqlAccess(ctx);
    this.access = {
      byId: (id) => this.heldById.get(id) ?? this.overlay(sql.byId(id)),
      validByLabel: (label) => newerOf(this.dbByLabel(label), bestHeld(this.heldByLabel.get(label), false)),
      validByKey: (key) => newerOf(this.hasKeyInDb(key) ? this.dbValidByKey(key, null) : undefined, bestHeld(this.heldByKey.get(key), true)),
      validByKeyInScope: (key, scope, scopeId) =>
        newerOf(
          this.hasKeyInDb(key) ? this.dbValidByKey(key, { scope, scopeId }) : undefined,
          bestHeld(this.heldByKey.get(key), true, (r) => r.scope === scope && r.scope_id === scopeId),
        ),
      insert: (row) => this.hold(row),
      supersede: (row, change) => {
        const held = this.heldById.get(row.id);
        // A row of the database: `row` is a fresh object from a lookup, ours to keep as its
        // pending state (a superseded row is never a supersession target again).
        const r = held ?? row;
        r.status = 'superseded';
        r.is_valid = 0;
        r.superseded_by = change.by;
        r.supersession_rule = change.rule;
        r.supersession_reason = change.reason;
        r.valid_to = change.valid_to;
        if (!held) {
          this.pendingById.set(r.id, r);
          push(this.pendingByKey, r.key, r);
        }
      },
      addEdge: (dependent, dependsOn) => {
        if (this.heldById.has(dependent) || this.heldById.has(dependsOn) || this.heldEdges.length > 0) {
          this.heldEdges.push([dependent, dependsOn]);
          push(this.heldDependents, dependsOn, dependent);
        } else {
          sql.addEdge(dependent, dependsOn);
        }
      },
      // With held edges the walk runs here, over them and the database's edges (inserting
      // everything first instead would turn the later supersessions of this batch's rows into
      // UPDATEs, the costliest statement of ingest).
      flagDependents: (root, cause) => {
        if (this.heldEdges.length === 0) return sql.flagDependents(root, cause);
        const ids = this.dependentsOf(root);
        for (const id of ids) {
          const held = this.heldById.get(id);
          if (!held) {
            flagFact(ctx, id, cause, root);
            continue;
          }
          held.review_cause = nextReviewCause(held.needs_review === 1, held.review_cause, cause);
          held.needs_review = 1;
          held.review_cause_fact = root;
        }
        return ids;
      },
      historyAfter: (key, scope, scopeId, at) => {
        // Rows with a pending supersession come from pendingByKey as they now read (the
        // database still has them active, or as a proposal the query leaves out).
        let rows = this.hasKeyInDb(key) ? sql.historyAfter(key, scope, scopeId, at) : [];
        // Only rows of this key can be pending (pendingByKey holds them as they now read).
        if (this.pendingByKey.has(key)) rows = rows.filter((r) => !this.pendingById.has(r.id));
        const inHistory = (r: FactRow): boolean =>
          r.scope === scope && r.scope_id === scopeId && r.status !== 'proposal' && (r.valid_to === null || r.valid_to > at);
        for (const r of this.pendingByKey.get(key) ?? []) if (inHistory(r)) rows.push(r);
        for (const r of this.heldByKey.get(key) ?? []) if (inHistory(r)) rows.push(r);
        return rows;
      },
      setValidTo: (row, validTo) => {
        const kept = this.heldById.get(row.id) ?? this.pendingById.get(row.id);
        if (kept) kept.valid_to = validTo;
        else sql.setValidTo(row, validTo);
      },
      entityCandidates: (entities, scope, scopeId, key) => this.entityCandidates(entities, scope, scopeId, key),
      identity: (sessionId) => {
        if (!this.identityRows.has(sessionId)) this.identityRows.set(sessionId, identityOf(ctx, sessionId));
        return this.identityRows.get(sessionId);
      },
    };
  }

  /** The database's candidates (its order; rows this batch superseded left out by the query)
   * and the held ones, merged in the same order: held rows were written after every database
   * row, so their rids (HELD_RID) sort after the database's. */
  private entityCandidates(entities: readonly string[], scope: string, scopeId: string | null, key: string): FactRow[] {
    let rows = entities.some((e) => this.hasEntityInDb(e)) ? entityCandidates(this.ctx, entities, scope, scopeId, key) : [];
    if (this.pendingById.size > 0 && rows.some((r) => this.pendingById.has(r.id))) {
      rows = entityCandidates(this.ctx, entities, scope, scopeId, key, [...this.pendingById.keys()]);
    }
    const held: FactRow[] = [];
    for (const e of new Set(entities)) {
      for (const r of this.heldByEntity.get(e) ?? []) if (r.is_valid === 1 && r.scope === scope && r.scope_id === scopeId && r.key !== key) held.push(r);
    }
    if (held.length === 0) return rows;
    return [...rows, ...held].sort((a, b) => (a.ts === b.ts ? b.rid - a.rid : a.ts < b.ts ? 1 : -1)).slice(0, ENTITY_CANDIDATES);
  }

  get pending(): number {
    return this.held.length;
  }

  /** Whether the database holds a valid row filed under an entity, probed once per entity until
   * flush (only held rows can add one; pending supersessions only take rows away). */
  private hasEntityInDb(entity: string): boolean {
    let has = this.entityInDb.get(entity);
    if (has === undefined) {
      has = stmt<[number, string], number>(this.ctx.db, ENTITY_IN_DB_SQL).pluck().get(this.ctx.partitionId, entity) !== undefined;
      this.entityInDb.set(entity, has);
    }
    return has;
  }

  private hasKeyInDb(key: string): boolean {
    let has = this.keyInDb.get(key);
    if (has === undefined) {
      has = stmt<[number, string], number>(this.ctx.db, KEY_IN_DB_SQL).pluck().get(this.ctx.partitionId, key) !== undefined;
      this.keyInDb.set(key, has);
    }
    return has;
  }

  /** transitiveDependents(root) over the database's edges and the held ones, in the same order:
   * the database walks breadth first (its recursive CTE keeps a FIFO queue, UNION adds each
   * fact once) and reads each fact's dependents from fact_edges_depends_on, in id order. */
  private dependentsOf(root: string): string[] {
    const children = (id: string): string[] => {
      const inDb = this.heldById.has(id) ? [] : derivedFactsOf(this.ctx, id); // a held fact has no edge in the database
      const held = this.heldDependents.get(id);
      if (!held) return inDb;
      const all = new Set(inDb);
      for (const d of held) if (d !== id) all.add(d); // addEdge drops self-edges
      return [...all].sort(binaryOrder);
    };
    const queue = children(root);
    const seen = new Set(queue);
    for (let i = 0; i < queue.length; i++) {
      for (const c of children(queue[i] as string)) {
        if (!seen.has(c)) {
          seen.add(c);
          queue.push(c);
        }
      }
    }
    return queue.filter((id) => id !== root);
  }

  /** A row read from the database, as it reads with this batch's pending supersession. */
  private overlay(row: FactRow | undefined): FactRow | undefined {
    const p = row && this.pendingById.get(row.id);
    if (!row || !p) return row;
    row.status = p.status;
    row.is_valid = p.is_valid;
    row.superseded_by = p.superseded_by;
    row.supersession_rule = p.supersession_rule;
    row.supersession_reason = p.supersession_reason;
    row.valid_to = p.valid_to;
    return row;
  }

  /** The current database row of a key (in a scope), leaving out rows this batch superseded:
   * the query skips them when the key has any. */
  private dbValidByKey(key: string, scoped: { scope: string; scopeId: string | null } | null): FactRow | undefined {
    const pending = this.pendingByKey.get(key);
    if (!pending) return scoped ? validByKeyInScope(this.ctx, key, scoped.scope, scoped.scopeId) : validByKey(this.ctx, key);
    const excluded = JSON.stringify(pending.map((r) => r.id));
    return scoped
      ? stmt<[number, string, string, string | null, string], FactRow>(this.ctx.db, VALID_BY_KEY_IN_SCOPE_EXCLUDING_SQL).get(
          this.ctx.partitionId,
          key,
          scoped.scope,
          scoped.scopeId,
          excluded,
        )
      : stmt<[number, string, string], FactRow>(this.ctx.db, VALID_BY_KEY_EXCLUDING_SQL).get(this.ctx.partitionId, key, excluded);
  }

  /** validByLabel with this batch's pending supersessions applied: when the first row is one
   * of them, the query orders by validity as it now reads. */
  private dbByLabel(label: string): FactRow | undefined {
    const first = validByLabel(this.ctx, label);
    if (!first || !this.pendingById.has(first.id)) return first;
    const row = stmt<[number, string, string], FactRow>(this.ctx.db, BY_LABEL_PENDING_SQL).get(
      this.ctx.partitionId,
      label,
      JSON.stringify([...this.pendingById.keys()]),
    );
    return this.overlay(row);
  }

  write(input: FactWriteInput, options: WriteOptions = {}): WriteResult {
    const result = writeVia(this.ctx, this.access, input, options);
    if (this.held.length >= this.maxHeld) this.flush();
    return result;
  }

  /** Inserts every held row, in write order. */
  flush(): void {
    runChunked(this.ctx.db, this.held, BATCH_CHUNKS, multiRowInsertSql, (row, params) => {
      const r = row as unknown as Record<string, unknown>;
      for (const c of BATCH_INSERT_COLUMNS) params.push(r[c]);
    });
    this.flushSupersessions();
    for (const [dependent, dependsOn] of this.heldEdges) addEdge(this.ctx, dependent, dependsOn);
    this.held = [];
    this.heldEdges = [];
    this.heldDependents.clear();
    this.heldById.clear();
    this.heldByLabel.clear();
    this.heldByKey.clear();
    this.heldByEntity.clear();
    this.entityInDb.clear();
    this.keyInDb.clear();
  }

  /** Applies the pending supersessions of database rows, many per UPDATE. */
  private flushSupersessions(): void {
    runChunked(
      this.ctx.db,
      [...this.pendingById.values()],
      UPDATE_CHUNKS,
      multiRowSupersedeSql,
      (r, params) => params.push(r.id, r.superseded_by, r.supersession_rule, r.supersession_reason, r.valid_to),
      [this.ctx.partitionId],
    );
    this.pendingById.clear();
    this.pendingByKey.clear();
  }

  private hold(row: InsertRow): void {
    // Completed in place: the row literal is ours, and a spread copy of ~35 keys is slow.
    const r = row as unknown as FactRow;
    r.rid = HELD_RID + this.heldSeq++;
    r.last_accessed_at = null;
    r.access_count = 0;
    r.needs_review = 0;
    r.review_cause = null;
    r.review_cause_fact = null;
    this.held.push(r);
    this.heldById.set(r.id, r);
    if (r.label !== null) push(this.heldByLabel, r.label, r);
    push(this.heldByKey, r.key, r);
    if (r.entity_key !== null) push(this.heldByEntity, r.entity_key, r);
  }
}

function push<V>(map: Map<string, V[]>, key: string, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/** writeFact for each input in turn (same results), inserted in multi-row statements. Must
 * run inside a transaction owned by the caller. */
export function writeFactsBatched(ctx: PartitionContext, inputs: readonly FactWriteInput[], options: WriteOptions = {}): WriteResult[] {
  if (inputs.length <= 1) return inputs.map((i) => writeFact(ctx, i, options));
  // Every name the batch reads, locked at once in one order before its first read.
  if (locksNames(ctx.db)) lockNames(ctx.db, writeLockNames(ctx, inputs));
  const batch = new FactWriteBatch(ctx);
  const results = inputs.map((i) => batch.write(i, options));
  batch.flush();
  return results;
}
