import { expect, it } from 'vitest';
import { dumpTables } from '../../../test/engine/support';
import { describeStores, itWhere, type OpenStore } from '../../../test/helpers/stores';
import { dialectOf } from '../db/dialect';
import { sqliteOf } from '../db/connection';
import { Store } from '../store';
import { formatVerifyReport, verifyDatabase, type VerifyReport } from './verify';

const user = { kind: 'user', org: 'acme', user: 'u1' } as const;

function populated(openStore: OpenStore): Store {
  const store = openStore();
  const p = store.scope(user, { create: true });
  const q = store.scope({ kind: 'capability', org: 'acme', capability: 'billing' }, { create: true });
  p.writeFact({ key: 'city', value: 'Paris' });
  const b = p.writeFact({ key: 'city', value: 'Berlin' });
  p.writeFact({ key: 'trip', value: 'go', dependsOn: [b.factId] });
  p.writeFact({ key: 'discount', value: 'Max 15%', source: { type: 'policy', authority: 'policy' } });
  p.writeFact({ key: 'discount', value: 'Offer 25%', source: { type: 'user', authority: 'intern' } });
  q.writeFact({ key: 'retry', value: 'retry twice' });
  return store;
}

function failing(report: VerifyReport): string[] {
  return report.checks.filter((c) => !c.ok).map((c) => c.name);
}

/** Breaks the database behind the engine's back (foreign keys not enforced), as a bug or another
 * tool might: SQLite's foreign_keys off; on PostgreSQL replica mode, which fires no triggers (the
 * ones enforcing foreign keys among them). */
function tamper(store: Store, sql: string, ...params: unknown[]): void {
  const pg = dialectOf(store.db).name === 'postgres';
  if (pg) store.db.exec('SET session_replication_role = replica');
  else sqliteOf(store.db, 'PRAGMA foreign_keys').pragma('foreign_keys = OFF');
  store.db.prepare(sql).run(...params);
  if (pg) store.db.exec('RESET session_replication_role');
  else sqliteOf(store.db, 'PRAGMA foreign_keys').pragma('foreign_keys = ON');
}

describeStores('verifyDatabase', (openStore, kind) => {
  // The store's own checks: SQLite's on the file, PostgreSQL's on the schema.
  const storeChecks = kind === 'sqlite' ? ['integrity_check', 'foreign_key_check', 'fts_index'] : ['schema_version', 'constraints', 'foreign_key_check'];

  it('passes on a database written by the engine, and formats one line per check', () => {
    const store = populated(openStore);
    const report = verifyDatabase(store);
    expect(failing(report)).toEqual([]);
    expect(report.ok).toBe(true);
    const names = report.checks.map((c) => c.name);
    for (const n of [
      ...storeChecks,
      'valid_has_no_superseded_by',
      'status_matches_validity',
      'superseded_by_acyclic',
      'superseded_by_resolves_in_partition',
      'edges_in_partition',
      'org_matches_partition',
    ]) {
      expect(names).toContain(n);
    }
    const lines = formatVerifyReport(report);
    expect(lines).toHaveLength(report.checks.length + 1);
    expect(lines.at(-1)).toMatch(/^All \d+ checks passed/);
    expect(lines[0]).toMatch(new RegExp(`^ok\\s+${storeChecks[0]}`));
    store.close();
  });

  it('fails on a fact or turn whose time is not a date-time, and counts date-times in another form', () => {
    const store = populated(openStore);
    expect(failing(verifyDatabase(store))).toEqual([]);
    const p = store.scope(user);
    const [first, second] = p.validFacts();
    tamper(store, 'UPDATE facts SET ts = ? WHERE id = ?', 'zzzz', first?.id);
    tamper(store, 'UPDATE facts SET ts = ? WHERE id = ?', '2026-01-01T10:00+05:00', second?.id);
    p.addWorkingItems([{ key: 'turn:0', value: 'hi', itemType: 'turn' }]);
    tamper(store, "UPDATE working_items SET created_at = '9999-pinned'");
    const report = verifyDatabase(store);
    expect(failing(report)).toEqual(['fact_ts_is_date_time', 'working_item_created_at_is_date_time']);
    expect(report.checks.find((c) => c.name === 'fact_ts_is_date_time')?.detail).toContain('"zzzz"');
    expect(report.checks.find((c) => c.name === 'fact_ts_canonical')?.count).toBe(1);
    store.close();
  });

  it('changes nothing', () => {
    const store = populated(openStore);
    const before = dumpTables(store.db);
    verifyDatabase(store);
    expect(dumpTables(store.db)).toEqual(before);
    store.close();
  });

  itWhere(
    kind,
    ['sqlite'],
    'a read-only reopening of the same store is a SQLite file here, and its full-text comparison reads FTS5 tables',
  )('works on a read-only connection', () => {
    const store = populated(openStore);
    store.close();
    const ro = Store.open(store.path, { readonly: true });
    const report = verifyDatabase(ro);
    expect(failing(report)).toEqual([]);
    expect(report.checks.find((c) => c.name === 'fts_index')?.detail).toMatch(/read-only/);
    ro.close();
  });

  it('finds a supersession cycle', () => {
    const store = populated(openStore);
    const [a, b] = store.db.prepare("SELECT id FROM facts WHERE key = 'city' ORDER BY rid").pluck().all() as string[];
    tamper(store, "UPDATE facts SET status = 'superseded', is_valid = 0, superseded_by = ? WHERE id = ?", a, b);
    const report = verifyDatabase(store);
    expect(failing(report)).toContain('superseded_by_acyclic');
    expect(report.ok).toBe(false);
    expect(formatVerifyReport(report).at(-1)).toMatch(/FAILED/);
    store.close();
  });

  it('finds pointers and edges that leave their partition, and a wrong org', () => {
    const store = populated(openStore);
    const mine = store.db.prepare("SELECT id FROM facts WHERE key = 'trip'").pluck().get() as string;
    const theirs = store.db.prepare("SELECT id FROM facts WHERE key = 'retry'").pluck().get() as string;
    tamper(store, 'UPDATE facts SET proposal_for = ? WHERE id = ?', theirs, mine);
    // Both facts exist, so no foreign key stops the edge: only the partition check sees it.
    store.db.prepare('INSERT INTO fact_edges (partition_id, dependent, depends_on) VALUES (1, ?, ?)').run(mine, theirs);
    tamper(store, "UPDATE facts SET org_id = 'evil' WHERE id = ?", theirs);
    expect(failing(verifyDatabase(store))).toEqual(
      expect.arrayContaining(['proposal_for_resolves_in_partition', 'edges_in_partition', 'org_matches_partition']),
    );
    store.close();
  });

  it('finds dangling pointers and unmirrored chains', () => {
    const store = populated(openStore);
    const [a, b] = store.db.prepare("SELECT id FROM facts WHERE key = 'city' ORDER BY rid").pluck().all() as string[];
    tamper(store, "UPDATE facts SET supersedes = 'f_gone' WHERE id = ?", b);
    tamper(store, 'UPDATE facts SET superseded_by = NULL WHERE id = ?', a);
    const report = verifyDatabase(store);
    expect(failing(report)).toEqual(['foreign_key_check', 'supersedes_resolves_in_partition']);
    expect(report.checks.find((c) => c.name === 'foreign_key_check')?.detail).toMatch(/facts.* -> .*facts/);
    tamper(store, 'UPDATE facts SET supersedes = ? WHERE id = ?', a, b);
    expect(failing(verifyDatabase(store))).toEqual(['supersedes_mirrored']);
    store.close();
  });

  itWhere(
    kind,
    ['sqlite'],
    "PostgreSQL's full-text index is an expression index the server maintains, with no separate index table to fall out of step",
  )('finds a stale full-text index', () => {
    const store = populated(openStore);
    const row = store.db.prepare("SELECT rid, key, value FROM facts WHERE key = 'trip'").get() as { rid: number; key: string; value: string };
    tamper(store, "INSERT INTO facts_fts (facts_fts, rowid, key, value) VALUES ('delete', ?, ?, ?)", row.rid, row.key, row.value);
    expect(failing(verifyDatabase(store))).toEqual(['fts_index']);
    store.close();
  });

  it('reports facts whose review cause or successor was deleted as allowed', () => {
    const store = populated(openStore);
    const p = store.scope(user);
    const b = store.db.prepare("SELECT id FROM facts WHERE value = 'Berlin'").pluck().get() as string;
    p.deleteFacts({ ids: [b] }, { actor: 'tester' });
    const report = verifyDatabase(store);
    expect(failing(report)).toEqual([]);
    expect(report.checks.find((c) => c.name === 'review_cause_deleted')).toMatchObject({ ok: true, count: 1 });
    expect(report.checks.find((c) => c.name === 'superseded_without_successor')).toMatchObject({ ok: true, count: 1 });
    store.close();
  });
});
