// The engine worker behind its facade: real worker thread, real database file.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { StatelensError } from '../../shared/errors';
import { migratePg } from '../engine/db/pg/schema';
import { SyncPg } from '../engine/db/pg/sync-client';
import { Store } from '../engine/store';
import { SERVER_SKIP_REASON, SERVER_URL, serverScratchDatabase } from '../../test/helpers/pg';
import { tmpDbPath } from '../../test/helpers/tmp';
import { EngineHost } from './facade';

const workerPath = path.join(path.dirname(fileURLToPath(import.meta.url)), 'worker-node.mjs');
const hosts: EngineHost[] = [];
function host(): EngineHost {
  const h = new EngineHost({ workerPath, pollMs: 50 });
  hosts.push(h);
  return h;
}
afterEach(async () => {
  for (const h of hosts.splice(0)) await h.close();
});

describe('EngineHost', () => {
  it('opens a database in the worker and answers calls', async () => {
    const file = tmpDbPath();
    const seed = Store.open(file);
    seed.scope({ kind: 'user', org: 'acme', user: 'ana' }, { create: true }).writeFact({ key: 'city', value: 'Lyon' });
    seed.close();
    const h = host();
    const info = await h.call('db.openPath', { path: file, create: false, readonly: false });
    expect(info.path).toBe(file);
    const { partitions } = await h.call('partitions.list', {});
    expect(partitions).toHaveLength(1);
    expect(partitions[0]?.facts).toBe(1);
  });

  it('reports NO_DATABASE before anything is open, as a typed error', async () => {
    const h = host();
    await expect(h.call('partitions.list', {})).rejects.toMatchObject({ code: 'NO_DATABASE' });
    await expect(h.call('partitions.list', {})).rejects.toBeInstanceOf(StatelensError);
  });

  it('announces writes made by another process as data.changed', async () => {
    const file = tmpDbPath();
    Store.open(file).close();
    const h = host();
    await h.call('db.openPath', { path: file, create: false, readonly: false });
    const seen = new Promise((resolve) => h.on('changed', (e) => e.origin === 'external' && resolve(e)));
    const other = Store.open(file);
    other.scope({ kind: 'user', org: 'acme', user: 'bo' }, { create: true }).writeFact({ key: 'team', value: 'infra' });
    other.close();
    await expect(seen).resolves.toMatchObject({ origin: 'external' });
  });
});

describe('EngineHost agent-state events', () => {
  it("announces another process's agent-state change as its own event, naming the session", async () => {
    const file = tmpDbPath();
    Store.open(file).close();
    const h = host();
    await h.call('db.openPath', { path: file, create: false, readonly: false });
    const seen = new Promise((resolve) => h.on('agentStateChanged', resolve));
    const other = Store.open(file);
    const p = other.scope({ kind: 'user', org: 'acme', user: 'bo' }, { create: true });
    p.writeFact({ key: 'team', value: 'infra' });
    p.applyAgentStateUpdate('chat-7', { assumptions: [{ id: 'a1', hypothesis: 'infra owns it', confidence: 0.6 }] });
    other.close();
    await expect(seen).resolves.toEqual({ origin: 'external', partitionId: p.id, sessionId: 'chat-7' });
  });
});

describe('EngineHost on a PostgreSQL store', () => {
  /** A PGlite store set up like `statelens init --db`, with one fact, closed again. */
  function pgliteStore(): string {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'statelens-host-pg-'));
    const target = { kind: 'pglite', dataDir: dir } as const;
    const setup = SyncPg.open(target);
    try {
      migratePg(setup);
    } finally {
      setup.close();
    }
    const store = Store.openPostgres(target);
    try {
      store.scope({ kind: 'user', org: 'acme', user: 'ana' }, { create: true }).writeFact({ key: 'city', value: 'Lyon' });
    } finally {
      store.close();
    }
    return dir;
  }

  it('opens a server store in the worker, names server, schema and organisation, and answers calls', async () => {
    const dir = pgliteStore();
    const h = host();
    const info = await h.call('db.openServer', { url: `pglite:${dir}`, password: null, schema: 'statelens', org: 'acme', readonly: false });
    expect(info.server).toEqual({ url: `pglite:${dir}`, schema: 'statelens', org: 'acme' });
    expect((await h.call('db.current', {}))?.server?.org).toBe('acme');
    const { partitions } = await h.call('partitions.list', {});
    expect(partitions.map((p) => [p.label, p.facts])).toEqual([['acme / user ana', 1]]);
    // Opening a file afterwards replaces the server: nothing of it is shown any more.
    const file = tmpDbPath();
    Store.open(file).close();
    expect((await h.call('db.openPath', { path: file, create: false, readonly: false })).server).toBeUndefined();
  }, 120_000);

  it('keeps the open database when the server refuses, with a typed error', async () => {
    const file = tmpDbPath();
    Store.open(file).close();
    const h = host();
    await h.call('db.openPath', { path: file, create: false, readonly: false });
    await expect(
      h.call('db.openServer', { url: 'postgres://nobody@127.0.0.1:1/none', password: 'pw', schema: 'statelens', org: 'acme', readonly: false }),
    ).rejects.toMatchObject({ code: 'DB_UNAVAILABLE' });
    expect((await h.call('db.current', {}))?.path).toBe(file);
  });

  it.skipIf(!SERVER_URL)(
    'connects to the real server with the password apart from the URL, and comes back after the server drops it',
    async () => {
      const db = serverScratchDatabase('host');
      try {
        const setup = SyncPg.open(db.target);
        try {
          migratePg(setup);
        } finally {
          setup.close();
        }
        const h = host();
        const info = await h.call('db.openServer', { url: db.url, password: 'not-needed-with-trust', schema: 'statelens', org: 'acme', readonly: false });
        expect(info.path).toBe(db.url);
        expect(info.path).not.toContain('not-needed');
        expect((await h.call('partitions.list', {})).partitions).toEqual([]);
        // The server ends every session of the store's database (a restart, a failover).
        const admin = SyncPg.open({ kind: 'server', url: SERVER_URL ?? '' });
        try {
          admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [
            new URL(db.url).pathname.slice(1),
          ]);
        } finally {
          admin.close();
        }
        await expect(h.call('partitions.list', {})).rejects.toMatchObject({ code: 'DB_UNAVAILABLE' });
        // The next call reconnects (what the inspector's retry does while it shows "reconnecting").
        expect((await h.call('partitions.list', {})).partitions).toEqual([]);
        await h.close();
      } finally {
        db.drop();
      }
    },
    120_000,
  );
});
if (!SERVER_URL) console.log(`facade.test: ${SERVER_SKIP_REASON}`);
