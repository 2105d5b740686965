// The IPC / HTTP contract: every channel the renderer may call or listen to, listed once, with
// strict zod schemas for what goes in and what comes out. Every TypeScript type of the bridge,
// the registrar, the HTTP server and the renderer's transport is derived from this one table.
// No channel creates or edits a fact: users review, dismiss flags, delete, preview and export.
import { z } from 'zod';
import { AgentStateRecord } from './agent-state';
import { AuditEntry, ContextDocumentVersion, OrgDocument, OrgName, PartitionSummary, SavedQuery, WorkingItem } from './domain';
import { AssemblyRequest, AssemblyResult, AssemblyStrategy, DEFAULT_BUDGET, DEFAULT_STRATEGY, MAX_BUDGET, ProvenanceKind, TokenizerName } from './assembly';
import { AuditReason, DeletionImpact, DeletionResult } from './deletion';
import { ErrorShape } from './errors';
import {
  ContextDocumentVersionSummary,
  DismissCauseResult,
  DismissResult,
  RestoreReviewResult,
  ReviewGroups,
  FactBrief,
  FactDetail,
  FactChanges,
  CappedCount,
  FactPage,
  FactRowView,
  MAX_CHANGES,
  MAX_DISMISS_IDS,
  MAX_TIMELINE_BUCKETS,
  Neighbourhood,
  NeighbourhoodRequest,
  ReviewQueuePage,
  SessionSummary,
  Timeline,
} from './inspect';
import { DeletionSelection, FactFilter, FactSort, PageRequest } from './query';
import { ExportFormat, ExportRequest } from './snapshot';
import { Timestamp } from './timestamp';

/** Largest input any channel accepts, counted as its JSON text would be for ASCII (a deletion
 * of 100,000 ids of ~40 characters fits). */
export const MAX_PAYLOAD_BYTES = 8 * 1024 * 1024;
/** Deepest nesting any input may have (the deepest legitimate input is about 5 levels). */
export const MAX_PAYLOAD_DEPTH = 16;
export const MAX_RECENT = 10;
export const MAX_COMPARE = 6;
/** Most rows an unpaged list answer carries (sessions, saved queries, organisational documents):
 * the rest is announced by `truncated`, so one answer never grows with the database. */
export const MAX_LISTED = 1000;

// ---------------------------------------------------------------------------------------------
// Building blocks
// ---------------------------------------------------------------------------------------------

export const PartitionId = z.number().int().min(1).max(2_147_483_647);
export const FactId = z.string().min(1).max(200);
export const SessionId = z.string().min(1).max(200);
/** Chosen by the caller so progress events and `export.cancel` can name the operation early. */
export const OperationId = z.string().regex(/^[A-Za-z0-9_-]{8,64}$/, 'an operation id is 8-64 letters, digits, _ or -');
export type OperationId = z.infer<typeof OperationId>;
const NoInput = z.strictObject({});
const Reason = AuditReason;

export { AssemblyStrategy, ExportFormat, TokenizerName };

// --- Database ---------------------------------------------------------------------------------

/** `desktop`: the Electron app, which may open other files. `browser`: `statelens serve`,
 * whose database is fixed on its command line. */
export const AppMode = z.enum(['desktop', 'browser']);
export type AppMode = z.infer<typeof AppMode>;

/** A PostgreSQL server the inspector is connected to, as shown (the URL never holds a password). */
export const ServerInfo = z.strictObject({ url: z.string(), schema: z.string(), org: z.string() });
export type ServerInfo = z.infer<typeof ServerInfo>;

export const DbInfo = z.strictObject({
  /** A file path, or for a server its URL without the password. */
  path: z.string(),
  name: z.string(),
  readonly: z.boolean(),
  sizeBytes: z.number().int().nonnegative(),
  schemaVersion: z.number().int(),
  /** The embedded default database in the app's data folder (seeded with demo data). */
  isDefault: z.boolean(),
  /** Set when the memory lives on a shared PostgreSQL server rather than in a file. */
  server: ServerInfo.optional(),
  /** Tables, indexes, triggers and views of the file that Statelens did not create ("trigger
   * name"); while any is listed and not trusted (`db.trustForeignObjects`) the file is read-only. */
  foreignObjects: z.array(z.string()).max(1000).optional(),
});
export type DbInfo = z.infer<typeof DbInfo>;

/** The window title for what is open: the file's name, or for a server its organisation,
 * schema and database, so two windows on different servers are told apart. */
/** Where a server session reads, in words: its schema and the org it acts for. A store opened
 * without an org (a server without row-level security) names none; `*` is every org. */
export function serverScope(server: { readonly schema: string; readonly org: string }): string {
  const org = server.org === '' ? '' : server.org === '*' ? ' · every org' : ` · org ${server.org}`;
  return `schema ${server.schema}${org}`;
}

export function databaseTitle(db: DbInfo | null): string {
  if (!db) return 'Statelens';
  if (db.server) return `${db.name} · ${serverScope(db.server)} — Statelens`;
  return `${db.name} — Statelens`;
}

export const DbState = z.strictObject({
  mode: AppMode,
  db: DbInfo.nullable(),
  /** False in browser mode: `db.open` and `db.close` answer PERMISSION_DENIED there. */
  canOpenOther: z.boolean(),
});
export type DbState = z.infer<typeof DbState>;

/** Never a path from the renderer: main asks through a native dialog or uses its own list. */
export const DbOpenInput = z.discriminatedUnion('source', [
  z.strictObject({ source: z.literal('dialog') }),
  z.strictObject({
    source: z.literal('recent'),
    index: z
      .number()
      .int()
      .min(0)
      .max(MAX_RECENT - 1),
  }),
  z.strictObject({ source: z.literal('default') }),
]);
export type DbOpenInput = z.infer<typeof DbOpenInput>;

export const DbOpenResult = z.strictObject({ cancelled: z.boolean(), state: DbState });
export type DbOpenResult = z.infer<typeof DbOpenResult>;

export const RecentEntry = z.strictObject({
  index: z.number().int().nonnegative(),
  path: z.string(),
  name: z.string(),
  openedAt: z.string(),
  exists: z.boolean(),
});
export type RecentEntry = z.infer<typeof RecentEntry>;

/** A PostgreSQL schema name as `statelens init --schema` creates it (unquoted identifier). */
export const PgSchemaName = z.string().regex(/^[a-z_][a-z0-9_]{0,62}$/, 'a schema is lower-case letters, digits and _ (not starting with a digit), at most 63');
export const DEFAULT_SERVER_SCHEMA = 'statelens';
/** `postgres://user@host:5432/db?sslmode=verify-full`: no password inside (it has its own field,
 * kept encrypted), no other scheme (never a file path or an in-process database from here). */
export const ServerUrl = z
  .string()
  .trim()
  .max(2000)
  .superRefine((value, ctx) => {
    // Parsed by hand: shared code runs where no URL class is typed (it must not need DOM or Node).
    const m = /^([a-z][a-z0-9+.-]*):\/\/(?:([^/?#\s]*)@)?([^/?#@\s]*)(\/[^?#]*)?(\?[^#]*)?$/i.exec(value);
    const [, scheme = '', userinfo = '', host = '', database = '', query = ''] = m ?? [];
    if (!m) ctx.addIssue({ code: 'custom', message: 'not a URL: postgres://user@host:5432/database' });
    else if (!/^postgres(ql)?$/i.test(scheme)) ctx.addIssue({ code: 'custom', message: 'the URL starts with postgres://' });
    else if (host === '') ctx.addIssue({ code: 'custom', message: 'the URL names no host' });
    // The driver also takes ?password=: in the URL it would be listed and shown in plain text.
    else if (userinfo.includes(':') || /[?&]password=/i.test(query))
      ctx.addIssue({ code: 'custom', message: 'put the password in its own field, not in the URL' });
    else if (database.length <= 1) ctx.addIssue({ code: 'custom', message: 'the URL names no database (…:5432/database)' });
  });
/** The server form: where, which schema, which organisation's memory (the rows it may see). */
export const ServerConnectForm = z.strictObject({
  url: ServerUrl,
  password: z.string().max(1000).optional(),
  schema: PgSchemaName.default(DEFAULT_SERVER_SCHEMA),
  org: OrgName,
  /** Keep the password (encrypted by the operating system) for the next connection. */
  remember: z.boolean().default(true),
});
export type ServerConnectForm = z.input<typeof ServerConnectForm>;
/** Like `db.open`: a form filled in the renderer, or main's own recent list by index. */
export const DbConnectInput = z.discriminatedUnion('source', [
  z.strictObject({ source: z.literal('form'), ...ServerConnectForm.shape }),
  z.strictObject({
    source: z.literal('recent'),
    index: z
      .number()
      .int()
      .min(0)
      .max(MAX_RECENT - 1),
  }),
]);
/** What became of the password: kept encrypted, not kept (none given, or not asked to), or not
 * kept because the system offers no encryption (it is never stored as plain text). */
export const CredentialOutcome = z.enum(['kept', 'not-kept', 'encryption-unavailable']);
export type CredentialOutcome = z.infer<typeof CredentialOutcome>;
export const DbConnectResult = z.strictObject({ state: DbState, credential: CredentialOutcome });
export type DbConnectResult = z.infer<typeof DbConnectResult>;

/** A server connected to before; never its password (`hasPassword` says one is kept). */
export const RecentServer = z.strictObject({
  index: z.number().int().nonnegative(),
  url: z.string(),
  schema: z.string(),
  org: z.string(),
  openedAt: z.string(),
  hasPassword: z.boolean(),
});
export type RecentServer = z.infer<typeof RecentServer>;

// --- Facts ------------------------------------------------------------------------------------

export const FactsListInput = z.strictObject({
  partitionId: PartitionId,
  filter: FactFilter.optional(),
  sort: FactSort.optional(),
  page: PageRequest.optional(),
});
/** Most partitions one search of the whole store reads, and most matches it returns from each. */
export const MAX_SEARCH_PARTITIONS = 100;
export const MAX_SEARCH_PER_PARTITION = 20;
/** Find everywhere: a search over every partition of the open store. `first` is searched (and
 * listed) first, whatever the order of the rest. */
export const FactsSearchAllInput = z.strictObject({
  search: FactFilter.shape.search.unwrap().min(1),
  first: PartitionId.optional(),
  perPartition: z.number().int().min(1).max(MAX_SEARCH_PER_PARTITION).default(5),
  asOf: Timestamp.optional(),
});
/** One partition's matches, best first, with how many there are in all. */
export const SearchGroup = z.strictObject({
  partitionId: PartitionId,
  label: z.string(),
  rows: z.array(FactRowView).max(MAX_SEARCH_PER_PARTITION),
  total: CappedCount.nullable(),
});
export type SearchGroup = z.infer<typeof SearchGroup>;
export const FactsSearchAllOutput = z.strictObject({
  /** Partitions with at least one match: `first` (when it matches) then the store's order. */
  groups: z.array(SearchGroup).max(MAX_SEARCH_PARTITIONS),
  /** Partitions of the store left unsearched (beyond MAX_SEARCH_PARTITIONS). */
  unsearched: z.number().int().nonnegative(),
});
export const FactRef = z.strictObject({ partitionId: PartitionId, factId: FactId });
/** A fact's detail; with `asOf`, also how it (and the facts it links to) stood at that instant. */
export const FactGetInput = z.strictObject({ ...FactRef.shape, asOf: Timestamp.optional() });
/** With `asOf`: fact counts as of that instant (facts recorded by then, facts valid then), and
 * working items and documents created by then. Review flags are not kept historically, so
 * `needsReview` is always today's queue. */
export const PartitionsListInput = z.strictObject({ asOf: Timestamp.optional() });
/** A partition's history as change counts in equal slices (the time-travel density strip). */
export const TimelineInput = z.strictObject({ partitionId: PartitionId, buckets: z.number().int().min(1).max(MAX_TIMELINE_BUCKETS).default(60) });
/** What changed between two instants (either order). */
export const FactChangesInput = z.strictObject({
  partitionId: PartitionId,
  from: Timestamp,
  to: Timestamp,
  limit: z.number().int().min(1).max(MAX_CHANGES).default(200),
});
/** Most facts one `facts.briefs` call describes (a screenful of references). */
export const MAX_BRIEF_IDS = 200;
/** Facts to show as readable references (key, value snippet, status) instead of raw ids. */
export const FactBriefsInput = z.strictObject({ partitionId: PartitionId, factIds: z.array(FactId).max(MAX_BRIEF_IDS) });
export const NeighbourhoodInput = z.strictObject({ partitionId: PartitionId, factId: FactId, ...NeighbourhoodRequest.shape });
export const ReviewQueueInput = z.strictObject({
  partitionId: PartitionId,
  page: PageRequest.optional(),
  /** Only the flags this upstream fact raised; null: the flags no fact raised (one cause group). */
  causeFactId: FactId.nullable().optional(),
});
/** One cause group's flags, dismissed together (the group as `review.groups` names it). */
export const ReviewDismissCauseInput = z.strictObject({ partitionId: PartitionId, causeFactId: FactId.nullable(), reason: Reason.optional() });
/** Undo of a dismissal, named by the audit id `review.dismiss` returned. */
export const ReviewUndoDismissInput = z.strictObject({ partitionId: PartitionId, auditId: z.number().int().positive() });
export const ReviewDismissInput = z.strictObject({
  partitionId: PartitionId,
  factIds: z.array(FactId).min(1).max(MAX_DISMISS_IDS),
  reason: Reason.optional(),
});

// --- Deletion ---------------------------------------------------------------------------------

/** Optional: how the assembled context for this query would change if the deletion went ahead. */
export const ContextProbe = z.strictObject({
  query: z.string().max(10_000),
  strategy: AssemblyStrategy.default(DEFAULT_STRATEGY),
  budget: z.number().int().min(0).max(MAX_BUDGET).default(DEFAULT_BUDGET),
  sessionId: SessionId.optional(),
});
export const DeletionPreviewInput = z.strictObject({
  partitionId: PartitionId,
  selection: DeletionSelection,
  context: ContextProbe.optional(),
});
const ProvenanceRef = z.strictObject({ kind: ProvenanceKind, id: z.string(), label: z.string() });
/** How the assembled context for the probe's query would change: both assemblies (included
 * provenance only) and what leaves or enters the text. */
export const ContextChange = z.strictObject({
  before: AssemblyResult,
  after: AssemblyResult,
  removed: z.array(ProvenanceRef),
  added: z.array(ProvenanceRef),
});
export type ContextChange = z.infer<typeof ContextChange>;
export const DeletionPreview = z.strictObject({ ...DeletionImpact.shape, context: ContextChange.nullable() });
export type DeletionPreview = z.infer<typeof DeletionPreview>;

export const DeletionApplyInput = z.strictObject({
  partitionId: PartitionId,
  selection: DeletionSelection,
  reason: Reason.optional(),
  operationId: OperationId.optional(),
});

// --- Context assembly -------------------------------------------------------------------------

/** The engine's assembly request (shared/assembly.ts) for one partition. */
const { strategy: _strategy, ...assemblyOptions } = AssemblyRequest.shape;
export const AssembleInput = z.strictObject({ ...AssemblyRequest.shape, partitionId: PartitionId, operationId: OperationId.optional() });
export const CompareInput = z.strictObject({
  ...assemblyOptions,
  partitionId: PartitionId,
  operationId: OperationId.optional(),
  strategies: z
    .array(AssemblyStrategy)
    .min(2)
    .max(MAX_COMPARE)
    .refine((s) => new Set(s).size === s.length, 'each strategy at most once'),
});

// --- Sessions, agent state, documents, audit ----------------------------------------------------

export const PartitionInput = z.strictObject({ partitionId: PartitionId });
export const SessionInput = z.strictObject({ partitionId: PartitionId, sessionId: SessionId });
export const ContextDocumentInput = z.strictObject({
  partitionId: PartitionId,
  sessionId: SessionId,
  /** Omitted: the latest version. */
  version: z.number().int().min(1).max(1_000_000).optional(),
});
export const AuditListInput = z.strictObject({
  /** Omitted or null: every partition plus database-wide entries. */
  partitionId: PartitionId.nullable().optional(),
  factId: FactId.optional(),
  /** Keyset paging: entries with an id below this one (newest first). */
  beforeId: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER).optional(),
  limit: z.number().int().min(1).max(500).default(100),
});

// --- Export -----------------------------------------------------------------------------------

/** The engine's export request (shared/snapshot.ts; partitionId null or absent: the whole
 * database; filter: CSV of a filtered view) plus the caller's operation id for progress/cancel. */
export const ExportStartInput = z.strictObject({ ...ExportRequest.shape, operationId: OperationId });
/** Desktop: written where the save dialog said. Browser mode: written into the server's own
 * export folder and offered once as a download (the URL carries the session token). */
export const ExportResult = z.discriminatedUnion('status', [
  z.strictObject({
    status: z.literal('saved'),
    operationId: OperationId,
    format: ExportFormat,
    path: z.string(),
    bytes: z.number().int().nonnegative(),
    records: z.number().int().nonnegative(),
  }),
  z.strictObject({
    status: z.literal('download'),
    operationId: OperationId,
    format: ExportFormat,
    url: z.string(),
    fileName: z.string(),
    bytes: z.number().int().nonnegative(),
    records: z.number().int().nonnegative(),
  }),
  z.strictObject({ status: z.literal('cancelled'), operationId: OperationId }),
]);
export type ExportResult = z.infer<typeof ExportResult>;

// --- Events -----------------------------------------------------------------------------------

export const Progress = z.strictObject({
  operationId: z.string(),
  operation: z.enum(['export', 'deletion', 'assembly', 'database', 'import']),
  phase: z.string().max(200),
  done: z.number().int().nonnegative(),
  total: z.number().int().nonnegative().nullable(),
  finished: z.boolean(),
});
export type Progress = z.infer<typeof Progress>;

/** One event for every change: own writes, other processes' writes (PRAGMA data_version) and a
 * database opened or closed (`what` holds 'database'). The renderer invalidates its caches. */
export const DataChanged = z.strictObject({
  origin: z.enum(['local', 'external']),
  partitionIds: z.array(z.number().int()),
  what: z.array(z.string()),
});
export type DataChanged = z.infer<typeof DataChanged>;

/** A session's agent state changed (a delta or a verified expectation), in this process or
 * another; sent besides `data.changed`, once per session changed. */
export const AgentStateChanged = z.strictObject({
  origin: z.enum(['local', 'external']),
  partitionId: z.number().int(),
  sessionId: z.string(),
});
export type AgentStateChanged = z.infer<typeof AgentStateChanged>;

/** Menu items whose dialog lives in the renderer (desktop only). */
export const AppCommand = z.strictObject({ command: z.enum(['export-snapshot', 'show-shortcuts', 'connect-server']) });
export type AppCommand = z.infer<typeof AppCommand>;

// =============================================================================================
// The channel table
// =============================================================================================

type Schema = z.ZodType;
export interface CallDef<I extends Schema = Schema, O extends Schema = Schema> {
  readonly kind: 'query' | 'mutation';
  readonly input: I;
  readonly output: O;
}
export interface EventDef<P extends Schema = Schema> {
  readonly kind: 'event';
  readonly payload: P;
}
const query = <I extends Schema, O extends Schema>(input: I, output: O): CallDef<I, O> => ({ kind: 'query', input, output });
const mutation = <I extends Schema, O extends Schema>(input: I, output: O): CallDef<I, O> => ({ kind: 'mutation', input, output });
const event = <P extends Schema>(payload: P): EventDef<P> => ({ kind: 'event', payload });

export const CONTRACT = {
  'db.info': query(NoInput, DbState),
  'db.recent': query(NoInput, z.strictObject({ entries: z.array(RecentEntry) })),
  'db.open': mutation(DbOpenInput, DbOpenResult),
  'db.close': mutation(NoInput, DbState),
  /** The user trusts the objects the open file holds that Statelens did not create: reopens it
   * for writing (deletions still never report their text as removed while they exist). */
  'db.trustForeignObjects': mutation(NoInput, DbState),
  /** Opens a PostgreSQL server's memory instead of a file (desktop); reads like any database. */
  'db.connect': mutation(DbConnectInput, DbConnectResult),
  'db.recentServers': query(NoInput, z.strictObject({ servers: z.array(RecentServer).max(MAX_RECENT) })),

  'partitions.list': query(PartitionsListInput, z.strictObject({ partitions: z.array(PartitionSummary) })),

  'facts.list': query(FactsListInput, FactPage),
  'facts.get': query(FactGetInput, FactDetail),
  /** Read-only: the search over every partition of the open store (bounded per partition and in
   * partitions), grouped by partition. */
  'facts.searchAll': query(FactsSearchAllInput, FactsSearchAllOutput),
  'facts.chain': query(FactRef, FactDetail.shape.chain),
  /** Read-only: key, value snippet and status of the given facts, in the order asked; facts that
   * no longer exist (deleted) are left out, so a caller can say so. */
  'facts.briefs': query(FactBriefsInput, z.strictObject({ briefs: z.array(FactBrief).max(MAX_BRIEF_IDS) })),
  'facts.neighbourhood': query(NeighbourhoodInput, Neighbourhood),
  /** Read-only: change counts over the partition's history (time travel's density strip). */
  'facts.timeline': query(TimelineInput, Timeline),
  /** Read-only: facts that became valid, were superseded or invalidated, or were deleted between two instants. */
  'facts.changes': query(FactChangesInput, FactChanges),

  'review.queue': query(ReviewQueueInput, ReviewQueuePage),
  /** Read-only: the queue grouped by the upstream change that raised the flags, largest first. */
  'review.groups': query(PartitionInput, ReviewGroups),
  'review.dismiss': mutation(ReviewDismissInput, DismissResult),
  /** Clears every flag of one cause group; undone like any dismissal (`review.undoDismiss`). */
  'review.dismissCause': mutation(ReviewDismissCauseInput, DismissCauseResult),
  /** Restores flags (with their causes) only; never creates or edits a fact. */
  'review.undoDismiss': mutation(ReviewUndoDismissInput, RestoreReviewResult),

  'deletion.preview': query(DeletionPreviewInput, DeletionPreview),
  'deletion.apply': mutation(DeletionApplyInput, DeletionResult),

  'context.assemble': query(AssembleInput, AssemblyResult),
  'context.compare': query(CompareInput, z.strictObject({ results: z.array(AssemblyResult) })),

  'sessions.list': query(PartitionInput, z.strictObject({ sessions: z.array(SessionSummary).max(MAX_LISTED), truncated: z.boolean() })),
  'agentState.get': query(SessionInput, AgentStateRecord),
  /** Read-only: a session's working items (turns, notes), expired ones included and marked by `expiresAt`. */
  'workingItems.list': query(SessionInput, z.strictObject({ items: z.array(WorkingItem).max(MAX_LISTED), truncated: z.boolean() })),
  'contextDocuments.get': query(ContextDocumentInput, z.strictObject({ document: ContextDocumentVersion.nullable() })),
  'contextDocuments.versions': query(SessionInput, z.strictObject({ versions: z.array(ContextDocumentVersionSummary) })),
  'documents.list': query(PartitionInput, z.strictObject({ documents: z.array(OrgDocument).max(MAX_LISTED), truncated: z.boolean() })),
  'savedQueries.list': query(PartitionInput, z.strictObject({ queries: z.array(SavedQuery).max(MAX_LISTED), truncated: z.boolean() })),
  'audit.list': query(AuditListInput, z.strictObject({ entries: z.array(AuditEntry), nextBeforeId: z.number().int().nullable() })),

  'export.start': mutation(ExportStartInput, ExportResult),
  'export.cancel': mutation(z.strictObject({ operationId: OperationId }), z.strictObject({ cancelled: z.boolean() })),

  progress: event(Progress),
  'data.changed': event(DataChanged),
  'agentState.changed': event(AgentStateChanged),
  'app.command': event(AppCommand),
} as const;

export type Contract = typeof CONTRACT;
export type ChannelName = keyof Contract;
export type CallChannel = { [K in ChannelName]: Contract[K] extends CallDef ? K : never }[ChannelName];
export type EventChannel = { [K in ChannelName]: Contract[K] extends EventDef ? K : never }[ChannelName];
type CallOf<C extends CallChannel> = Contract[C] extends CallDef<infer I, infer O> ? { input: I; output: O } : never;
type EventOf<E extends EventChannel> = Contract[E] extends EventDef<infer P> ? P : never;

/** What a caller passes (defaults may be omitted). */
export type ChannelInput<C extends CallChannel> = z.input<CallOf<C>['input']>;
/** What a handler receives after parsing (defaults filled). */
export type ParsedInput<C extends CallChannel> = z.output<CallOf<C>['input']>;
export type ChannelOutput<C extends CallChannel> = z.output<CallOf<C>['output']>;
export type EventPayload<E extends EventChannel> = z.output<EventOf<E>>;

export const CALL_CHANNELS = (Object.keys(CONTRACT) as ChannelName[]).filter((k): k is CallChannel => CONTRACT[k].kind !== 'event');
export const EVENT_CHANNELS = (Object.keys(CONTRACT) as ChannelName[]).filter((k): k is EventChannel => CONTRACT[k].kind === 'event');

/** The call channels the host answers itself, combining the engine with native dialogs, files
 * and recent lists (electron/handlers). Every other call channel is engine-backed: its handler
 * forwards the parsed input to the engine worker's operation of the same name, so a new read
 * is its entry in CONTRACT plus its operation (electron/engine-host/operations.ts). */
export const HOST_CHANNELS = [
  'db.info',
  'db.recent',
  'db.open',
  'db.close',
  'db.trustForeignObjects',
  'db.connect',
  'db.recentServers',
  'export.start',
  'export.cancel',
] as const satisfies readonly CallChannel[];
export type HostChannel = (typeof HOST_CHANNELS)[number];
export type EngineChannel = Exclude<CallChannel, HostChannel>;
export const ENGINE_CHANNELS = CALL_CHANNELS.filter((c): c is EngineChannel => !(HOST_CHANNELS as readonly CallChannel[]).includes(c));

export function isCallChannel(name: unknown): name is CallChannel {
  return typeof name === 'string' && Object.hasOwn(CONTRACT, name) && CONTRACT[name as ChannelName].kind !== 'event';
}
export function isEventChannel(name: unknown): name is EventChannel {
  return typeof name === 'string' && Object.hasOwn(CONTRACT, name) && CONTRACT[name as ChannelName].kind === 'event';
}

export function callDef(name: CallChannel): CallDef {
  return CONTRACT[name] as CallDef;
}
export function eventDef(name: EventChannel): EventDef {
  return CONTRACT[name] as EventDef;
}

// =============================================================================================
// The wire: what crosses IPC and HTTP, and the bridge the preload exposes as `window.statelens`
// =============================================================================================

/** Calls never reject across the bridge (Electron would drop the error's fields); they resolve
 * to this envelope and the renderer's transport turns `ok: false` into a thrown StatelensError. */
export type CallResult<T> = { ok: true; value: T } | { ok: false; error: ErrorShape };
export const callResultSchema = <O extends Schema>(output: O) =>
  z.discriminatedUnion('ok', [z.strictObject({ ok: z.literal(true), value: output }), z.strictObject({ ok: z.literal(false), error: ErrorShape })]);

/** IPC channel names: one per contract entry, all under one prefix the registrar owns. */
export const IPC_PREFIX = 'statelens:';
export const ipcCallChannel = (name: CallChannel): string => `${IPC_PREFIX}call:${name}`;
export const ipcEventChannel = (name: EventChannel): string => `${IPC_PREFIX}event:${name}`;

/** HTTP: POST /api/<channel> with a JSON body; events on GET /api/events (server-sent events). */
export const HTTP_API_PREFIX = '/api/';
export const HTTP_EVENTS_PATH = '/api/events';
export const TOKEN_HEADER = 'x-statelens-token';
export const TOKEN_QUERY = 'token';

type Namespace<C extends string> = C extends `${infer N}.${string}` ? N : never;
type Method<C extends string, N extends string> = C extends `${N}.${infer M}` ? M : never;
type CallFn<C extends CallChannel> =
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- "no required keys" test
  {} extends ChannelInput<C>
    ? (input?: ChannelInput<C>) => Promise<CallResult<ChannelOutput<C>>>
    : (input: ChannelInput<C>) => Promise<CallResult<ChannelOutput<C>>>;

/** `window.statelens`: one function per call channel, grouped by namespace (`facts.list` is
 * `statelens.facts.list`), and `on` for the contract's events. Nothing else. */
export type StatelensBridge = {
  readonly [N in Namespace<CallChannel>]: { readonly [M in Method<CallChannel, N>]: `${N}.${M}` extends CallChannel ? CallFn<`${N}.${M}`> : never };
} & {
  readonly on: <E extends EventChannel>(event: E, listener: (payload: EventPayload<E>) => void) => () => void;
};

/** Splits `facts.list` into its namespace and method (the bridge's shape). */
export function splitChannel(name: CallChannel): [string, string] {
  const dot = name.indexOf('.');
  return [name.slice(0, dot), name.slice(dot + 1)];
}

/** The bridge's namespaces and their methods, derived from the table (the preload builds from it). */
export function bridgeLayout(): Record<string, Array<[method: string, channel: CallChannel]>> {
  const layout: Record<string, Array<[string, CallChannel]>> = {};
  for (const c of CALL_CHANNELS) {
    const [ns, m] = splitChannel(c);
    (layout[ns] ??= []).push([m, c]);
  }
  return layout;
}

/** A cheap, early-exiting check run before any schema: the input must be plain JSON data (no
 * Map, typed array, Date or class instance that structured clone can carry over IPC), at most
 * `maxBytes` large and `maxDepth` deep. Returns why it is refused, or undefined. */
export function payloadProblem(value: unknown, maxBytes = MAX_PAYLOAD_BYTES, maxDepth = MAX_PAYLOAD_DEPTH): string | undefined {
  let bytes = 0;
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop() as [unknown, number];
    if (depth > maxDepth) return `nested deeper than ${maxDepth} levels`;
    if (typeof v === 'string') bytes += v.length + 2;
    else if (v === null || v === undefined || typeof v === 'number' || typeof v === 'boolean') bytes += 8;
    else if (Array.isArray(v)) {
      bytes += 2 + v.length * 8;
      if (bytes > maxBytes) return `larger than ${maxBytes} bytes`;
      for (const x of v) stack.push([x, depth + 1]);
    } else if (typeof v === 'object' && (Object.getPrototypeOf(v) === Object.prototype || Object.getPrototypeOf(v) === null)) {
      const entries = Object.entries(v);
      bytes += 2 + entries.length * 8;
      if (bytes > maxBytes) return `larger than ${maxBytes} bytes`;
      for (const [k, x] of entries) {
        bytes += k.length + 3;
        stack.push([x, depth + 1]);
      }
    } else {
      return `contains a value that is not plain JSON data (${typeof v === 'object' ? (Object.getPrototypeOf(v)?.constructor?.name ?? 'object') : typeof v})`;
    }
    if (bytes > maxBytes) return `larger than ${maxBytes} bytes`;
  }
  return undefined;
}
