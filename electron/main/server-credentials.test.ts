// Server passwords and the recent-servers list, with a safeStorage-shaped stand-in (Electron's
// own module cannot load under Node): ciphertext only on disk, nothing when encryption is missing.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { fakeSafeStorage } from '../../test/helpers/fake-safe-storage';
import { serverTarget } from '../engine-host/engine-session';
import { RecentServers } from './recent-files';
import { ServerCredentials, serverShell } from './server-credentials';

const dirs: string[] = [];
function dataDir(): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'statelens-credentials-'));
  dirs.push(d);
  return d;
}
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

const server = { url: 'postgres://ana@db.example:5432/memory?sslmode=verify-full', schema: 'statelens', org: 'acme' };
const PASSWORD = 'correct horse battery staple';

/** Every byte the app wrote into its data folder, as text. */
function everythingOnDisk(dir: string): string {
  return fs
    .readdirSync(dir)
    .map((f) => fs.readFileSync(path.join(dir, f), 'utf8'))
    .join('\n');
}

describe('ServerCredentials', () => {
  it('keeps a password encrypted: the file holds ciphertext only, and it reads back', () => {
    const dir = dataDir();
    const safe = fakeSafeStorage();
    const creds = new ServerCredentials(path.join(dir, 'server-credentials.json'), safe);
    expect(creds.keep(server, PASSWORD)).toBe('kept');
    expect(safe.encrypted).toEqual([PASSWORD]);
    expect(everythingOnDisk(dir)).not.toContain(PASSWORD);
    expect(everythingOnDisk(dir)).not.toContain('horse');
    expect(new ServerCredentials(path.join(dir, 'server-credentials.json'), safe).password(server)).toBe(PASSWORD);
    // Another schema or organisation on the same server is another credential.
    expect(creds.password({ ...server, org: 'globex' })).toBeNull();
  });

  it('stores nothing when the system offers no encryption, and says so', () => {
    const dir = dataDir();
    const creds = new ServerCredentials(path.join(dir, 'server-credentials.json'), fakeSafeStorage({ available: false }));
    expect(creds.keep(server, PASSWORD)).toBe('encryption-unavailable');
    expect(fs.readdirSync(dir)).toEqual([]);
    expect(creds.password(server)).toBeNull();
  });

  it("treats Linux's fixed-key fallback (basic_text) as no encryption", () => {
    const dir = dataDir();
    const safe = fakeSafeStorage({ backend: 'basic_text' });
    expect(new ServerCredentials(path.join(dir, 'c.json'), safe).keep(server, PASSWORD)).toBe('encryption-unavailable');
    expect(safe.encrypted).toEqual([]);
    expect(fs.readdirSync(dir)).toEqual([]);
    expect(new ServerCredentials(path.join(dir, 'c.json'), fakeSafeStorage({ backend: 'gnome_libsecret' })).keep(server, PASSWORD)).toBe('kept');
  });

  it('forgets a password when asked not to keep one, and survives a damaged or undecryptable file', () => {
    const dir = dataDir();
    const file = path.join(dir, 'c.json');
    const creds = new ServerCredentials(file, fakeSafeStorage());
    creds.keep(server, PASSWORD);
    expect(creds.keep(server, null)).toBe('not-kept');
    expect(creds.password(server)).toBeNull();
    creds.keep(server, PASSWORD);
    fs.writeFileSync(file, JSON.stringify({ [JSON.stringify([server.url, server.schema, server.org])]: Buffer.from('garbage').toString('base64') }));
    expect(creds.password(server)).toBeNull();
    fs.writeFileSync(file, '{ not json');
    expect(creds.password(server)).toBeNull();
  });
});

describe('the recent servers beside the recent files', () => {
  it('lists servers newest first without passwords, saying whether one is kept', async () => {
    const dir = dataDir();
    let clock = 0;
    const recent = new RecentServers(path.join(dir, 'recent-servers.json'), () => `2026-01-01T00:00:0${clock++}.000Z`);
    const servers = serverShell(recent, new ServerCredentials(path.join(dir, 'server-credentials.json'), fakeSafeStorage()));
    expect(await servers.remember(server, PASSWORD)).toBe('kept');
    const other = { ...server, org: 'globex' };
    expect(await servers.remember(other, null)).toBe('not-kept');
    const list = await servers.list();
    expect(list).toEqual([
      { index: 0, ...other, openedAt: '2026-01-01T00:00:01.000Z', hasPassword: false },
      { index: 1, ...server, openedAt: '2026-01-01T00:00:00.000Z', hasPassword: true },
    ]);
    expect(JSON.stringify(list)).not.toContain(PASSWORD);
    expect(fs.readFileSync(path.join(dir, 'recent-servers.json'), 'utf8')).not.toContain(PASSWORD);
    // Reopening by index brings the kept password (main only) and moves the entry first.
    expect(await servers.recent(1)).toEqual({ ...server, password: PASSWORD });
    expect(await servers.remember(server, undefined)).toBe('kept');
    expect((await servers.list())[0]).toMatchObject({ org: 'acme', hasPassword: true });
    expect(await servers.recent(5)).toBeNull();
  });
});

describe('a kept password on its way back to the server', () => {
  it('reaches the PostgreSQL driver exactly as typed, whatever characters it holds', async () => {
    const dir = dataDir();
    const servers = serverShell(new RecentServers(path.join(dir, 'recent-servers.json')), new ServerCredentials(path.join(dir, 'c.json'), fakeSafeStorage()));
    const passwords = ['p@ss w:rd/?#&=+%20%zz', 'naïve-пароль-密码-🔑', 'quote\'"back\\slash', ' leading and trailing '];
    for (const [i, password] of passwords.entries()) {
      const ref = { ...server, org: `org${i}` };
      expect(await servers.remember(ref, password)).toBe('kept');
      const entry = await servers.recent(0);
      expect(entry?.password).toBe(password);
      // What the engine connects with: the URL with the password put in, read by the driver itself.
      const target = serverTarget({ url: entry?.url ?? '', password: entry?.password ?? null });
      const client = new pg.Client({ connectionString: target.kind === 'server' ? target.url : '' });
      expect(client.password, password).toBe(password);
      expect(client.user).toBe('ana');
      expect(client.host).toBe('db.example');
      expect(client.database).toBe('memory');
    }
  });
});
