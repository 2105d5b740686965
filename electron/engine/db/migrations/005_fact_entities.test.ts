// Upgrading a version-4 database with facts in it: the rows stay, each gets the entity its key
// names, the schema matches version 5, and a new write finds an old fact by its entity.
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { tmpDbPath } from '../../../../test/helpers/tmp';
import { sqliteOf } from '../connection';
import { APPLICATION_ID } from '../open';
import { schemaMismatch } from '../schema-check';
import { Store } from '../../store';
import { MIGRATIONS, runMigration, SCHEMA_VERSION } from '.';

describe('migration 005 (fact entities)', () => {
  it('adds entity columns to a version-4 database, files existing facts by their keys, keeps every row', () => {
    const file = tmpDbPath();
    const raw = new Database(file);
    for (const m of MIGRATIONS.filter((x) => x.version <= 4)) runMigration(raw, m);
    raw.pragma('user_version = 4');
    raw.pragma(`application_id = ${APPLICATION_ID}`);
    raw.prepare("INSERT INTO partitions (org_id, kind, subject, created_at) VALUES ('acme', 'user', 'u1', '2026-01-01')").run();
    const insert = raw.prepare(
      `INSERT INTO facts (id, partition_id, org_id, key, value, source_type, ts, created_at, memory_type)
       VALUES (?, 1, 'acme', ?, ?, 'user', ?, '2026-01-01T00:00:00Z', 'user')`,
    );
    insert.run('f1', 'address_v1', 'My address is 123 Main St', '2026-01-01T00:00:00Z');
    insert.run('f2', 'meetingTime', 'Tuesday at 2pm', '2026-01-01T00:00:00Z');
    insert.run('f3', 'fact_7', 'Revenue shows $0', '2026-01-01T00:00:00Z');
    raw.close();

    const store = Store.open(file);
    try {
      expect(store.db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
      expect(schemaMismatch(sqliteOf(store.db, 'The schema check'), SCHEMA_VERSION)).toBeNull();
      expect(store.db.prepare('SELECT id, key, entity, entity_key FROM facts ORDER BY rid').all()).toEqual([
        { id: 'f1', key: 'address_v1', entity: null, entity_key: 'address' },
        { id: 'f2', key: 'meetingTime', entity: null, entity_key: 'meeting' },
        { id: 'f3', key: 'fact_7', entity: null, entity_key: 'fact' },
      ]);
      const p = store.scopeById(1);
      const moved = p.writeFact({ key: 'address_v2', value: 'I moved to 456 Oak Ave' });
      expect(moved).toMatchObject({ outcome: 'superseded', supersededId: 'f1' });
      expect(p.writeFact({ key: 'meeting_day', value: 'Thursday' })).toMatchObject({ outcome: 'superseded', supersededId: 'f2', rule: 'implicit' });
      expect(p.writeFact({ key: 'fact_8', value: 'Revenue shows $10' }).outcome).toBe('created');
    } finally {
      store.close();
    }
  });
});
