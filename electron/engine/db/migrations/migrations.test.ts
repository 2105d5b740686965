// Every migration upgrades a file of the version before it that holds data: every row survives,
// the schema is exactly what a new database of that version has, and the reads the step exists
// for use its indexes. A migration added without an upgrade case here fails the last test.
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { sqliteFileAt } from '../../../../test/helpers/older-store';
import { entityKey } from '../../facts/entity';
import { LATEST_SIGNALS_SQL } from '../../layers/environment';
import { SORT_SPECS } from '../../query/sort-columns';
import { Store } from '../../store';
import { migrate } from '../open';
import { schemaMismatch } from '../schema-check';
import { MIGRATIONS, SCHEMA_VERSION, type Migration } from '.';

type Db = Database.Database;

/** Each table's columns, so rows can be compared over the columns a step started with. */
function columns(db: Db): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const t of tables(db)) out[t] = (db.pragma(`table_info("${t}")`) as Array<{ name: string }>).map((c) => c.name);
  return out;
}

/** Every row of the given tables over the given columns, order-free. */
function contents(db: Db, shape: Record<string, string[]>): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [t, cols] of Object.entries(shape)) {
    const list = cols.map((c) => `"${c}"`).join(', ');
    out[t] = (db.prepare(`SELECT ${list} FROM "${t}"`).raw().all() as unknown[][]).map((r) => JSON.stringify(r)).sort();
  }
  return out;
}

function tables(db: Db): string[] {
  return db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name").pluck().all() as string[];
}

function plan(db: Db, sql: string, params: Record<string, unknown>): string {
  return (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(params) as Array<{ detail: string }>).map((r) => r.detail).join(' | ');
}

/** Rows in the version-1 schema (which later versions keep for these tables): two partitions,
 * a supersession chain, a dependency, working items, an identity and environment signals. */
function seedCore(db: Db): void {
  const run = (sql: string, ...params: unknown[]): void => void db.prepare(sql).run(...params);
  run("INSERT INTO partitions (id, org_id, kind, subject, created_at) VALUES (1, 'acme', 'user', 'u1', '2026-01-01'), (2, 'acme', 'user', 'u2', '2026-01-01')");
  const fact = `INSERT INTO facts (id, partition_id, org_id, key, value, source_type, source_authority, ts, created_at, memory_type, importance, status, is_valid, superseded_by, supersedes, supersession_rule)
    VALUES (?, ?, 'acme', ?, ?, 'user', ?, ?, ?, 'user', ?, ?, ?, ?, ?, ?)`;
  run(fact, 'f2', 1, 'budget', '$150,000 for the launch', 'cfo', '2026-02-01', '2026-02-01', 0.9, 'active', 1, null, 'f1', 'explicit');
  run(fact, 'f1', 1, 'budget', '$100,000 for the launch', null, '2026-01-10', '2026-01-10', 0.5, 'superseded', 0, 'f2', null, null);
  run(fact, 'f3', 1, 'city', 'Lyon', null, '2026-01-05', '2026-01-05', 0.3, 'active', 1, null, null, null);
  run(fact, 'f4', 2, 'city', 'Porto', null, '2026-01-06', '2026-01-06', 0.4, 'active', 1, null, null, null);
  run("INSERT INTO fact_edges (partition_id, dependent, depends_on) VALUES (1, 'f3', 'f2')");
  run("INSERT INTO working_items (id, partition_id, session_id, key, value, created_at) VALUES ('w1', 1, 's1', 'turn', 'hello', '2026-02-02')");
  // From version 6 every identity belongs to a session (before it, this one is bound to none).
  const perSession = (db.pragma('table_info(identities)') as Array<{ name: string; notnull: number }>).some((c) => c.name === 'session_id' && c.notnull === 1);
  run(
    `INSERT INTO identities (partition_id, user_name, user_id, authority, department, organization${perSession ? ', session_id' : ''})
     VALUES (1, 'Ann', 'u1', 'cfo', 'finance', 'acme'${perSession ? ", 'default'" : ''})`,
  );
  run(
    "INSERT INTO environment_signals (partition_id, key, value, observed_at) VALUES (1, 'timezone', 'Europe/Paris', '2026-03-01'), (1, 'office', 'open', '2026-03-02'), (2, 'timezone', 'Europe/Lisbon', '2026-03-01')",
  );
}

interface Upgrade {
  /** What the step is checked for beyond "every row survives and the schema is as built". */
  readonly check: (db: Db) => void;
  /** Columns the step rewrites on purpose (per table): left out of "every row survives", `check`
   * asserts their new values. */
  readonly rewrites?: Readonly<Record<string, readonly string[]>>;
}

const UPGRADES: Record<number, Upgrade> = {
  2: {
    check(db) {
      const indexes = db.prepare("SELECT name FROM sqlite_schema WHERE type = 'index' AND name LIKE 'facts_sort_%'").pluck().all();
      expect(indexes).toHaveLength(11);
      for (const spec of Object.values(SORT_SPECS)) if (spec.index.startsWith('facts_sort_')) expect(indexes).toContain(spec.index);
      // A page of the memories table sorted by value walks the prefix index, without a sort step.
      const sorted = plan(db, 'SELECT id FROM facts WHERE partition_id = @p ORDER BY substr(value, 1, 64), rid LIMIT 50', { p: 1 });
      expect(sorted).toMatch(/USING (COVERING )?INDEX facts_sort_value \(partition_id=\?\)/);
      expect(sorted).not.toMatch(/TEMP B-TREE FOR ORDER BY/);
    },
  },
  3: {
    check(db) {
      // The key is now (partition, key, observed_at): a new observation of a key adds a row...
      db.prepare("INSERT INTO environment_signals (partition_id, key, value, observed_at) VALUES (1, 'office', 'closed', '2026-03-05')").run();
      const latest = (at: string | null): unknown => db.prepare(LATEST_SIGNALS_SQL).all({ p: 1, at });
      expect(latest(null)).toEqual([
        { key: 'office', value: 'closed', observed_at: '2026-03-05' },
        { key: 'timezone', value: 'Europe/Paris', observed_at: '2026-03-01' },
      ]);
      // ...and an as-of read still sees the value that held then.
      expect(latest('2026-03-03')).toContainEqual({ key: 'office', value: 'open', observed_at: '2026-03-02' });
      // The same observation twice is still refused, and the partition reference still holds.
      expect(() => db.prepare("INSERT INTO environment_signals VALUES (1, 'office', 'x', '2026-03-05')").run()).toThrow(/UNIQUE/);
      expect(() => db.prepare("INSERT INTO environment_signals VALUES (99, 'office', 'x', '2026-03-05')").run()).toThrow(/FOREIGN KEY/);
      // The environment of a partition is read along the primary key, never by a table scan.
      const read = plan(db, LATEST_SIGNALS_SQL, { p: 1, at: null });
      expect(read).toMatch(/SEARCH s USING (COVERING )?INDEX sqlite_autoindex_environment_signals_1 \(partition_id=\?\)/);
      expect(read).toMatch(/SEARCH l USING COVERING INDEX sqlite_autoindex_environment_signals_1 \(partition_id=\? AND key=\? AND observed_at>\?\)/);
      expect(read).not.toMatch(/SCAN (environment_signals|s|l)\b/);
    },
  },
  4: {
    check(db) {
      // An identity stored before the step is bound to no session.
      expect(db.prepare('SELECT partition_id, user_name, session_id FROM identities').all()).toEqual([{ partition_id: 1, user_name: 'Ann', session_id: null }]);
    },
  },
  5: {
    check(db) {
      // Existing facts are filed under the entity their key names; none names one explicitly.
      const rows = db.prepare('SELECT key, entity, entity_key FROM facts ORDER BY id').all() as Array<{
        key: string;
        entity: string | null;
        entity_key: string;
      }>;
      expect(rows).toHaveLength(4);
      for (const r of rows) expect(r).toEqual({ key: r.key, entity: null, entity_key: entityKey(r.key, null) });
      // A write's lookup of the valid facts of one entity uses the partial index.
      const lookup = plan(db, 'SELECT id FROM facts WHERE partition_id = @p AND entity_key = @e AND is_valid = 1', { p: 1, e: 'budget' });
      expect(lookup).toMatch(/USING INDEX facts_partition_entity/);
    },
  },
  6: {
    // The identity bound to no session becomes the default session's (every other column kept).
    rewrites: { identities: ['session_id'] },
    check(db) {
      expect(db.prepare('SELECT partition_id, user_name, session_id FROM identities').all()).toEqual([
        { partition_id: 1, user_name: 'Ann', session_id: 'default' },
      ]);
      // One row per (partition, session): a second session of the partition adds its own row, the
      // same session twice is refused, and the partition reference still holds.
      const insert = db.prepare(
        "INSERT INTO identities (partition_id, user_name, user_id, authority, department, organization, session_id) VALUES (?, 'Vic', 'vic', 'VP', 'finance', 'acme', ?)",
      );
      insert.run(1, 'vp');
      expect(db.prepare('SELECT session_id FROM identities WHERE partition_id = 1 ORDER BY session_id').pluck().all()).toEqual(['default', 'vp']);
      expect(() => insert.run(1, 'vp')).toThrow(/UNIQUE/);
      expect(() => insert.run(1, null)).toThrow(/NOT NULL/);
      expect(() => insert.run(99, 'vp')).toThrow(/FOREIGN KEY/);
      // A session's identity is read along the primary key.
      expect(plan(db, 'SELECT * FROM identities WHERE partition_id = @p AND session_id = @s', { p: 1, s: 'vp' })).toMatch(
        /SEARCH identities USING INDEX sqlite_autoindex_identities_1 \(partition_id=\? AND session_id=\?\)/,
      );
    },
  },
  7: {
    check(db) {
      // No fact stored before the step is archived.
      expect(db.prepare('SELECT count(*) FROM facts WHERE archived_at IS NOT NULL').pluck().get()).toBe(0);
      expect(db.prepare('SELECT count(*) FROM facts').pluck().get()).toBe(4);
    },
  },
};

describe('migration upgrades with data', () => {
  for (const m of MIGRATIONS.filter((x) => x.version > 1)) {
    it(`${m.version} (${m.name}) upgrades a version-${m.version - 1} file: rows kept, schema as built, reads indexed`, () => {
      const upgrade = UPGRADES[m.version];
      if (!upgrade) throw new Error(`migration ${m.version} has no upgrade case`);
      const file = sqliteFileAt(m.version - 1, seedCore);
      const db = new Database(file);
      const shape = columns(db);
      for (const [table, cols] of Object.entries(upgrade.rewrites ?? {})) shape[table] = (shape[table] ?? []).filter((c) => !cols.includes(c));
      const before = contents(db, shape);
      migrate(db, m.version - 1, MIGRATIONS.slice(0, m.version));
      expect(db.pragma('user_version', { simple: true })).toBe(m.version);
      expect(schemaMismatch(db, m.version)).toBeNull();
      expect(contents(db, shape)).toEqual(before);
      expect(db.pragma('foreign_key_check')).toEqual([]);
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
      upgrade.check(db);
      db.close();
    });
  }

  it('a version-1 file opens as a current store with its data readable', () => {
    const store = Store.open(sqliteFileAt(1, seedCore));
    expect(store.db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    const p = store.scopeById(1);
    expect(p.currentValue('budget')).toBe('$150,000 for the launch');
    expect(p.listFacts({ sort: { column: 'value', direction: 'asc' } }).rows.map((r) => r.id)).toEqual(['f1', 'f2', 'f3']);
    expect(p.environment().map((s) => [s.key, s.value])).toEqual([
      ['office', 'open'],
      ['timezone', 'Europe/Paris'],
    ]);
    expect(p.identity()?.userName).toBe('Ann');
    store.close();
  });

  it('every migration after the first has an upgrade case', () => {
    expect(Object.keys(UPGRADES).map(Number)).toEqual(MIGRATIONS.filter((x) => x.version > 1).map((x) => x.version));
  });
});

describe('function migrations', () => {
  function lowerCaseKeys(db: Db): void {
    const rows = db.prepare('SELECT rid, key FROM facts').all() as Array<{ rid: number; key: string }>;
    const update = db.prepare('UPDATE facts SET key = ? WHERE rid = ?');
    for (const r of rows) update.run(r.key.toLowerCase(), r.rid);
  }
  const transform: Migration = { version: SCHEMA_VERSION + 1, name: 'lower-case keys', up: lowerCaseKeys };

  it('a data transform runs in the migration transaction and records its version', () => {
    const file = sqliteFileAt(SCHEMA_VERSION, (db) => {
      seedCore(db);
      db.prepare("UPDATE facts SET key = 'City' WHERE id = 'f3'").run();
    });
    const db = new Database(file);
    migrate(db, SCHEMA_VERSION, [...MIGRATIONS, transform]);
    expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION + 1);
    expect(db.prepare("SELECT key FROM facts WHERE id = 'f3'").pluck().get()).toBe('city');
    // The full-text index followed the transform (its trigger ran inside the same transaction).
    expect(db.prepare("SELECT count(*) FROM facts_fts WHERE facts_fts MATCH 'city'").pluck().get()).toBe(2);
    db.close();
  });

  it('a transform that fails leaves the file as it was, version included', () => {
    const file = sqliteFileAt(SCHEMA_VERSION, seedCore);
    const db = new Database(file);
    const before = contents(db, columns(db));
    const failing: Migration = {
      ...transform,
      up: (d) => {
        lowerCaseKeys(d);
        throw new Error('transform failed halfway');
      },
    };
    expect(() => migrate(db, SCHEMA_VERSION, [...MIGRATIONS, failing])).toThrow(/halfway/);
    expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    expect(contents(db, columns(db))).toEqual(before);
    db.close();
  });
});
