// The PostgreSQL scrub's decision, on PGlite (one session, so the only transaction that can hold
// the horizon is this connection's own, or one the server has not reached yet): whether the rows a
// transaction deleted can already be rewritten away, and what the report says when they cannot.
// Other clients holding the horizon are tested against the real server in test/engine.
import { afterEach, describe, expect, it } from 'vitest';
import { postgresOf } from '../db/pg/database';
import { openStoreOf } from '../../../test/helpers/stores';
import type { Store } from '../store';
import { currentTransactionId, heldDetail, horizonHeld, horizonHolders, scrubPostgres } from './scrub-pg';

const USER = { kind: 'user', org: 'acme', user: 'u1' } as const;
let store: Store | undefined;
afterEach(() => store?.close());

function pgOf(s: Store): NonNullable<ReturnType<typeof postgresOf>> {
  const pg = postgresOf(s.db);
  if (!pg) throw new Error('not a PostgreSQL store');
  return pg;
}

describe('the PostgreSQL scrub waits for the transaction horizon', () => {
  it('holds the horizon while the deleting transaction runs, and no longer once it commits', () => {
    store = openStoreOf('pglite');
    const { conn } = pgOf(store);
    conn.begin();
    const xid = currentTransactionId(conn);
    expect(xid).toMatch(/^\d+$/);
    expect(horizonHeld(conn, xid)).toBe(true);
    // The session asking is never its own holder.
    expect(horizonHolders(conn, xid)).toEqual([]);
    conn.commit();
    expect(horizonHeld(conn, xid)).toBe(false);
  });

  it('completes after a delete when nothing older is open', () => {
    store = openStoreOf('pglite');
    const p = store.scope(USER, { create: true });
    const id = p.writeFact({ key: 'k', value: 'forget me' }).factId;
    const result = p.deleteFacts({ ids: [id] }, { actor: 'dana' });
    expect(result.scrub).toMatchObject({ complete: true, remedy: 'vacuum', checkpoint: { busy: false } });
  });

  it('still rewrites, but reports incomplete after a bounded wait, when the horizon does not pass', () => {
    store = openStoreOf('pglite');
    const pg = pgOf(store);
    // A transaction id the server has not reached: the horizon cannot pass it however long one waits.
    const ahead = pg.conn.query<{ x: string }>('SELECT (pg_snapshot_xmax(pg_current_snapshot())::text::bigint + 1000)::text AS x').rows[0]?.x ?? '';
    const started = Date.now();
    const report = scrubPostgres(pg, ahead, 300);
    expect(Date.now() - started).toBeGreaterThanOrEqual(300);
    expect(report).toMatchObject({ complete: false, remedy: 'vacuum', checkpoint: { busy: true } });
    expect(report.detail).toContain('in a session this role cannot inspect');
    expect(report.detail).toContain('the next delete runs one');
  });

  it('names each holder as far as it is visible', () => {
    const detail = heldDetail(
      [
        { kind: 'session', id: '4242', database: 'other', role: 'bench', state: 'idle in transaction', since: '2026-01-02 03:04:05+00' },
        { kind: 'session', id: '7', database: 'app', role: null, state: null, since: null },
        { kind: 'prepared', id: 'tx1', database: 'app', role: 'postgres', state: null, since: '2026-01-02 03:04:05+00' },
        { kind: 'slot', id: 'replica', database: null, role: null, state: 'inactive', since: null },
      ],
      3000,
    );
    expect(detail).toContain(
      'after 3 s (session pid 4242 on database "other", role bench, idle in transaction, in a transaction since 2026-01-02 03:04:05+00; ',
    );
    expect(detail).toContain(
      'session pid 7 on database "app"; prepared transaction "tx1" on database "app", prepared 2026-01-02 03:04:05+00; replication slot "replica" (inactive))',
    );
  });
});
