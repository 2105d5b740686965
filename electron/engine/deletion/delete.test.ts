import Database from 'better-sqlite3';
import { expect, it } from 'vitest';
import { DeletionImpact, DeletionResult } from '../../../shared/deletion';
import { dumpTables } from '../../../test/engine/support';
import { describeStores, itWhere, type OpenStore } from '../../../test/helpers/stores';
import { auditRowToEntry } from '../audit/audit';
import { dialectOf } from '../db/dialect';
import { verifyDatabase } from '../verify/verify';
import type { PartitionHandle } from '../partition-handle';
import { Store } from '../store';

const user = { kind: 'user', org: 'acme', user: 'u1' } as const;
const actor = { actor: 'tester', reason: 'test' };

function setup(openStore: OpenStore): { store: Store; p: PartitionHandle } {
  const store = openStore();
  return { store, p: store.scope(user, { create: true }) };
}

/** a -> b -> c (each superseding the previous, same key). */
function chain(p: PartitionHandle, key = 'city', values = ['Paris', 'Berlin', 'Rome']): string[] {
  return values.map((value) => p.writeFact({ key, value }).factId);
}

/** `verify` is SQLite's (page integrity, the foreign-key pragma, FTS5, walks in rowid temp
 * tables); on PostgreSQL the server's own constraints (the fact pointers are deferred foreign
 * keys, checked before the delete's audit) are what keeps a pointer from dangling. */
function expectVerified(store: Store): void {
  if (dialectOf(store.db).name === 'postgres') return;
  const report = verifyDatabase(store);
  expect(report.checks.filter((c) => !c.ok)).toEqual([]);
}

describeStores(
  'deleting from supersession chains',
  (openStore) => {
    it('relinks around a deleted middle version; the older one stays superseded', () => {
      const { store, p } = setup(openStore);
      const [a, b, c] = chain(p);
      const result = p.deleteFacts({ ids: [b!] }, actor);
      expect(DeletionResult.parse(result)).toEqual(result);
      expect(result).toMatchObject({ deleted: 1, relinked: 2, cleared: 0 });
      expect(p.getFact(b!)).toBeUndefined();
      expect(p.getFact(a!)).toMatchObject({ isValid: false, status: 'superseded', supersededBy: c });
      expect(p.getFact(c!)).toMatchObject({ isValid: true, supersedes: a });
      expect(p.chain(a!).versions.map((f) => f.id)).toEqual([a, c]);
      expectVerified(store);
    });

    it('deleting the valid head leaves its predecessor superseded, with no successor and a recorded reason', () => {
      const { store, p } = setup(openStore);
      const [a, b] = chain(p, 'city', ['Paris', 'Berlin']);
      p.deleteFacts({ ids: [b!] }, actor);
      const old = p.getFact(a!);
      expect(old).toMatchObject({ isValid: false, status: 'superseded', supersededBy: null });
      expect(old?.supersessionReason).toContain(`its successor ${b} was deleted`);
      expect(p.currentValue('city')).toBeUndefined();
      expect(p.validFacts()).toEqual([]);
      expectVerified(store);
    });

    it('deleting the first version clears the next one’s supersedes', () => {
      const { store, p } = setup(openStore);
      const [a, b] = chain(p, 'city', ['Paris', 'Berlin']);
      p.deleteFacts({ ids: [a!] }, actor);
      expect(p.getFact(b!)).toMatchObject({ isValid: true, supersedes: null });
      expectVerified(store);
    });

    it('deletes whole chains and non-adjacent versions at once without a dangling pointer', () => {
      const { store, p } = setup(openStore);
      const [a, b, c, d, e] = chain(p, 'k', ['1', '2', '3', '4', '5']);
      const [x, y] = chain(p, 'other', ['x', 'y']);
      const result = p.deleteFacts({ ids: [a!, c!, e!, x!, y!] }, actor);
      expect(result.deleted).toBe(5);
      expect(p.getFact(b!)).toMatchObject({ supersedes: null, supersededBy: d, isValid: false });
      expect(p.getFact(d!)).toMatchObject({ supersedes: b, supersededBy: null, isValid: false });
      expect(
        p
          .allFacts()
          .map((f) => f.id)
          .sort(),
      ).toEqual([b, d].sort());
      expectVerified(store);
    });

    it('re-points a proposal at its target’s successor, and clears it when nothing follows', () => {
      const { store, p } = setup(openStore);
      const policy = p.writeFact({ key: 'discount', value: 'Max 15%', source: { type: 'policy', authority: 'policy' } });
      const proposal = p.writeFact({ key: 'discount', value: 'Offer 25%', source: { type: 'user', authority: 'intern' } });
      expect(proposal.outcome).toBe('proposal');
      const next = p.writeFact({ key: 'discount', value: 'Max 12%', source: { type: 'policy', authority: 'policy' } });
      expect(next.supersededId).toBe(policy.factId);

      const preview = p.previewDeletion({ ids: [policy.factId] });
      expect(preview.proposalsAffected).toBe(1);
      expect(preview.relinked).toContainEqual({ id: proposal.factId, field: 'proposalFor', from: policy.factId, to: next.factId });
      p.deleteFacts({ ids: [policy.factId] }, actor);
      expect(p.getFact(proposal.factId)).toMatchObject({ status: 'proposal', isValid: false, proposalFor: next.factId });

      p.deleteFacts({ ids: [next.factId] }, actor);
      expect(p.getFact(proposal.factId)).toMatchObject({ status: 'proposal', isValid: false, proposalFor: null });
      expectVerified(store);
    });

    it('a stale write stays superseded when the fact that beat it is deleted', () => {
      const { store, p } = setup(openStore);
      p.writeFact({ key: 'stock_price', value: '$100', ts: '2026-01-01T00:00:00Z' });
      const newer = p.writeFact({ key: 'stock_price', value: '$95', ts: '2026-01-15T00:00:00Z' });
      const stale = p.writeFact({ key: 'stock_price', value: '$90', ts: '2026-01-10T00:00:00Z' });
      expect(stale.outcome).toBe('stale');
      p.deleteFacts({ ids: [newer.factId] }, actor);
      expect(p.getFact(stale.factId)).toMatchObject({ status: 'superseded', isValid: false, supersededBy: null });
      expect(p.validFacts()).toEqual([]);
      expectVerified(store);
    });
  },
  undefined,
  { roles: ['admin'] },
);

describeStores(
  'dependents',
  (openStore) => {
    it('flags transitive dependents (not the deleted ones) with the cause, safe against cycles', () => {
      const { store, p } = setup(openStore);
      const base = p.writeFact({ key: 'budget', value: '$200k' }).factId;
      const d1 = p.writeFact({ key: 'decision', value: 'buy', dependsOn: [base] }).factId;
      const d2 = p.writeFact({ key: 'plan', value: 'q4', dependsOn: [d1] }).factId;
      const d3 = p.writeFact({ key: 'note', value: 'cyclic', dependsOn: [d2], derivedFacts: [d1] }).factId;
      const other = p.writeFact({ key: 'unrelated', value: 'x' }).factId;

      const preview = p.previewDeletion({ ids: [base, d1] });
      expect(new Set(preview.flagged)).toEqual(new Set([d2, d3]));
      const result = p.deleteFacts({ ids: [base, d1] }, actor);
      expect(result.flagged).toBe(2);
      for (const id of [d2, d3]) {
        const f = p.getFact(id);
        expect(f?.needsReview).toBe(true);
        expect([base, d1]).toContain(f?.reviewCauseFact);
        expect(f?.reviewCause).toMatch(/deleted by tester/);
      }
      expect(p.getFact(other)?.needsReview).toBe(false);
      // The edges of deleted facts went with them.
      expect(store.db.prepare('SELECT count(*) FROM fact_edges WHERE dependent IN (?, ?) OR depends_on IN (?, ?)').pluck().get(base, d1, base, d1)).toBe(0);
      expectVerified(store);
    });

    it('rewrites an older flag that quoted a now-deleted cause’s key', () => {
      const { store, p } = setup(openStore);
      const base = p.writeFact({ key: 'secret_budget_key', value: '$200k' }).factId;
      const dep = p.writeFact({ key: 'decision', value: 'buy', dependsOn: [base] }).factId;
      const newer = p.writeFact({ key: 'secret_budget_key', value: 'actually $100k' }).factId;
      expect(p.getFact(dep)?.reviewCause).toContain('secret_budget_key');
      p.deleteFacts({ ids: [base, newer] }, actor);
      const f = p.getFact(dep);
      expect(f?.needsReview).toBe(true);
      expect(f?.reviewCause).not.toContain('secret_budget_key');
      expectVerified(store);
    });
  },
  undefined,
  { roles: ['admin'] },
);

describeStores('selections', (openStore, kind) => {
  it('deletes everything matching a filter in this partition only', () => {
    const store = openStore();
    const p = store.scope(user, { create: true });
    const q = store.scope({ kind: 'user', org: 'acme', user: 'u2' }, { create: true });
    p.writeFact({ key: 'colour', value: 'the colour is teal' });
    p.writeFact({ key: 'size', value: 'large teal box' });
    p.writeFact({ key: 'shape', value: 'round' });
    const keep = q.writeFact({ key: 'colour', value: 'the colour is teal' }).factId;
    const preview = p.previewDeletion({ filter: { search: 'teal' } });
    expect(preview.toDelete).toBe(2);
    const result = p.deleteFacts({ filter: { search: 'teal' } }, actor);
    expect(result.deleted).toBe(2);
    expect(p.allFacts().map((f) => f.key)).toEqual(['shape']);
    expect(q.getFact(keep)).toBeDefined();
    expect(p.deleteFacts({ filter: { key: 'nothing-here' } }, actor)).toMatchObject({ deleted: 0, auditId: null, scrub: null });
    expectVerified(store);
  });

  it('filters by validity, key, source and time', () => {
    const { store, p } = setup(openStore);
    chain(p, 'city', ['Paris', 'Berlin', 'Rome']);
    p.writeFact({ key: 'tz', value: 'CET', ts: '2020-01-01T00:00:00Z', source: { type: 'system' } });
    expect(p.previewDeletion({ filter: { validity: 'superseded' } }).toDelete).toBe(2);
    expect(p.previewDeletion({ filter: { validity: 'valid', key: 'city' } }).toDelete).toBe(1);
    expect(p.previewDeletion({ filter: { sourceTypes: ['system'] } }).toDelete).toBe(1);
    expect(p.previewDeletion({ filter: { to: '2021-01-01T00:00:00Z' } }).toDelete).toBe(1);
    expect(p.previewDeletion({ filter: { search: '"quoted AND (syntax' } }).toDelete).toBe(0);
    p.deleteFacts({ filter: { validity: 'superseded' } }, actor);
    expect(
      p
        .allFacts()
        .map((f) => f.value)
        .sort(),
    ).toEqual(['CET', 'Rome']);
    expectVerified(store);
  });

  it('refuses ids that are not facts of this partition, changing nothing', () => {
    const store = openStore();
    const p = store.scope(user, { create: true });
    const q = store.scope({ kind: 'organizational', org: 'other' }, { create: true });
    const mine = p.writeFact({ key: 'a', value: '1' }).factId;
    const theirs = q.writeFact({ key: 'a', value: '1' }).factId;
    const before = dumpTables(store.db);
    expect(p.previewDeletion({ ids: [mine, theirs] }).missingIds).toEqual([theirs]);
    expect(() => p.deleteFacts({ ids: [mine, theirs] }, actor)).toThrow(expect.objectContaining({ code: 'NOT_FOUND' }));
    expect(() => p.deleteFacts({ ids: ['no-such-id'] }, actor)).toThrow(expect.objectContaining({ code: 'NOT_FOUND' }));
    expect(dumpTables(store.db)).toEqual(before);
  });

  itWhere(
    kind,
    ['sqlite'],
    'a read-only reopening of the same store is a SQLite file here',
  )('previews on a read-only connection and refuses to delete there', () => {
    const { store, p } = setup(openStore);
    const [, b] = chain(p);
    store.close();
    const ro = Store.open(store.path, { readonly: true });
    const handle = ro.scope(user);
    expect(handle.previewDeletion({ ids: [b!] })).toMatchObject({ toDelete: 1, relinkedCount: 2 });
    expect(() => handle.deleteFacts({ ids: [b!] }, actor)).toThrow(expect.objectContaining({ code: 'READ_ONLY' }));
    expect(handle.getFact(b!)).toBeDefined();
    ro.close();
  });

  it('rejects bad input with a typed error', () => {
    const { p } = setup(openStore);
    const id = p.writeFact({ key: 'a', value: '1' }).factId;
    expect(() => p.deleteFacts({ ids: [] }, actor)).toThrow(expect.objectContaining({ code: 'INVALID_INPUT' }));
    expect(() => p.deleteFacts({ ids: [id] }, { actor: '  ' })).toThrow(expect.objectContaining({ code: 'INVALID_INPUT' }));
    expect(() => p.previewDeletion({ filter: { from: 'not a date' } })).toThrow(expect.objectContaining({ code: 'INVALID_INPUT' }));
    expect(() => p.previewDeletion({ nonsense: true } as never)).toThrow(expect.objectContaining({ code: 'INVALID_INPUT' }));
    expect(p.getFact(id)).toBeDefined();
  });
});

describeStores('a selection that could mean "everything"', (openStore) => {
  const meaningless = ['', ' ', '*', '"', '"((', '^', '()', '...', '-- **'];

  it('refuses a search with no word to look for, in the preview and the delete, deleting nothing', () => {
    const { store, p } = setup(openStore);
    chain(p);
    p.writeFact({ key: 'note', value: 'keep me' });
    const before = dumpTables(store.db);
    for (const search of meaningless) {
      expect(() => p.previewDeletion({ filter: { search } }), JSON.stringify(search)).toThrow(
        expect.objectContaining({ code: 'INVALID_INPUT', details: expect.objectContaining({ field: 'search' }) }),
      );
      expect(() => p.deleteFacts({ filter: { search } }, actor), JSON.stringify(search)).toThrow(expect.objectContaining({ code: 'INVALID_INPUT' }));
      expect(() => p.deleteFacts({ filter: { search, validity: 'superseded' } }, actor), JSON.stringify(search)).toThrow(
        expect.objectContaining({ code: 'INVALID_INPUT' }),
      );
    }
    expect(() => p.deleteFacts({ filter: { search: Array.from({ length: 40 }, (_, i) => `w${i}`).join(' ') } }, actor)).toThrow(
      expect.objectContaining({ code: 'INVALID_INPUT' }),
    );
    expect(dumpTables(store.db)).toEqual(before);
  });

  it('refuses a filter that restricts nothing; only { all: true } deletes the whole partition', () => {
    const { store, p } = setup(openStore);
    chain(p);
    const other = store.scope({ kind: 'user', org: 'acme', user: 'u2' }, { create: true });
    const kept = other.writeFact({ key: 'x', value: 'elsewhere' }).factId;
    const before = dumpTables(store.db);
    for (const filter of [{}, { validity: 'all' as const }, { memoryTypes: [] }, { validity: 'all' as const, scopes: [], sourceTypes: [], authorities: [] }]) {
      expect(() => p.previewDeletion({ filter }), JSON.stringify(filter)).toThrow(
        expect.objectContaining({ code: 'INVALID_INPUT', details: { reason: 'empty-filter' } }),
      );
      expect(() => p.deleteFacts({ filter }, actor), JSON.stringify(filter)).toThrow(/ask for it explicitly/);
    }
    expect(dumpTables(store.db)).toEqual(before);
    expect(() => p.previewDeletion({ all: false } as never)).toThrow(expect.objectContaining({ code: 'INVALID_INPUT' }));
    const preview = p.previewDeletion({ all: true });
    expect(preview).toMatchObject({ toDelete: 3, selection: { kind: 'all' } });
    expect(p.deleteFacts({ all: true }, actor).deleted).toBe(3);
    expect(p.allFacts()).toEqual([]);
    expect(other.getFact(kept)).toBeDefined();
    expectVerified(store);
  });

  it('echoes the selection as applied: each filter condition in words, the ids, or all', () => {
    const { p } = setup(openStore);
    const [a] = chain(p);
    const echo = p.previewDeletion({ filter: { validity: 'superseded', memoryTypes: [], search: '  paris!  "ber ', authorities: ['', 'manager'] } }).selection;
    expect(DeletionImpact.shape.selection.parse(echo)).toEqual(echo);
    expect(echo).toEqual({
      kind: 'filter',
      conditions: [
        'validity: superseded',
        'authority: (none recorded), "manager"',
        'search: every word of "paris!" "\\"ber" ("\\"ber" also as the start of a word)',
      ],
    });
    expect(p.previewDeletion({ ids: [a!, a!] }).selection).toEqual({ kind: 'ids', count: 2 });
  });
});

describeStores(
  'preview and audit',
  (openStore) => {
    it('previewing changes nothing and predicts exactly what the delete does', () => {
      const { store, p } = setup(openStore);
      const [a, b, c] = chain(p);
      const dep = p.writeFact({ key: 'trip', value: 'go', dependsOn: [b!] }).factId;
      p.writeFact({ key: 'city', value: 'maybe Oslo', source: { type: 'user', authority: 'guest' } });
      const before = dumpTables(store.db);
      const preview = p.previewDeletion({ ids: [b!, c!] });
      expect(DeletionImpact.parse(preview)).toEqual(preview);
      expect(dumpTables(store.db)).toEqual(before);
      expect(preview).toMatchObject({ toDelete: 2, validToDelete: 1, flaggedCount: 1, flagged: [dep], orphanedCount: 1, truncated: false });
      expect(preview.relinked).toContainEqual({ id: a, field: 'supersededBy', from: b, to: null });

      const result = p.deleteFacts({ ids: [b!, c!] }, actor);
      expect(result).toMatchObject({
        deleted: preview.toDelete,
        flagged: preview.flaggedCount,
        relinked: preview.relinkedCount,
        cleared: preview.clearedCount,
        proposalsAffected: preview.proposalsAffected,
      });
    });

    it('audits who, when, why and which ids, never the text', () => {
      const { store, p } = setup(openStore);
      const id = p.writeFact({ key: 'diagnosis_zq81', value: 'private-value-zq82', label: 'label-zq83' }).factId;
      const result = p.deleteFacts({ filter: { search: 'private' } }, { actor: 'dana', reason: 'asked to forget' });
      const row = store.db.prepare('SELECT * FROM audit_log ORDER BY id DESC LIMIT 1').get() as Parameters<typeof auditRowToEntry>[0];
      const entry = auditRowToEntry(row);
      expect(entry).toMatchObject({ id: result.auditId, actor: 'dana', action: 'delete', reason: 'asked to forget', targetIds: [id] });
      expect(entry?.details).toMatchObject({ count: 1, selection: 'filter', filterFields: expect.arrayContaining(['search']) });
      const raw = JSON.stringify(store.db.prepare('SELECT * FROM audit_log').all());
      for (const text of ['zq81', 'zq82', 'zq83', 'private']) expect(raw).not.toContain(text);
    });

    it('redacts a deleted key quoted by the write path in supersession reasons', () => {
      const { store, p } = setup(openStore);
      p.writeFact({ key: 'old_key_zq90', value: 'v1' });
      const b = p.writeFact({ key: 'new_key', value: 'v2', supersedes: 'old_key_zq90' });
      expect(JSON.stringify(store.db.prepare('SELECT reason FROM audit_log').all())).toContain('old_key_zq90');
      p.deleteFacts({ ids: [b.supersededId!] }, actor);
      const text = JSON.stringify(store.db.prepare('SELECT reason FROM audit_log').all()) + JSON.stringify(p.allFacts());
      expect(text).not.toContain('old_key_zq90');
      expect(text).toContain('[a deleted fact] (resolved by key)');
    });
  },
  undefined,
  { roles: ['admin'] },
);

describeStores('transaction and progress', (openStore, kind) => {
  it('reports progress by phase, and a throw from it rolls everything back', () => {
    const { store, p } = setup(openStore);
    const ids = p.writeFacts(Array.from({ length: 1200 }, (_, i) => ({ key: `k${i}`, value: `value ${i}` }))).map((r) => r.factId);
    const before = dumpTables(store.db);
    expect(() =>
      p.deleteFacts(
        { ids },
        {
          actor: 'x',
          onProgress: (done) => {
            if (done >= 500) throw new Error('cancelled by the test');
          },
        },
      ),
    ).toThrow(/cancelled by the test/);
    expect(dumpTables(store.db)).toEqual(before);
    // SQLite's full-text index gets its row-by-row secure delete back (a bulk delete turns it off).
    if (kind === 'sqlite') expect(store.db.prepare("SELECT v FROM facts_fts_config WHERE k = 'secure-delete'").pluck().get()).toBe(1);

    const seen: Array<[number, number, string]> = [];
    const result = p.deleteFacts({ ids }, { actor: 'x', onProgress: (done, total, phase) => seen.push([done, total, phase]) });
    expect(result.deleted).toBe(1200);
    const phases = [...new Set(seen.map((s) => s[2]))];
    // 'index': SQLite merges its full-text index once after a bulk delete; PostgreSQL's follows the rows.
    expect(phases).toEqual(
      kind === 'sqlite' ? ['plan', 'delete', 'index', 'relink', 'audit', 'scrub', 'done'] : ['plan', 'delete', 'relink', 'audit', 'scrub', 'done'],
    );
    const deletes = seen.filter((s) => s[2] === 'delete').map((s) => s[0]);
    expect(deletes).toEqual([0, 500, 1000, 1200]);
    expect(p.allFacts()).toEqual([]);
    expectVerified(store);
  });

  itWhere(
    kind,
    ['sqlite'],
    "the WAL checkpoint and free-space scrub are SQLite's (PostgreSQL's scrub is tested in test/engine/deletion-privacy-postgres.test.ts)",
  )('reports an incomplete scrub while another connection holds the WAL, then completes later', () => {
    const { store, p } = setup(openStore);
    const id = p.writeFact({ key: 'k', value: 'value held by a reader' }).factId;
    p.writeFact({ key: 'other', value: 'another' });
    const reader = new Database(store.path, { readonly: true });
    try {
      reader.exec('BEGIN');
      reader.prepare('SELECT count(*) FROM facts').get();
      const result = p.deleteFacts({ ids: [id] }, actor);
      expect(result.deleted).toBe(1);
      expect(result.scrub).toMatchObject({ complete: false, checkpoint: { busy: true } });
      reader.exec('COMMIT');
    } finally {
      reader.close();
    }
    const later = p.deleteFacts({ filter: { key: 'other' } }, actor);
    expect(later.scrub).toMatchObject({ complete: true, checkpoint: { busy: false } });
  });
});

describeStores('query plans', (openStore, kind) => {
  itWhere(
    kind,
    ['sqlite'],
    "EXPLAIN QUERY PLAN is SQLite's",
  )('every statement of a deletion walks an index or a temp table, never the whole facts table', async () => {
    const { store, p } = setup(openStore);
    chain(p);
    const sql = await import('./sql');
    const db = store.db;
    db.exec(sql.TEMP_TABLES);
    const statements: string[] = [
      sql.SELECT_IDS,
      sql.MISSING_IDS,
      sql.DEPENDENTS_SEED,
      sql.DEPENDENTS_LEVEL,
      ...sql.RELINK_PLANS,
      sql.PLAN_FACTS,
      sql.PLAN_VALID,
      sql.DELETED_TEXTS,
      sql.FLAG_DEPENDENTS,
      sql.RELINK_SUPERSEDED_BY,
      sql.RELINK_SUPERSEDES,
      sql.RELINK_PROPOSAL_FOR,
      sql.DELETE_RANGE,
      ...[sql.SUCCESSORS, sql.PREDECESSORS].flatMap((w) => [sql.walkSeed(w), sql.walkJump(w), sql.walkDeadEnds(w), sql.walkOutside(w)]),
    ];
    for (const s of statements) {
      const named = Object.fromEntries([...s.matchAll(/@(\w+)/g)].map((m) => [m[1], m[1] === 'ids' ? '[]' : 1]));
      const positional = (s.match(/\?/g) ?? []).map(() => 1);
      const explain = db.prepare(`EXPLAIN QUERY PLAN ${s}`);
      const plan = (Object.keys(named).length > 0 ? explain.all(named) : explain.all(...positional)) as Array<{ detail: string }>;
      const scans = plan.map((r) => r.detail).filter((d) => /^SCAN (f|facts|fact_edges|e|g)\b/.test(d));
      expect(scans, s).toEqual([]);
    }
  });
});

describeStores('review history survives a delete', (openStore) => {
  it('keeps every earlier cause of a flagged fact and shows the deleted cause as the audit log knows it', () => {
    const { store, p } = setup(openStore);
    const quote = p.writeFact({ key: 'vendor_quote', value: '$12,000' }).factId;
    const rate = p.writeFact({ key: 'fx_rate', value: '1.10' }).factId;
    const tax = p.writeFact({ key: 'tax_rate', value: '20%' }).factId;
    const forecast = p.writeFact({ key: 'forecast', value: 'Q3 spend $13,200', dependsOn: [quote, rate, tax] }).factId;
    p.writeFact({ key: 'fx_rate', value: '1.12' });
    p.writeFact({ key: 'tax_rate', value: '21%' });
    const before = p.factDetail(forecast).reviewCause;
    expect(before?.earlier).toHaveLength(1);
    p.deleteFacts({ ids: [quote] }, { actor: 'root', reason: 'wrong vendor' });
    const after = p.factDetail(forecast).reviewCause;
    // The two earlier causes stay, behind the delete's.
    expect(after?.earlier).toEqual([before?.text, ...(before?.earlier ?? [])]);
    expect(after?.text).toMatch(/deleted by root/);
    expect(after?.text).not.toContain(quote);
    // What the audit log knows of the deleted cause: who deleted it, when, in which entry.
    expect(after?.deleted).toMatchObject({ factId: quote, deletedBy: 'root', auditId: expect.any(Number) });
    expect(after?.deleted?.deletedAt).toEqual(expect.any(String));
    expectVerified(store);
  });
});
