// The store on a schema under the server setup, with real login roles on the server: it acts for
// the org it was opened for (membership checked at open), every transaction and every read bound
// to it; an agent writes and reads its org, a reviewer deletes, an agent's delete is refused whole,
// another org's rows are invisible, and only administrators list every org.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migratePg } from '../../electron/engine/db/pg/schema';
import { applyPgServerSetup, MEMBERS_TABLE, pgRoleNames } from '../../electron/engine/db/pg/server-setup';
import { quoteIdent, SyncPg } from '../../electron/engine/db/pg/sync-client';
import { deleteFactsById } from '../../electron/engine/db/pg/delete-functions';
import { stmt } from '../../electron/engine/db/statements';
import { exportStore } from '../../electron/engine/snapshot/export';
import { Store, type PgStoreOptions } from '../../electron/engine/store';
import { SERVER_SKIP_REASON, SERVER_URL, serverScratchDatabase } from '../helpers/pg';
import { tmpDir } from '../helpers/tmp';
import { thrownBy } from '../helpers/errors';

if (!SERVER_URL) console.log(SERVER_SKIP_REASON);

describe.skipIf(!SERVER_URL)('a PostgreSQL store under row-level security, with real roles', () => {
  const schema = `s13_rls_${process.pid}_${Math.random().toString(36).slice(2, 7)}`;
  const groups = pgRoleNames(schema);
  const login = { alice: `${schema}_alice`, bob: `${schema}_bob`, rita: `${schema}_rita`, ada: `${schema}_ada` };
  let scratch: ReturnType<typeof serverScratchDatabase>;
  const stores: Store[] = [];

  /** A store logged in as `role`, acting as `options` says. */
  function storeAs(role: string, options: PgStoreOptions): Store {
    const url = new URL(scratch.url);
    url.username = role;
    const store = Store.openPostgres({ kind: 'server', url: url.href }, { schema, ...options });
    stores.push(store);
    return store;
  }

  beforeAll(() => {
    scratch = serverScratchDatabase('s13rls');
    const root = SyncPg.open(scratch.target);
    try {
      migratePg(root, { schema });
      applyPgServerSetup(root, { schema });
      for (const role of Object.values(login)) root.exec(`CREATE ROLE ${quoteIdent(role)} LOGIN`);
      root.exec(`GRANT ${quoteIdent(groups.agent)} TO ${quoteIdent(login.alice)}, ${quoteIdent(login.bob)}`);
      root.exec(`GRANT ${quoteIdent(groups.reviewer)} TO ${quoteIdent(login.rita)}`);
      root.exec(`GRANT ${quoteIdent(groups.admin)} TO ${quoteIdent(login.ada)}`);
      const member = `INSERT INTO ${quoteIdent(schema)}.${MEMBERS_TABLE} (org_id, role_name) VALUES ($1, $2)`;
      root.query(member, ['acme', login.alice]);
      root.query(member, ['acme', login.rita]);
      root.query(member, ['globex', login.bob]);
    } finally {
      root.close();
    }
  });

  afterAll(() => {
    for (const s of stores) s.close();
    scratch?.drop();
    const admin = SyncPg.open({ kind: 'server', url: SERVER_URL ?? '' });
    try {
      for (const role of [...Object.values(login), groups.agent, groups.reviewer, groups.admin]) admin.exec(`DROP ROLE IF EXISTS ${quoteIdent(role)}`);
    } finally {
      admin.close();
    }
  });

  it('lets an agent write and read its own org, and hides every other org', () => {
    const alice = storeAs(login.alice, { org: 'acme' });
    const p = alice.scope({ org: 'acme', kind: 'user', user: 'u1' }, { create: true });
    const fact = p.writeFact({ key: 'city', value: 'Lyon' });
    expect(p.listFacts({}).rows.map((r) => r.value)).toEqual(['Lyon']);
    expect(alice.partitionOfFact(fact.factId)).toBe(p.id);

    const bob = storeAs(login.bob, { org: 'globex' });
    const g = bob.scope({ org: 'globex', kind: 'user', user: 'g1' }, { create: true });
    g.writeFact({ key: 'city', value: 'Oslo' });
    // Reads outside any write see the org they are bound to, and only it.
    expect(bob.listPartitions().map((x) => x.id)).toEqual([g.id]);
    expect(alice.listPartitions().map((x) => x.id)).toEqual([p.id]);
    expect(bob.partitionOfFact(fact.factId)).toBeUndefined();
    expect(thrownBy(() => bob.scopeById(p.id)).code).toBe('NOT_FOUND');
    // Writing into another org is refused by the policy, not silently stored.
    expect(thrownBy(() => bob.scope({ org: 'acme', kind: 'user', user: 'u9' }, { create: true })).code).toBe('PERMISSION_DENIED');
  });

  it('refuses at open a role that is not a member of the org, or a store that names no org', () => {
    expect(thrownBy(() => storeAs(login.alice, { org: 'globex' })).code).toBe('PERMISSION_DENIED');
    expect(thrownBy(() => storeAs(login.alice, {})).code).toBe('PERMISSION_DENIED');
    expect(thrownBy(() => storeAs(login.alice, { allOrgs: true })).code).toBe('PERMISSION_DENIED');
  });

  it('lets a reviewer delete, and refuses an agent’s delete whole (nothing of its transaction stays)', () => {
    const alice = storeAs(login.alice, { org: 'acme' });
    const p = alice.scope({ org: 'acme', kind: 'user', user: 'u2' }, { create: true });
    const a = p.writeFact({ key: 'budget', value: '100' });
    const b = p.writeFact({ key: 'team', value: 'blue' });
    const audited = (s: Store): number => stmt<[number], { n: number }>(s.db, 'SELECT count(*) AS n FROM audit_log WHERE partition_id = ?').get(p.id)?.n ?? -1;
    const before = audited(alice);

    const refused = thrownBy(() =>
      alice.write([p.id], 'delete', () => {
        stmt(alice.db, `INSERT INTO audit_log (partition_id, at, actor, action) VALUES (?, ?, 'alice', 'delete')`).run(p.id, '2026-01-01T00:00:00.000Z');
        stmt(alice.db, 'DELETE FROM facts WHERE id = ?').run(a.factId);
      }),
    );
    expect(refused.code).toBe('PERMISSION_DENIED');
    expect(audited(alice)).toBe(before);
    expect(
      p
        .listFacts({})
        .rows.map((r) => r.id)
        .sort(),
    ).toEqual([a.factId, b.factId].sort());

    const rita = storeAs(login.rita, { org: 'acme' });
    // Reviewers hold no DELETE privilege (it would let them lock the table whole): the setup's function deletes.
    expect(thrownBy(() => rita.write([p.id], 'delete', () => stmt(rita.db, 'DELETE FROM facts WHERE id = ?').run(a.factId))).code).toBe('PERMISSION_DENIED');
    const deleted = rita.write([p.id], 'delete', () => deleteFactsById(rita.db, p.id, [a.factId]));
    expect(deleted).toBe(1);
    expect(p.listFacts({}).rows.map((r) => r.id)).toEqual([b.factId]);
  });

  it('exports one consistent snapshot of its org on a connection of its own while the store keeps writing', async () => {
    const alice = storeAs(login.alice, { org: 'acme' });
    const p = alice.scope({ org: 'acme', kind: 'user', user: 'u3' }, { create: true });
    p.writeFact({ key: 'before', value: 'kept' });
    const out = path.join(tmpDir(), 'acme.ndjson');
    await exportStore(alice, { format: 'ndjson', out, onSnapshotOpen: () => void p.writeFact({ key: 'during', value: 'later' }) });
    const text = fs.readFileSync(out, 'utf8');
    expect(text).toContain('"before"');
    expect(text).not.toContain('"during"');
    expect(text).not.toContain('globex');
    expect(
      p
        .listFacts({})
        .rows.map((r) => r.key)
        .sort(),
    ).toEqual(['before', 'during']);
  });

  it('lists every org only for an administrator who asks for all of them', () => {
    const ada = storeAs(login.ada, { allOrgs: true });
    const orgs = new Set(ada.listPartitions().map((x) => x.ref.org));
    expect([...orgs].sort()).toEqual(['acme', 'globex']);
    const adaAcme = storeAs(login.ada, { org: 'acme' });
    expect(new Set(adaAcme.listPartitions().map((x) => x.ref.org))).toEqual(new Set(['acme']));
  });
});
