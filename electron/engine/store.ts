// The engine's entry point: one open database, partition lookup and creation, change events
// (own writes and other processes' writes through PRAGMA data_version). Data is reached only
// through `store.scope(ref)`, which returns a handle bound to one partition.
import { Maturity as MaturitySchema, PartitionRef, showUnsafe, type AuditEntry, type Maturity, type PartitionSummary } from '../../shared/domain';
import { recordAudit } from './audit/audit';
import { auditPage, type AuditPageQuery } from './audit/audit-page';
import { DeletionMeta } from '../../shared/deletion';
import { StatelensError } from '../../shared/errors';
import { parseInput } from './query/validate';
import { requireTimestamp } from '../../shared/timestamp';
import type { AgentStateChange, ChangeEvent, EngineClock, EngineServices, PartitionContext } from './context';
import type { EngineDb } from './db/connection';
import { closeConnection, mapSqliteError, openDatabase, type OpenOptions } from './db/open';
import { PgDatabase, postgresOf } from './db/pg/database';
import { PG_SCHEMA_VERSION } from './db/pg/migrations';
import { changeChannel, checkPgSchema, DEFAULT_PG_SCHEMA, inspectPgSchema, requirePgSchemaName } from './db/pg/schema';
import { bindPgTransaction, checkPgMembership, MEMBERS_TABLE, type PgSessionBinding } from './db/pg/server-setup';
import { WRITE_LOCKS_TABLE } from './db/pg/row-locks';
import { pgRoleReport, type PgRoleReport } from './db/pg/role-report';
import { quoteIdent, SyncPg } from './db/pg/sync-client';
import type { PgTarget } from './db/pg/target';
import { retainRawFile } from './db/raw-file';
import { olderPgSchemaError } from './db/upgrade-hint';
import { foreignObjects } from './db/schema-check';
import { SCHEMA_VERSION } from './db/migrations';
import { stmt } from './db/statements';
import { retryingConflicts } from './db/write-locks';
import { uuidv7 } from './ids';
import { PartitionHandle } from './partition-handle';
import { normalisedRef, partitionLabel, partitionSubject, refFromRow, type PartitionRow } from './partitions/partitions';

/** What the user is told about a file carrying objects Statelens did not create. */
export function foreignObjectsNotice(objects: readonly string[]): string {
  const shown = objects.slice(0, 5).join(', ') + (objects.length > 5 ? `, … (${objects.length} in all)` : '');
  return `the database holds objects Statelens did not create (${shown}); they could copy or change what Statelens writes and deletes, so it is opened read-only until you confirm you trust them`;
}

export interface StoreOptions extends OpenOptions {
  /** Open read-write even when the file holds objects Statelens did not create (the user confirmed). */
  readonly trustForeignObjects?: boolean;
  /** Internal: whether read-only was asked for (false when foreign objects imposed it). */
  readonly openedReadonly?: boolean;
  readonly clock?: EngineClock;
  /** Deterministic ids (tests, demo data): a prefix-free counter source. */
  readonly idSource?: () => string;
}

export const systemClock: EngineClock = { now: () => new Date().toISOString() };

/** Where a PostgreSQL store lives and whom it acts for (see Store.openPostgres). */
export interface PgStoreOptions {
  readonly schema?: string;
  /** The org the session acts for; required on a schema under row-level security. */
  readonly org?: string;
  /** Narrows the session to one partition of the org. */
  readonly partitionId?: number;
  /** Administrators only: every org (instead of `org`). */
  readonly allOrgs?: boolean;
  /** Act as this login in every transaction (SET LOCAL ROLE) on a connection logged in as a role
   * that may become it: for clients sharing one connection (PGlite). A server client logs in as
   * its own role instead. */
  readonly role?: string;
}

function pgBindingOf(options: PgStoreOptions, schema: string, where: string): PgSessionBinding {
  if (options.allOrgs) {
    if (options.org !== undefined) throw new StatelensError('INVALID_INPUT', 'A store acts for one org or, for an administrator, for all of them: not both');
    return { org: '', allOrgs: true, ...(options.role ? { role: options.role } : {}) };
  }
  if (options.org === undefined || options.org === '') {
    throw new StatelensError(
      'PERMISSION_DENIED',
      `Schema "${schema}" on ${where} is under row-level security: name the org this session acts for (or, as an administrator, all orgs)`,
    );
  }
  return { org: options.org, partitionId: options.partitionId ?? null, ...(options.role ? { role: options.role } : {}) };
}

export type ChangeListener = (event: ChangeEvent) => void;

export class Store {
  readonly path: string;
  readonly readonly: boolean;
  /** Tables, indexes, triggers and views of a SQLite file that Statelens did not create ("trigger
   * name"); while there are any the file opens read-only unless the user trusts them. */
  foreignObjects: readonly string[] = [];
  /** Read-only because the caller asked, rather than because of foreign objects. */
  private readonly openedReadonly: boolean;
  readonly services: EngineServices;
  private readonly listeners = new Set<ChangeListener>();
  private lastDataVersion: number;
  /** updated_at of every session's agent state, to tell which ones another process changed. */
  private agentStateMarks: Map<string, string>;
  private closed = false;
  private readonly closeHooks: (() => void)[] = [];
  /** Other sessions' commits as heard (LISTEN on a PostgreSQL server); undefined where they are
   * found by polling a change counter instead. */
  private readonly takeHeardChanges: (() => { partitionIds: number[]; all: boolean } | null) | undefined;

  private constructor(path: string, db: EngineDb, options: StoreOptions) {
    this.path = path;
    this.readonly = options.readonly ?? false;
    this.openedReadonly = options.openedReadonly ?? this.readonly;
    const idSource = options.idSource;
    this.services = {
      db,
      clock: options.clock ?? systemClock,
      newId: idSource ? (prefix) => `${prefix}_${idSource()}` : (prefix) => `${prefix}_${uuidv7()}`,
      emit: (event) => this.emit(event),
    };
    const pg = postgresOf(db);
    this.takeHeardChanges = pg?.conn.isListening ? () => pg.takeExternalChanges() ?? null : undefined;
    this.lastDataVersion = this.dataVersion();
    this.agentStateMarks = readAgentStateMarks(db);
  }

  static open(path: string, options: StoreOptions = {}): Store {
    let db = openDatabase(path, options);
    const foreign = foreignObjects(db, SCHEMA_VERSION, options.nativeBinding);
    let opened: StoreOptions = options;
    if (foreign.length > 0 && !options.readonly && !options.trustForeignObjects) {
      // Objects Statelens did not create could act on every write (a trigger copying deleted
      // text away): read-only until the user confirms.
      db.close();
      opened = { ...options, readonly: true, openedReadonly: false };
      db = openDatabase(path, opened);
    }
    const store = new Store(path, db, opened);
    store.foreignObjects = foreign;
    // Raw reads of the file (the deletion scrub) go through one held descriptor: see raw-file.
    store.afterClose(retainRawFile(path));
    return store;
  }

  /**
   * A store on PostgreSQL (a server, or PGlite in process) in the schema `statelens init`
   * created: the same engine over a connection that compiles its SQL for PostgreSQL. Refused
   * when the schema is missing or older (NOT_FOUND: run init) or newer than this build (DB_TOO_NEW).
   * On a schema under the server setup (roles and row-level security) the store acts for one org
   * (`org`, optionally one `partitionId` of it) or, for administrators only, every org (`allOrgs`):
   * the role's membership is checked here (PERMISSION_DENIED), and every transaction, reads
   * included, starts by binding it.
   */
  static openPostgres(target: PgTarget, options: StoreOptions & PgStoreOptions = {}): Store {
    const schema = requirePgSchemaName(options.schema ?? DEFAULT_PG_SCHEMA);
    // Opening never makes a store: that is `statelens init` (or a command that creates one).
    const conn = SyncPg.open(target, { searchPath: quoteIdent(schema), existing: true });
    try {
      return Store.onPostgresConnection(conn, options);
    } catch (e) {
      conn.close();
      throw e;
    }
  }

  /** A store on an open PostgreSQL connection whose search_path is already `options.schema`;
   * closing the store closes the connection (tests hand in one that outlives it). */
  static onPostgresConnection(conn: SyncPg, options: StoreOptions & PgStoreOptions = {}): Store {
    const schema = requirePgSchemaName(options.schema ?? DEFAULT_PG_SCHEMA);
    const state = inspectPgSchema(conn, schema);
    const version = checkPgSchema(state, schema, conn.where, PG_SCHEMA_VERSION);
    if (version < PG_SCHEMA_VERSION) {
      throw olderPgSchemaError(schema, conn.where, version, PG_SCHEMA_VERSION);
    }
    // Other processes' commits are announced on the schema's channel (PostgreSQL migration 3).
    conn.listen(changeChannel(schema));
    let onBegin: ((c: SyncPg) => void) | undefined;
    const tables = state.tables;
    if (tables.includes(MEMBERS_TABLE)) {
      const binding = pgBindingOf(options, schema, conn.where);
      checkPgMembership(conn, binding, { schema });
      onBegin = (c) => bindPgTransaction(c, binding);
    }
    // A schema set up before the lock table existed keeps advisory locks until setup runs again.
    const rowLocks = tables.includes(WRITE_LOCKS_TABLE);
    const db = new PgDatabase(conn, { readonly: options.readonly ?? false, rowLocks, ...(onBegin ? { onBegin } : {}) });
    return new Store(conn.where, db, options);
  }

  get db(): EngineDb {
    if (this.closed) throw new StatelensError('NO_DATABASE', 'The database is closed');
    return this.services.db;
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.listeners.clear();
    closeConnection(this.services.db, this.path);
    for (const hook of this.closeHooks.splice(0)) hook();
  }

  /** Runs `hook` once the connection has closed (e.g. removing a temporary database file). */
  afterClose(hook: () => void): void {
    if (this.closed) hook();
    else this.closeHooks.push(hook);
  }

  get isOpen(): boolean {
    return !this.closed;
  }

  /** Runs `fn` in one IMMEDIATE transaction (all or nothing) and announces the change;
   * `agentStates` names the sessions whose agent state the result changed. A transaction the
   * database rolled back for a deadlock or a serialisation failure (PostgreSQL's concurrent
   * writers) runs again, so `fn` must keep its effects inside the transaction. */
  write<T>(partitionIds: readonly number[], what: string, fn: () => T, agentStates?: (result: T) => readonly AgentStateChange[]): T {
    this.assertWritable();
    let result: T;
    try {
      const run = (): T => this.db.transaction(fn).immediate();
      // Nested in a caller's transaction, only the caller can run the whole of it again.
      result = this.db.inTransaction ? run() : retryingConflicts(run);
    } catch (e) {
      // The transaction rolled back; say why in our terms (disk full, read-only, locked).
      throw mapSqliteError(e, this.path) ?? e;
    }
    // A store that hears other sessions' commits (see pollExternalChanges) keeps no counter.
    if (this.takeHeardChanges === undefined) this.lastDataVersion = this.dataVersion();
    const changed = agentStates?.(result) ?? [];
    if (changed.length > 0) this.agentStateMarks = readAgentStateMarks(this.db);
    this.emit({ origin: 'local', partitionIds, what: [what], ...(changed.length > 0 ? { agentStates: changed } : {}) });
    return result;
  }

  assertWritable(): void {
    if (this.readonly && this.foreignObjects.length > 0 && !this.openedReadonly)
      throw new StatelensError('READ_ONLY', `${this.path} is open read-only: ${foreignObjectsNotice(this.foreignObjects)}`, {
        foreignObjects: this.foreignObjects,
      });
    if (this.readonly) throw new StatelensError('READ_ONLY', `${this.path} is open read-only`);
  }

  /** A handle on one partition. With `create`, a missing partition is made (agent side only); a
   * new capability partition starts at the lowest maturity. Writing never changes a partition's
   * maturity: an agent cannot raise its own tier (see setMaturity). */
  scope(given: PartitionRef, options: { create?: boolean } = {}): PartitionHandle {
    // Names are stored in one normal form, so a fullwidth or composed spelling finds the same partition.
    const ref = normalisedRef(given);
    const subject = partitionSubject(ref);
    let row = stmt<[string, string, string], PartitionRow>(this.db, 'SELECT * FROM partitions WHERE org_id = ? AND kind = ? AND subject = ?').get(
      ref.org,
      ref.kind,
      subject,
    );
    if (!row) {
      if (!options.create) throw new StatelensError('NOT_FOUND', `No partition ${partitionLabel(ref)}`, { ref });
      this.assertWritable();
      const named = PartitionRef.safeParse(ref);
      if (!named.success) {
        const issue = named.error.issues[0];
        throw new StatelensError(
          'INVALID_INPUT',
          `Partition ${showUnsafe(partitionLabel(given))} cannot be created: ${issue?.path.join('.') ?? 'name'} ${issue?.message ?? 'is invalid'}`,
          { field: issue?.path.join('.') },
        );
      }
      const maturity: Maturity | null = ref.kind === 'capability' ? 'junior' : null;
      // Another process may create the same partition between the look and the insert: theirs stands.
      stmt(this.db, 'INSERT OR IGNORE INTO partitions (org_id, kind, subject, maturity, created_at) VALUES (?, ?, ?, ?, ?)').run(
        ref.org,
        ref.kind,
        subject,
        maturity,
        this.services.clock.now(),
      );
      row = stmt<[string, string, string], PartitionRow>(this.db, 'SELECT * FROM partitions WHERE org_id = ? AND kind = ? AND subject = ?').get(
        ref.org,
        ref.kind,
        subject,
      );
      if (!row) throw new StatelensError('INTERNAL', 'Partition vanished after insert');
    }
    return new PartitionHandle(this, this.contextFor(row));
  }

  /**
   * The administrative action that sets a capability partition's maturity (which gates the
   * levels its agent may write: junior events, senior + heuristics, master + strategies). It is
   * the only way the tier changes, and every change is audited with who, why, from and to.
   */
  setMaturity(
    partitionId: number,
    maturity: Maturity,
    options: { actor: string; reason?: string | null },
  ): { partitionId: number; from: Maturity | null; to: Maturity; changed: boolean } {
    const parsed = MaturitySchema.safeParse(maturity);
    if (!parsed.success) throw new StatelensError('INVALID_INPUT', `Maturity must be one of ${MaturitySchema.options.join(', ')}; got "${String(maturity)}"`);
    const meta = parseInput(DeletionMeta, { actor: options.actor, reason: options.reason ?? null }, 'maturity change');
    const handle = this.scopeById(partitionId);
    if (handle.kind !== 'capability')
      throw new StatelensError('PARTITION_MISMATCH', `Only capability partitions have a maturity; ${partitionLabel(handle.ref)} is ${handle.kind}`, {
        partitionId,
      });
    const from = handle.maturity;
    if (from === parsed.data) return { partitionId, from, to: parsed.data, changed: false };
    this.write([partitionId], 'maturity', () => {
      stmt(this.db, 'UPDATE partitions SET maturity = ? WHERE id = ?').run(parsed.data, partitionId);
      recordAudit(
        { ...this.services, partitionId },
        { actor: meta.actor, action: 'maturity.set', targetIds: [], reason: meta.reason ?? null, details: { from, to: parsed.data } },
      );
    });
    return { partitionId, from, to: parsed.data, changed: true };
  }

  /** What each role of a PostgreSQL schema under the server setup can do there (see role-report). */
  roleReport(): PgRoleReport {
    const pg = postgresOf(this.db);
    if (!pg) throw new StatelensError('INVALID_INPUT', 'Roles belong to a PostgreSQL schema under the server setup; a SQLite file has none');
    const schema = pg.conn.query<{ s: string }>('SELECT current_schema() AS s').rows[0]?.s ?? '';
    const report = pgRoleReport(pg.conn, schema);
    if (!report) throw new StatelensError('NOT_FOUND', `Schema "${schema}" is not under the server setup: it has no roles to list`);
    return report;
  }

  /** The partition holding the fact with this id (ids are unique in the file), if any. */
  partitionOfFact(factId: string): number | undefined {
    return stmt<[string], { partition_id: number }>(this.db, 'SELECT partition_id FROM facts WHERE id = ?').get(factId)?.partition_id;
  }

  /** The schema version of the open file. */
  get schemaVersion(): number {
    return this.db.pragma('user_version', { simple: true }) as number;
  }

  /** A handle by numeric partition id (the inspector's channels carry ids). */
  scopeById(partitionId: number): PartitionHandle {
    const row = stmt<[number], PartitionRow>(this.db, 'SELECT * FROM partitions WHERE id = ?').get(partitionId);
    if (!row) throw new StatelensError('NOT_FOUND', `No partition with id ${partitionId}`, { partitionId });
    return new PartitionHandle(this, this.contextFor(row));
  }

  private contextFor(row: PartitionRow): PartitionContext {
    return { ...this.services, partitionId: row.id, orgId: row.org_id, kind: row.kind, subject: row.subject, maturity: row.maturity };
  }

  /** Every partition with its counts, ordered org, kind, subject. */
  /** Every partition with its counts; with `asOf`, the fact counts as they stood then (facts
   * recorded by then, facts valid then) and the working items and documents created by then.
   * Review flags are not kept historically: `needsReview` is always today's. */
  listPartitions(asOf?: string): PartitionSummary[] {
    type Row = PartitionRow & { facts: number; valid_facts: number; needs_review: number; working_items: number; documents: number };
    const at = asOf === undefined ? null : requireTimestamp(asOf, 'as-of time');
    const rows =
      at === null
        ? stmt<[], Row>(
            this.db,
            `SELECT p.*,
         (SELECT count(*) FROM facts f WHERE f.partition_id = p.id) AS facts,
         (SELECT count(*) FROM facts f WHERE f.partition_id = p.id AND f.is_valid = 1) AS valid_facts,
         (SELECT count(*) FROM facts f WHERE f.partition_id = p.id AND f.needs_review = 1) AS needs_review,
         (SELECT count(*) FROM working_items w WHERE w.partition_id = p.id) AS working_items,
         (SELECT count(*) FROM org_documents d WHERE d.partition_id = p.id) AS documents
       FROM partitions p ORDER BY p.org_id, p.kind, p.subject`,
          ).all()
        : stmt<[{ at: string }], Row>(
            this.db,
            `SELECT p.*,
         (SELECT count(*) FROM facts f WHERE f.partition_id = p.id AND f.ts <= @at) AS facts,
         (SELECT count(*) FROM facts f WHERE f.partition_id = p.id AND f.ts <= @at AND +f.status <> 'proposal'
            AND (f.valid_to IS NULL OR f.valid_to > @at)) AS valid_facts,
         (SELECT count(*) FROM facts f WHERE f.partition_id = p.id AND f.needs_review = 1) AS needs_review,
         (SELECT count(*) FROM working_items w WHERE w.partition_id = p.id AND w.created_at <= @at) AS working_items,
         (SELECT count(*) FROM org_documents d WHERE d.partition_id = p.id AND d.created_at <= @at) AS documents
       FROM partitions p ORDER BY p.org_id, p.kind, p.subject`,
          ).all({ at });
    return rows.map((r) => ({
      id: r.id,
      ref: refFromRow(r),
      label: partitionLabel(refFromRow(r)),
      maturity: r.maturity,
      facts: r.facts,
      validFacts: r.valid_facts,
      needsReview: r.needs_review,
      workingItems: r.working_items,
      documents: r.documents,
    }));
  }

  /** One page of the audit log, newest first: the whole database's or one partition's (an
   * unknown partition is NOT_FOUND), optionally only the entries naming one fact. */
  auditPage(q: AuditPageQuery): { entries: AuditEntry[]; nextBeforeId: number | null } {
    if (q.partitionId != null) this.scopeById(q.partitionId);
    return auditPage(this.db, q);
  }

  onChange(listener: ChangeListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private emit(event: ChangeEvent): void {
    for (const l of this.listeners) {
      try {
        l(event);
      } catch {
        // A listener's failure must never undo or break a committed write.
      }
    }
  }

  dataVersion(): number {
    return this.services.db.pragma('data_version', { simple: true }) as number;
  }

  /** Cheap poll: true (and an `external` event) when another connection committed since last call.
   * On a PostgreSQL server the other sessions' commits are heard (LISTEN) with the partitions
   * they changed, and the event names them; SQLite's data_version only says that something did. */
  pollExternalChanges(): boolean {
    if (this.closed) return false;
    let partitionIds: readonly number[] = [];
    const heard = this.takeHeardChanges?.();
    if (heard === undefined) {
      const v = this.dataVersion();
      if (v === this.lastDataVersion) return false;
      this.lastDataVersion = v;
    } else if (heard === null) {
      return false;
    } else if (!heard.all) {
      partitionIds = heard.partitionIds;
    }
    // Another process changed agent state when a session's updated_at moved (or it appeared).
    const marks = readAgentStateMarks(this.db);
    const agentStates: AgentStateChange[] = [];
    for (const [k, at] of marks) {
      if (this.agentStateMarks.get(k) === at) continue;
      const [pid, sessionId] = JSON.parse(k) as [number, string];
      agentStates.push({ partitionId: pid, sessionId });
    }
    this.agentStateMarks = marks;
    this.emit({ origin: 'external', partitionIds, what: ['external write'], ...(agentStates.length > 0 ? { agentStates } : {}) });
    return true;
  }
}

/** (partition, session) -> updated_at of every stored agent state. Agent states are one row per
 * session, so this stays small. */
function readAgentStateMarks(db: EngineDb): Map<string, string> {
  const rows = stmt<[], { partition_id: number; session_id: string; updated_at: string }>(
    db,
    'SELECT partition_id, session_id, updated_at FROM agent_states',
  ).all();
  return new Map(rows.map((r) => [JSON.stringify([r.partition_id, r.session_id]), r.updated_at]));
}
