// `statelens init` on a PostgreSQL store (PGlite data folder always, the real server when
// STATELENS_TEST_PG_URL is set) and on a file: creates the schema, a second run changes nothing,
// a newer schema is refused; bench measures its postgres section on the server a URL names.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../electron/cli/main';
import type { CliIO } from '../../electron/cli/command';
import { PG_SCHEMA_VERSION } from '../../electron/engine/db/pg/migrations';
import { inspectPgSchema, VERSION_TABLE } from '../../electron/engine/db/pg/schema';
import { quoteIdent, SyncPg } from '../../electron/engine/db/pg/sync-client';
import { parsePgTarget } from '../../electron/engine/db/pg/target';
import { SCHEMA_VERSION } from '../../electron/engine/db/migrations';
import { SERVER_SKIP_REASON, SERVER_URL, serverScratchDatabase } from '../helpers/pg';
import { tmpDir } from '../helpers/tmp';
import { statelens } from '../helpers/child';

async function run(argv: string[], env: Record<string, string | undefined> = {}): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIO = { out: (l) => out.push(l), err: (l) => err.push(l), isTTY: false, prompt: async () => undefined };
  const saved = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
  for (const [k, v] of Object.entries(env))
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  try {
    const code = await runCli(argv, io);
    return { code, out: out.join('\n'), err: err.join('\n') };
  } finally {
    for (const [k, v] of Object.entries(saved))
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
  }
}

function versionOf(url: string, schema: string): number | null {
  const conn = SyncPg.open(parsePgTarget(url));
  try {
    return inspectPgSchema(conn, schema).version;
  } finally {
    conn.close();
  }
}

function setVersion(url: string, schema: string, version: number): void {
  const conn = SyncPg.open(parsePgTarget(url));
  try {
    conn.query(`UPDATE ${quoteIdent(schema)}.${VERSION_TABLE} SET version = $1`, [version]);
  } finally {
    conn.close();
  }
}

if (!SERVER_URL) console.log(SERVER_SKIP_REASON);
let scratch: ReturnType<typeof serverScratchDatabase> | undefined;
afterAll(() => scratch?.drop());

const stores = [
  { name: 'PGlite data folder', enabled: true, url: () => `pglite:${path.join(tmpDir('statelens-init-'), 'pgdata')}` },
  {
    name: 'server',
    enabled: SERVER_URL !== undefined,
    url: () => {
      scratch ??= serverScratchDatabase('init');
      return scratch.url;
    },
  },
];

for (const store of stores) {
  describe.skipIf(!store.enabled)(`statelens init on a ${store.name}`, () => {
    it('creates the schema, then does nothing on a second run, and refuses a newer schema', async () => {
      const url = store.url();
      const first = await run(['init', '--db', url, '--json']);
      expect(first).toMatchObject({ code: 0, err: '' });
      expect(JSON.parse(first.out)).toMatchObject({ schema: 'statelens', from: 0, to: PG_SCHEMA_VERSION, changed: true });

      const second = await run(['init', '--db', url]);
      expect(second.code).toBe(0);
      expect(second.out).toMatch(/schema "statelens" on .* is already at schema version \d+: nothing to do/);

      // STATELENS_DB_URL stands in for --db; --schema picks another schema in the same database.
      const other = await run(['init', '--schema', 'team_b'], { STATELENS_DB_URL: url });
      expect(other.code).toBe(0);
      expect(other.out).toMatch(/^created schema "team_b" on /);

      setVersion(url, 'statelens', PG_SCHEMA_VERSION + 1);
      const newer = await run(['init', '--db', url]);
      expect(newer.code).toBe(1);
      expect(newer.err).toMatch(/schema version \d+; this Statelens understands up to \d+\. Update Statelens to open it\. \[DB_TOO_NEW\]$/);
      expect(versionOf(url, 'statelens')).toBe(PG_SCHEMA_VERSION + 1);
    });
  });
}

describe('statelens init on a file, and bench on a server URL', () => {
  it('creates a SQLite file at the current version; a second run changes nothing', async () => {
    const file = path.join(tmpDir(), 'memory.db');
    const first = await run(['init', '--db', file]);
    expect(first).toMatchObject({ code: 0, out: `created ${file} (schema version ${SCHEMA_VERSION})` });
    const bytes = fs.readFileSync(file);
    const second = await run(['init', '--db', file]);
    expect(second).toMatchObject({ code: 0, out: `${file} is already at schema version ${SCHEMA_VERSION}: nothing to do` });
    expect(fs.readFileSync(file).equals(bytes)).toBe(true);
  });

  it('bench measures its postgres section on the server --db (or STATELENS_DB_URL) names, and never prints its password', async () => {
    const url = 'postgres://agent:secret@db.invalid:5432/memory';
    const env = { STATELENS_PG_BENCH_FACTS: '200', STATELENS_PG_BENCH_WRITES: '10', STATELENS_BENCH_PG_URL: undefined, STATELENS_TEST_PG_URL: undefined };
    const r = await run(['bench', '--quick', '--only', 'postgres', '--db', url], env);
    // The server cannot be reached: the section says so (naming --db, password hidden) and measures PGlite instead.
    expect(r.err).toContain('postgres: cannot use the server of --db, postgres://agent:***@db.invalid:5432/memory');
    expect(r.out).toContain('PostgreSQL server of --db');
    expect(`${r.out}${r.err}`).not.toContain('secret');
    const fromEnv = await run(['bench', '--quick', '--only', 'postgres'], { ...env, STATELENS_DB_URL: url });
    expect(fromEnv.err).toContain('postgres: cannot use the server of --db, postgres://agent:***@db.invalid:5432/memory');
    // A file still works as before with the variable unset.
    const file = path.join(tmpDir(), 'memory.db');
    expect((await run(['init', '--db', file])).code).toBe(0);
    expect((await run(['facts', '--db', file, '--json'], { STATELENS_DB_URL: undefined })).code).toBe(0);
  }, 600_000);

  it('the installed command initialises a PGlite store in a child process', async () => {
    const url = `pglite:${path.join(tmpDir('statelens-init-child-'), 'pgdata')}`;
    const r = await statelens(['init', '--db', url]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^created schema "statelens" on pglite:.*pgdata \(schema version \d+\)\n$/);
  });
});
