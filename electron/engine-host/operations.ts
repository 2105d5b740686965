// What the engine worker can do: one operation per engine-backed contract channel (same parsed
// input, same output) plus the host operations the handlers combine with native dialogs
// (open a path main chose, export to a path main chose). Runs inside the worker thread only.
import { MAX_LISTED, MAX_SEARCH_PARTITIONS, type ChannelOutput, type EngineChannel, type ParsedInput, type Progress } from '../../shared/contract';
import { StatelensError } from '../../shared/errors';
import type { ExportRequest, ExportSummary } from '../../shared/snapshot';
import { exportStore } from '../engine/snapshot/export';
import { applyForeignPlan, type ForeignImportSummary } from '../engine/import/foreign/apply';
import { DEFAULT_IMPORT_ORG, planForeignFile } from '../engine/import/foreign/from-file';
import type { ForeignSystem } from '../engine/import/foreign/plan';
import type { EngineSession, OpenDbInfo, OpenRequest, OpenServerRequest } from './engine-session';

/** Handed to every operation: progress reporting and cancellation of long work. */
export interface OpContext {
  readonly operationId: string | undefined;
  progress(operation: Progress['operation'], phase: string, done: number, total: number | null): void;
  /** Aborted when the caller cancels (export.cancel); long operations check it between chunks. */
  readonly signal: AbortSignal;
  throwIfCancelled(): void;
}

/** Contract channels the worker answers directly (derived from the contract); the rest are
 * answered by the handlers. */
export type { EngineChannel };

type Op<I, O> = (input: I, ctx: OpContext) => O | Promise<O>;

export type EngineOps = { readonly [C in EngineChannel]: Op<ParsedInput<C>, ChannelOutput<C>> } & {
  readonly 'db.openPath': Op<OpenRequest, OpenDbInfo>;
  readonly 'db.openServer': Op<OpenServerRequest, OpenDbInfo>;
  readonly 'db.closeStore': Op<Record<string, never>, null>;
  readonly 'db.current': Op<Record<string, never>, OpenDbInfo | null>;
  readonly 'export.run': Op<{ readonly request: ExportRequest; readonly outPath: string }, ExportSummary>;
  /** Another memory system's file (a path main's File › Import from… chose) into the open store.
   * Main only: no contract channel reaches it, so no renderer can start an import. */
  readonly 'import.foreign': Op<{ readonly system: ForeignSystem; readonly file: string }, ForeignImportSummary>;
};
export type EngineOpName = keyof EngineOps;
export type OpInput<N extends EngineOpName> = Parameters<EngineOps[N]>[0];
export type OpOutput<N extends EngineOpName> = Awaited<ReturnType<EngineOps[N]>>;

/** Each partition's best matches for one search (the same full-text query as the table's), `first`
 * first; partitions without a match are left out. Bounded in partitions and rows per partition. */
function searchAll(session: EngineSession, input: ParsedInput<'facts.searchAll'>): ChannelOutput<'facts.searchAll'> {
  const all = session.store.listPartitions();
  const ordered = [...all.filter((p) => p.id === input.first), ...all.filter((p) => p.id !== input.first)];
  const searched = ordered.slice(0, MAX_SEARCH_PARTITIONS);
  const groups: ChannelOutput<'facts.searchAll'>['groups'] = [];
  for (const p of searched) {
    if (p.facts === 0) continue;
    const page = session.scope(p.id).listFacts({
      filter: { search: input.search, validity: 'all', ...(input.asOf ? { asOf: input.asOf } : {}) },
      page: { limit: input.perPartition },
    });
    if (page.rows.length > 0) groups.push({ partitionId: p.id, label: p.label, rows: page.rows, total: page.total });
  }
  return { groups, unsearched: ordered.length - searched.length };
}

/** The first MAX_LISTED rows and whether there were more (callers fetch MAX_LISTED + 1). */
function capped<T>(rows: T[]): { rows: T[]; truncated: boolean } {
  return rows.length > MAX_LISTED ? { rows: rows.slice(0, MAX_LISTED), truncated: true } : { rows, truncated: false };
}

/** Drops the contract-only fields before a request reaches the engine. */
function assemblyRequest<T extends { partitionId: number; operationId?: string | undefined }>(input: T): Omit<T, 'partitionId' | 'operationId'> {
  const { partitionId: _p, operationId: _o, ...request } = input;
  return request;
}

/** @param actor who the audit log records for deletions and dismissals (e.g. "inspector (ana)"). */
export function createOperations(session: EngineSession, actor: string): EngineOps {
  return {
    'db.openPath': (request, ctx) => {
      session.open(request, (done: number, total: number) => ctx.progress('database', 'generating demo data', done, total));
      const info = session.info();
      if (!info) throw new StatelensError('INTERNAL', 'The database closed right after opening');
      return info;
    },
    'db.openServer': (request) => {
      session.openServer(request);
      const info = session.info();
      if (!info) throw new StatelensError('INTERNAL', 'The database closed right after opening');
      return info;
    },
    'db.closeStore': () => {
      session.close();
      return null;
    },
    'db.current': () => session.info(),
    'import.foreign': ({ system, file }, ctx) => {
      const store = session.store;
      const org = session.info()?.server?.org;
      ctx.progress('import', `reading ${system}`, 0, null);
      const plan = planForeignFile(system, file, org && org !== '*' ? org : DEFAULT_IMPORT_ORG, session.nativeBinding);
      const summary = applyForeignPlan(store, plan, {
        // Throwing here (cancelled) rolls the whole import back.
        onProgress: (done, total) => {
          ctx.throwIfCancelled();
          ctx.progress('import', `importing ${system}`, done, total);
        },
      });
      ctx.progress('import', 'done', 1, 1);
      return summary;
    },

    'partitions.list': ({ asOf }) => ({ partitions: session.store.listPartitions(asOf) }),
    'facts.list': ({ partitionId, filter, sort, page }) =>
      session.scope(partitionId).listFacts({ ...(filter ? { filter } : {}), ...(sort ? { sort } : {}), ...(page ? { page } : {}) }),
    'facts.get': ({ partitionId, factId, asOf }) => session.scope(partitionId).factDetail(factId, asOf),
    'facts.searchAll': (input) => searchAll(session, input),
    'facts.chain': ({ partitionId, factId }) => {
      const handle = session.scope(partitionId);
      if (!handle.getFact(factId)) throw new StatelensError('NOT_FOUND', `No fact ${factId} in this partition`, { factId });
      return handle.chain(factId);
    },
    'facts.briefs': ({ partitionId, factIds }) => ({ briefs: session.scope(partitionId).briefs(factIds) }),
    'facts.neighbourhood': ({ partitionId, factId, hops, maxNodes, asOf }) =>
      session.scope(partitionId).neighbourhood(factId, { hops, maxNodes, ...(asOf ? { asOf } : {}) }),
    'facts.timeline': ({ partitionId, buckets }) => session.scope(partitionId).timeline(buckets),
    'facts.changes': ({ partitionId, from, to, limit }) => session.scope(partitionId).changesBetween(from, to, limit),
    'review.queue': ({ partitionId, page, causeFactId }) => session.scope(partitionId).reviewQueue(page ?? {}, causeFactId),
    'review.groups': ({ partitionId }) => session.scope(partitionId).reviewGroups(),
    'review.dismissCause': ({ partitionId, causeFactId, reason }) =>
      session.scope(partitionId).dismissCause(causeFactId, { actor, ...(reason !== undefined ? { reason } : {}) }),
    'review.dismiss': ({ partitionId, factIds, reason }) =>
      session.scope(partitionId).dismissReview(factIds, { actor, ...(reason !== undefined ? { reason } : {}) }),
    'review.undoDismiss': ({ partitionId, auditId }) => session.scope(partitionId).undoDismissReview(auditId, { actor }),

    'deletion.preview': ({ partitionId, selection, context }) => {
      const handle = session.scope(partitionId);
      const impact = handle.previewDeletion(selection);
      return { ...impact, context: context ? handle.deletionContextChange(selection, context) : null };
    },
    'deletion.apply': ({ partitionId, selection, reason }, op) => {
      const handle = session.scope(partitionId);
      op.progress('deletion', 'deleting', 0, null);
      const result = handle.deleteFacts(selection, {
        actor,
        reason: reason ?? null,
        // Throwing here (cancelled) rolls the whole delete back.
        onProgress: (done, total) => {
          op.throwIfCancelled();
          op.progress('deletion', 'deleting', done, total);
        },
      });
      op.progress('deletion', 'done', result.deleted, result.deleted);
      return result;
    },

    'context.assemble': (input, op) => {
      const handle = session.scope(input.partitionId);
      op.progress('assembly', input.strategy, 0, 1);
      const result = handle.assemble(assemblyRequest(input));
      op.progress('assembly', input.strategy, 1, 1);
      return result;
    },
    'context.compare': (input, op) => {
      const handle = session.scope(input.partitionId);
      const { strategies, ...request } = assemblyRequest(input);
      const results = strategies.map((strategy, i) => {
        op.throwIfCancelled();
        op.progress('assembly', strategy, i, strategies.length);
        return handle.assemble({ ...request, strategy });
      });
      op.progress('assembly', 'done', strategies.length, strategies.length);
      return { results };
    },

    'sessions.list': ({ partitionId }) => {
      const { rows, truncated } = capped(session.scope(partitionId).sessions(MAX_LISTED + 1));
      return { sessions: rows, truncated };
    },
    'agentState.get': ({ partitionId, sessionId }) => session.scope(partitionId).agentStateRecord(sessionId),
    'workingItems.list': ({ partitionId, sessionId }) => {
      const { rows, truncated } = capped(session.scope(partitionId).workingItems({ sessionId, includeExpired: true }));
      return { items: rows, truncated };
    },
    'contextDocuments.get': ({ partitionId, sessionId, version }) => ({ document: session.scope(partitionId).contextDocument(sessionId, version) }),
    'contextDocuments.versions': ({ partitionId, sessionId }) => ({ versions: session.scope(partitionId).contextDocumentVersions(sessionId) }),
    'documents.list': ({ partitionId }) => {
      const { rows, truncated } = capped(session.scope(partitionId).documents());
      return { documents: rows, truncated };
    },
    'savedQueries.list': ({ partitionId }) => {
      const { rows, truncated } = capped(session.scope(partitionId).savedQueries(MAX_LISTED + 1));
      return { queries: rows, truncated };
    },
    'audit.list': ({ partitionId, factId, beforeId, limit }) => {
      return session.store.auditPage({ partitionId: partitionId ?? null, factId: factId ?? null, beforeId: beforeId ?? null, limit });
    },

    'export.run': ({ request, outPath }, ctx) =>
      exportStore(session.store, {
        format: request.format,
        out: outPath,
        partitionId: request.partitionId ?? null,
        ...(request.filter ? { filter: request.filter } : {}),
        // The save dialog already asked before replacing a file; browser mode writes fresh names.
        overwrite: true,
        signal: ctx.signal,
        onProgress: (p) => ctx.progress('export', p.phase, p.done, p.total),
        ...(session.nativeBinding ? { nativeBinding: session.nativeBinding } : {}),
      }),
  };
}
