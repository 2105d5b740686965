// The desktop's server connection through the real wiring (registrar, handlers, engine worker),
// without Electron: db.connect by the form and by the recent list, what db.info then says, the
// recent servers without passwords, and passwords on disk only as ciphertext, or not at all.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migratePg } from '../../electron/engine/db/pg/schema';
import { SyncPg } from '../../electron/engine/db/pg/sync-client';
import { Store } from '../../electron/engine/store';
import { RecentServers } from '../../electron/main/recent-files';
import { ServerCredentials, serverShell } from '../../electron/main/server-credentials';
import { fakeSafeStorage } from '../helpers/fake-safe-storage';
import { SERVER_SKIP_REASON, SERVER_URL, serverScratchDatabase } from '../helpers/pg';
import { scriptedDesktopShell, startHarness, type Harness } from './harness';

const PASSWORD = 'correct horse battery staple';
let dir: string;
let file: string;
let pgDir: string;

function filesUnder(d: string): string {
  return fs
    .readdirSync(d, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => fs.readFileSync(path.join(e.parentPath, e.name), 'latin1'))
    .join('\n');
}

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'statelens-connect-'));
  file = path.join(dir, 'local.db');
  Store.open(file).close();
  pgDir = path.join(dir, 'pg');
  const setup = SyncPg.open({ kind: 'pglite', dataDir: pgDir });
  try {
    migratePg(setup);
  } finally {
    setup.close();
  }
}, 120_000);
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('db.connect on the desktop', () => {
  let h: Harness;
  let data: string;
  beforeAll(async () => {
    data = path.join(dir, 'data');
    h = await startHarness({ dataDir: data, dbPath: file });
    new RecentServers(path.join(data, 'recent-servers.json')).remember({ url: `pglite:${pgDir}`, schema: 'statelens', org: 'acme' });
  });
  afterAll(async () => h?.close());

  it('reopens a recent server: db.info then names server, schema and organisation', async () => {
    const r = await h.bridge.db.connect({ source: 'recent', index: 0 });
    expect(r.ok ? r.value.state.db?.server : r.error).toEqual({ url: `pglite:${pgDir}`, schema: 'statelens', org: 'acme' });
    expect(r.ok && r.value.credential).toBe('not-kept');
    const info = await h.bridge.db.info();
    expect(info.ok && info.value.db).toMatchObject({ path: `pglite:${pgDir}`, isDefault: false, server: { org: 'acme' } });
    const recent = await h.bridge.db.recentServers();
    expect(recent.ok && recent.value.servers).toEqual([expect.objectContaining({ index: 0, org: 'acme', hasPassword: false })]);
  }, 120_000);

  it('a server that does not answer is a typed error, and what was open stays open', async () => {
    await h.bridge.db.open({ source: 'dialog' });
    const r = await h.bridge.db.connect({ source: 'form', url: 'postgres://ana@127.0.0.1:1/memory', password: PASSWORD, org: 'acme' });
    expect(r.ok ? 'ok' : r.error.code).toBe('DB_UNAVAILABLE');
    expect(r.ok ? '' : r.error.message).not.toContain(PASSWORD);
    const info = await h.bridge.db.info();
    expect(info.ok && info.value.db?.path).toBe(file);
    // A password that did not work is neither kept nor listed.
    expect(filesUnder(data)).not.toContain(PASSWORD);
    const recent = await h.bridge.db.recentServers();
    expect(recent.ok && recent.value.servers.map((s) => s.url)).toEqual([`pglite:${pgDir}`]);
  });

  it('refuses a URL that holds a password, before anything is opened', async () => {
    const r = await h.bridge.db.connect({ source: 'form', url: `postgres://ana:${encodeURIComponent(PASSWORD)}@127.0.0.1:1/memory`, org: 'acme' });
    expect(r.ok ? 'ok' : r.error.code).toBe('INVALID_INPUT');
  });
});

describe.skipIf(!SERVER_URL)('db.connect to the real server', () => {
  let scratch: ReturnType<typeof serverScratchDatabase>;
  beforeAll(() => {
    scratch = serverScratchDatabase('connect');
    const setup = SyncPg.open(scratch.target);
    try {
      migratePg(setup);
    } finally {
      setup.close();
    }
  });
  afterAll(() => scratch?.drop());

  for (const encryption of ['available', 'unavailable'] as const) {
    it(`keeps the password ${encryption === 'available' ? 'only as ciphertext' : 'nowhere when encryption is unavailable'}, and reconnects from the recent list`, async () => {
      const data = path.join(dir, `server-${encryption}`);
      const safe = fakeSafeStorage({ available: encryption === 'available' });
      const shell = {
        ...scriptedDesktopShell(data, { openPath: file, exportDir: data }),
        servers: serverShell(
          new RecentServers(path.join(data, 'recent-servers.json')),
          new ServerCredentials(path.join(data, 'server-credentials.json'), safe),
        ),
      };
      const h = await startHarness({ dataDir: data, dbPath: file, shell });
      try {
        const r = await h.bridge.db.connect({ source: 'form', url: scratch.url, password: PASSWORD, org: 'acme', remember: true });
        expect(r.ok ? r.value.credential : r.error).toBe(encryption === 'available' ? 'kept' : 'encryption-unavailable');
        expect(r.ok && r.value.state.db?.server).toEqual({ url: scratch.url, schema: 'statelens', org: 'acme' });
        expect(filesUnder(data)).not.toContain(PASSWORD);
        expect(fs.existsSync(path.join(data, 'server-credentials.json'))).toBe(encryption === 'available');
        const recent = await h.bridge.db.recentServers();
        expect(recent.ok && recent.value.servers[0]).toMatchObject({ url: scratch.url, hasPassword: encryption === 'available' });
        expect(JSON.stringify(recent)).not.toContain(PASSWORD);
        await h.bridge.db.open({ source: 'dialog' });
        const again = await h.bridge.db.connect({ source: 'recent', index: 0 });
        expect(again.ok ? again.value.state.db?.server?.org : again.error).toBe('acme');
      } finally {
        await h.close();
      }
    }, 120_000);
  }
});
if (!SERVER_URL) console.log(`connect-server.test: ${SERVER_SKIP_REASON}`);
