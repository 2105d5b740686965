// Writes a ForeignPlan (see plan.ts) through the engine's one write path, in ONE transaction: a
// problem anywhere rolls everything back. Each fact keeps its provenance (its source system as
// the source type, the writer as the identity, the source's id as the label, and an `import`
// audit entry with the rest); a version the source replaced is superseded by the next one.
import { formatDesignation } from '../../ingest/designation';
import { StatelensError, isStatelensError } from '../../../../shared/errors';
import { recordAudit } from '../../audit/audit';
import { stmt } from '../../db/statements';
import type { PartitionHandle } from '../../partition-handle';
import type { Store } from '../../store';
import type { ForeignPartitionPlan, ForeignPlan, ForeignSystem, Provenance, SkippedRecord } from './plan';

export interface ForeignPartitionSummary {
  readonly partition: string;
  readonly partitionId: number;
  facts: number;
  supersessions: number;
  deletions: number;
  turns: number;
}

export interface ForeignImportSummary {
  readonly system: ForeignSystem;
  readonly sourceName: string;
  readonly partitions: ForeignPartitionSummary[];
  /** Facts stored (a version equal to the current one is a duplicate, not stored again). */
  facts: number;
  supersessions: number;
  duplicates: number;
  /** Records the source had deleted, recorded as deletions in the audit. */
  deletions: number;
  turns: number;
  dependencyEdges: number;
  readonly skipped: readonly SkippedRecord[];
  readonly notes: readonly SkippedRecord[];
}

export interface ForeignImportOptions {
  /** Called as records are written: (done, total). */
  readonly onProgress?: (done: number, total: number) => void;
  /** Adding to an earlier import of the same source (a watched file): the ids of the facts it
   * already holds, by ref, which new facts may depend on. The re-import refusal is lifted. */
  readonly resume?: ReadonlyMap<string, string>;
}

/** Provenance entries per audit row: a fact's audit lists the row that imported it. */
const AUDIT_CHUNK = 500;

export function applyForeignPlan(store: Store, plan: ForeignPlan, options: ForeignImportOptions = {}): ForeignImportSummary {
  const total = plan.partitions.reduce((n, p) => n + p.facts.length + p.deletions.length + p.turns.length, 0);
  if (total === 0) {
    const why = plan.skipped.length > 0 ? `: ${plan.skipped.length} records were left out (first: ${plan.skipped[0]?.where}: ${plan.skipped[0]?.reason})` : '';
    throw new StatelensError('IMPORT_FAILED', `${plan.sourceName} holds no ${plan.system} memory to import${why}`, { skipped: plan.skipped.slice(0, 100) });
  }
  const summary: ForeignImportSummary = {
    system: plan.system,
    sourceName: plan.sourceName,
    partitions: [],
    facts: 0,
    supersessions: 0,
    duplicates: 0,
    deletions: 0,
    turns: 0,
    dependencyEdges: 0,
    skipped: plan.skipped,
    notes: plan.notes,
  };
  const partitionIds: number[] = [];
  let done = 0;
  const step = (): void => {
    done++;
    if (done % 100 === 0 || done === total) options.onProgress?.(done, total);
  };
  store.write(partitionIds, `import ${plan.system}`, () => {
    for (const p of plan.partitions) {
      const label = formatDesignation(p.partition);
      try {
        const handle = store.scope(p.partition, { create: true });
        if (!options.resume) refuseReimport(handle, plan.system, label);
        partitionIds.push(handle.id);
        const s: ForeignPartitionSummary = { partition: label, partitionId: handle.id, facts: 0, supersessions: 0, deletions: 0, turns: 0 };
        summary.partitions.push(s);
        writePartition(handle, plan, p, s, summary, step, options.resume);
      } catch (e) {
        if (isStatelensError(e) && e.code === 'IMPORT_FAILED') throw e;
        throw new StatelensError('IMPORT_FAILED', `${plan.sourceName} (${label}): ${e instanceof Error ? e.message : String(e)}; nothing was imported`, {
          partition: label,
          ...(isStatelensError(e) ? { cause: e.code } : {}),
        });
      }
    }
  });
  return summary;
}

/** Importing the same source twice into one partition would double every memory. */
function refuseReimport(handle: PartitionHandle, system: ForeignSystem, label: string): void {
  const found = stmt<[number, string], { n: number }>(handle.ctx.db, 'SELECT 1 AS n FROM facts WHERE partition_id = ? AND source_type = ? LIMIT 1').get(
    handle.id,
    system,
  );
  if (found) throw new StatelensError('CONFLICT', `${label} already holds memory imported from ${system}; import into a new database or another org`);
}

function writePartition(
  handle: PartitionHandle,
  plan: ForeignPlan,
  p: ForeignPartitionPlan,
  s: ForeignPartitionSummary,
  summary: ForeignImportSummary,
  step: () => void,
  resume: ReadonlyMap<string, string> | undefined,
): void {
  const actor = `${plan.system} import`;
  const idOf = new Map<string, string>(resume);
  const origins: Array<[string, Provenance]> = [];
  for (const f of p.facts) {
    const supersedes = f.supersedes ? idOf.get(f.supersedes) : undefined;
    const dependsOn = (f.dependsOn ?? []).map((ref) => idOf.get(ref)).filter((id): id is string => id !== undefined);
    let result;
    try {
      result = handle.writeFact({
        label: f.ref.slice(0, 500),
        key: f.key,
        value: f.value,
        source: { type: plan.system, identity: f.identity ? f.identity.slice(0, 200) : null },
        ...(f.ts ? { ts: f.ts } : {}),
        ...(f.session ? { scope: 'session' as const, scopeId: f.session.slice(0, 200) } : {}),
        ...(supersedes ? { supersedes, rule: 'explicit' as const, reason: f.reason ?? `${plan.system}: a later version of ${f.provenance.sourceId}` } : {}),
        ...(dependsOn.length > 0 ? { dependsOn } : {}),
      });
    } catch (e) {
      throw new StatelensError(
        'IMPORT_FAILED',
        `${plan.sourceName} ${f.provenance.where}: ${e instanceof Error ? e.message : String(e)}; nothing was imported`,
        {
          where: f.provenance.where,
          ...(isStatelensError(e) ? { cause: e.code } : {}),
        },
      );
    }
    idOf.set(f.ref, result.factId);
    if (result.outcome === 'duplicate') summary.duplicates++;
    else {
      s.facts++;
      summary.facts++;
      origins.push([result.factId, f.provenance]);
    }
    if (result.supersededId) {
      s.supersessions++;
      summary.supersessions++;
    }
    summary.dependencyEdges += dependsOn.length - result.unresolvedDependencies.length;
    step();
  }
  for (let i = 0; i < origins.length; i += AUDIT_CHUNK) {
    const chunk = origins.slice(i, i + AUDIT_CHUNK);
    recordAudit(handle.ctx, {
      actor,
      action: 'import',
      targetIds: chunk.map(([id]) => id),
      reason: `imported from ${plan.system} (${plan.sourceName})`,
      details: { system: plan.system, sourceName: plan.sourceName, origins: Object.fromEntries(chunk) },
    });
  }
  for (const d of p.deletions) {
    recordAudit(handle.ctx, {
      actor: d.provenance.actor ? d.provenance.actor.slice(0, 200) : actor,
      action: 'delete',
      targetIds: [`${plan.system}:${d.provenance.sourceId}`],
      reason: `deleted in ${plan.system} before the import (${d.versions} version${d.versions === 1 ? '' : 's'}); its text is not imported`,
      details: { system: plan.system, sourceName: plan.sourceName, deletedAt: d.deletedAt ?? null, versions: d.versions, origin: d.provenance },
    });
    s.deletions++;
    summary.deletions++;
    step();
  }
  const sessions = new Map<string, ForeignPartitionPlan['turns']>();
  for (const t of p.turns) sessions.set(t.session, [...(sessions.get(t.session) ?? []), t]);
  for (const [session, turns] of sessions) {
    handle.recordTurns(
      session,
      turns.map((t) => ({ speaker: t.speaker, text: t.text, ...(t.ts ? { ts: t.ts } : {}) })),
      { actor },
    );
    s.turns += turns.length;
    summary.turns += turns.length;
    for (let i = 0; i < turns.length; i++) step();
  }
}
