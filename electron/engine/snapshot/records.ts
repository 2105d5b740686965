// The snapshot record source: every row of every layer of one partition (or of the whole
// database) as typed records, in dependency order, read lazily with `.iterate()` so memory stays
// flat whatever the store's size. Callers hold one read transaction around the whole walk.
// A selection (a filtered or as-of export) narrows the facts and, as of a time, the other layers.
import type { SnapshotRecord, SnapshotRecordType } from '../../../shared/snapshot';
import { SNAPSHOT_RECORD_ORDER } from '../../../shared/snapshot';
import { auditRowToEntry } from '../audit/audit';
import type { EngineDb } from '../db/connection';
import { FACT_COLUMNS, rowToFact, type FactRow } from '../facts/rows';
import { DEFAULT_SESSION, identityFromRow, type IdentityRow } from '../layers/identity';
import { workingItemFromRow, type WorkingRow } from '../layers/working-set';
import { refFromRow, type PartitionRow } from '../partitions/partitions';
import { existedBy, factAsExported, SELECTED_SQL, type ExportSelection } from './selection';

type Counts = Record<SnapshotRecordType, number>;

/** `@p` is the partition id, or NULL for the whole database. */
const COUNT_SQL: Record<SnapshotRecordType, string> = {
  partition: 'SELECT count(*) FROM partitions WHERE @p IS NULL OR id = @p',
  identity: 'SELECT count(*) FROM identities WHERE @p IS NULL OR partition_id = @p',
  fact: 'SELECT count(*) FROM facts WHERE @p IS NULL OR partition_id = @p',
  edge: 'SELECT count(*) FROM fact_edges WHERE @p IS NULL OR partition_id = @p',
  working_item: 'SELECT count(*) FROM working_items WHERE @p IS NULL OR partition_id = @p',
  environment: 'SELECT count(*) FROM environment_signals WHERE @p IS NULL OR partition_id = @p',
  org_document: 'SELECT count(*) FROM org_documents WHERE @p IS NULL OR partition_id = @p',
  saved_query: 'SELECT count(*) FROM saved_queries WHERE @p IS NULL OR partition_id = @p',
  agent_state: 'SELECT count(*) FROM agent_states WHERE @p IS NULL OR partition_id = @p',
  context_document: 'SELECT count(*) FROM context_documents WHERE @p IS NULL OR partition_id = @p',
  audit: 'SELECT count(*) FROM audit_log WHERE @p IS NULL OR partition_id = @p',
};

/** Records of each type in the scope; with a selection, facts count exactly and the other
 * layers at most (the figures size progress, not the file). */
export function countRecords(db: EngineDb, partitionId: number | null, selection?: ExportSelection): Counts {
  const counts = {} as Counts;
  for (const type of SNAPSHOT_RECORD_ORDER) counts[type] = db.prepare(COUNT_SQL[type]).pluck().get({ p: partitionId }) as number;
  if (selection) counts.fact = selection.facts;
  return counts;
}

export function totalOf(counts: Partial<Record<string, number>>): number {
  return Object.values(counts).reduce<number>((a, b) => a + (b ?? 0), 0);
}

function* rows<R>(db: EngineDb, sql: string, partitionId: number | null): Generator<R> {
  yield* db.prepare(sql).iterate({ p: partitionId }) as IterableIterator<R>;
}

/** Every record of the scope, in SNAPSHOT_RECORD_ORDER; within a type, in a stable order that
 * an import into an empty database reproduces (so export -> import -> export is identical). */
export function* iterateRecords(db: EngineDb, partitionId: number | null, selection?: ExportSelection): Generator<SnapshotRecord> {
  const by = (at: string | null | undefined): boolean => existedBy(at, selection);
  for (const r of rows<PartitionRow>(db, 'SELECT * FROM partitions WHERE @p IS NULL OR id = @p ORDER BY id', partitionId)) {
    yield { type: 'partition', id: r.id, ref: refFromRow(r), maturity: r.maturity, createdAt: r.created_at };
  }
  for (const r of rows<IdentityRow & { partition_id: number }>(
    db,
    'SELECT * FROM identities WHERE @p IS NULL OR partition_id = @p ORDER BY partition_id, session_id',
    partitionId,
  )) {
    // The default session's identity is written as every snapshot before sessions wrote it, so
    // an earlier Statelens still reads a snapshot whose identities are the partition-level ones.
    yield {
      type: 'identity',
      partition: r.partition_id,
      ...(r.session_id === DEFAULT_SESSION ? {} : { sessionId: r.session_id }),
      identity: identityFromRow(r),
    };
  }
  const selected = selection ? ` AND ${SELECTED_SQL}` : '';
  for (const r of rows<FactRow>(db, `SELECT ${FACT_COLUMNS} FROM facts f WHERE (@p IS NULL OR f.partition_id = @p)${selected} ORDER BY f.rid`, partitionId)) {
    const { dependsOn: _d, derivedFacts: _f, ...fact } = rowToFact(factAsExported(r, selection));
    yield { type: 'fact', partition: r.partition_id, fact };
  }
  for (const r of rows<{ partition_id: number; dependent: string; depends_on: string }>(
    db,
    `SELECT partition_id, dependent, depends_on FROM fact_edges WHERE (@p IS NULL OR partition_id = @p)${
      selection ? ` AND dependent IN (SELECT f.id FROM facts f WHERE ${SELECTED_SQL}) AND depends_on IN (SELECT f.id FROM facts f WHERE ${SELECTED_SQL})` : ''
    } ORDER BY dependent, depends_on`,
    partitionId,
  )) {
    yield { type: 'edge', partition: r.partition_id, dependent: r.dependent, dependsOn: r.depends_on };
  }
  for (const r of rows<WorkingRow & { partition_id: number }>(
    db,
    'SELECT * FROM working_items WHERE @p IS NULL OR partition_id = @p ORDER BY rid',
    partitionId,
  )) {
    if (!by(r.created_at)) continue;
    yield {
      type: 'working_item',
      partition: r.partition_id,
      item: workingItemFromRow(r),
    };
  }
  for (const r of rows<{ partition_id: number; key: string; value: string; observed_at: string }>(
    db,
    'SELECT * FROM environment_signals WHERE @p IS NULL OR partition_id = @p ORDER BY partition_id, key, observed_at',
    partitionId,
  )) {
    if (!by(r.observed_at)) continue;
    yield { type: 'environment', partition: r.partition_id, signal: { key: r.key, value: r.value, observedAt: r.observed_at } };
  }
  for (const r of rows<{ partition_id: number; id: string; title: string; body: string; acl: string; created_at: string }>(
    db,
    'SELECT * FROM org_documents WHERE @p IS NULL OR partition_id = @p ORDER BY rid',
    partitionId,
  )) {
    if (!by(r.created_at)) continue;
    yield {
      type: 'org_document',
      partition: r.partition_id,
      document: { id: r.id, title: r.title, body: r.body, acl: JSON.parse(r.acl) as string[], createdAt: r.created_at },
    };
  }
  for (const r of rows<{ partition_id: number; id: number; label: string; prompt: string; ts: string | null; ground_truth: string | null }>(
    db,
    'SELECT * FROM saved_queries WHERE @p IS NULL OR partition_id = @p ORDER BY id',
    partitionId,
  )) {
    yield {
      type: 'saved_query',
      partition: r.partition_id,
      query: {
        id: r.id,
        label: r.label,
        prompt: r.prompt,
        ts: r.ts,
        groundTruth: r.ground_truth ? (JSON.parse(r.ground_truth) as Record<string, unknown>) : null,
      },
    };
  }
  for (const r of rows<{ partition_id: number; session_id: string; state: string; updated_at: string }>(
    db,
    'SELECT * FROM agent_states WHERE @p IS NULL OR partition_id = @p ORDER BY partition_id, session_id',
    partitionId,
  )) {
    // Agent state keeps no history: as of an earlier time than its last update it is left out.
    if (!by(r.updated_at)) continue;
    yield {
      type: 'agent_state',
      partition: r.partition_id,
      sessionId: r.session_id,
      state: JSON.parse(r.state) as Record<string, unknown>,
      updatedAt: r.updated_at,
    };
  }
  for (const r of rows<{ partition_id: number; session_id: string; version: number; body: string; created_at: string }>(
    db,
    'SELECT * FROM context_documents WHERE @p IS NULL OR partition_id = @p ORDER BY partition_id, session_id, version',
    partitionId,
  )) {
    if (!by(r.created_at)) continue;
    yield {
      type: 'context_document',
      partition: r.partition_id,
      document: { sessionId: r.session_id, version: r.version, body: r.body, createdAt: r.created_at },
    };
  }
  for (const r of rows<Parameters<typeof auditRowToEntry>[0]>(db, 'SELECT * FROM audit_log WHERE @p IS NULL OR partition_id = @p ORDER BY id', partitionId)) {
    if (!by(r.at)) continue;
    yield { type: 'audit', entry: auditRowToEntry(r) };
  }
}
