// Provenance bookkeeping shared by every strategy: why a fact cannot be used at all (superseded,
// proposal, not yet established, out of scope), and the final list in which every fact, item and
// document considered is either included (with rank, score, section, span) or excluded (reason).
// Complete provenance lists every fact of the partition, so its last step (the sweep) is written
// for a million rows: raw rows read in pages, one entry object each, no per-fact keys or copies.
import type { AssemblyRequest, ExcludedProvenance, ExclusionReason, IncludedProvenance, ProvenanceEntry, ProvenanceKind } from '../../../shared/assembly';
import type { PartitionContext } from '../context';
import { allFactPages, sessionItems, SweepCode, type LeanFact, type SweepRow, type TimeView, type WorkingRow } from './source';

export interface Exclusion {
  readonly reason: ExclusionReason;
  readonly detail?: string;
}

/** Why a fact can never be in this assembly, or undefined when it is eligible. */
export function ineligible(r: SweepRow, view: TimeView, req: Pick<AssemblyRequest, 'sessionId' | 'taskId'>): Exclusion | undefined {
  const code = r[2];
  if (code === null) return undefined;
  const detail = r[3];
  switch (code) {
    case SweepCode.Proposal:
      return { reason: 'superseded', detail: `proposal${detail ? ` against ${detail}` : ''}, not adopted (lower authority)` };
    case SweepCode.Future:
      return { reason: 'future', detail: `established ${detail}, after ${view.asOf}` };
    case SweepCode.Superseded:
      return { reason: 'superseded', detail: detail ? `superseded by ${detail}` : 'no longer valid' };
    case SweepCode.SessionScoped:
      return scopeExclusion({ scope: 'session', scope_id: detail }, req);
    case SweepCode.TaskScoped:
      return scopeExclusion({ scope: 'task', scope_id: detail }, req);
    case SweepCode.Withheld:
      return permissionExclusion(detail ?? 'another audience');
  }
}

/** Why text labelled for an audience its reader is outside is out. */
export function permissionExclusion(audience: string): Exclusion {
  return { reason: 'permission', detail: `restricted to ${audience}` };
}

/** The session's working items a strategy may use; the withheld ones are logged as excluded for
 * permission here, so no strategy handles them. */
export function readableItems(ctx: PartitionContext, view: TimeView, sessionId: string, log: ProvenanceLog): WorkingRow[] {
  const { items, withheld } = sessionItems(ctx, view, sessionId);
  for (const { item, audience } of withheld) log.exclude('working_item', item.id, item.key, permissionExclusion(audience));
  return items;
}

/** Why a fact is out of the request's scope: another session's or task's, or a global fact a
 * scoped write of this session or task shadows (`shadowed`, from shadowedInView). */
export function scopeExclusion(
  f: Pick<LeanFact, 'scope' | 'scope_id'> & { readonly id?: string },
  req: Pick<AssemblyRequest, 'sessionId' | 'taskId'>,
  shadowed?: ReadonlyMap<string, string>,
): Exclusion | undefined {
  const shadow = f.id === undefined ? undefined : shadowed?.get(f.id);
  if (shadow !== undefined) return { reason: 'scope', detail: `shadowed in this view by ${shadow}` };
  if (f.scope === 'session' && f.scope_id !== null && f.scope_id !== req.sessionId)
    return { reason: 'scope', detail: `session ${f.scope_id}, not ${req.sessionId}` };
  if (f.scope === 'task' && (req.taskId === undefined || (f.scope_id !== null && f.scope_id !== req.taskId))) {
    return {
      reason: 'scope',
      detail: req.taskId === undefined ? `task-local (${f.scope_id ?? 'unnamed task'}), no task given` : `task ${f.scope_id}, not ${req.taskId}`,
    };
  }
  return undefined;
}

function excludedEntry(kind: ProvenanceKind, id: string, label: string, why: Exclusion): ExcludedProvenance {
  const entry: ExcludedProvenance = { kind, id, label, status: 'excluded', reason: why.reason };
  if (why.detail !== undefined) entry.detail = why.detail;
  return entry;
}

/** Collects exclusions keyed by kind+id; the first reason recorded for an item wins. */
export class ProvenanceLog {
  private readonly seen: Record<ProvenanceKind, Set<string>> = { fact: new Set(), working_item: new Set(), document: new Set() };
  /** Exclusions in the order first recorded. */
  private readonly logged: ExcludedProvenance[] = [];
  /** Facts the sweep found neither included nor logged (after every logged entry). */
  private readonly swept: ExcludedProvenance[] = [];
  private readonly sweptCounts: Partial<Record<ExclusionReason, number>> = {};

  exclude(kind: ProvenanceKind, id: string, label: string, why: Exclusion): void {
    const seen = this.seen[kind];
    if (seen.has(id)) return;
    seen.add(id);
    this.logged.push(excludedEntry(kind, id, label, why));
  }

  has(kind: ProvenanceKind, id: string): boolean {
    return this.seen[kind].has(id);
  }

  /**
   * The sweep of complete provenance: every fact of the partition, oldest first, that is neither
   * included nor already logged, with why it is out (`ineligible`, else the strategy's `unplaced`).
   */
  sweepFacts(
    ctx: PartitionContext,
    view: TimeView,
    req: Pick<AssemblyRequest, 'sessionId' | 'taskId'>,
    included: ReadonlySet<string>,
    unplaced: (id: string) => Exclusion,
  ): void {
    const logged = this.seen.fact;
    const counts = this.sweptCounts;
    for (const page of allFactPages(ctx, view)) {
      for (const r of page) {
        const id = r[0];
        if (included.has(id) || logged.has(id)) continue;
        const why = ineligible(r, view, req) ?? unplaced(id);
        this.swept.push(excludedEntry('fact', id, r[1], why));
        counts[why.reason] = (counts[why.reason] ?? 0) + 1;
      }
    }
  }

  /** Included entries first (by rank), then exclusions; an included item is never also excluded. */
  entries(
    included: readonly IncludedProvenance[],
    complete: boolean,
  ): { provenance: ProvenanceEntry[]; counts: { included: number; excluded: Record<string, number> } } {
    const inc: Record<ProvenanceKind, Set<string>> = { fact: new Set(), working_item: new Set(), document: new Set() };
    for (const i of included) inc[i.kind].add(i.id);
    const excluded = this.logged.filter((e) => !inc[e.kind].has(e.id));
    const counts: Record<string, number> = {};
    for (const e of excluded) counts[e.reason] = (counts[e.reason] ?? 0) + 1;
    for (const [reason, n] of Object.entries(this.sweptCounts)) counts[reason] = (counts[reason] ?? 0) + n;
    return {
      provenance: complete ? ([] as ProvenanceEntry[]).concat(included, excluded, this.swept) : [...included],
      counts: { included: included.length, excluded: counts },
    };
  }
}
