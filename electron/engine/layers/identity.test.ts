import Database from 'better-sqlite3';
import { expect, it } from 'vitest';
import type { Identity } from '../../../shared/domain';
import { sqliteFileAt } from '../../../test/helpers/older-store';
import { tmpDbPath } from '../../../test/helpers/tmp';
import { describeStores } from '../../../test/helpers/stores';
import { APPLICATION_ID } from '../db/open';
import { MIGRATIONS, runMigration, SCHEMA_VERSION } from '../db/migrations';
import { Store } from '../store';

const USER = { kind: 'user', org: 'acme', user: 'ann' } as const;
const ANN: Identity = { userName: 'Ann', userId: 'ann', authority: 'intern', department: 'Sales', organization: 'Acme', permissions: [] };
const CFO: Identity = { ...ANN, authority: 'CFO', department: 'Finance' };
const ANALYST: Identity = { ...ANN, authority: 'analyst', department: 'Finance' };
const VP: Identity = { ...ANN, userName: 'Vic', userId: 'vic', authority: 'VP Finance', department: 'Finance' };
/** Readable by Finance (the analyst and the VP), by no session without an identity. */
const FINANCE = '[CONFIDENTIAL — restricted to Finance] Q3 budget cut 12%';
/** Readable by the VP only. */
const SECRET = '[CONFIDENTIAL — restricted to VP+] Layoffs planned for Q3';

describeStores(
  'identity is fixed for a session',
  (openStore) => {
    it('a different identity in the same session is refused with CONFLICT and changes nothing', () => {
      const store = openStore();
      const p = store.scope(USER, { create: true });
      p.setIdentity(ANN, { sessionId: 's1' });
      p.setIdentity(ANN, { sessionId: 's1' }); // the same identity again: nothing to refuse
      expect(() => p.setIdentity(CFO, { sessionId: 's1' })).toThrow(
        expect.objectContaining({ code: 'CONFLICT', details: expect.objectContaining({ sessionId: 's1' }) }),
      );
      expect(p.identity('s1')?.authority).toBe('intern');
      // The default session is a session like any other.
      const q = store.scope({ kind: 'user', org: 'acme', user: 'bob' }, { create: true });
      q.setIdentity(ANN);
      expect(() => q.setIdentity(CFO)).toThrow(expect.objectContaining({ code: 'CONFLICT' }));
      expect(() => q.setIdentity(CFO, { sessionId: '' })).toThrow(expect.objectContaining({ code: 'INVALID_INPUT' }));
      expect(q.identities()).toEqual([{ sessionId: 'default', identity: expect.objectContaining({ authority: 'intern' }) }]);
      store.close();
    });

    it('each session keeps its own; ending one removes that one alone, and a new session sets its own', () => {
      const store = openStore();
      const p = store.scope(USER, { create: true });
      p.setIdentity(ANN, { sessionId: 's1' });
      p.setIdentity(CFO, { sessionId: 's2' });
      expect(p.identity('s1')?.authority).toBe('intern');
      expect(p.identity('s2')?.authority).toBe('CFO');
      expect(p.identity()).toBeUndefined(); // the default session set none
      expect(() => p.setIdentity(ANN, { sessionId: 's2' })).toThrow(expect.objectContaining({ code: 'CONFLICT' }));
      expect(p.endSession('s2').identityReleased).toBe(true);
      expect(p.identity('s2')).toBeUndefined();
      expect(p.identity('s1')?.authority).toBe('intern');
      expect(p.endSession('s2').identityReleased).toBe(false);
      p.setIdentity(ANN, { sessionId: 's2' }); // the ended session's id starts afresh
      p.setIdentity(CFO, { sessionId: 's3' });
      expect(p.identities().map((i) => [i.sessionId, i.identity.authority])).toEqual([
        ['s1', 'intern'],
        ['s2', 'intern'],
        ['s3', 'CFO'],
      ]);
      store.close();
    });
  },
  undefined,
  { roles: ['agent'] },
);

describeStores(
  'identity belongs to its session',
  (openStore) => {
    it('two sessions of one partition (analyst and VP) each see what their own identity allows, before and after the other sets or ends', () => {
      const store = openStore();
      const p = store.scope(USER, { create: true });
      p.writeFact({ key: 'budget_cut', value: FINANCE });
      p.writeFact({ key: 'plan', value: SECRET });
      const seen = (sessionId: string): { budget: boolean; layoffs: boolean } => {
        const views = (['state_based', 'reference', 'recent'] as const).map(
          (strategy) => p.assemble({ strategy, budget: 4000, query: 'plan budget', sessionId }).text,
        );
        // Every strategy agrees on what the session may read.
        const budget = views.map((t) => t.includes('budget cut 12%'));
        const layoffs = views.map((t) => t.includes('Layoffs'));
        expect(new Set(budget).size, `strategies disagree for ${sessionId}`).toBe(1);
        expect(new Set(layoffs).size, `strategies disagree for ${sessionId}`).toBe(1);
        return { budget: budget[0] ?? false, layoffs: layoffs[0] ?? false };
      };
      const ANALYST_VIEW = { budget: true, layoffs: false };
      const VP_VIEW = { budget: true, layoffs: true };
      const NONE = { budget: false, layoffs: false };

      p.setIdentity(ANALYST, { sessionId: 'analyst' });
      expect(seen('analyst')).toEqual(ANALYST_VIEW);
      expect(seen('vp')).toEqual(NONE);

      // The VP's session starts: the analyst's session keeps its identity and its view.
      p.setIdentity(VP, { sessionId: 'vp' });
      expect(seen('vp')).toEqual(VP_VIEW);
      expect(seen('analyst')).toEqual(ANALYST_VIEW);
      expect(p.identity('analyst')?.authority).toBe('analyst');
      expect(seen('nobody')).toEqual(NONE);
      expect(seen('default')).toEqual(NONE);
      expect(p.assemble({ strategy: 'reference', budget: 4000, query: 'plan', sessionId: 'nobody' }).text).not.toContain('VP Finance');
      // The analyst cannot take the VP's identity in its own session.
      expect(() => p.setIdentity(VP, { sessionId: 'analyst' })).toThrow(expect.objectContaining({ code: 'CONFLICT' }));
      expect(seen('analyst')).toEqual(ANALYST_VIEW);

      // The VP's session ends: the analyst's is unchanged, the VP's reads none.
      expect(p.endSession('vp').identityReleased).toBe(true);
      expect(seen('analyst')).toEqual(ANALYST_VIEW);
      expect(seen('vp')).toEqual(NONE);

      // And the other way round: the analyst's ending leaves a VP session that started since.
      p.setIdentity(VP, { sessionId: 'vp2' });
      expect(p.endSession('analyst').identityReleased).toBe(true);
      expect(seen('analyst')).toEqual(NONE);
      expect(seen('vp2')).toEqual(VP_VIEW);
      store.close();
    });

    it("a fact write ranks the user's own words by the writing session's identity, never another session's", () => {
      const store = openStore();
      const p = store.scope(USER, { create: true });
      p.setIdentity(ANALYST, { sessionId: 'analyst' });
      p.setIdentity(VP, { sessionId: 'vp' });
      const by = (sessionId: string | undefined, key: string): { role: string; origin: string } => {
        const r = p.writeFact({ key, value: 'max 10% discount', source: { type: 'user' } }, sessionId ? { sessionId } : {});
        return { role: r.authority.role, origin: r.authority.origin };
      };
      expect(by('vp', 'vp_limit')).toEqual({ role: 'executive', origin: 'identity' });
      expect(by('analyst', 'analyst_limit').origin).toBe('identity');
      expect(by('analyst', 'analyst_limit_2').role).not.toBe('executive');
      // No session named: the default session's identity, which is none here.
      expect(by(undefined, 'no_session').origin).not.toBe('identity');
      store.close();
    });
  },
  undefined,
  { roles: ['agent'] },
);

it('migration 4 upgrades a version-3 database with an identity: kept, as the default session’s', () => {
  const file = tmpDbPath();
  const raw = new Database(file);
  for (const m of MIGRATIONS) if (m.version <= 3) runMigration(raw, m);
  raw.pragma('user_version = 3');
  raw.pragma(`application_id = ${APPLICATION_ID}`);
  raw.prepare("INSERT INTO partitions (org_id, kind, subject, created_at) VALUES ('acme', 'user', 'ann', '2026-01-01')").run();
  raw
    .prepare(
      "INSERT INTO identities (partition_id, user_name, user_id, authority, department, organization, permissions) VALUES (1, 'Ann', 'ann', 'intern', 'Sales', 'Acme', '[\"crm\"]')",
    )
    .run();
  raw.close();
  const store = Store.open(file);
  expect(store.db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
  const p = store.scopeById(1);
  expect(p.identity()).toMatchObject({ userName: 'Ann', authority: 'intern', permissions: ['crm'] });
  expect(store.db.prepare('SELECT session_id FROM identities').pluck().all()).toEqual(['default']);
  // The default session's: fixed there, read by no other session; another session sets its own.
  expect(() => p.setIdentity(CFO)).toThrow(expect.objectContaining({ code: 'CONFLICT' }));
  expect(p.identity('s1')).toBeUndefined();
  p.setIdentity(CFO, { sessionId: 's1' });
  expect(p.identity()?.authority).toBe('intern');
  store.close();
});

it('a version-5 file (one identity row per partition) opens with each identity kept by the session it was bound to', () => {
  const file = sqliteFileAt(5, (db) => {
    db.prepare(
      "INSERT INTO partitions (id, org_id, kind, subject, created_at) VALUES (1, 'acme', 'user', 'ann', '2026-01-01'), (2, 'acme', 'user', 'bob', '2026-01-01')",
    ).run();
    const identity = db.prepare(
      "INSERT INTO identities (partition_id, user_name, user_id, authority, department, organization, permissions, session_id) VALUES (?, 'Ann', 'ann', ?, 'Finance', 'Acme', '[]', ?)",
    );
    identity.run(1, 'analyst', 'analyst'); // bound to a session
    identity.run(2, 'intern', null); // bound to none
    db.prepare(
      "INSERT INTO facts (id, partition_id, org_id, key, value, source_type, ts, created_at, memory_type, importance, status, is_valid) VALUES ('f1', 1, 'acme', 'budget_cut', ?, 'user', '2026-01-05', '2026-01-05', 'user', 0.5, 'active', 1)",
    ).run(FINANCE);
  });
  const store = Store.open(file);
  expect(store.db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
  const p = store.scopeById(1);
  expect(p.identities().map((i) => [i.sessionId, i.identity.authority])).toEqual([['analyst', 'analyst']]);
  expect(
    store
      .scopeById(2)
      .identities()
      .map((i) => [i.sessionId, i.identity.authority]),
  ).toEqual([['default', 'intern']]);
  const text = (sessionId: string): string => p.assemble({ strategy: 'state_based', budget: 4000, query: 'budget', sessionId }).text;
  expect(text('analyst')).toContain('budget cut 12%');
  // A second session of the same partition no longer replaces the analyst's identity.
  p.setIdentity(VP, { sessionId: 'vp' });
  expect(p.identity('analyst')?.authority).toBe('analyst');
  expect(text('analyst')).toContain('budget cut 12%');
  expect(text('vp')).toContain('budget cut 12%');
  expect(text('default')).not.toContain('budget cut 12%');
  store.close();
});
