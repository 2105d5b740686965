import Database from 'better-sqlite3';
import { expect, it } from 'vitest';
import { codeOf } from '../../../test/helpers/errors';
import { describeStores } from '../../../test/helpers/stores';
import { tmpDbPath } from '../../../test/helpers/tmp';
import { sqliteOf, type EngineDb } from './connection';
import { PgDatabase, postgresOf } from './pg/database';

// Compile-time half of the contract: both connections are EngineDbs as they are, without a cast
// (tsc checks these lines), and an EngineDb offers no SQLite-only pragma.
const sqliteIsEngineDb = (db: Database.Database): EngineDb => db;
const pgIsEngineDb = (db: PgDatabase): EngineDb => db;
const noSqlitePragma = (db: EngineDb): unknown =>
  // @ts-expect-error journal_mode configures a SQLite file: reached through sqliteOf only
  db.pragma('journal_mode');

it('better-sqlite3 works through the engine connection as it is', () => {
  const db = sqliteIsEngineDb(new Database(tmpDbPath('connection.db')));
  db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)');
  db.transaction((v: string) => db.prepare('INSERT INTO t (v) VALUES (?)').run(v)).immediate('a');
  expect(db.prepare('SELECT v FROM t').pluck().all()).toEqual(['a']);
  expect(noSqlitePragma).toBeTypeOf('function');
  db.close();
  expect(db.open).toBe(false);
});

describeStores('the engine connection', (open, kind) => {
  it('prepares, reads in each row shape, writes in transactions and reports its state', () => {
    const store = open();
    const pg = postgresOf(store.db);
    const db: EngineDb = pg ? pgIsEngineDb(pg) : store.db;
    expect(pg === undefined).toBe(kind === 'sqlite');
    const partitions = (): number => db.prepare('SELECT count(*) FROM partitions').pluck().get() as number;
    const before = partitions();
    const insert = db.prepare("INSERT INTO partitions (org_id, kind, subject, created_at) VALUES (?, 'user', ?, '2026-01-01T00:00:00Z')");
    const added = db.transaction((subject: string) => insert.run('acme', subject).changes).immediate('u1');
    expect(added).toBe(1);
    expect(db.inTransaction).toBe(false);
    expect(partitions()).toBe(before + 1);
    const select = 'SELECT org_id, subject FROM partitions WHERE subject = ?';
    expect(db.prepare(select).get('u1')).toEqual({ org_id: 'acme', subject: 'u1' });
    expect(db.prepare(select).raw().all('u1')).toEqual([['acme', 'u1']]);
    expect([...db.prepare(select).iterate('u1')]).toHaveLength(1);
    // A throwing transaction leaves nothing behind on either database.
    expect(() =>
      db.transaction(() => {
        insert.run('acme', 'u2');
        throw new Error('abandoned');
      })(),
    ).toThrow('abandoned');
    expect(partitions()).toBe(before + 1);
    expect(db.pragma('user_version', { simple: true })).toEqual(expect.any(Number));
    expect(db.readonly).toBe(false);
    expect(db.open).toBe(true);
    store.close();
  });

  it('reaches the SQLite connection only on SQLite', () => {
    const store = open();
    if (kind === 'sqlite') {
      expect(sqliteOf(store.db, 'PRAGMA journal_mode').pragma('journal_mode', { simple: true })).toBe('wal');
      expect(postgresOf(store.db)).toBeUndefined();
    } else {
      expect(codeOf(() => sqliteOf(store.db, 'PRAGMA journal_mode'))).toBe('NOT_SUPPORTED');
      expect(postgresOf(store.db)).toBeInstanceOf(PgDatabase);
    }
    store.close();
  });
});
