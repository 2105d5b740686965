// The engine's connection (EngineDb: prepare → run/get/all/iterate with pluck/raw,
// transaction().immediate(), exec, the data_version pragma) over the synchronous PostgreSQL
// bridge. Each statement is compiled once by the PostgreSQL dialect; results take
// SQLite's shapes (0/1 for booleans, numbers for bigint), so engine code runs unchanged.
import { StatelensError } from '../../../../shared/errors';
import type { EngineDb, EngineStatement, EngineTransaction, RunResult } from '../connection';
import type { Bind, Dialect } from '../dialect';
import { postgresDialect } from './compile';
import { rowLockSql, WRITE_LOCKS_TABLE, type RowLockSql } from './row-locks';
import { PG_SQLITE_SCHEMA_VERSION } from './migrations';
import { SyncPg, type PgResult } from './sync-client';

type Row = Record<string, unknown>;

function sqliteValue(v: unknown): unknown {
  return typeof v === 'boolean' ? (v ? 1 : 0) : v;
}

function sqliteRow(row: Row): Row {
  for (const k of Object.keys(row)) row[k] = sqliteValue(row[k]);
  return row;
}

function isBag(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Uint8Array) && !(v instanceof Date);
}

/** better-sqlite3's argument forms (values, arrays of values, an object of named values) as $n values. */
function bindValues(binds: readonly Bind[], args: readonly unknown[]): unknown[] {
  const positional: unknown[] = [];
  const named: Record<string, unknown> = {};
  for (const a of args) {
    if (Array.isArray(a)) positional.push(...(a as unknown[]));
    else if (isBag(a)) Object.assign(named, a);
    else positional.push(a);
  }
  return binds.map((b) => {
    if ('index' in b) {
      // better-sqlite3 takes numbered parameters (?1) from an object keyed by number too.
      if (String(b.index) in named) return named[String(b.index)] ?? null;
      if (b.index > positional.length) throw new StatelensError('INVALID_INPUT', `Too few parameter values: ?${b.index} has none`);
      return positional[b.index - 1] ?? null;
    }
    if (!(b.name in named)) throw new StatelensError('INVALID_INPUT', `Missing named parameter: ${b.name}`);
    return named[b.name] ?? null;
  });
}

export class PgStatement implements EngineStatement {
  readonly source: string;
  readonly reader: boolean;
  /** A query a cursor can run (DECLARE takes SELECT and VALUES, no data-changing statement). */
  private readonly cursorable: boolean;
  private readonly insertsFacts: boolean;
  private readonly db: PgDatabase;
  private readonly text: string;
  private readonly binds: readonly Bind[];
  private plucking = false;
  private rawRows = false;

  constructor(db: PgDatabase, sql: string) {
    this.db = db;
    this.source = sql;
    const compiled = db.dialect.compile(sql);
    this.text = compiled.text;
    this.binds = compiled.binds;
    this.reader = /^\s*(select|with|values)\b/i.test(sql) || /\breturning\b/i.test(sql);
    this.cursorable = /^\s*(select|with|values)\b/i.test(sql) && !/\breturning\b/i.test(sql);
    this.insertsFacts = /^\s*insert\s+(?:or\s+\w+\s+)?into\s+facts\s*\(/i.test(sql);
  }

  pluck(on = true): this {
    this.plucking = on;
    if (on) this.rawRows = false;
    return this;
  }

  raw(on = true): this {
    this.rawRows = on;
    if (on) this.plucking = false;
    return this;
  }

  run(...args: unknown[]): RunResult {
    const r = this.db.query(this.text, bindValues(this.binds, args));
    if (this.insertsFacts) this.db.factsInserted(r.rowCount);
    const conn = this.db.conn;
    const isInsert = /^\s*insert\b/i.test(this.source);
    return {
      changes: r.rowCount,
      // Read only when asked: the identity value the last insert drew. A failure (no sequence
      // used yet in the session, or no right to read it) is thrown, never taken for 0: it aborts
      // the transaction, which then must not be reported as done.
      get lastInsertRowid(): number {
        if (!isInsert) return 0;
        return conn.query<{ v: number }>('SELECT lastval()::bigint AS v').rows[0]?.v ?? 0;
      },
    };
  }

  all(...args: unknown[]): unknown[] {
    const rows = this.db.query<Row>(this.text, bindValues(this.binds, args)).rows;
    return rows.map((row) => this.shape(row));
  }

  get(...args: unknown[]): unknown {
    return this.all(...args)[0];
  }

  /** Rows read as they are taken, as better-sqlite3 does: a caller that stops early (a strategy
   * filling a budget from the newest facts) reads a few pages, not the whole result. In a
   * transaction it reads through a cursor in growing batches; outside one (where a cursor would
   * not outlive the statement) it reads everything at once. */
  iterate(...args: unknown[]): IterableIterator<unknown> {
    if (!this.cursorable || !this.db.inTransaction) return this.all(...args)[Symbol.iterator]();
    return this.fetching(bindValues(this.binds, args));
  }

  private *fetching(values: unknown[]): Generator<unknown, void, undefined> {
    const cursor = this.db.declareCursor(this.text, values);
    let finished = false;
    try {
      for (let batch = FIRST_FETCH; ; batch = Math.min(batch * 4, LARGEST_FETCH)) {
        const rows = this.db.query<Row>(`FETCH ${batch} FROM ${cursor}`, []).rows;
        for (const row of rows) yield this.shape(row);
        if (rows.length < batch) break;
      }
      finished = true;
    } finally {
      if (!finished && this.db.inTransaction) {
        // Stopped early, perhaps by an error that aborted the transaction (and the cursor with
        // it): that error, if any, is the one to report; otherwise the cursor is freed now
        // rather than when the transaction ends.
        try {
          this.db.query(`CLOSE ${cursor}`, []);
        } catch {
          // See above.
        }
      }
    }
    this.db.query(`CLOSE ${cursor}`, []);
  }

  private shape(row: Row): unknown {
    if (this.plucking) return sqliteValue(Object.values(row)[0]);
    if (this.rawRows) return Object.values(row).map(sqliteValue);
    return sqliteRow(row);
  }
}

/** Rows of the first FETCH of an iteration, and the most any later one reads (each reads four
 * times the last): few round trips for a caller reading everything, little read for one that stops. */
const FIRST_FETCH = 256;
const LARGEST_FETCH = 16_384;
/** Longest a writer waits for one lock before the transaction is rolled back as BUSY (and run
 * again a few times, see write-locks): a bulk write of the same org holds them for a few seconds. */
export const LOCK_WAIT_MS = 5000;
/** New facts committed by one connection before it analyzes the facts table (see analyzeAfterBulkWrites). */
const ANALYZE_AFTER_FACTS = 1000;

export class PgDatabase implements EngineDb {
  readonly conn: SyncPg;
  readonly dialect: Dialect = postgresDialect;
  readonly name: string;
  readonly readonly: boolean;
  /** The savepoint that opened the current transaction (see exec). */
  private outerSavepoint: string | undefined;
  /** Cursors declared so far (each gets a name of its own). */
  private cursors = 0;
  /** Fact rows this connection inserted in the open transaction, and committed since it last
   * analyzed the facts table; the table's row estimate then (see analyzeAfterBulkWrites). */
  private factsPending = 0;
  private factsCommitted = 0;
  private factsAtAnalyze = 0;
  private readonly onBegin: ((conn: SyncPg) => void) | undefined;
  /** Write locks as rows of the server setup's lock table (see row-locks), else advisory locks. */
  private readonly rowLocks: RowLockSql | undefined;

  /** `onBegin` runs first in every transaction (the org binding row-level security reads); with
   * it, a statement outside a transaction runs in one of its own, so none escapes it. `rowLocks`:
   * the schema has the server setup's lock table. */
  constructor(conn: SyncPg, options: { readonly?: boolean; onBegin?: (conn: SyncPg) => void; rowLocks?: boolean } = {}) {
    this.conn = conn;
    this.name = conn.where;
    this.readonly = options.readonly ?? false;
    this.onBegin = options.onBegin;
    this.rowLocks = options.rowLocks ? rowLockSql(WRITE_LOCKS_TABLE) : undefined;
  }

  /** One compiled statement, in the current transaction or (with onBegin) a bound one of its own. */
  query<R = Row>(text: string, values: readonly unknown[]): PgResult<R> {
    if (!this.onBegin || this.conn.inTransaction) return this.conn.query<R>(text, values);
    return this.conn.transaction(() => {
      this.onBegin?.(this.conn);
      return this.conn.query<R>(text, values);
    });
  }

  /** Counts fact rows an INSERT added (see analyzeAfterBulkWrites). */
  factsInserted(rows: number): void {
    if (this.conn.inTransaction) this.factsPending += rows;
    else {
      this.factsCommitted += rows;
      this.analyzeAfterBulkWrites();
    }
  }

  private committed(): void {
    this.factsCommitted += this.factsPending;
    this.factsPending = 0;
    this.analyzeAfterBulkWrites();
  }

  /**
   * PostgreSQL plans from table statistics that autovacuum refreshes a minute or more after a
   * change (never, where it is off). A table just filled by bulk writes still looks empty, and
   * the planner then reads the full-text matches by building the search document of every
   * fact in the partition: assembly's term queries grow from milliseconds to seconds. So once
   * this connection has committed as many new facts as a fifth of the table held when it last
   * looked (at least ANALYZE_AFTER_FACTS), it analyzes the table itself.
   */
  private analyzeAfterBulkWrites(): void {
    if (this.factsCommitted < Math.max(ANALYZE_AFTER_FACTS, this.factsAtAnalyze / 5)) return;
    this.factsCommitted = 0;
    try {
      // Only the table's owner may analyze it (PostgreSQL skips it for other roles, warning only).
      this.conn.exec('ANALYZE facts');
      this.factsAtAnalyze = this.conn.query<{ n: number }>("SELECT reltuples::bigint AS n FROM pg_class WHERE oid = 'facts'::regclass").rows[0]?.n ?? 0;
    } catch {
      // Statistics only speed reads up: the writes have committed, and must not be reported as
      // failed because they could not be refreshed (a lost connection shows at the next call).
    }
  }

  /** Opens a cursor over a compiled statement in the current transaction; its name. */
  declareCursor(text: string, values: readonly unknown[]): string {
    const name = `statelens_cursor_${++this.cursors}`;
    this.conn.query(`DECLARE ${name} NO SCROLL CURSOR FOR ${text}`, values);
    return name;
  }

  /**
   * A second connection to the same server, schema and org binding (for a long read that must not
   * hold this one), or undefined for PGlite, whose data folder only one instance may open.
   */
  openSibling(): PgDatabase | undefined {
    if (this.conn.target.kind !== 'server') return undefined;
    const conn = SyncPg.open(this.conn.target, this.conn.options);
    return new PgDatabase(conn, { readonly: this.readonly, rowLocks: this.rowLocks !== undefined, ...(this.onBegin ? { onBegin: this.onBegin } : {}) });
  }

  private begin(statement?: string): void {
    this.conn.begin(statement);
    this.onBegin?.(this.conn);
  }

  get open(): boolean {
    return !this.conn.closed;
  }

  get inTransaction(): boolean {
    return this.conn.inTransaction;
  }

  prepare(sql: string): PgStatement {
    return new PgStatement(this, sql);
  }

  exec(sql: string): this {
    // In SQLite a SAVEPOINT outside a transaction opens one, and releasing it commits; the
    // engine's dry runs (SAVEPOINT, work, ROLLBACK TO, RELEASE) rely on that.
    const opening = /^\s*SAVEPOINT\s+(\w+)\s*;?\s*$/i.exec(sql);
    if (opening && !this.conn.inTransaction) {
      this.begin();
      this.outerSavepoint = opening[1]?.toLowerCase();
    }
    // Transaction control goes through the connection, which keeps count of the open transaction.
    if (/^\s*BEGIN\b[\w\s]*;?\s*$/i.test(sql)) {
      // SQLite's DEFERRED/IMMEDIATE/EXCLUSIVE mean nothing here; PostgreSQL's own modes are kept.
      this.begin(/\b(ISOLATION|READ|DEFERRABLE)\b/i.test(sql) ? sql : 'BEGIN');
      return this;
    }
    if (/^\s*(COMMIT|END)\b[\w\s]*;?\s*$/i.test(sql) && this.conn.inTransaction) {
      this.outerSavepoint = undefined;
      this.conn.commit();
      this.committed();
      return this;
    }
    if (/^\s*ROLLBACK\s*;?\s*$/i.test(sql) && this.conn.inTransaction) {
      this.outerSavepoint = undefined;
      this.factsPending = 0;
      this.conn.rollback();
      return this;
    }
    if (this.onBegin && !this.conn.inTransaction) {
      this.conn.transaction(() => {
        this.onBegin?.(this.conn);
        this.conn.exec(this.dialect.compile(sql).text);
      });
      return this;
    }
    this.conn.exec(this.dialect.compile(sql).text);
    const released = /\bRELEASE\s+(?:SAVEPOINT\s+)?(\w+)\s*;?\s*$/i.exec(sql);
    if (released && released[1]?.toLowerCase() === this.outerSavepoint && this.conn.inTransaction) {
      this.outerSavepoint = undefined;
      this.conn.commit();
      this.committed();
    }
    return this;
  }

  /** better-sqlite3's transaction(): a function running `fn` in a transaction (a savepoint when nested). */
  transaction<A extends unknown[], T>(fn: (...args: A) => T): EngineTransaction<A, T> {
    const run = (...args: A): T => {
      const outer = !this.conn.inTransaction;
      let result: T;
      try {
        result = this.conn.transaction(() => {
          if (outer) this.onBegin?.(this.conn);
          return fn(...args);
        });
      } catch (e) {
        if (outer) this.factsPending = 0;
        throw e;
      }
      if (outer) this.committed();
      return result;
    };
    return Object.assign(run, { immediate: run, deferred: run });
  }

  /** Partitions other sessions changed since the last call (null: none; `all`: too many to
   * name), when this connection listens for them; undefined when it cannot (PGlite). */
  takeExternalChanges(): { partitionIds: number[]; all: boolean } | null | undefined {
    if (!this.conn.isListening) return undefined;
    const n = this.conn.takeNotifications();
    return n === null ? null : { partitionIds: [...n.ids].sort((a, b) => a - b), all: n.all };
  }

  /** Takes the dialect's transaction-scoped lock on each name, in the order given (see write-locks). */
  lockNames(names: readonly string[]): void {
    this.boundLockWaits();
    if (this.rowLocks) return this.lockRows(this.rowLocks.names, [names], names);
    const sql = this.dialect.nameLockSql;
    if (sql !== null) this.conn.query(sql, [names]);
  }

  /** Takes the store-wide write lock until the transaction ends (see write-locks). */
  lockStore(): void {
    this.boundLockWaits();
    if (this.rowLocks) return this.lockRows(this.rowLocks.store, [], []);
    const sql = this.dialect.storeLockSql;
    if (sql !== null) this.conn.query(sql, []);
  }

  /** Locks the rows `lock` names; when some are not made yet, makes them (a concurrent writer
   * making the same row waits for this one, as it would for the lock) and locks again. */
  private lockRows(lock: string, params: readonly unknown[], names: readonly string[]): void {
    const held = (): boolean => {
      const r = this.conn.query<{ store: number; wanted: number; held: number }>(lock, params).rows[0];
      return r !== undefined && r.store === 1 && r.held === r.wanted;
    };
    if (held()) return;
    this.conn.query(this.rowLocks?.make ?? '', [names]);
    if (!held()) throw new StatelensError('INTERNAL', 'A write lock row could not be locked after it was made');
  }

  /** Every lock wait of the rest of the transaction gives up after LOCK_WAIT_MS (SQLSTATE 55P03,
   * BUSY): advisory locks are outside row-level security, so any session of the server can take
   * one, and a writer must never wait on it without end. */
  private boundLockWaits(): void {
    this.conn.query("SELECT set_config('lock_timeout', $1, true)", [`${LOCK_WAIT_MS}ms`]);
  }

  /** The pragmas the engine reads at run time; the others configure SQLite only. */
  pragma(source: string, options: { simple?: boolean } = {}): unknown {
    const name = source.trim().toLowerCase();
    if (name === 'user_version') return options.simple ? PG_SQLITE_SCHEMA_VERSION : [{ user_version: PG_SQLITE_SCHEMA_VERSION }];
    if (name === 'data_version') {
      const v = this.query<{ v: number }>(this.dialect.changeCounterSql, []).rows[0]?.v ?? 0;
      return options.simple ? v : [{ data_version: v }];
    }
    throw new StatelensError('NOT_SUPPORTED', `PostgreSQL has no PRAGMA ${source}`, { construct: 'PRAGMA' });
  }

  /**
   * Moves every identity sequence of the schema past the highest id stored: rows inserted with
   * their own ids (a snapshot import) leave the sequences behind, and the next insert would
   * collide. Never moves one backwards (other orgs' rows may be invisible to this session).
   */
  syncIdentities(): void {
    this.conn.exec(`DO $$ DECLARE r record; seq text; top bigint; BEGIN
      FOR r IN SELECT c.relname AS t, a.attname AS col FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
                WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind = 'r' AND a.attidentity <> '' AND NOT a.attisdropped LOOP
        seq := pg_get_serial_sequence(format('%I', r.t), r.col);
        EXECUTE format('SELECT max(%I) FROM %I', r.col, r.t) INTO top;
        IF top IS NOT NULL THEN PERFORM setval(seq, greatest(top, nextval(seq))); END IF;
      END LOOP;
    END $$`);
  }

  /**
   * Gathers the planner's statistics on the schema's tables. Right after a bulk load (a snapshot
   * import) the planner otherwise takes the tables for nearly empty until autovacuum gets to them,
   * and picks plans that test the full-text condition row by row: seconds where the index answers
   * in milliseconds. PostgreSQL skips, with a warning, the tables this role does not own.
   */
  analyzeTables(): void {
    this.conn.exec(`DO $$ DECLARE r record; BEGIN
      FOR r IN SELECT c.relname AS t FROM pg_class c WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind = 'r' LOOP
        EXECUTE format('ANALYZE %I', r.t);
      END LOOP;
    END $$`);
  }

  close(): this {
    this.conn.close();
    return this;
  }
}

/** The PostgreSQL connection behind `db`, or undefined on SQLite. */
export function postgresOf(db: EngineDb): PgDatabase | undefined {
  return db instanceof PgDatabase ? db : undefined;
}
