// Restores snapshot records into an empty database, row for row (no inference, no new audit
// entries), checking what SQLite alone would report vaguely: record order, partition references,
// levels outside capability memory, edges across partitions, dangling chain pointers and the end
// record's counts. Runs inside the caller's transaction; any error names the line and field.
import { entityKey } from '../facts/entity';
import { z } from 'zod';
import { StatelensError } from '../../../shared/errors';
import { fieldIssues } from '../../../shared/issues';
import { SNAPSHOT_FORMAT, SNAPSHOT_FORMAT_VERSION, SNAPSHOT_RECORD_ORDER, SnapshotEnd, SnapshotHeader, SnapshotRecord } from '../../../shared/snapshot';
import type { EngineDb } from '../db/connection';
import { brokenConstraint } from '../db/dialect';
import { chainChecks } from '../verify/verify';
import { SCHEMA_VERSION } from '../db/migrations';
import { partitionSubject } from '../partitions/partitions';
import { DEFAULT_SESSION } from '../layers/identity';

/** Where a record came from, for error messages: "snap.ndjson line 12". */
export interface Location {
  readonly label: string;
  readonly line?: number;
}
/** Maps a record's sequence number (0 = header, then one per record, the end record last) to
 * its location; the importers know their file's layout, so only numbers are kept meanwhile. */
export type Locator = (seq: number) => Location;

export function importError(where: Location, field: string | undefined, message: string): StatelensError {
  return new StatelensError('IMPORT_FAILED', `${where.label}${field ? `: field ${field}` : ''}: ${message}`, {
    ...(where.line !== undefined ? { line: where.line } : {}),
    ...(field ? { field } : {}),
  });
}

/** A problem with one record; `apply` adds the location only when it reports it. */
class RecordError extends Error {
  constructor(
    readonly field: string | undefined,
    message: string,
  ) {
    super(message);
  }
}

function firstIssue(error: z.ZodError, prefix: string): { field: string; message: string } {
  const issue = fieldIssues(error, { root: '', max: 1 })[0];
  return { field: [prefix, issue?.field].filter(Boolean).join('.') || '(record)', message: issue?.message ?? 'invalid' };
}

/** Checks the header, telling a wrong format or a newer version apart from a malformed one. */
export function parseHeader(raw: unknown, where: Location): SnapshotHeader {
  try {
    return checkHeader(raw);
  } catch (e) {
    if (e instanceof RecordError) throw importError(where, e.field, e.message);
    throw e;
  }
}

function checkHeader(raw: unknown): SnapshotHeader {
  const loose = z.looseObject({ type: z.unknown(), format: z.unknown(), formatVersion: z.unknown(), schemaVersion: z.unknown() }).safeParse(raw);
  if (!loose.success) throw new RecordError(undefined, 'the first record must be the snapshot header object');
  const h = loose.data;
  if (h.type !== 'header') throw new RecordError('type', `the first record must be the header (type "header"), found ${JSON.stringify(h.type) ?? 'nothing'}`);
  if (h.format !== SNAPSHOT_FORMAT)
    throw new RecordError('format', `not a Statelens snapshot (format ${JSON.stringify(h.format) ?? 'missing'}, expected "${SNAPSHOT_FORMAT}")`);
  if (typeof h.formatVersion !== 'number' || !Number.isInteger(h.formatVersion)) throw new RecordError('formatVersion', 'must be a whole number');
  if (h.formatVersion > SNAPSHOT_FORMAT_VERSION) {
    throw new RecordError(
      'formatVersion',
      `snapshot format version ${h.formatVersion} is newer than this Statelens understands (${SNAPSHOT_FORMAT_VERSION}); update Statelens`,
    );
  }
  if (h.formatVersion < 1) throw new RecordError('formatVersion', `unknown snapshot format version ${h.formatVersion}`);
  if (typeof h.schemaVersion === 'number' && h.schemaVersion > SCHEMA_VERSION) {
    throw new RecordError(
      'schemaVersion',
      `the snapshot comes from database schema ${h.schemaVersion}; this Statelens understands up to ${SCHEMA_VERSION}; update Statelens`,
    );
  }
  const parsed = SnapshotHeader.safeParse(raw);
  if (!parsed.success) {
    const { field, message } = firstIssue(parsed.error, '');
    throw new RecordError(field, message);
  }
  return parsed.data;
}

const RANK = new Map<string, number>(SNAPSHOT_RECORD_ORDER.map((t, i) => [t, i]));

/** Tables that must be empty before an import (the target is a fresh database). */
const DATA_TABLES = [
  'partitions',
  'identities',
  'facts',
  'fact_edges',
  'working_items',
  'environment_signals',
  'org_documents',
  'saved_queries',
  'agent_states',
  'context_documents',
  'audit_log',
];

export function assertEmptyDatabase(db: EngineDb, path: string): void {
  for (const table of DATA_TABLES) {
    const n = db.prepare(`SELECT count(*) FROM (SELECT 1 FROM ${table} LIMIT 1)`).pluck().get() as number;
    if (n > 0)
      throw new StatelensError('CONFLICT', `${path} is not empty (table ${table} has rows): a snapshot is imported into an empty database only`, { table });
  }
}

interface PartitionInfo {
  readonly kind: string;
  readonly org: string;
}

export class RecordApplier {
  readonly counts: Record<string, number> = {};
  private rank = 0;
  private records = 0;
  private readonly partitions = new Map<number, PartitionInfo>();
  /** The (partition, session) of every identity applied: one identity per session. */
  private readonly identities = new Set<string>();
  /** Facts whose chain pointers must resolve at the end -> their record's sequence number. */
  private readonly pointers = new Map<string, number>();
  private ended = false;
  private readonly insert;

  constructor(
    private readonly db: EngineDb,
    private readonly header: SnapshotHeader,
    private readonly locate: Locator,
  ) {
    const p = (sql: string) => db.prepare(sql);
    this.insert = {
      partition: p('INSERT INTO partitions (id, org_id, kind, subject, maturity, created_at) VALUES (?, ?, ?, ?, ?, ?)'),
      identity: p(
        'INSERT INTO identities (partition_id, user_name, user_id, authority, department, organization, permissions, communication_style, session_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
      ),
      fact: p(`INSERT INTO facts (id, partition_id, org_id, label, key, value, source_type, source_identity, source_authority, source_turn, source_event,
        ts, created_at, last_accessed_at, access_count, importance, memory_type, level, scope, scope_id, status, is_valid, superseded_by, supersedes,
        supersession_rule, supersession_reason, valid_to, proposal_for, needs_review, review_cause, review_cause_fact, is_constraint, constraint_type, time_sensitive, entity_key)
        VALUES (@id, @partition_id, @org_id, @label, @key, @value, @source_type, @source_identity, @source_authority, @source_turn, @source_event,
        @ts, @created_at, @last_accessed_at, @access_count, @importance, @memory_type, @level, @scope, @scope_id, @status, @is_valid, @superseded_by, @supersedes,
        @supersession_rule, @supersession_reason, @valid_to, @proposal_for, @needs_review, @review_cause, @review_cause_fact, @is_constraint, @constraint_type, @time_sensitive, @entity_key)`),
      factPartition: p('SELECT partition_id FROM facts WHERE id = ?').pluck(),
      edge: p('INSERT INTO fact_edges (partition_id, dependent, depends_on) VALUES (?, ?, ?)'),
      working: p(`INSERT INTO working_items (id, partition_id, session_id, key, value, item_type, speaker, turn_index, created_at, expires_at, priority)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`),
      environment: p('INSERT INTO environment_signals (partition_id, key, value, observed_at) VALUES (?, ?, ?, ?)'),
      document: p('INSERT INTO org_documents (id, partition_id, title, body, acl, created_at) VALUES (?, ?, ?, ?, ?, ?)'),
      query: p('INSERT INTO saved_queries (id, partition_id, label, prompt, ts, ground_truth) VALUES (?, ?, ?, ?, ?, ?)'),
      agentState: p('INSERT INTO agent_states (partition_id, session_id, state, updated_at) VALUES (?, ?, ?, ?)'),
      contextDoc: p('INSERT INTO context_documents (partition_id, session_id, version, body, created_at) VALUES (?, ?, ?, ?, ?)'),
      audit: p('INSERT INTO audit_log (id, at, actor, action, partition_id, target_ids, reason, details) VALUES (?, ?, ?, ?, ?, ?, ?, ?)'),
    };
  }

  get recordCount(): number {
    return this.records;
  }

  get complete(): boolean {
    return this.ended;
  }

  /** Validates and inserts one raw (parsed JSON) record, or checks the end record. */
  apply(raw: unknown, seq: number): void {
    let type = 'record';
    try {
      if (this.ended) throw new RecordError(undefined, 'data after the end record');
      if (typeof raw === 'object' && raw !== null && (raw as { type?: unknown }).type === 'end') {
        this.end(raw);
        return;
      }
      const parsed = SnapshotRecord.safeParse(raw);
      if (!parsed.success) {
        const { field, message } = firstIssue(parsed.error, '');
        throw new RecordError(field, message);
      }
      const rec = parsed.data;
      type = rec.type;
      const rank = RANK.get(rec.type) ?? 0;
      if (rank < this.rank) {
        throw new RecordError(
          'type',
          `a "${rec.type}" record after "${SNAPSHOT_RECORD_ORDER[this.rank]}" records: records must come in the order ${SNAPSHOT_RECORD_ORDER.join(', ')}`,
        );
      }
      this.rank = rank;
      this.insertRecord(rec, seq);
      this.records++;
      this.counts[rec.type] = (this.counts[rec.type] ?? 0) + 1;
    } catch (e) {
      if (e instanceof RecordError) throw importError(this.locate(seq), e.field, e.message);
      // A broken constraint is the file's fault, on either store: named with its line.
      if (e instanceof StatelensError && brokenConstraint(e) === null) throw e;
      throw importError(this.locate(seq), undefined, storeMessage(type, e));
    }
  }

  private partitionOf(id: number, field = 'partition'): PartitionInfo {
    const p = this.partitions.get(id);
    if (!p) throw new RecordError(field, `partition ${id} has no partition record before this record`);
    return p;
  }

  private insertRecord(rec: SnapshotRecord, seq: number): void {
    const ins = this.insert;
    switch (rec.type) {
      case 'partition': {
        if (this.header.scope.kind === 'partition') {
          const want = this.header.scope.partition;
          if (JSON.stringify(want) !== JSON.stringify(rec.ref))
            throw new RecordError('ref', 'the header names one partition and this record describes another');
        }
        if (this.partitions.has(rec.id)) throw new RecordError('id', `partition ${rec.id} appears twice`);
        ins.partition.run(rec.id, rec.ref.org, rec.ref.kind, partitionSubject(rec.ref), rec.maturity, rec.createdAt);
        this.partitions.set(rec.id, { kind: rec.ref.kind, org: rec.ref.org });
        return;
      }
      case 'identity': {
        this.partitionOf(rec.partition);
        const i = rec.identity;
        // No session named: a snapshot from before identities were kept per session, whose one
        // identity is the partition-level one, the default session's.
        const sessionId = rec.sessionId ?? DEFAULT_SESSION;
        const key = JSON.stringify([rec.partition, sessionId]);
        if (this.identities.has(key)) {
          throw new RecordError(
            rec.sessionId === undefined ? 'identity' : 'sessionId',
            `partition ${rec.partition} has two identities for session "${sessionId}"`,
          );
        }
        this.identities.add(key);
        ins.identity.run(
          rec.partition,
          i.userName,
          i.userId,
          i.authority,
          i.department,
          i.organization,
          JSON.stringify(i.permissions),
          i.communicationStyle ?? null,
          sessionId,
        );
        return;
      }
      case 'fact': {
        const p = this.partitionOf(rec.partition);
        const f = rec.fact;
        if (f.level !== null && p.kind !== 'capability') throw new RecordError('fact.level', 'only capability memory carries a level');
        if (f.status !== 'proposal' && f.proposalFor !== null)
          throw new RecordError('fact.proposalFor', 'only a proposal points at the fact it failed to replace');
        ins.fact.run({
          id: f.id,
          partition_id: rec.partition,
          org_id: p.org,
          label: f.label,
          key: f.key,
          value: f.value,
          source_type: f.source.type,
          source_identity: f.source.identity,
          source_authority: f.source.authority,
          source_turn: f.source.turnIndex,
          source_event: f.source.eventIndex,
          ts: f.ts,
          created_at: f.createdAt,
          last_accessed_at: f.lastAccessedAt,
          access_count: f.accessCount,
          importance: f.importance,
          memory_type: f.memoryType,
          level: f.level,
          scope: f.scope,
          scope_id: f.scopeId,
          status: f.status,
          is_valid: f.isValid ? 1 : 0,
          superseded_by: f.supersededBy,
          supersedes: f.supersedes,
          supersession_rule: f.supersessionRule,
          supersession_reason: f.supersessionReason,
          valid_to: f.validTo,
          proposal_for: f.proposalFor,
          needs_review: f.needsReview ? 1 : 0,
          review_cause: f.reviewCause,
          review_cause_fact: f.reviewCauseFact,
          is_constraint: f.isConstraint ? 1 : 0,
          constraint_type: f.constraintType,
          time_sensitive: f.timeSensitive ? 1 : 0,
          // A snapshot carries no named entity: the fact is filed under its key's.
          entity_key: entityKey(f.key, null),
        });
        if (f.supersededBy !== null || f.supersedes !== null || f.proposalFor !== null) this.pointers.set(f.id, seq);
        return;
      }
      case 'edge': {
        this.partitionOf(rec.partition);
        if (rec.dependent === rec.dependsOn) throw new RecordError('dependsOn', 'a fact cannot depend on itself');
        for (const [field, id] of [
          ['dependent', rec.dependent],
          ['dependsOn', rec.dependsOn],
        ] as const) {
          const owner = ins.factPartition.get(id) as number | undefined;
          if (owner === undefined) throw new RecordError(field, `fact ${id} is not in the snapshot (facts come before edges)`);
          if (owner !== rec.partition)
            throw new RecordError(field, `fact ${id} belongs to partition ${owner}, not ${rec.partition}: an edge never crosses partitions`);
        }
        ins.edge.run(rec.partition, rec.dependent, rec.dependsOn);
        return;
      }
      case 'working_item': {
        this.partitionOf(rec.partition);
        const w = rec.item;
        ins.working.run(w.id, rec.partition, w.sessionId, w.key, w.value, w.itemType, w.speaker, w.turnIndex, w.createdAt, w.expiresAt, w.priority);
        return;
      }
      case 'environment':
        this.partitionOf(rec.partition);
        ins.environment.run(rec.partition, rec.signal.key, rec.signal.value, rec.signal.observedAt);
        return;
      case 'org_document': {
        const p = this.partitionOf(rec.partition);
        if (p.kind !== 'organizational') throw new RecordError('partition', 'documents belong to organisational knowledge partitions');
        const d = rec.document;
        ins.document.run(d.id, rec.partition, d.title, d.body, JSON.stringify(d.acl), d.createdAt);
        return;
      }
      case 'saved_query': {
        this.partitionOf(rec.partition);
        const q = rec.query;
        ins.query.run(q.id, rec.partition, q.label, q.prompt, q.ts, q.groundTruth ? JSON.stringify(q.groundTruth) : null);
        return;
      }
      case 'agent_state':
        this.partitionOf(rec.partition);
        ins.agentState.run(rec.partition, rec.sessionId, JSON.stringify(rec.state), rec.updatedAt);
        return;
      case 'context_document':
        this.partitionOf(rec.partition);
        ins.contextDoc.run(rec.partition, rec.document.sessionId, rec.document.version, rec.document.body, rec.document.createdAt);
        return;
      case 'audit': {
        const a = rec.entry;
        if (this.header.scope.kind === 'partition' && a.partitionId !== null && !this.partitions.has(a.partitionId)) {
          throw new RecordError('entry.partitionId', `partition ${a.partitionId} is not the snapshot's partition`);
        }
        ins.audit.run(a.id, a.at, a.actor, a.action, a.partitionId, JSON.stringify(a.targetIds), a.reason, JSON.stringify(a.details));
        return;
      }
    }
  }

  private end(raw: unknown): void {
    const parsed = SnapshotEnd.safeParse(raw);
    if (!parsed.success) {
      const { field, message } = firstIssue(parsed.error, '');
      throw new RecordError(field, message);
    }
    const end = parsed.data;
    if (end.records !== this.records)
      throw new RecordError('records', `the end record counts ${end.records} records but ${this.records} came before it (records lost or added)`);
    for (const type of new Set([...Object.keys(end.counts), ...Object.keys(this.counts)])) {
      const want = end.counts[type] ?? 0;
      const got = this.counts[type] ?? 0;
      if (want !== got) throw new RecordError(`counts.${type}`, `the end record counts ${want} "${type}" records but ${got} came before it`);
    }
    this.ended = true;
  }

  /** The checks that need every record: chain pointers resolve inside their partition. */
  finish(whereEnd: Location): void {
    if (!this.ended) throw importError(whereEnd, undefined, 'the snapshot is truncated: it has no end record');
    if (this.header.scope.kind === 'partition' && this.partitions.size !== 1) {
      throw importError(whereEnd, undefined, `a partition snapshot must hold exactly one partition record, found ${this.partitions.size}`);
    }
    const dangling = this.db
      .prepare(
        `SELECT f.id, c.field, c.target FROM facts f
           JOIN (SELECT id, 'supersededBy' AS field, superseded_by AS target FROM facts WHERE superseded_by IS NOT NULL
                 UNION ALL SELECT id, 'supersedes', supersedes FROM facts WHERE supersedes IS NOT NULL
                 UNION ALL SELECT id, 'proposalFor', proposal_for FROM facts WHERE proposal_for IS NOT NULL) c ON c.id = f.id
           LEFT JOIN facts g ON g.id = c.target
         WHERE g.id IS NULL OR g.partition_id <> f.partition_id LIMIT 1`,
      )
      .get() as { id: string; field: string; target: string } | undefined;
    if (dangling) {
      const seq = this.pointers.get(dangling.id);
      const where = seq === undefined ? whereEnd : this.locate(seq);
      throw importError(
        where,
        `fact.${dangling.field}`,
        `fact ${dangling.id} points at ${dangling.target}, which is not a fact of the same partition in the snapshot`,
      );
    }
    // A cycle or a one-sided supersession would import and then fail `verify`.
    const broken = chainChecks(this.db).find((c) => !c.ok);
    if (broken) throw importError(whereEnd, 'fact.supersedes', `the supersession chains are broken (${broken.name}): ${broken.detail}`);
  }
}

function storeMessage(type: string, e: unknown): string {
  const message = e instanceof Error ? e.message : String(e);
  const broken = brokenConstraint(e);
  if (broken === 'unique') return `duplicate ${type} record (${message})`;
  if (broken === 'check') return `the ${type} breaks a rule of the schema (${message})`;
  return `the ${type} could not be stored (${message})`;
}
