// A consolidation run over one capability partition: events cluster into heuristics and
// heuristics into strategies (as facts where the maturity allows the level, else as proposals
// for review), and stale superseded events are archived. Planned read-only; applied through the
// normal write path in one transaction with one audit entry.
import { createHash } from 'node:crypto';
import type { CapabilityLevel } from '../../../shared/domain';
import { StatelensError } from '../../../shared/errors';
import { recordAudit } from '../audit/audit';
import type { PartitionContext } from '../context';
import { stmt } from '../db/statements';
import { CONSOLIDATION_SOURCE, flagFact } from '../facts/dependencies';
import { levelAllowed } from '../facts/inference';
import { writeFact } from '../facts/write';
import { clusterMemories, DEFAULT_CLUSTER_PARAMS, patternText, type ClusterInput, type ClusterParams } from './cluster';

export interface ConsolidateParams extends ClusterParams {
  /** Superseded events older than this many days (and never accessed, low in importance) are archived. */
  readonly pruneAgeDays: number;
  /** "Low in importance": below this. */
  readonly pruneImportance: number;
}

export const DEFAULT_CONSOLIDATE_PARAMS: ConsolidateParams = { ...DEFAULT_CLUSTER_PARAMS, pruneAgeDays: 90, pruneImportance: 0.5 };

export interface PlannedAbstraction {
  readonly level: Exclude<CapabilityLevel, 'event'>;
  /** The entity or key stem the cluster shares (the abstraction is filed under it). */
  readonly stem: string;
  /** Deterministic from the members: the same cluster always has the same key (idempotence). */
  readonly key: string;
  readonly value: string;
  /** Member fact ids, or for strategies over heuristics planned in the same run, their keys. */
  readonly from: readonly string[];
  /** fact: written as a fact; proposal: the tier forbids the level; existing: an earlier run wrote it. */
  readonly outcome: 'fact' | 'proposal' | 'existing';
  /** The written (or earlier) fact's id; null in a dry run for what would be written. */
  readonly id: string | null;
}

export interface ConsolidationReport {
  readonly partitionId: number;
  readonly dryRun: boolean;
  readonly params: ConsolidateParams;
  readonly abstractions: readonly PlannedAbstraction[];
  /** Events archived (or, in a dry run, that would be). */
  readonly archived: readonly string[];
  /** The audit entry of an applied run; null in a dry run. */
  readonly auditId: number | null;
}

/** The review cause a proposal above the tier carries. */
export const ABOVE_TIER_CAUSE = 'proposed by consolidation above the partition maturity: an administrator decides';
const DAY_MS = 86_400_000;

interface MemoryRow {
  id: string;
  key: string;
  value: string;
  entity_key: string | null;
}

const ACTIVE_AT_LEVEL = `SELECT id, key, value, entity_key FROM facts
  WHERE partition_id = ? AND is_valid = 1 AND level = ? ORDER BY ts, rid`;
const BY_KEY = `SELECT id FROM facts WHERE partition_id = ? AND key = ? AND status <> 'superseded' ORDER BY rid LIMIT 1`;
const PRUNABLE = `SELECT id FROM facts WHERE partition_id = ? AND status = 'superseded' AND level = 'event'
  AND access_count = 0 AND last_accessed_at IS NULL AND importance < ? AND ts < ? AND archived_at IS NULL ORDER BY ts, rid`;

export function validateParams(p: ConsolidateParams): void {
  if (!Number.isInteger(p.minCluster) || p.minCluster < 2)
    throw new StatelensError('INVALID_INPUT', `the minimum cluster size must be an integer of at least 2; got ${p.minCluster}`);
  if (!(p.similarity > 0 && p.similarity <= 1)) throw new StatelensError('INVALID_INPUT', `the similarity must be above 0 and at most 1; got ${p.similarity}`);
  if (!(p.pruneAgeDays >= 0)) throw new StatelensError('INVALID_INPUT', `the prune age must be a number of days, 0 or more; got ${p.pruneAgeDays}`);
  if (!(p.pruneImportance >= 0)) throw new StatelensError('INVALID_INPUT', `the prune importance must be 0 or more; got ${p.pruneImportance}`);
}

function abstractionKey(level: string, stem: string, from: readonly string[]): string {
  const slug = stem.replace(/[^a-z0-9]+/gi, '_').toLowerCase() || 'memory';
  const hash = createHash('sha256')
    .update([...from].sort().join('\n'))
    .digest('hex')
    .slice(0, 12);
  return `consolidated.${level}.${slug}.${hash}`;
}

function existingId(ctx: PartitionContext, key: string): string | null {
  return stmt<[number, string], string>(ctx.db, BY_KEY).pluck().get(ctx.partitionId, key) ?? null;
}

function plan(ctx: PartitionContext, level: 'heuristic' | 'strategy', members: readonly ClusterInput[], p: ConsolidateParams): PlannedAbstraction[] {
  const allowed = levelAllowed(ctx.maturity ?? 'junior', level);
  return clusterMemories(members, p).map((c) => {
    const key = abstractionKey(level, c.stem, c.ids);
    const id = existingId(ctx, key);
    return {
      level,
      stem: c.stem,
      key,
      value: patternText(c, level === 'heuristic' ? 'event' : 'heuristic'),
      from: c.ids,
      outcome: id ? 'existing' : allowed ? 'fact' : 'proposal',
      id,
    };
  });
}

function activeAt(ctx: PartitionContext, level: CapabilityLevel): ClusterInput[] {
  return stmt<[number, string], MemoryRow>(ctx.db, ACTIVE_AT_LEVEL)
    .all(ctx.partitionId, level)
    .map((r) => ({ id: r.id, key: r.key, value: r.value, entityKey: r.entity_key }));
}

/** What a run would do, read-only: the clusters of events, of heuristics (those in the store and
 * those this run writes as facts), and the events to archive. */
export function planConsolidation(ctx: PartitionContext, p: ConsolidateParams = DEFAULT_CONSOLIDATE_PARAMS): Omit<ConsolidationReport, 'dryRun' | 'auditId'> {
  validateParams(p);
  if (ctx.kind !== 'capability') throw new StatelensError('PARTITION_MISMATCH', 'Only capability partitions are consolidated');
  const heuristics = plan(ctx, 'heuristic', activeAt(ctx, 'event'), p);
  // A heuristic this run writes as a fact takes part as its key (resolved when written).
  const fresh = heuristics.filter((h) => h.outcome === 'fact').map((h) => ({ id: h.key, key: h.key, value: h.value, entityKey: h.stem }));
  const strategies = plan(ctx, 'strategy', [...activeAt(ctx, 'heuristic'), ...fresh], p);
  const cutoff = new Date(Date.parse(ctx.clock.now()) - p.pruneAgeDays * DAY_MS).toISOString();
  const archived = stmt<[number, number, string], string>(ctx.db, PRUNABLE).pluck().all(ctx.partitionId, p.pruneImportance, cutoff);
  return { partitionId: ctx.partitionId, params: p, abstractions: [...heuristics, ...strategies], archived };
}

/** Applies a plan. Must run inside a transaction owned by the caller (the partition handle). */
export function applyConsolidation(ctx: PartitionContext, p: ConsolidateParams, actor: string): ConsolidationReport {
  const planned = planConsolidation(ctx, p);
  const abstractions = planned.abstractions.map((a): PlannedAbstraction => {
    if (a.outcome === 'existing') return a;
    const r = writeFact(
      ctx,
      {
        key: a.key,
        value: a.value,
        level: a.level,
        memoryType: 'capability',
        entity: a.stem,
        source: { type: CONSOLIDATION_SOURCE, identity: actor },
        dependsOn: [...a.from],
      },
      { actor, aboveTier: 'propose', inferSupersession: false, auditReason: 'consolidation' },
    );
    if (a.outcome === 'proposal') flagFact(ctx, r.factId, ABOVE_TIER_CAUSE, null);
    return { ...a, id: r.factId };
  });
  archiveFacts(ctx, planned.archived);
  const auditId = recordAudit(ctx, {
    actor,
    action: 'consolidate',
    targetIds: [...abstractions.filter((a) => a.outcome !== 'existing').map((a) => a.id as string), ...planned.archived],
    details: {
      params: p,
      heuristics: count(abstractions, 'heuristic'),
      strategies: count(abstractions, 'strategy'),
      proposals: abstractions.filter((a) => a.outcome === 'proposal').length,
      existing: abstractions.filter((a) => a.outcome === 'existing').length,
      archived: planned.archived,
    },
  });
  return { ...planned, abstractions, dryRun: false, auditId };
}

function count(as: readonly PlannedAbstraction[], level: PlannedAbstraction['level']): number {
  return as.filter((a) => a.level === level && a.outcome === 'fact').length;
}

function archiveFacts(ctx: PartitionContext, ids: readonly string[]): void {
  const at = ctx.clock.now();
  for (const id of ids) stmt(ctx.db, 'UPDATE facts SET archived_at = ? WHERE id = ? AND partition_id = ? AND archived_at IS NULL').run(at, id, ctx.partitionId);
}
