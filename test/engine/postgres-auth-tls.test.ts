// Password authentication and TLS against a real PostgreSQL server of the test's own (SCRAM in
// pg_hba.conf, a certificate for `localhost` from a throwaway authority): the right password over
// verified TLS works through the CLI, the store API and the desktop's kept-password path; a wrong
// or missing password, an untrusted certificate, another host name and an unencrypted connection
// are each refused promptly with a typed error that says why and never shows the password.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EngineSession } from '../../electron/engine-host/engine-session';
import { SyncPg } from '../../electron/engine/db/pg/sync-client';
import { parsePgTarget } from '../../electron/engine/db/pg/target';
import { Store } from '../../electron/engine/store';
import { RecentServers } from '../../electron/main/recent-files';
import { ServerCredentials, serverShell } from '../../electron/main/server-credentials';
import { statelens, type CliResult } from '../helpers/child';
import { thrownBy } from '../helpers/errors';
import { fakeSafeStorage } from '../helpers/fake-safe-storage';
import { privateClusterSkipReason, startPrivateCluster, type PrivateCluster } from '../helpers/private-pg';
import { tmpDir } from '../helpers/tmp';

/** Characters a URL gives meaning to, a space and a non-ASCII letter: the password must arrive intact. */
const PASSWORD = 'S3cret w:th@/?#%&é';
const WRONG = 'not-the-Passw0rd';
/** Far below a hang, far above a refused handshake on a loaded machine. */
const PROMPT_MS = 30_000;

const SKIP = privateClusterSkipReason();
if (SKIP) console.log(SKIP);

// A PGPASSWORD from the environment would give the driver a password where the test gives none.
delete process.env.PGPASSWORD;

/** Everything a command printed, for checks that the password shows nowhere. */
const printed = (r: CliResult) => `${r.stdout}\n${r.stderr}`;

function expectNoPassword(text: string, password: string): void {
  expect(text).not.toContain(password);
  expect(text).not.toContain(encodeURIComponent(password));
}

describe.skipIf(SKIP !== undefined)('a PostgreSQL server with password authentication and TLS only', () => {
  let cluster: PrivateCluster;
  beforeAll(async () => {
    cluster = await startPrivateCluster({
      password: PASSWORD,
      // Only TLS connections with a SCRAM password are let in.
      hba: ['hostssl all all 127.0.0.1/32 scram-sha-256', 'hostssl all all ::1/128 scram-sha-256'].join('\n'),
    });
  });
  afterAll(() => cluster?.stop());

  /** A URL to the cluster's `postgres` database; the password (when given) encoded into it. */
  function url(o: { host?: string; password?: string; query: string }): string {
    const auth = o.password === undefined ? 'postgres' : `postgres:${encodeURIComponent(o.password)}`;
    return `postgres://${auth}@${o.host ?? 'localhost'}:${cluster.port}/postgres?${o.query}`;
  }
  const verified = () => `sslmode=verify-full&sslrootcert=${cluster.caFile}`;

  /** How `fn` was refused, and how long that took. */
  function refusal(fn: () => unknown): { code: string; message: string; ms: number } {
    const start = Date.now();
    const e = thrownBy(fn);
    return { code: e.code, message: e.message, ms: Date.now() - start };
  }

  it('with the right password over verified TLS: init creates the schema, the store writes, facts reads back', async () => {
    const good = url({ password: PASSWORD, query: verified() });
    const init = await statelens(['init', '--db', good, '--json']);
    expect(init.code, init.stderr).toBe(0);
    expect(JSON.parse(init.stdout)).toMatchObject({ schema: 'statelens', from: 0, changed: true });
    expectNoPassword(printed(init), PASSWORD);

    const store = Store.openPostgres(parsePgTarget(good));
    try {
      store.scope({ org: 'acme', kind: 'user', user: 'u1' }, { create: true }).writeFact({ key: 'city', value: 'Porto' });
    } finally {
      store.close();
    }
    // The session really is encrypted (pg_hba.conf would refuse it otherwise, but say so directly).
    const conn = SyncPg.open(parsePgTarget(good));
    try {
      expect(conn.query('SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()').rows).toEqual([{ ssl: true }]);
    } finally {
      conn.close();
    }

    // The password kept out of the command line, in PGPASSWORD, as libpq's tools take it.
    const facts = await statelens(['facts', '--db', url({ query: verified() }), '--json'], { env: { PGPASSWORD: PASSWORD } });
    expect(facts.code, facts.stderr).toBe(0);
    expect(
      facts.stdout
        .trim()
        .split('\n')
        .map((l) => (JSON.parse(l) as { value: string }).value),
    ).toEqual(['Porto']);
  });

  it('a wrong password, or none, is PERMISSION_DENIED saying so, and the password shows nowhere', async () => {
    const wrong = refusal(() => Store.openPostgres(parsePgTarget(url({ password: WRONG, query: verified() }))));
    expect(wrong).toMatchObject({ code: 'PERMISSION_DENIED', message: expect.stringMatching(/password authentication failed for user "postgres"/) });
    expectNoPassword(wrong.message, WRONG);
    expect(wrong.ms).toBeLessThan(PROMPT_MS);

    const none = refusal(() => Store.openPostgres(parsePgTarget(url({ query: verified() }))));
    expect(none).toMatchObject({ code: 'PERMISSION_DENIED', message: expect.stringMatching(/asks for a password.*none was given/) });

    const cli = await statelens(['facts', '--db', url({ password: WRONG, query: verified() })]);
    expect(cli.code).toBe(1);
    expect(cli.stderr).toMatch(/password authentication failed .*\[PERMISSION_DENIED\]/);
    expect(cli.stderr).not.toMatch(/at .*\.(ts|js|mjs):\d+/); // one line, no stack
    expectNoPassword(printed(cli), WRONG);
  });

  it('verify-full refuses a certificate from another authority, or for another host name, promptly and typed', async () => {
    const otherCa = refusal(() => SyncPg.open(parsePgTarget(url({ password: PASSWORD, query: `sslmode=verify-full&sslrootcert=${cluster.otherCaFile}` }))));
    expect(otherCa).toMatchObject({ code: 'PERMISSION_DENIED', message: expect.stringMatching(/certificate could not be verified.*sslrootcert=/) });
    expect(otherCa.ms).toBeLessThan(PROMPT_MS);
    expectNoPassword(otherCa.message, PASSWORD);

    // Without sslrootcert only the system's authorities are trusted, and none signed it.
    const systemCas = refusal(() => SyncPg.open(parsePgTarget(url({ password: PASSWORD, query: 'sslmode=verify-full' }))));
    expect(systemCas).toMatchObject({ code: 'PERMISSION_DENIED', message: expect.stringMatching(/certificate could not be verified/) });

    // The certificate is for localhost; 127.0.0.1 is the same machine but not the name it vouches for.
    const byAddress = refusal(() => SyncPg.open(parsePgTarget(url({ host: '127.0.0.1', password: PASSWORD, query: verified() }))));
    expect(byAddress).toMatchObject({ code: 'PERMISSION_DENIED', message: expect.stringMatching(/certificate is not for 127\.0\.0\.1/) });
    expect(byAddress.ms).toBeLessThan(PROMPT_MS);

    const cli = await statelens(['facts', '--db', url({ host: '127.0.0.1', query: verified() })], { env: { PGPASSWORD: PASSWORD } });
    expect(cli.code).toBe(1);
    expect(cli.stderr).toMatch(/certificate is not for 127\.0\.0\.1.*\[PERMISSION_DENIED\]/);
    expectNoPassword(printed(cli), PASSWORD);
  });

  it('sslmode=disable is refused by a server that takes only TLS, saying it wants an encrypted connection', () => {
    const plain = refusal(() => SyncPg.open(parsePgTarget(url({ password: PASSWORD, query: 'sslmode=disable' }))));
    expect(plain).toMatchObject({ code: 'PERMISSION_DENIED', message: expect.stringMatching(/no encryption.*sslmode=verify-full/) });
    expect(plain.ms).toBeLessThan(PROMPT_MS);
    expectNoPassword(plain.message, PASSWORD);
  });

  it('an sslrootcert file that does not exist is INVALID_INPUT naming it, before any connection', () => {
    const missing = path.join(tmpDir('statelens-no-ca-'), 'ca.crt');
    const e = thrownBy(() => SyncPg.open(parsePgTarget(url({ password: PASSWORD, query: `sslmode=verify-full&sslrootcert=${missing}` }))));
    expect(e.code).toBe('INVALID_INPUT');
    expect(e.message).toContain(`sslrootcert=${missing}`);
    expectNoPassword(e.message, PASSWORD);
  });

  it('the desktop reconnects with the password it kept encrypted, every character intact', async () => {
    const data = tmpDir('statelens-desktop-data-');
    const servers = serverShell(
      new RecentServers(path.join(data, 'recent-servers.json')),
      new ServerCredentials(path.join(data, 'server-credentials.json'), fakeSafeStorage()),
    );
    const server = { url: url({ query: verified() }), schema: 'statelens', org: 'acme' };
    expect(await servers.remember(server, PASSWORD)).toBe('kept');

    // Next launch: the recent entry brings the kept password, main opens the server with it.
    const entry = await servers.recent(0);
    expect(entry?.password).toBe(PASSWORD);
    const session = new EngineSession(undefined, () => undefined);
    try {
      const store = session.openServer({ url: entry?.url ?? '', password: entry?.password ?? null, schema: 'statelens', org: 'acme', readonly: true });
      expect(
        store
          .scope({ org: 'acme', kind: 'user', user: 'u1' })
          .listFacts({})
          .rows.map((r) => r.value),
      ).toEqual(['Porto']);
      expect(JSON.stringify(session.info())).not.toContain(encodeURIComponent(PASSWORD));
    } finally {
      session.close();
    }
  });
});

describe.skipIf(SKIP !== undefined)('a PostgreSQL server without TLS', () => {
  let cluster: PrivateCluster;
  beforeAll(async () => {
    cluster = await startPrivateCluster({ password: PASSWORD, ssl: false, hba: 'host all all 127.0.0.1/32 scram-sha-256' });
  });
  afterAll(() => cluster?.stop());

  it('verify-full is refused as PERMISSION_DENIED: the server offers no TLS, and nothing is sent in the clear', () => {
    const target = parsePgTarget(
      `postgres://postgres:${encodeURIComponent(PASSWORD)}@localhost:${cluster.port}/postgres?sslmode=verify-full&sslrootcert=${cluster.caFile}`,
    );
    const e = thrownBy(() => SyncPg.open(target));
    expect(e.code).toBe('PERMISSION_DENIED');
    expect(e.message).toMatch(/does not offer TLS/);
    expectNoPassword(e.message, PASSWORD);
  });
});
