// The engine's own code on PostgreSQL (PGlite always, the real server when STATELENS_TEST_PG_URL
// is set), compared with the same calls on SQLite: a partition is created, a second fact under the
// same key supersedes the first, and listing shows the same chain with the same fields.
import { afterAll, describe, expect, it } from 'vitest';
import { PG_SCHEMA_VERSION } from '../../electron/engine/db/pg/migrations';
import { migratePg, VERSION_TABLE } from '../../electron/engine/db/pg/schema';
import { SyncPg } from '../../electron/engine/db/pg/sync-client';
import type { PgTarget } from '../../electron/engine/db/pg/target';
import { Store, type StoreOptions } from '../../electron/engine/store';
import type { StatelensError } from '../../shared/errors';
import { SERVER_SKIP_REASON, SERVER_URL, serverScratchDatabase } from '../helpers/pg';
import { tmpDbPath, tmpDir } from '../helpers/tmp';

/** The same deterministic clock and ids for both stores. */
function deterministic(): StoreOptions {
  let counter = 0;
  let t = Date.parse('2026-01-01T00:00:00.000Z');
  return { clock: { now: () => new Date((t += 1000)).toISOString() }, idSource: () => String(++counter).padStart(8, '0') };
}

/** One engine path: a partition, two facts under one key (the second supersedes), the listing. */
function scenario(store: Store): unknown {
  const p = store.scope({ org: 'acme', kind: 'user', user: 'u1' }, { create: true });
  const first = p.writeFact({ key: 'city', value: 'Lyon' });
  const second = p.writeFact({ key: 'city', value: 'Porto' });
  const other = p.writeFact({ key: 'budget', value: '$100,000 for the launch' });
  p.addWorkingItems([{ key: 'turn', value: 'hello' }]);
  p.saveQuery({ label: 'q', prompt: 'what is the budget?' });
  return {
    first,
    second,
    other,
    current: p.currentValue('city'),
    facts: p.listFacts({}).rows,
    byValue: p.listFacts({ sort: { column: 'value', direction: 'asc' } }).rows.map((r) => r.id),
    valid: p.listFacts({ filter: { validity: 'valid' } }).rows.map((r) => r.id),
    // Numbered parameters bound from an object, and a negative LIMIT (no limit).
    working: p.workingItems(),
    saved: p.savedQueries(),
  };
}

function caughtCode(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (e) {
    return (e as StatelensError).code;
  }
  return undefined;
}

if (!SERVER_URL) console.log(SERVER_SKIP_REASON);
let scratch: ReturnType<typeof serverScratchDatabase> | undefined;
afterAll(() => scratch?.drop());

const targets: Array<{ name: string; enabled: boolean; target: () => PgTarget }> = [
  { name: 'PGlite', enabled: true, target: () => ({ kind: 'pglite', dataDir: tmpDir('statelens-pg-store-') }) },
  {
    name: 'server',
    enabled: SERVER_URL !== undefined,
    target: () => {
      scratch ??= serverScratchDatabase('store');
      return scratch.target;
    },
  },
];

for (const t of targets) {
  describe.skipIf(!t.enabled)(`the engine on ${t.name}`, () => {
    it('writes, supersedes by key and lists exactly as on SQLite', () => {
      const target = t.target();
      const setup = SyncPg.open(target);
      migratePg(setup);
      setup.close();

      const lite = Store.open(tmpDbPath(), deterministic());
      const expected = scenario(lite);
      lite.close();

      const store = Store.openPostgres(target, deterministic());
      try {
        const got = scenario(store);
        expect(got).toEqual(expected);
        expect(got).toMatchObject({ second: { outcome: 'superseded', supersededId: 'f_00000001' }, current: 'Porto', valid: ['f_00000003', 'f_00000002'] });
        // The engine's dry runs: a SAVEPOINT outside a transaction opens one, as in SQLite, and
        // rolling back to it and releasing it leaves nothing behind and no transaction open.
        const count = (): unknown => store.db.prepare('SELECT count(*) FROM facts').pluck().get();
        store.db.exec('SAVEPOINT statelens_probe');
        expect(store.db.inTransaction).toBe(true);
        store.db.prepare("UPDATE facts SET value = 'changed' WHERE key = ?").run('budget');
        store.db.prepare('DELETE FROM facts WHERE key = ?').run('budget');
        expect(count()).toBe(2);
        store.db.exec('ROLLBACK TO statelens_probe; RELEASE statelens_probe');
        expect(store.db.inTransaction).toBe(false);
        expect(count()).toBe(3);
        expect(store.scopeById(1).currentValue('budget')).toBe('$100,000 for the launch');
      } finally {
        store.close();
      }
    });

    it('refuses a schema that was never initialised (NOT_FOUND) or is newer (DB_TOO_NEW)', () => {
      const target = t.target();
      expect(caughtCode(() => Store.openPostgres(target, { schema: 'never_initialised' }))).toBe('NOT_FOUND');
      const setup = SyncPg.open(target);
      try {
        migratePg(setup, { schema: 'from_the_future' });
        setup.query(`UPDATE from_the_future.${VERSION_TABLE} SET version = $1`, [PG_SCHEMA_VERSION + 1]);
      } finally {
        setup.close();
      }
      expect(caughtCode(() => Store.openPostgres(target, { schema: 'from_the_future' }))).toBe('DB_TOO_NEW');
    });
  });
}
