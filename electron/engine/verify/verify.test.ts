import { describe, expect, it } from 'vitest';
import { dumpTables } from '../../../test/engine/support';
import { openTmpStore } from '../../../test/helpers/tmp';
import { sqliteOf } from '../db/connection';
import { Store } from '../store';
import { formatVerifyReport, verifyDatabase, type VerifyReport } from './verify';

const user = { kind: 'user', org: 'acme', user: 'u1' } as const;

function populated(): Store {
  const store = openTmpStore();
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

/** Breaks the database behind the engine's back (constraints off), as a bug or another tool might. */
function tamper(store: Store, sql: string, ...params: unknown[]): void {
  const db = sqliteOf(store.db, 'PRAGMA foreign_keys');
  db.pragma('foreign_keys = OFF');
  db.prepare(sql).run(...params);
  db.pragma('foreign_keys = ON');
}

describe('verifyDatabase', () => {
  it('passes on a database written by the engine, and formats one line per check', () => {
    const store = populated();
    const report = verifyDatabase(store);
    expect(failing(report)).toEqual([]);
    expect(report.ok).toBe(true);
    const names = report.checks.map((c) => c.name);
    for (const n of [
      'integrity_check',
      'foreign_key_check',
      'fts_index',
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
    expect(lines[0]).toMatch(/^ok\s+integrity_check/);
  });

  it('fails on a fact or turn whose time is not a date-time, and counts date-times in another form', () => {
    const store = populated();
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

  it('changes nothing, and works on a read-only connection', () => {
    const store = populated();
    const before = dumpTables(store.db);
    verifyDatabase(store);
    expect(dumpTables(store.db)).toEqual(before);
    store.close();
    const ro = Store.open(store.path, { readonly: true });
    const report = verifyDatabase(ro);
    expect(failing(report)).toEqual([]);
    expect(report.checks.find((c) => c.name === 'fts_index')?.detail).toMatch(/read-only/);
    ro.close();
  });

  it('finds a supersession cycle', () => {
    const store = populated();
    const [a, b] = store.db.prepare("SELECT id FROM facts WHERE key = 'city' ORDER BY rid").pluck().all() as string[];
    tamper(store, "UPDATE facts SET status = 'superseded', is_valid = 0, superseded_by = ? WHERE id = ?", a, b);
    const report = verifyDatabase(store);
    expect(failing(report)).toContain('superseded_by_acyclic');
    expect(report.ok).toBe(false);
    expect(formatVerifyReport(report).at(-1)).toMatch(/FAILED/);
  });

  it('finds pointers and edges that leave their partition, and a wrong org', () => {
    const store = populated();
    const mine = store.db.prepare("SELECT id FROM facts WHERE key = 'trip'").pluck().get() as string;
    const theirs = store.db.prepare("SELECT id FROM facts WHERE key = 'retry'").pluck().get() as string;
    tamper(store, 'UPDATE facts SET proposal_for = ? WHERE id = ?', theirs, mine);
    tamper(store, 'INSERT INTO fact_edges (partition_id, dependent, depends_on) VALUES (1, ?, ?)', mine, theirs);
    tamper(store, "UPDATE facts SET org_id = 'evil' WHERE id = ?", theirs);
    expect(failing(verifyDatabase(store))).toEqual(
      expect.arrayContaining(['proposal_for_resolves_in_partition', 'edges_in_partition', 'org_matches_partition']),
    );
  });

  it('finds dangling pointers, unmirrored chains and a stale full-text index', () => {
    const store = populated();
    const [a, b] = store.db.prepare("SELECT id FROM facts WHERE key = 'city' ORDER BY rid").pluck().all() as string[];
    tamper(store, "UPDATE facts SET supersedes = 'f_gone' WHERE id = ?", b);
    tamper(store, 'UPDATE facts SET superseded_by = NULL WHERE id = ?', a);
    const row = store.db.prepare("SELECT rid, key, value FROM facts WHERE key = 'trip'").get() as { rid: number; key: string; value: string };
    tamper(store, "INSERT INTO facts_fts (facts_fts, rowid, key, value) VALUES ('delete', ?, ?, ?)", row.rid, row.key, row.value);
    expect(failing(verifyDatabase(store))).toEqual(expect.arrayContaining(['foreign_key_check', 'supersedes_resolves_in_partition', 'fts_index']));
    tamper(store, 'UPDATE facts SET supersedes = ? WHERE id = ?', a, b);
    expect(failing(verifyDatabase(store))).toContain('supersedes_mirrored');
  });

  it('reports facts whose review cause or successor was deleted as allowed', () => {
    const store = populated();
    const p = store.scope(user);
    const b = store.db.prepare("SELECT id FROM facts WHERE value = 'Berlin'").pluck().get() as string;
    p.deleteFacts({ ids: [b] }, { actor: 'tester' });
    const report = verifyDatabase(store);
    expect(failing(report)).toEqual([]);
    expect(report.checks.find((c) => c.name === 'review_cause_deleted')).toMatchObject({ ok: true, count: 1 });
    expect(report.checks.find((c) => c.name === 'superseded_without_successor')).toMatchObject({ ok: true, count: 1 });
  });
});
