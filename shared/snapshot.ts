// The snapshot format (a versioned record stream of every layer of one partition or of the
// whole database) and the export vocabulary of the IPC contract. One definition validates
// what the exporter writes, what the importer accepts and what the UI asks for.
import { z } from 'zod';
import { AuditEntry, ContextDocumentVersion, EnvironmentSignal, Fact, Identity, Maturity, OrgDocument, PartitionRef, SavedQuery, WorkingItem } from './domain';
import { FactFilter } from './query';
import { Timestamp } from './timestamp';
import { MAX_VALUE_CHARS } from './writes';

export const SNAPSHOT_FORMAT = 'statelens-snapshot';
/** Bumped when a record changes shape; an importer refuses newer versions. */
export const SNAPSHOT_FORMAT_VERSION = 1;

export const EXPORT_FORMATS = ['json', 'ndjson', 'sqlite', 'markdown', 'csv', 'statebench'] as const;
export const ExportFormat = z.enum(EXPORT_FORMATS);
export type ExportFormat = z.infer<typeof ExportFormat>;

/** How each format's file name ends: JSON and StateBench are both JSON, so neither may end
 * in a bare `.json` that the other could also claim. */
export const EXPORT_FILE_SUFFIX: Readonly<Record<ExportFormat, string>> = {
  json: 'snapshot.json',
  ndjson: 'snapshot.ndjson',
  sqlite: 'db',
  markdown: 'md',
  csv: 'csv',
  statebench: 'statebench.json',
};

/** The part of a file name that says whose memory it holds: the people or the capability. */
export function partitionFileLabel(ref: PartitionRef | null): string {
  if (ref === null) return 'all-partitions';
  if (ref.kind === 'user') return `${ref.org}-${ref.user}`;
  if (ref.kind === 'capability') return `${ref.org}-${ref.capability}-capability`;
  return `${ref.org}-organisation`;
}

/** A file name that tells exports apart: database, partition, filtered or not, as-of time, format. */
export function exportFileName(o: { database: string; partition: PartitionRef | null; filtered: boolean; asOf: string | null; format: ExportFormat }): string {
  const asOf = o.asOf ? `-as-of-${o.asOf.replace(/\.\d+Z$/, 'Z').replace(/[-:]/g, '')}` : '';
  const name = `${o.database}-${partitionFileLabel(o.partition)}${o.filtered ? '-filtered' : ''}${asOf}.${EXPORT_FILE_SUFFIX[o.format]}`;
  return name.replace(/[^A-Za-z0-9._-]/g, '_');
}

/** What an export covers: the whole database or one partition (by its numeric id). */
export const ExportRequest = z.strictObject({
  format: ExportFormat,
  partitionId: z.number().int().positive().nullable().optional(),
  /** Export only the facts of this filtered view (the memories table's filter language; its
   * `asOf` exports the state as of that time), in any format. */
  filter: FactFilter.optional(),
});
export type ExportRequest = z.infer<typeof ExportRequest>;
export type ExportRequestInput = z.input<typeof ExportRequest>;

export const ExportProgress = z.strictObject({
  phase: z.string().max(100),
  done: z.number().int().nonnegative(),
  total: z.number().int().nonnegative(),
});
export type ExportProgress = z.infer<typeof ExportProgress>;

export const ExportSummary = z.strictObject({
  format: ExportFormat,
  path: z.string(),
  bytes: z.number().int().nonnegative(),
  records: z.number().int().nonnegative(),
  counts: z.record(z.string(), z.number().int().nonnegative()),
});
export type ExportSummary = z.infer<typeof ExportSummary>;

export const SnapshotScope = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('database') }),
  z.strictObject({ kind: z.literal('partition'), partition: PartitionRef }),
]);
export type SnapshotScope = z.infer<typeof SnapshotScope>;

export const SnapshotHeader = z.strictObject({
  type: z.literal('header'),
  format: z.literal(SNAPSHOT_FORMAT),
  formatVersion: z.literal(SNAPSHOT_FORMAT_VERSION),
  /** The database schema (user_version) the snapshot was taken from. */
  schemaVersion: z.number().int().positive(),
  exportedAt: z.string().max(64),
  generator: z.string().max(200),
  scope: SnapshotScope,
  /** Present when the snapshot holds only the facts of a filter (as of `filter.asOf` when set:
   * facts as they stood then, other layers as far as they existed by then). */
  selection: z.strictObject({ filter: FactFilter, facts: z.number().int().nonnegative() }).optional(),
});
export type SnapshotHeader = z.infer<typeof SnapshotHeader>;

const partitionId = z.number().int().positive();
const MAX_TEXT = 1_000_000;

/** A stored fact without its edges: dependency edges travel as their own records. */
export const SnapshotFact = Fact.omit({ dependsOn: true, derivedFacts: true })
  // The stored text of a value, bound by the same limit as every write.
  .extend({ value: z.string().max(MAX_VALUE_CHARS), ts: Timestamp })
  .refine((f) => f.isValid === (f.status === 'active'), { message: 'isValid must be true exactly when status is "active"', path: ['isValid'] })
  .refine((f) => !f.isValid || f.supersededBy === null, { message: 'a valid fact cannot have supersededBy', path: ['supersededBy'] });
export type SnapshotFact = z.infer<typeof SnapshotFact>;

export const SnapshotRecord = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('partition'), id: partitionId, ref: PartitionRef, maturity: Maturity.nullable(), createdAt: z.string().max(64) }),
  // One per session that set an identity; without sessionId (snapshots before identities were
  // kept per session), the default session's: the partition-level identity.
  z.strictObject({ type: z.literal('identity'), partition: partitionId, sessionId: z.string().min(1).max(200).optional(), identity: Identity }),
  z.strictObject({ type: z.literal('fact'), partition: partitionId, fact: SnapshotFact }),
  z.strictObject({ type: z.literal('edge'), partition: partitionId, dependent: z.string().min(1).max(200), dependsOn: z.string().min(1).max(200) }),
  z.strictObject({ type: z.literal('working_item'), partition: partitionId, item: WorkingItem.extend({ value: z.string().max(MAX_TEXT) }) }),
  z.strictObject({ type: z.literal('environment'), partition: partitionId, signal: EnvironmentSignal }),
  z.strictObject({ type: z.literal('org_document'), partition: partitionId, document: OrgDocument.extend({ body: z.string().max(MAX_TEXT) }) }),
  z.strictObject({ type: z.literal('saved_query'), partition: partitionId, query: SavedQuery }),
  z.strictObject({
    type: z.literal('agent_state'),
    partition: partitionId,
    sessionId: z.string().min(1).max(200),
    state: z.record(z.string(), z.unknown()),
    updatedAt: z.string().max(64),
  }),
  z.strictObject({ type: z.literal('context_document'), partition: partitionId, document: ContextDocumentVersion.extend({ body: z.string().max(MAX_TEXT) }) }),
  z.strictObject({ type: z.literal('audit'), entry: AuditEntry }),
]);
export type SnapshotRecord = z.infer<typeof SnapshotRecord>;
export type SnapshotRecordType = SnapshotRecord['type'];

/** Record types in the order they must appear (later records refer to earlier ones). */
export const SNAPSHOT_RECORD_ORDER: readonly SnapshotRecordType[] = [
  'partition',
  'identity',
  'fact',
  'edge',
  'working_item',
  'environment',
  'org_document',
  'saved_query',
  'agent_state',
  'context_document',
  'audit',
];

/** The last record: its counts prove the file is complete. */
export const SnapshotEnd = z.strictObject({
  type: z.literal('end'),
  records: z.number().int().nonnegative(),
  counts: z.record(z.string(), z.number().int().nonnegative()),
});
export type SnapshotEnd = z.infer<typeof SnapshotEnd>;
