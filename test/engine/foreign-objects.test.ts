// A database file carrying objects Statelens did not create is not trusted silently. The hostile
// case is real: a trigger that copies every deleted fact's value into a table of its own, which
// no scrub of the file's free space can reach. Opening says so and stays read-only until the
// user trusts the file, `statelens verify` fails (a real child process), and a delete never
// claims the text is gone while such an object exists.
import Database from 'better-sqlite3';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { Store } from '../../electron/engine/store';
import { verifyDatabase } from '../../electron/engine/verify/verify';
import { statelens } from '../helpers/child';
import { thrownBy } from '../helpers/errors';
import { tmpDir } from '../helpers/tmp';
import { startHarness } from '../contract/harness';
import { describeStores } from '../helpers/stores';
import { postgresOf } from '../../electron/engine/db/pg/database';

const USER = { kind: 'user', org: 'acme', user: 'u1' } as const;
const SECRET = 'card number 4111-1111-1111-1111';

/** A Statelens database with a fact to delete, and the hostile trigger and its table added. */
function hostileDatabase(): { db: string; factId: string } {
  const db = path.join(tmpDir(), 'hostile.db');
  const store = Store.open(db);
  const factId = store.scope(USER, { create: true }).writeFact({ key: 'payment', value: SECRET }).factId;
  store.close();
  const raw = new Database(db);
  raw.exec(`CREATE TABLE kept (value TEXT);
            CREATE TRIGGER keep_deleted AFTER DELETE ON facts BEGIN INSERT INTO kept VALUES (old.value); END;`);
  raw.close();
  return { db, factId };
}

function kept(db: string): string[] {
  const raw = new Database(db, { readonly: true });
  try {
    return raw.prepare('SELECT value FROM kept').pluck().all() as string[];
  } finally {
    raw.close();
  }
}

describe('a database with objects Statelens did not create', () => {
  it('opens read-only and says which objects; a write is READ_ONLY naming them', () => {
    const { db } = hostileDatabase();
    const store = Store.open(db);
    try {
      expect(store.readonly).toBe(true);
      expect(store.foreignObjects).toEqual(['table kept', 'trigger keep_deleted']);
      const e = thrownBy(() => store.scope(USER).writeFact({ key: 'x', value: 'y' }));
      expect(e.code).toBe('READ_ONLY');
      expect(e.message).toMatch(/objects Statelens did not create \(table kept, trigger keep_deleted\).*until you confirm/);
    } finally {
      store.close();
    }
  });

  it('a Statelens trigger rewritten to do something else counts as foreign', () => {
    const db = path.join(tmpDir(), 'changed.db');
    Store.open(db).close();
    const raw = new Database(db);
    const ours = raw.prepare("SELECT name, sql FROM sqlite_schema WHERE type = 'trigger' ORDER BY name LIMIT 1").get() as { name: string; sql: string };
    raw.exec(`DROP TRIGGER ${ours.name}; ${ours.sql.replace(/BEGIN/i, 'BEGIN SELECT 1;')}`);
    raw.close();
    const store = Store.open(db, { readonly: true });
    try {
      expect(store.foreignObjects).toEqual([`trigger ${ours.name} (changed)`]);
    } finally {
      store.close();
    }
  });

  it('statelens verify fails naming them; a clean file passes', async () => {
    const { db } = hostileDatabase();
    const r = await statelens(['verify', '--db', db]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/FAIL\s+foreign_objects\s+2 violating: table kept, trigger keep_deleted/);
    const clean = path.join(tmpDir(), 'clean.db');
    Store.open(clean).close();
    const ok = await statelens(['verify', '--db', clean]);
    expect(ok.code, ok.stdout).toBe(0);
    expect(ok.stdout).toMatch(/ok\s+foreign_objects/);
  });

  it('statelens delete on such a file is refused (read-only) and deletes nothing', async () => {
    const { db, factId } = hostileDatabase();
    const r = await statelens(['delete', '--db', db, factId, '--yes']);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/did not create.*\[READ_ONLY\]/s);
    expect(r.stdout).not.toMatch(/Text removed.*yes/);
    const store = Store.open(db, { readonly: true });
    expect(store.scope(USER).getFact(factId)?.value).toBe(SECRET);
    store.close();
  });

  it('trusted by the user, a delete works but never reports the text as removed while the trigger kept it', () => {
    const { db, factId } = hostileDatabase();
    const store = Store.open(db, { trustForeignObjects: true });
    try {
      expect(store.readonly).toBe(false);
      const result = store.scope(USER).deleteFacts({ ids: [factId] }, { actor: 'test' });
      expect(result.deleted).toBe(1);
      expect(result.scrub?.complete).toBe(false);
      expect(result.scrub?.detail).toMatch(/objects Statelens did not create \(table kept, trigger keep_deleted\)/);
      expect(verifyDatabase(store).checks.find((c) => c.name === 'foreign_objects')?.ok).toBe(false);
    } finally {
      store.close();
    }
    // What the trigger did: the deleted text lives on in its table.
    expect(kept(db)).toEqual([SECRET]);
  });
});

describe('the desktop contract for such a file', () => {
  it('db.info lists the objects and says read-only; db.trustForeignObjects reopens it for writing', async () => {
    const { db } = hostileDatabase();
    const dataDir = path.join(tmpDir(), 'data');
    const h = await startHarness({ dataDir, dbPath: db });
    try {
      const before = await h.bridge.db.info();
      expect(before).toMatchObject({ ok: true, value: { db: { readonly: true, foreignObjects: ['table kept', 'trigger keep_deleted'] } } });
      const after = await h.bridge.db.trustForeignObjects();
      expect(after).toMatchObject({ ok: true, value: { db: { readonly: false, foreignObjects: ['table kept', 'trigger keep_deleted'] } } });
    } finally {
      await h.close();
    }
  });
});

describeStores(
  'a PostgreSQL schema carrying objects Statelens did not create',
  (openStore) => {
    it('verify passes on a clean schema, then fails naming the foreign table and trigger; a delete never claims a complete scrub', () => {
      const store = openStore();
      const pg = postgresOf(store.db);
      if (!pg) throw new Error('a PostgreSQL store was expected');
      const p = store.scope(USER, { create: true });
      const factId = p.writeFact({ key: 'payment', value: SECRET }).factId;
      expect(verifyDatabase(store).checks.find((c) => c.name === 'foreign_objects')).toMatchObject({ ok: true, count: 0 });
      pg.conn.exec(`CREATE TABLE kept (value text);
        CREATE FUNCTION keep_deleted() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN INSERT INTO kept VALUES (old.value); RETURN old; END $$;
        CREATE TRIGGER keep_deleted AFTER DELETE ON facts FOR EACH ROW EXECUTE FUNCTION keep_deleted();
        CREATE VIEW peek AS SELECT value FROM facts;`);
      const check = verifyDatabase(store).checks.find((c) => c.name === 'foreign_objects');
      expect(check?.ok).toBe(false);
      expect(check?.detail).toMatch(/table kept/);
      expect(check?.detail).toMatch(/trigger keep_deleted/);
      expect(check?.detail).toMatch(/view peek/);
      const result = p.deleteFacts({ ids: [factId] }, { actor: 'test' });
      expect(result.deleted).toBe(1);
      expect(result.scrub?.complete).toBe(false);
      expect(result.scrub?.detail).toMatch(/objects Statelens did not create \(table kept, trigger keep_deleted, view peek\)/);
      expect(pg.conn.query<{ value: string }>('SELECT value FROM kept').rows.map((r) => r.value)).toEqual([SECRET]);
      store.close();
    });
  },
  { stores: ['pglite', 'server'], reason: 'the SQLite file is covered above' },
);
