// Every read-only command on a store an earlier Statelens left (a SQLite file, a PGlite folder and,
// with STATELENS_TEST_PG_URL, a server schema, each at an older schema version) refuses it without
// changing a byte and names the command that upgrades it; that command, run as printed, works.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SCHEMA_VERSION } from '../../electron/engine/db/migrations';
import { PG_SCHEMA_VERSION } from '../../electron/engine/db/pg/migrations';
import { SyncPg } from '../../electron/engine/db/pg/sync-client';
import { parsePgTarget } from '../../electron/engine/db/pg/target';
import { statelens, type CliResult } from '../helpers/child';
import { pgSchemaAt, sqliteFileAt } from '../helpers/older-store';
import { SERVER_SKIP_REASON, SERVER_URL, scratchName, serverScratchDatabase } from '../helpers/pg';
import { tmpDir } from '../helpers/tmp';

/** The read-only commands, each as a user would type it against `db`. */
function readOnlyCommands(db: string, out: string): string[][] {
  return [
    ['facts', '--db', db],
    ['verify', '--db', db],
    ['chain', 'f1', '--db', db],
    ['export', '--db', db, '--format', 'json', '--out', out],
    ['context', '--db', db, '--partition', 'user:acme/u1'],
    ['maturity', '--db', db, '--partition', 'capability:acme/triage'],
  ];
}

/** The command a refusal names, exactly as printed between backticks. */
function namedUpgrade(r: CliResult): string[] {
  const m = /`(statelens init --db [^`]+)`/.exec(r.stderr);
  if (!m?.[1]) throw new Error(`no upgrade command in: ${r.stderr}`);
  return m[1].split(' ').slice(1);
}

/** Runs every read-only command, one at a time (a PGlite folder admits one process); each must
 * refuse with the upgrade command and its error code. */
async function expectAllRefused(db: string, upgrade: string, code: string): Promise<void> {
  for (const argv of readOnlyCommands(db, path.join(tmpDir(), 'out.json'))) {
    const r = await statelens(argv);
    expect({ command: argv[0], code: r.code }).toEqual({ command: argv[0], code: 1 });
    expect(r.stderr, argv[0]).toContain(`\`${upgrade}\``);
    expect(r.stderr, argv[0]).toContain(code);
  }
}

/** Six CLI starts and an upgrade on a shared machine. */
const SLOW = 600_000;

describe('a SQLite file from an earlier Statelens', () => {
  it(
    'every read-only command names `statelens init --db FILE`, changes nothing, and that command upgrades it',
    async () => {
      const file = sqliteFileAt(3, (db) => {
        db.prepare("INSERT INTO partitions (id, org_id, kind, subject, created_at) VALUES (1, 'acme', 'user', 'u1', '2026-01-01')").run();
        db.prepare(
          `INSERT INTO facts (id, partition_id, org_id, key, value, source_type, ts, created_at, memory_type, importance, status, is_valid)
         VALUES ('f1', 1, 'acme', 'city', 'Lyon', 'user', '2026-01-05', '2026-01-05', 'user', 0.3, 'active', 1)`,
        ).run();
      });
      const before = createHash('sha256').update(fs.readFileSync(file)).digest('hex');
      await expectAllRefused(file, `statelens init --db ${file}`, 'READ_ONLY');
      const facts = await statelens(['facts', '--db', file]);
      expect(facts.stderr).toContain(`has schema version 3, older than this Statelens's ${SCHEMA_VERSION}`);
      expect(createHash('sha256').update(fs.readFileSync(file)).digest('hex')).toBe(before);
      expect(fs.existsSync(`${file}-wal`)).toBe(false);

      const init = await statelens(namedUpgrade(facts));
      expect(init.stderr).toBe('');
      expect(init.code).toBe(0);
      const after = await statelens(['facts', '--db', file, '--json']);
      expect(after.code).toBe(0);
      expect(JSON.stringify(JSON.parse(after.stdout))).toContain('Lyon');
    },
    SLOW,
  );

  it('quotes a path with a space so that the printed command runs as it is', async () => {
    const file = sqliteFileAt(4, () => undefined, path.join(tmpDir(), 'my memory.db'));
    const r = await statelens(['verify', '--db', file]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`\`statelens init --db '${file}'\``);
  });
});

if (!SERVER_URL) console.log(SERVER_SKIP_REASON);
let scratch: ReturnType<typeof serverScratchDatabase> | undefined;
afterAll(() => scratch?.drop());

const pgStores = [
  {
    name: 'a PGlite folder',
    enabled: true,
    // The default schema, so the command needs no --schema.
    make: () => ({ url: `pglite:${path.join(tmpDir('statelens-older-'), 'pgdata')}`, schema: 'statelens' }),
  },
  {
    name: 'a server schema',
    enabled: SERVER_URL !== undefined,
    make: () => {
      scratch ??= serverScratchDatabase('older');
      return { url: scratch.url, schema: scratchName('older') };
    },
  },
];

for (const store of pgStores) {
  describe.skipIf(!store.enabled)(`${store.name} from an earlier Statelens`, () => {
    it(
      'every read-only command names `statelens init --db URL` (with --schema when not the default), and it upgrades',
      async () => {
        const { url, schema } = store.make();
        const conn = SyncPg.open(parsePgTarget(url));
        try {
          pgSchemaAt(conn, schema, PG_SCHEMA_VERSION - 1);
        } finally {
          conn.close();
        }
        const db = schema === 'statelens' ? url : `${url}${url.includes('?') ? '&' : '?'}schema=${schema}`;
        const upgrade = `statelens init --db ${url}${schema === 'statelens' ? '' : ` --schema ${schema}`}`;
        await expectAllRefused(db, upgrade, 'NOT_FOUND');
        const facts = await statelens(['facts', '--db', db]);
        expect(facts.stderr).toContain(`has schema version ${PG_SCHEMA_VERSION - 1}, older than this Statelens's ${PG_SCHEMA_VERSION}`);

        const init = await statelens(namedUpgrade(facts));
        expect(init.code).toBe(0);
        const after = await statelens(['facts', '--db', db, '--json']);
        expect(after.stderr).toBe('');
        expect(after.code).toBe(0);
      },
      SLOW,
    );
  });
}
