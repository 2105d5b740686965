// A handle bound to one partition: the only way engine callers reach rows. Agent-side writes
// run in one transaction per call and announce a change; reads never cross the partition.
import type { Fact, Identity, Maturity, PartitionKind, PartitionRef } from '../../shared/domain';
import type { FactWriteInput, WriteResult } from '../../shared/writes';
import type { AgentStateChange, PartitionContext, PartitionOwner, WritablePartition } from './context';
import { currentFact, eachFactAsOf, factsAsOf, getFact, validFacts, allFacts, type FactsAsOfPage } from './facts/read';
import { chainFor } from './query/chain';
import {
  applyConsolidation,
  DEFAULT_CONSOLIDATE_PARAMS,
  planConsolidation,
  type ConsolidateParams,
  type ConsolidationReport,
} from './consolidation/consolidate';
import { derivedFromEdges } from './facts/dependencies';
import { resolveRef, writeFactsBatched, type WriteOptions } from './facts/write';
import { refFromRow } from './partitions/partitions';
import { stmt } from './db/statements';
import { DEFAULT_SESSION, listIdentities, releaseIdentity, sessionIdentity, setIdentity, type SessionIdentity } from './layers/identity';
import { addWorkingItem, clearSession, listWorkingItems, type WorkingItemInput } from './layers/working-set';
import { StatelensError } from '../../shared/errors';
import { environmentAt, listSignals, setSignal } from './layers/environment';
import { getProviders, setProviders } from './environment/config';
import { fetchFresh, type ProviderConfig } from './environment/providers';
import { nextTurnIndex, recordTurn, type RecordedTurn, type TurnInput } from './layers/turns';
import { documentsFor, listDocuments, putDocument, type DocumentInput } from './layers/documents';
import { listSavedQueries, saveQuery } from './layers/saved-queries';
import type { Environment, EnvironmentSignal, OrgDocument, SavedQuery, WorkingItem } from '../../shared/domain';
import {
  briefsOf,
  changesBetween,
  countFacts,
  dismissReview,
  undoDismissReview,
  factDetail,
  listFacts,
  neighbourhood,
  propagationPath,
  reviewQueue,
  reviewGroups,
  dismissCause,
  timeline,
  type ListFactsRequest,
} from './query';
import { agentStateRecord, applyAgentStateUpdate, getAgentState, verifyExpectation } from './agent-state/agent-state';
import { contextDocumentVersions, getContextDocument, putContextDocument } from './context-documents/context-documents';
import { listSessions } from './context-documents/sessions';
import type {
  CappedCount,
  ContextDocumentVersionSummary,
  DismissResult,
  DismissCauseResult,
  RestoreReviewResult,
  ReviewGroups,
  FactBrief,
  FactChanges,
  FactDetail,
  FactPage,
  Neighbourhood,
  NeighbourhoodRequestInput,
  PropagationPath,
  ReviewQueuePage,
  SessionSummary,
  Timeline,
} from '../../shared/inspect';
import type { AgentStateRecord, AgentStateUpdateInput, ToolResult, VerificationResult } from '../../shared/agent-state';
import type { AgentState, ContextDocumentVersion } from '../../shared/domain';
import type { FactFilterInput, PageRequest } from '../../shared/query';
import type { z } from 'zod';
import { assembleContext, takeContext, type AssembleOptions } from './assembly/assemble';
import type { AssemblyRequestInput, AssemblyResult, FetchedSignal } from '../../shared/assembly';
import { deleteFacts, previewDeletion, type DeleteOptions } from './deletion';
import { contextChangeOfDeletion } from './deletion/context-change';
import type { ContextChange } from '../../shared/contract';
import type { DeletionImpact, DeletionResult } from '../../shared/deletion';
import type { DeletionSelection, DeletionSelectionInput } from '../../shared/query';

export class PartitionHandle implements WritablePartition {
  constructor(
    private readonly owner: PartitionOwner,
    readonly ctx: PartitionContext,
  ) {}

  /** The database file this partition lives in. */
  get path(): string {
    return this.owner.path;
  }

  /** Sees other processes' commits (and announces them); true when there were any. */
  pollExternalChanges(): boolean {
    return this.owner.pollExternalChanges();
  }

  get id(): number {
    return this.ctx.partitionId;
  }

  get kind(): PartitionKind {
    return this.ctx.kind;
  }

  /** A capability partition's tier (null for other kinds). */
  get maturity(): Maturity | null {
    return this.ctx.maturity;
  }

  get ref(): PartitionRef {
    return refFromRow({ org_id: this.ctx.orgId, kind: this.ctx.kind, subject: this.ctx.subject });
  }

  /** Runs `fn` in one transaction on this partition and announces the change. */
  transact<T>(what: string, fn: (ctx: PartitionContext) => T, agentStates?: (result: T) => readonly AgentStateChange[]): T {
    return this.owner.write([this.ctx.partitionId], what, () => fn(this.ctx), agentStates);
  }

  writeFacts(inputs: readonly FactWriteInput[], options?: WriteOptions): WriteResult[] {
    return this.transact('facts', (ctx) => writeFactsBatched(ctx, inputs, options));
  }

  /** Consolidates this capability partition (see consolidation/): a dry run only plans and
   * writes nothing; a run applies in one transaction with one audit entry. */
  consolidate(params: Partial<ConsolidateParams> = {}, options: { dryRun?: boolean; actor?: string } = {}): ConsolidationReport {
    const p = { ...DEFAULT_CONSOLIDATE_PARAMS, ...params };
    if (options.dryRun) return { ...planConsolidation(this.ctx, p), dryRun: true, auditId: null };
    return this.transact('facts', (ctx) => applyConsolidation(ctx, p, options.actor ?? 'consolidation'));
  }

  /** What a fact was consolidated from, and the abstractions consolidated from it. */
  consolidationEdges(id: string): { consolidatedFrom: string[]; consolidatedInto: string[] } {
    return derivedFromEdges(this.ctx, id);
  }

  writeFact(input: FactWriteInput, options?: WriteOptions): WriteResult {
    const [result] = this.writeFacts([input], options);
    if (!result) throw new Error('unreachable: one write, one result');
    return result;
  }

  getFact(id: string): Fact | undefined {
    return getFact(this.ctx, id);
  }

  validFacts(): Fact[] {
    return validFacts(this.ctx);
  }

  allFacts(): Fact[] {
    return allFacts(this.ctx);
  }

  currentValue(key: string): string | undefined {
    return currentFact(this.ctx, key)?.value;
  }

  currentFact(key: string): Fact | undefined {
    return currentFact(this.ctx, key);
  }

  /** One keyset page of the facts valid at `at`; follow `next` for the rest. */
  factsAsOf(at: string, page?: { limit?: number; after?: string | null }): FactsAsOfPage {
    return factsAsOf(this.ctx, at, page);
  }

  /** Every fact valid at `at` (all pages). */
  allFactsAsOf(at: string): Fact[] {
    return [...eachFactAsOf(this.ctx, at)];
  }

  /** The fact a reference names, tried as an id, then a source label, then a key (valid facts
   * for labels and keys); with `orSupersededKey`, a key whose facts are all superseded names its
   * newest version. */
  resolveFact(ref: string, options: { orSupersededKey?: boolean } = {}): Fact | undefined {
    const resolved = resolveRef(this.ctx, ref);
    if (resolved) return getFact(this.ctx, resolved.fact.id);
    if (!options.orSupersededKey) return undefined;
    const newest = stmt<[number, string], { id: string }>(
      this.ctx.db,
      'SELECT id FROM facts WHERE partition_id = ? AND key = ? ORDER BY ts DESC, rid DESC LIMIT 1',
    ).get(this.ctx.partitionId, ref);
    return newest ? getFact(this.ctx, newest.id) : undefined;
  }

  chain(id: string): { versions: Fact[]; proposals: Fact[] } {
    return chainFor(this.ctx, id);
  }

  /** Sets the identity of a session (default "default"); fixed for that session once set: a
   * different identity in the same session is refused with CONFLICT. Other sessions of the
   * partition keep theirs. */
  setIdentity(identity: Identity, options: { sessionId?: string } = {}): void {
    const sessionId = options.sessionId;
    if (sessionId !== undefined && (!sessionId || sessionId.length > 200)) {
      throw new StatelensError('INVALID_INPUT', 'A session id of 1 to 200 characters is required');
    }
    this.transact('identity', (ctx) => setIdentity(ctx, identity, options.sessionId));
  }

  /** Ends a session: its working set and its identity are removed (other sessions keep theirs; the
   * next session may set its own). Facts, agent state and context documents stay. */
  endSession(sessionId: string): { sessionId: string; workingItemsCleared: number; identityReleased: boolean } {
    if (!sessionId || sessionId.length > 200) throw new StatelensError('INVALID_INPUT', 'A session id of 1 to 200 characters is required');
    return this.transact('session_end', (ctx) => ({
      sessionId,
      workingItemsCleared: clearSession(ctx, sessionId),
      identityReleased: releaseIdentity(ctx, sessionId),
    }));
  }

  /** The identity of a session (default "default"), or undefined when it set none. */
  identity(sessionId: string = DEFAULT_SESSION): Identity | undefined {
    return sessionIdentity(this.ctx, sessionId);
  }

  /** Every session's identity, by session id. */
  identities(): SessionIdentity[] {
    return listIdentities(this.ctx);
  }

  addWorkingItems(items: readonly WorkingItemInput[]): string[] {
    return this.transact('working_set', (ctx) => items.map((i) => addWorkingItem(ctx, i)));
  }

  /** Appends conversation turns and applies the facts they contradict (see layers/turns). */
  recordTurns(sessionId: string, turns: readonly TurnInput[], options: { actor?: string } = {}): RecordedTurn[] {
    return this.transact('working_set', (ctx) => {
      let next = nextTurnIndex(ctx, sessionId);
      return turns.map((t) => {
        const recorded = recordTurn(ctx, sessionId, { ...t, turnIndex: t.turnIndex ?? next }, options);
        next = recorded.turnIndex + 1;
        return recorded;
      });
    });
  }

  workingItems(options?: { sessionId?: string; at?: string; includeExpired?: boolean }): WorkingItem[] {
    return listWorkingItems(this.ctx, options);
  }

  setEnvironment(signals: ReadonlyArray<{ key: string; value: unknown; observedAt?: string }>): void {
    this.transact('environment', (ctx) => {
      for (const s of signals) setSignal(ctx, s.key, s.value, s.observedAt);
    });
  }

  /** Sets the environment providers this partition queries fresh at every assembly. */
  setEnvironmentProviders(configs: readonly unknown[]): ProviderConfig[] {
    return this.transact('environment providers', (ctx) => setProviders(ctx, configs));
  }

  environmentProviders(): ProviderConfig[] {
    return getProviders(this.ctx);
  }

  /** Assembles with the partition's providers fetched fresh first, each bounded by `timeoutMs`
   * (the synchronous assembly runs once every provider answered or timed out). An assembly as
   * of a past time fetches nothing: a provider only knows the present. */
  async assembleFresh(request: AssemblyRequestInput, options: AssembleOptions & { timeoutMs?: number } = {}): Promise<AssemblyResult> {
    const fetched = request.asOf === undefined ? await this.fetchEnvironment(options.timeoutMs) : undefined;
    return this.assemble(request, fetched ? { ...options, fetched } : options);
  }

  /** The partition's providers fetched now (undefined when it has none), to pass to an
   * assembly as `fetched`. */
  async fetchEnvironment(timeoutMs?: number): Promise<FetchedSignal[] | undefined> {
    const providers = getProviders(this.ctx);
    return providers.length === 0 ? undefined : fetchFresh(providers, { timeoutMs, now: () => new Date(this.ctx.clock.now()) });
  }

  /** The environment now, or as of `at` (the latest observation per key made by then). */
  environment(at?: string): EnvironmentSignal[] {
    return listSignals(this.ctx, at ?? null);
  }

  /** The environment's fields (current time and date, timezone, location, external data) now, or
   * as of `at`. */
  environmentState(at?: string): Environment {
    const now = at ?? this.ctx.clock.now();
    return environmentAt(now, listSignals(this.ctx, now));
  }

  putDocument(doc: DocumentInput): string {
    return this.transact('documents', (ctx) => putDocument(ctx, doc));
  }

  documents(): OrgDocument[] {
    return listDocuments(this.ctx);
  }

  documentsFor(identity: Identity): { allowed: OrgDocument[]; denied: OrgDocument[] } {
    return documentsFor(this.ctx, identity);
  }

  saveQuery(q: { label: string; prompt: string; ts?: string | null; groundTruth?: Record<string, unknown> | null }): number {
    return this.transact('saved_queries', (ctx) => saveQuery(ctx, q));
  }

  savedQueries(limit = -1): SavedQuery[] {
    return listSavedQueries(this.ctx, limit);
  }

  // --- Inspector reads (engine/query) ---------------------------------------------------------

  /** A keyset page of facts: filter, sort on any column, full-text search with match ranges. */
  listFacts(request: ListFactsRequest = {}): FactPage {
    return listFacts(this.ctx, request);
  }

  countFacts(filter: FactFilterInput = {}, cap?: number): CappedCount {
    return countFacts(this.ctx, filter, cap);
  }

  /** With `asOf`: also how the fact and its edges stood at that instant (time travel). */
  factDetail(id: string, asOf?: string): FactDetail {
    return factDetail(this.ctx, id, asOf);
  }

  /** Change counts over the partition's history in `buckets` equal slices. */
  timeline(buckets = 60): Timeline {
    return timeline(this.ctx, buckets);
  }

  /** What changed between two instants (either order): at most `limit` changes, every total. */
  changesBetween(from: string, to: string, limit = 200): FactChanges {
    return changesBetween(this.ctx, from, to, limit);
  }

  neighbourhood(id: string, request: NeighbourhoodRequestInput = {}): Neighbourhood {
    return neighbourhood(this.ctx, id, request);
  }

  /** Key, value snippet and status of each id (in order; a missing id is marked so), for readable references. */
  briefs(ids: readonly string[]): FactBrief[] {
    return briefsOf(this.ctx, ids);
  }

  propagationPath(id: string): PropagationPath | null {
    return propagationPath(this.ctx, id);
  }

  /** With `causeFactId` (null included): only the flags that upstream fact raised. */
  reviewQueue(page: z.input<typeof PageRequest> = {}, causeFactId?: string | null): ReviewQueuePage {
    return reviewQueue(this.ctx, page, causeFactId);
  }

  reviewGroups(limit?: number): ReviewGroups {
    return reviewGroups(this.ctx, limit);
  }

  /** Dismisses every flag one upstream change raised, as one audited, undoable dismissal. */
  dismissCause(causeFactId: string | null, options: { actor: string; reason?: string }): DismissCauseResult {
    return this.transact('review', (ctx) => dismissCause(ctx, causeFactId, options));
  }

  /** The user's review action: clears needs_review on `ids`, audited, in one transaction. */
  dismissReview(ids: readonly string[], options: { actor: string; reason?: string }): DismissResult {
    return this.transact('review', (ctx) => dismissReview(ctx, ids, options));
  }

  /** Puts back the flags a dismissal cleared, while nothing has changed since; audited. */
  undoDismissReview(dismissalAuditId: number, options: { actor: string }): RestoreReviewResult {
    return this.transact('review', (ctx) => undoDismissReview(ctx, dismissalAuditId, options));
  }

  // --- Agent state and context documents (per session) ---------------------------------------

  agentState(sessionId: string): AgentState {
    return getAgentState(this.ctx, sessionId);
  }

  agentStateRecord(sessionId: string): AgentStateRecord {
    return agentStateRecord(this.ctx, sessionId);
  }

  applyAgentStateUpdate(sessionId: string, update: AgentStateUpdateInput): AgentState {
    return this.transact(
      'agent_state',
      (ctx) => applyAgentStateUpdate(ctx, sessionId, update),
      () => [{ partitionId: this.id, sessionId }],
    );
  }

  verifyExpectation(sessionId: string, expectationId: string, toolResult: ToolResult): VerificationResult {
    return this.transact(
      'agent_state',
      (ctx) => verifyExpectation(ctx, sessionId, expectationId, toolResult),
      (r) => (r.outcome === 'skipped' ? [] : [{ partitionId: this.id, sessionId }]),
    );
  }

  putContextDocument(sessionId: string, body: string): ContextDocumentVersion {
    return this.transact('context_documents', (ctx) => putContextDocument(ctx, sessionId, body));
  }

  contextDocument(sessionId: string, version?: number): ContextDocumentVersion | null {
    return getContextDocument(this.ctx, sessionId, version);
  }

  contextDocumentVersions(sessionId: string): ContextDocumentVersionSummary[] {
    return contextDocumentVersions(this.ctx, sessionId);
  }

  /** The partition's sessions, newest activity first; `limit` caps how many (-1: all). */
  sessions(limit?: number): SessionSummary[] {
    return listSessions(this.ctx, limit);
  }

  /** A context preview: assembles without changing anything, not even access counts. */
  assemble(request: AssemblyRequestInput, options?: AssembleOptions): AssemblyResult {
    return assembleContext(this.ctx, request, options);
  }

  /** The agent takes a context: assembles and records the access of the included facts. */
  takeContext(request: AssemblyRequestInput, options?: AssembleOptions): AssemblyResult {
    return takeContext(this, request, options);
  }

  // --- Deletion, the user's one write (engine/deletion) --------------------------------------

  /** What deleting `selection` would delete, flag and relink; changes nothing. */
  previewDeletion(selection: DeletionSelectionInput): DeletionImpact {
    return previewDeletion(this.ctx, selection);
  }

  /** How the context assembled by `probe` would change if `selection` were deleted; changes
   * nothing (the deletion is simulated and rolled back). */
  deletionContextChange(selection: DeletionSelection, probe: AssemblyRequestInput): ContextChange {
    return contextChangeOfDeletion(this.ctx, selection, probe);
  }

  /** Deletes in one transaction, audited; then scrubs the text from the file and its WAL. */
  deleteFacts(selection: DeletionSelectionInput, options: DeleteOptions): DeletionResult {
    return deleteFacts(this, selection, options);
  }
}
