// What the engine's read side answers the inspector: pages of fact rows with search matches,
// a fact's detail, its dependency neighbourhood, the review queue, sessions and context
// document summaries. Result schemas only; requests use shared/query.ts where they can.
import { z } from 'zod';
import { AuditEntry, Fact, FactStatus, MemoryType, Source } from './domain';
import { Timestamp } from './timestamp';

/** Characters of a fact's value a table row carries; the detail view has the whole text. */
export const VALUE_PREVIEW_CHARS = 300;
/** Totals are counted up to this many rows; beyond it the UI says "10,000+". */
export const TOTAL_COUNT_CAP = 10_000;
export const MAX_HOPS = 5;
export const MAX_GRAPH_NODES = 5000;
export const MAX_DISMISS_IDS = 10_000;

/** [start, end) offsets, in UTF-16 code units, into the string the range belongs to. */
export const TextRange = z.tuple([z.number().int().nonnegative(), z.number().int().nonnegative()]);
export type TextRange = z.infer<typeof TextRange>;

/** Where a full-text search matched, as ranges into the row's `key` and `value` strings.
 * The UI renders these as text spans, never as markup. */
export const SearchMatch = z.strictObject({
  key: z.array(TextRange),
  value: z.array(TextRange),
});
export type SearchMatch = z.infer<typeof SearchMatch>;

/** A fact as one row of the memories table: every shown column, the value as a preview. */
export const FactRowView = Fact.pick({
  id: true,
  label: true,
  key: true,
  ts: true,
  createdAt: true,
  lastAccessedAt: true,
  accessCount: true,
  importance: true,
  memoryType: true,
  level: true,
  scope: true,
  scopeId: true,
  status: true,
  isValid: true,
  supersededBy: true,
  supersedes: true,
  supersessionRule: true,
  proposalFor: true,
  needsReview: true,
  isConstraint: true,
  constraintType: true,
}).extend({
  /** Up to VALUE_PREVIEW_CHARS of the value; with a search, the window around the first match. */
  value: z.string(),
  /** Offset of `value` in the whole value (non-zero only when a search moved the window). */
  valueOffset: z.number().int().nonnegative(),
  /** Length of the whole value in characters. */
  valueLength: z.number().int().nonnegative(),
  valueClippedStart: z.boolean(),
  valueClippedEnd: z.boolean(),
  source: Source.pick({ type: true, identity: true, authority: true }),
  match: SearchMatch.nullable(),
});
export type FactRowView = z.infer<typeof FactRowView>;

/** A count that stops at TOTAL_COUNT_CAP: `capped` means "at least `count`". */
export const CappedCount = z.strictObject({ count: z.number().int().nonnegative(), capped: z.boolean() });
export type CappedCount = z.infer<typeof CappedCount>;

export const FactPage = z.strictObject({
  rows: z.array(FactRowView),
  /** Pass back as `page.after` for the next page; null on the last page. */
  nextCursor: z.string().nullable(),
  /** Counted on the first page only (no `after`); null on later pages. */
  total: CappedCount.nullable(),
});
export type FactPage = z.infer<typeof FactPage>;

/** A short reference to another fact, enough to show and link it (`value` is a preview). */
export const FactBrief = Fact.pick({
  id: true,
  key: true,
  value: true,
  status: true,
  isValid: true,
  needsReview: true,
  memoryType: true,
  ts: true,
  supersessionRule: true,
});
export type FactBrief = z.infer<typeof FactBrief>;

/** The conversation turn that contradicted a fact without the engine being sure enough to
 * supersede it: where it was said, by whom, and the change cue it carried. */
export const TurnCause = z.strictObject({
  workingItemId: z.string(),
  sessionId: z.string().nullable(),
  turnIndex: z.number().int().nullable(),
  speaker: z.string().nullable(),
  /** The turn as said, or null once it is gone from the working set. */
  text: z.string().nullable(),
  cue: z.string(),
});
export type TurnCause = z.infer<typeof TurnCause>;

/** Why a fact needs review: the recorded cause and the upstream fact that changed, or the turn. */
/** Between a review cause and the earlier ones it followed (newest first) in the stored text. */
export const EARLIER_CAUSE_SEPARATOR = '\nearlier: ';
export const MAX_REVIEW_CAUSE_CHARS = 4000;

/** The stored cause text split into the latest cause and the earlier ones, newest first. */
export function splitReviewCauses(text: string | null): { text: string | null; earlier: string[] } {
  if (text === null) return { text, earlier: [] };
  const [latest = '', ...earlier] = text.split(EARLIER_CAUSE_SEPARATOR);
  return { text: latest, earlier };
}

export const ReviewCause = z.strictObject({
  /** The latest cause. */
  text: z.string().nullable(),
  /** Causes recorded before it while the fact still awaited review, newest first. */
  earlier: z.array(z.string()),
  causeFactId: z.string().nullable(),
  /** Set when a conversation turn, not a fact, raised the flag. */
  turn: TurnCause.nullable(),
  /** The upstream fact, or null when it no longer exists (deleted). */
  cause: FactBrief.nullable(),
  /** The fact that superseded the upstream fact, when it was superseded. */
  replacement: FactBrief.nullable(),
  /** When the upstream fact was deleted: what the audit log knows of it (its text is gone with
   * it, by design): which fact, who deleted it, when, and the audit entry. */
  deleted: z
    .strictObject({ factId: z.string(), deletedBy: z.string(), deletedAt: z.string(), auditId: z.number().int(), reason: z.string().nullable() })
    .nullable(),
});
export type ReviewCause = z.infer<typeof ReviewCause>;

/** How a fact stood at an instant: `valid` then; `not-yet` recorded after it; `ended` (its
 * window closed by then: superseded or replaced); `never` (a proposal, or a late write that
 * never took effect). */
export const AsOfState = z.enum(['valid', 'not-yet', 'ended', 'never']);
export type AsOfState = z.infer<typeof AsOfState>;

/** The fact detail as of a past instant. The detail's `dependsOn` / `derivedFacts` then hold
 * only the facts recorded by that instant, with their status as it was then. */
export const FactAsOf = z.strictObject({
  at: z.string(),
  state: AsOfState,
  /** When this fact was not the valid one: the version of its chain that was valid then. */
  validVersion: FactBrief.nullable(),
  /** Edges to facts recorded only after the instant (left out of the lists). */
  laterEdges: z.number().int().nonnegative(),
});
export type FactAsOf = z.infer<typeof FactAsOf>;

/** Where a deletion reaches beyond Statelens: the source system and its file. */
export const SourceDeletion = z.strictObject({ system: z.string().max(40), file: z.string().max(4096) });
export type SourceDeletion = z.infer<typeof SourceDeletion>;

export const FactDetail = z.strictObject({
  fact: Fact,
  /** The supersession chain the fact belongs to (for a proposal: the chain it was made against). */
  chain: z.strictObject({ versions: z.array(Fact), proposals: z.array(Fact) }),
  dependsOn: z.array(FactBrief),
  derivedFacts: z.array(FactBrief),
  /** True when a fact has more edges than the detail lists (the ids are all in `fact`). */
  edgesTruncated: z.boolean(),
  reviewCause: ReviewCause.nullable(),
  audit: z.array(AuditEntry),
  /** Set when the detail was asked as of a past instant (time travel). */
  asOf: FactAsOf.nullable(),
  /** Set when deleting the fact also removes it where it came from: it was imported from a file
   * a watcher keeps in step (`statelens import mcp-memory --watch`). Null: deleted in Statelens only. */
  sourceDeletion: SourceDeletion.nullable(),
});
export type FactDetail = z.infer<typeof FactDetail>;

export const NeighbourhoodRequest = z.strictObject({
  hops: z.number().int().min(1).max(MAX_HOPS).default(2),
  maxNodes: z.number().int().min(1).max(MAX_GRAPH_NODES).default(2000),
  /** Time travel: each node's validity and status as they stood at this instant. */
  asOf: Timestamp.optional(),
});
export type NeighbourhoodRequest = z.infer<typeof NeighbourhoodRequest>;
export type NeighbourhoodRequestInput = z.input<typeof NeighbourhoodRequest>;

export const GraphNode = z.strictObject({
  id: z.string(),
  key: z.string(),
  /** A short preview of the value (graph labels). */
  value: z.string(),
  isValid: z.boolean(),
  needsReview: z.boolean(),
  memoryType: MemoryType,
  status: FactStatus,
  /** Hops from the root; null for a node reached only through the propagation path. */
  hop: z.number().int().nonnegative().nullable(),
  reviewCauseFact: z.string().nullable(),
  /** Asked as of an instant: how the fact stood then (`isValid` and `status` are then's too). */
  asOf: AsOfState.optional(),
});
export type GraphNode = z.infer<typeof GraphNode>;

/** `from` depends on `to` (dependent -> depends_on). */
export const GraphEdge = z.strictObject({ from: z.string(), to: z.string() });
export type GraphEdge = z.infer<typeof GraphEdge>;

/** How a needs_review flag travelled: fact ids from the changed upstream fact to the flagged
 * one, each depending on the one before; null when no path exists any more. */
export const PropagationPath = z.strictObject({
  factId: z.string(),
  causeFactId: z.string(),
  causeExists: z.boolean(),
  path: z.array(z.string()).nullable(),
});
export type PropagationPath = z.infer<typeof PropagationPath>;

export const Neighbourhood = z.strictObject({
  rootId: z.string(),
  hops: z.number().int(),
  nodes: z.array(GraphNode),
  edges: z.array(GraphEdge),
  /** True when maxNodes (or the edge cap) cut the neighbourhood short. */
  truncated: z.boolean(),
  /** When cut short: how many facts the whole neighbourhood within `hops` holds, counted up to a
   * bound (`atLeast` when the count stopped there). */
  fullSize: z.strictObject({ nodes: z.number().int().nonnegative(), atLeast: z.boolean() }).nullable(),
  /** For a root that needs review: the path its flag took (its nodes are in `nodes`). */
  propagation: PropagationPath.nullable(),
});
export type Neighbourhood = z.infer<typeof Neighbourhood>;

export const ReviewQueueEntry = z.strictObject({
  fact: FactRowView,
  cause: ReviewCause,
});
export type ReviewQueueEntry = z.infer<typeof ReviewQueueEntry>;

export const ReviewQueuePage = z.strictObject({
  entries: z.array(ReviewQueueEntry),
  nextCursor: z.string().nullable(),
  /** Every needs_review fact in the partition (exact). */
  total: z.number().int().nonnegative(),
});
export type ReviewQueuePage = z.infer<typeof ReviewQueuePage>;

export const DismissReviewRequest = z.strictObject({
  ids: z.array(z.string().min(1).max(200)).min(1).max(MAX_DISMISS_IDS),
  actor: z.string().min(1).max(200),
  reason: z.string().max(2000).optional(),
});
export type DismissReviewRequest = z.infer<typeof DismissReviewRequest>;

export const DismissResult = z.strictObject({
  dismissed: z.array(z.string()),
  /** Ids of facts in the partition that were not flagged (left untouched). */
  notFlagged: z.array(z.string()),
  auditId: z.number().int().nullable(),
});
export type DismissResult = z.infer<typeof DismissResult>;

/** Undo of one dismissal, named by the audit entry the dismissal returned. */
export const UndoDismissRequest = z.strictObject({
  auditId: z.number().int().positive(),
  actor: z.string().min(1).max(200),
});
export type UndoDismissRequest = z.infer<typeof UndoDismissRequest>;

export const RestoreReviewResult = z.strictObject({
  /** Facts whose flag (and cause) is back. */
  restored: z.array(z.string()),
  auditId: z.number().int(),
});
export type RestoreReviewResult = z.infer<typeof RestoreReviewResult>;

/** A session of a partition: anything that has agent state, context documents or working items. */
export const SessionSummary = z.strictObject({
  sessionId: z.string(),
  workingItems: z.number().int().nonnegative(),
  hasAgentState: z.boolean(),
  contextDocumentVersions: z.number().int().nonnegative(),
  lastActivityAt: z.string().nullable(),
});
export type SessionSummary = z.infer<typeof SessionSummary>;

export const ContextDocumentVersionSummary = z.strictObject({
  version: z.number().int(),
  createdAt: z.string(),
  words: z.number().int().nonnegative(),
});
export type ContextDocumentVersionSummary = z.infer<typeof ContextDocumentVersionSummary>;

// --- Time travel ---------------------------------------------------------------------------------

/** Most buckets a timeline answer holds (a density strip a few hundred pixels wide). */
export const MAX_TIMELINE_BUCKETS = 400;
/** Most changes one `facts.changes` answer lists (the totals still count every one). */
export const MAX_CHANGES = 500;

/** One slice of a partition's history: facts that took effect in it (their time) and facts
 * whose validity ended in it (superseded or replaced). */
export const TimelineBucket = z.strictObject({
  start: z.string(),
  added: z.number().int().nonnegative(),
  ended: z.number().int().nonnegative(),
});
export type TimelineBucket = z.infer<typeof TimelineBucket>;

/** A partition's history in equal slices from its oldest to its newest fact time; `first` and
 * `last` are null for a partition without facts. */
export const Timeline = z.strictObject({
  first: z.string().nullable(),
  last: z.string().nullable(),
  buckets: z.array(TimelineBucket).max(MAX_TIMELINE_BUCKETS),
});
export type Timeline = z.infer<typeof Timeline>;

/** What happened to a fact between two instants: it became valid, it was superseded (by
 * `by`), its validity ended without a successor (invalidated), or it was deleted. */
export const ChangeKind = z.enum(['became-valid', 'superseded', 'invalidated', 'deleted']);
export type ChangeKind = z.infer<typeof ChangeKind>;

export const FactChange = z.strictObject({
  kind: ChangeKind,
  at: z.string(),
  factId: z.string(),
  /** The fact that superseded it (kind `superseded`), else null. */
  by: z.string().nullable(),
});
export type FactChange = z.infer<typeof FactChange>;

export const FactChanges = z.strictObject({
  /** The instants compared, earlier first (the caller's order does not matter). */
  from: z.string(),
  to: z.string(),
  /** In time order, at most the limit asked for. */
  changes: z.array(FactChange).max(MAX_CHANGES),
  totals: z.strictObject({
    'became-valid': z.number().int().nonnegative(),
    superseded: z.number().int().nonnegative(),
    invalidated: z.number().int().nonnegative(),
    deleted: z.number().int().nonnegative(),
  }),
  truncated: z.boolean(),
});
export type FactChanges = z.infer<typeof FactChanges>;

/** Most cause groups one `review.groups` answer lists (the rest is announced by `truncated`). */
export const MAX_REVIEW_GROUPS = 500;

/** The flags that rest on one upstream change: the fact that changed (or, for flags a
 * conversation turn raised, none) and how it changed, with how many flags it left. */
export const ReviewGroup = z.strictObject({
  /** The upstream fact; null groups the flags no fact raised (conversation turns, older causes). */
  causeFactId: z.string().nullable(),
  count: z.number().int().positive(),
  /** The upstream fact as it is now, or null when it no longer exists (deleted). */
  cause: FactBrief.nullable(),
  /** The fact that superseded the upstream fact, when it was superseded. */
  replacement: FactBrief.nullable(),
  /** When the upstream fact was deleted: who, when, why (its text went with it). */
  deleted: ReviewCause.shape.deleted,
  /** The latest recorded cause of the group's newest flag (e.g. "deleted by root at …"). */
  text: z.string().nullable(),
});
export type ReviewGroup = z.infer<typeof ReviewGroup>;

export const ReviewGroups = z.strictObject({
  /** Largest group first. */
  groups: z.array(ReviewGroup).max(MAX_REVIEW_GROUPS),
  truncated: z.boolean(),
  /** Every needs_review fact in the partition (exact). */
  total: z.number().int().nonnegative(),
});
export type ReviewGroups = z.infer<typeof ReviewGroups>;

/** A group-level dismissal: like `DismissResult`; `remaining` counts flags of the group left for
 * a further request (one request clears at most MAX_DISMISS_IDS). */
export const DismissCauseResult = z.strictObject({ ...DismissResult.shape, remaining: z.number().int().nonnegative() });
export type DismissCauseResult = z.infer<typeof DismissCauseResult>;
