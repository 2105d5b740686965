// The engine's entry point: one open database, partition lookup and creation, change events
// (own writes and other processes' writes through PRAGMA data_version). Data is reached only
// through `store.scope(ref)`, which returns a handle bound to one partition.
import { PartitionRef, showUnsafe, type Maturity, type PartitionSummary } from '../../shared/domain';
import { StatelensError } from '../../shared/errors';
import type { ChangeEvent, EngineClock, EngineServices, PartitionContext } from './context';
import { mapSqliteError, openDatabase, type OpenOptions, type Sqlite } from './db/open';
import { retainRawFile } from './db/raw-file';
import { stmt } from './db/statements';
import { uuidv7 } from './ids';
import { PartitionHandle } from './partition-handle';
import { partitionLabel, partitionSubject, refFromRow, type PartitionRow } from './partitions/partitions';

export interface StoreOptions extends OpenOptions {
  readonly clock?: EngineClock;
  /** Deterministic ids (tests, demo data): a prefix-free counter source. */
  readonly idSource?: () => string;
}

export const systemClock: EngineClock = { now: () => new Date().toISOString() };

export type ChangeListener = (event: ChangeEvent) => void;

export class Store {
  readonly path: string;
  readonly readonly: boolean;
  readonly services: EngineServices;
  private readonly listeners = new Set<ChangeListener>();
  private lastDataVersion: number;
  private closed = false;
  private readonly closeHooks: (() => void)[] = [];

  private constructor(path: string, db: Sqlite, options: StoreOptions) {
    this.path = path;
    this.readonly = options.readonly ?? false;
    const idSource = options.idSource;
    this.services = {
      db,
      clock: options.clock ?? systemClock,
      newId: idSource ? (prefix) => `${prefix}_${idSource()}` : (prefix) => `${prefix}_${uuidv7()}`,
      emit: (event) => this.emit(event),
    };
    this.lastDataVersion = this.dataVersion();
  }

  static open(path: string, options: StoreOptions = {}): Store {
    const store = new Store(path, openDatabase(path, options), options);
    // Raw reads of the file (the deletion scrub) go through one held descriptor: see raw-file.
    store.afterClose(retainRawFile(path));
    return store;
  }

  get db(): Sqlite {
    if (this.closed) throw new StatelensError('NO_DATABASE', 'The database is closed');
    return this.services.db;
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.listeners.clear();
    this.services.db.close();
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

  /** Runs `fn` in one IMMEDIATE transaction (all or nothing) and announces the change. */
  write<T>(partitionIds: readonly number[], what: string, fn: () => T): T {
    this.assertWritable();
    let result: T;
    try {
      result = this.db.transaction(fn).immediate();
    } catch (e) {
      // The transaction rolled back; say why in our terms (disk full, read-only, locked).
      throw mapSqliteError(e, this.path) ?? e;
    }
    this.lastDataVersion = this.dataVersion();
    this.emit({ origin: 'local', partitionIds, what: [what] });
    return result;
  }

  assertWritable(): void {
    if (this.readonly) throw new StatelensError('READ_ONLY', `${this.path} is open read-only`);
  }

  /** A handle on one partition. With `create`, a missing partition is made (agent side only). */
  scope(ref: PartitionRef, options: { create?: boolean; maturity?: Maturity } = {}): PartitionHandle {
    const subject = partitionSubject(ref);
    let row = stmt<[string, string, string], PartitionRow>(this.db, 'SELECT * FROM partitions WHERE org_id = ? AND kind = ? AND subject = ?').get(ref.org, ref.kind, subject);
    if (!row) {
      if (!options.create) throw new StatelensError('NOT_FOUND', `No partition ${partitionLabel(ref)}`, { ref });
      this.assertWritable();
      const named = PartitionRef.safeParse(ref);
      if (!named.success) {
        const issue = named.error.issues[0];
        throw new StatelensError('INVALID_INPUT', `Partition ${showUnsafe(partitionLabel(ref))} cannot be created: ${issue?.path.join('.') ?? 'name'} ${issue?.message ?? 'is invalid'}`, { field: issue?.path.join('.') });
      }
      const maturity = ref.kind === 'capability' ? (options.maturity ?? 'junior') : null;
      stmt(this.db, 'INSERT INTO partitions (org_id, kind, subject, maturity, created_at) VALUES (?, ?, ?, ?, ?)').run(ref.org, ref.kind, subject, maturity, this.services.clock.now());
      row = stmt<[string, string, string], PartitionRow>(this.db, 'SELECT * FROM partitions WHERE org_id = ? AND kind = ? AND subject = ?').get(ref.org, ref.kind, subject);
      if (!row) throw new StatelensError('INTERNAL', 'Partition vanished after insert');
    } else if (options.maturity && ref.kind === 'capability' && row.maturity !== options.maturity) {
      this.assertWritable();
      stmt(this.db, 'UPDATE partitions SET maturity = ? WHERE id = ?').run(options.maturity, row.id);
      row = { ...row, maturity: options.maturity };
    }
    return new PartitionHandle(this, this.contextFor(row));
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
  listPartitions(): PartitionSummary[] {
    const rows = stmt<[], PartitionRow & { facts: number; valid_facts: number; needs_review: number; working_items: number; documents: number }>(
      this.db,
      `SELECT p.*,
         (SELECT count(*) FROM facts f WHERE f.partition_id = p.id) AS facts,
         (SELECT count(*) FROM facts f WHERE f.partition_id = p.id AND f.is_valid = 1) AS valid_facts,
         (SELECT count(*) FROM facts f WHERE f.partition_id = p.id AND f.needs_review = 1) AS needs_review,
         (SELECT count(*) FROM working_items w WHERE w.partition_id = p.id) AS working_items,
         (SELECT count(*) FROM org_documents d WHERE d.partition_id = p.id) AS documents
       FROM partitions p ORDER BY p.org_id, p.kind, p.subject`,
    ).all();
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

  /** Cheap poll: true (and an `external` event) when another connection committed since last call. */
  pollExternalChanges(): boolean {
    if (this.closed) return false;
    const v = this.dataVersion();
    if (v === this.lastDataVersion) return false;
    this.lastDataVersion = v;
    this.emit({ origin: 'external', partitionIds: [], what: ['external write'] });
    return true;
  }
}
