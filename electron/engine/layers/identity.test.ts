import Database from 'better-sqlite3';
import { expect, it } from 'vitest';
import type { Identity } from '../../../shared/domain';
import { tmpDbPath } from '../../../test/helpers/tmp';
import { describeStores } from '../../../test/helpers/stores';
import { APPLICATION_ID } from '../db/open';
import { MIGRATIONS, runMigration, SCHEMA_VERSION } from '../db/migrations';
import { Store } from '../store';

const USER = { kind: 'user', org: 'acme', user: 'ann' } as const;
const ANN: Identity = { userName: 'Ann', userId: 'ann', authority: 'intern', department: 'Sales', organization: 'Acme', permissions: [] };
const CFO: Identity = { ...ANN, authority: 'CFO', department: 'Finance' };

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
      expect(p.identity()?.authority).toBe('intern');
      // The default session is a session like any other.
      const q = store.scope({ kind: 'user', org: 'acme', user: 'bob' }, { create: true });
      q.setIdentity(ANN);
      expect(() => q.setIdentity(CFO)).toThrow(expect.objectContaining({ code: 'CONFLICT' }));
      store.close();
    });

    it('a new session, or the end of the old one, allows a change', () => {
      const store = openStore();
      const p = store.scope(USER, { create: true });
      p.setIdentity(ANN, { sessionId: 's1' });
      p.setIdentity(CFO, { sessionId: 's2' });
      expect(p.identity()?.authority).toBe('CFO');
      expect(() => p.setIdentity(ANN, { sessionId: 's2' })).toThrow(expect.objectContaining({ code: 'CONFLICT' }));
      expect(p.endSession('s2').identityReleased).toBe(true);
      p.setIdentity(ANN, { sessionId: 's3' });
      expect(p.identity()?.authority).toBe('intern');
      store.close();
    });

    it('migration 4 upgrades a version-3 database with identities: kept, bound to no session', () => {
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
      expect(store.db.prepare('SELECT session_id FROM identities').pluck().get()).toBeNull();
      // Unbound: the first session to set an identity binds it.
      p.setIdentity(CFO, { sessionId: 's1' });
      expect(() => p.setIdentity(ANN, { sessionId: 's1' })).toThrow(expect.objectContaining({ code: 'CONFLICT' }));
      store.close();
    });
  },
  undefined,
  { roles: ['agent'] },
);

describeStores('identity belongs to its session', (openStore) => {
  const ANALYST: Identity = { ...ANN, authority: 'analyst', department: 'Finance' };
  const VP: Identity = { ...ANN, userName: 'Vic', userId: 'vic', authority: 'VP Finance', department: 'Finance' };
  const SECRET = '[CONFIDENTIAL — restricted to VP+] Layoffs planned for Q3';

  it('a session never reads another session’s identity, nor one set by none', () => {
    const store = openStore();
    const p = store.scope(USER, { create: true });
    p.writeFact({ key: 'plan', value: SECRET });
    p.setIdentity(ANALYST, { sessionId: 'analyst' });
    const seen = (sessionId: string): string => p.assemble({ strategy: 'state_based', budget: 4000, query: 'plan', sessionId }).text;
    expect(seen('analyst')).not.toContain('Layoffs');
    p.setIdentity(VP, { sessionId: 'vp' });
    expect(seen('vp')).toContain('Layoffs');
    // The VP's session start changes neither the analyst's session nor one that set no identity.
    expect(seen('analyst')).not.toContain('Layoffs');
    expect(seen('nobody')).not.toContain('Layoffs');
    expect(p.assemble({ strategy: 'reference', budget: 4000, query: 'plan', sessionId: 'nobody' }).text).not.toContain('VP Finance');
    store.close();
  });
});
