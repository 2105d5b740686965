// The `statelens` commands on a PostgreSQL store, each in a child process (a PGlite data folder
// always, the real server when STATELENS_TEST_PG_URL is set): init, ingest, facts, verify, a
// SQLite export read back, imported into a fresh schema with the same facts and exported to SQLite again, and the
// administrative commands: chain, delete (preview, then the delete and its scrub), maturity and
// end-session. `statelens mcp` and `statelens serve` have their own suites, run on every store
// (test/mcp, test/server).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { statelens } from '../helpers/child';
import { migratePg } from '../../electron/engine/db/pg/schema';
import { applyPgServerSetup, MEMBERS_TABLE, pgRoleNames } from '../../electron/engine/db/pg/server-setup';
import { quoteIdent, SyncPg } from '../../electron/engine/db/pg/sync-client';
import { parsePgTarget } from '../../electron/engine/db/pg/target';
import { awaitQuietServer, SERVER_SKIP_REASON, SERVER_URL, serverScratchDatabase } from '../helpers/pg';

if (!SERVER_URL) console.log(SERVER_SKIP_REASON);
let scratch: ReturnType<typeof serverScratchDatabase> | undefined;
// One folder for the whole file: the stores outlive each test (tmpDir's are removed after each).
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'statelens-pgcli-'));
afterAll(() => {
  scratch?.drop();
  fs.rmSync(root, { recursive: true, force: true });
});

const EVENTS = [
  {
    type: 'state_write',
    ts: '2026-01-01T00:00:00.000Z',
    writes: [
      { id: 'F1', layer: 'persistent_facts', key: 'budget', value: '$200k', source: { type: 'system', authority: 'peer' }, depends_on: [], supersedes: null },
    ],
  },
  {
    type: 'state_write',
    ts: '2026-01-02T00:00:00.000Z',
    writes: [{ id: 'F2', layer: 'persistent_facts', key: 'budget', value: '$120k', source: { type: 'user' }, depends_on: [], supersedes: 'budget' }],
  },
];

async function ok(args: string[], env: Record<string, string> = {}): Promise<string> {
  const r = await statelens(args, { env });
  expect(r.stderr.replace(/^\d+ facts?.*\n?/m, ''), `statelens ${args.join(' ')}`).toBe('');
  expect(r.code, `statelens ${args.join(' ')}: ${r.stderr}`).toBe(0);
  return r.stdout;
}

const factLines = (out: string): unknown[] =>
  out
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as unknown);

const stores = [
  {
    name: 'PGlite data folder',
    enabled: true,
    /** The store's URL and the URL of another, fresh one. */
    urls: () => {
      const dir = fs.mkdtempSync(path.join(root, 'pglite-'));
      return { url: `pglite:${path.join(dir, 'a')}`, fresh: `pglite:${path.join(dir, 'b')}` };
    },
  },
  {
    name: 'server',
    enabled: SERVER_URL !== undefined,
    urls: () => {
      scratch ??= serverScratchDatabase('s13cli');
      const fresh = new URL(scratch.url);
      fresh.searchParams.set('schema', 'copy');
      return { url: scratch.url, fresh: fresh.href };
    },
  },
];

for (const store of stores) {
  describe.skipIf(!store.enabled)(`statelens on a ${store.name}`, () => {
    // A skipped describe still collects its body: make no server database when it is skipped.
    const { url, fresh } = store.enabled ? store.urls() : { url: '', fresh: '' };
    const dir = fs.mkdtempSync(path.join(root, 'files-'));

    it('initialises, ingests, lists, verifies, and copies to a SQLite file and into a fresh schema with the same facts', async () => {
      const events = path.join(dir, 'events.jsonl');
      fs.writeFileSync(events, EVENTS.map((e) => JSON.stringify(e)).join('\n') + '\n');
      await ok(['init', '--db', url]);
      expect(await ok(['ingest', events, '--db', url, '--org', 'acme', '--user', 'u1'])).toMatch(
        /^Ingested 2 events into user:acme\/u1: 2 facts \(1 superseding\)/,
      );

      const facts = factLines(await ok(['facts', '--db', url, '--json']));
      expect(facts.map((f) => (f as { value: string }).value)).toEqual(['$120k', '$200k']);
      // STATELENS_DB_URL stands in for --db.
      expect(factLines(await ok(['facts', '--json'], { STATELENS_DB_URL: url }))).toEqual(facts);
      expect(await ok(['verify', '--db', url])).toMatch(/All 23 checks passed/);

      const file = path.join(dir, 'copy.db');
      expect(await ok(['export', '--db', url, '--format', 'sqlite', '--out', file])).toMatch(/^Wrote .*copy\.db \(sqlite, /);
      expect(factLines(await ok(['facts', '--db', file, '--json']))).toEqual(facts);
      expect(await ok(['verify', '--db', file])).toMatch(/checks passed/);

      // Back into a fresh schema (created by the import), with the same ids, chains and fields.
      await ok(['import', 'snapshot', file, '--db', fresh]);
      expect(factLines(await ok(['facts', '--db', fresh, '--json']))).toEqual(facts);
      // And out to SQLite again: the SQLite file copied into the store and back holds the same facts and chains.
      const back = path.join(dir, 'back.db');
      await ok(['export', '--db', fresh, '--format', 'sqlite', '--out', back]);
      expect(factLines(await ok(['facts', '--db', back, '--json']))).toEqual(facts);
      expect(await ok(['verify', '--db', back])).toMatch(/checks passed/);
      // The copy keeps working: new rows take ids past the imported ones.
      await ok(['ingest', events, '--db', fresh, '--org', 'acme', '--user', 'u2']);
      expect(factLines(await ok(['facts', '--db', fresh, '--json', '--partition', 'user:acme/u2']))).toHaveLength(2);
      // A dozen child processes, each starting PGlite: minutes on a loaded machine.
    }, 600_000);

    it('shows a chain, previews and deletes (scrubbing the tables), sets a maturity with an audit entry and ends a session', async (ctx) => {
      const partition = 'user:acme/admin';
      const events = path.join(dir, 'admin.jsonl');
      const more = [
        { type: 'state_write', ts: '2026-01-03T00:00:00.000Z', writes: [{ key: 'city', value: 'Porto', source: { type: 'user' } }] },
        { type: 'conversation_turn', ts: '2026-01-03T00:01:00.000Z', session_id: 's1', speaker: 'user', text: 'Please draft the agenda' },
      ];
      fs.writeFileSync(events, [...EVENTS, ...more].map((e) => JSON.stringify(e)).join('\n') + '\n');
      await ok(['init', '--db', url]);
      await ok(['ingest', events, '--db', url, '--partition', partition]);
      type Row = { id: string; key: string; value: string };
      const listed = (): Promise<Row[]> => ok(['facts', '--db', url, '--json', '--partition', partition]).then((o) => factLines(o) as Row[]);
      const before = await listed();
      const byValue = (v: string): string => before.find((f) => f.value === v)?.id ?? '';
      expect(before.map((f) => f.value)).toEqual(['Porto', '$120k', '$200k']);

      const chain = await ok(['chain', byValue('$200k'), '--db', url]);
      expect(chain).toMatch(/^Chain of \S+ in acme \/ user admin: 2 versions, 0 proposals\n/);
      expect(chain).toContain(`${byValue('$200k')}  budget = "$200k"`);
      expect(chain).toContain(`superseded by ${byValue('$120k')}`);
      expect(chain).toMatch(/budget = "\$120k".*CURRENT/);

      const preview = await ok(['delete', '--db', url, '--partition', partition, '--search', 'Porto', '--dry-run']);
      expect(preview).toContain('would delete 1 fact');
      expect(preview).toContain(`  - ${byValue('Porto')}  city`);
      expect(preview).toMatch(/Dry run: nothing was deleted\.\n$/);
      expect(await listed()).toHaveLength(3);

      // Another client's open transaction would rightly leave the scrub incomplete (and the exit 1).
      if (store.name === 'server') await awaitQuietServer(ctx);
      const deleted = await ok(['delete', '--db', url, '--id', byValue('Porto'), '--yes', '--reason', 'asked to forget']);
      expect(deleted).toMatch(/Deleted 1 fact; flagged 0/);
      expect(deleted).toContain('Text removed from the PostgreSQL tables and their indexes (VACUUM FULL of facts, fact_edges, audit_log): yes');
      expect(deleted).not.toContain('the file and its WAL');
      expect((await listed()).map((f) => f.value)).toEqual(['$120k', '$200k']);

      const capability = 'capability:acme/outreach';
      const seen = path.join(dir, 'seen.jsonl');
      fs.writeFileSync(
        seen,
        JSON.stringify({ type: 'state_write', ts: '2026-01-04T00:00:00.000Z', writes: [{ key: 'seen', value: 'A reply', level: 'event' }] }),
      );
      await ok(['ingest', seen, '--db', url, '--partition', capability]);
      expect(JSON.parse(await ok(['maturity', '--db', url, '--partition', capability, '--json']))).toMatchObject({ maturity: 'junior' });
      const set = await ok(['maturity', '--db', url, '--partition', capability, '--set', 'senior', '--actor', 'ops', '--reason', 'passed review']);
      expect(set).toMatch(/outreach: junior -> senior \(audited, by ops\)\n$/);
      expect(JSON.parse(await ok(['maturity', '--db', url, '--partition', capability, '--json']))).toMatchObject({ maturity: 'senior' });
      const conn = SyncPg.open(parsePgTarget(url.split('?')[0] ?? url));
      try {
        const audit = conn.query<{ action: string; actor: string; reason: string | null }>(
          `SELECT action, actor, reason FROM statelens.audit_log WHERE action IN ('maturity.set', 'delete') ORDER BY id`,
        ).rows;
        expect(audit.map((a) => [a.action, a.actor, a.reason])).toEqual([
          ['delete', 'cli', 'asked to forget'],
          ['maturity.set', 'ops', 'passed review'],
        ]);
      } finally {
        conn.close();
      }

      const context = (): Promise<string> => ok(['context', '--db', url, '--partition', partition, '--strategy', 'reference', '--session', 's1']);
      expect(await context()).toContain('Please draft the agenda');
      expect(JSON.parse(await ok(['end-session', '--db', url, '--partition', partition, '--session', 's1', '--json']))).toMatchObject({
        workingItemsCleared: 1,
      });
      expect(await context()).not.toContain('Please draft the agenda');
    }, 600_000);
  });
}

describe.skipIf(!SERVER_URL)('statelens on a server under row-level security, as a login role', () => {
  it('acts for the org --org (or STATELENS_ORG) names, refuses a role that is no member, and sees no other org', async () => {
    const db = serverScratchDatabase('s13clirls');
    // Roles are cluster-wide and named after the schema: a schema of this run's own.
    const schema = `s13_cli_${process.pid}_${Math.random().toString(36).slice(2, 7)}`;
    const s = quoteIdent(schema);
    const groups = pgRoleNames(schema);
    const alice = `${schema}_alice`;
    const conn = SyncPg.open(db.target);
    try {
      migratePg(conn, { schema });
      const acme = conn.query<{ id: number }>(
        `INSERT INTO ${s}.partitions (org_id, kind, subject, created_at) VALUES ('acme', 'user', 'u1', $1) RETURNING id`,
        ['2026-01-01T00:00:00.000Z'],
      ).rows[0]!.id;
      const globex = conn.query<{ id: number }>(
        `INSERT INTO ${s}.partitions (org_id, kind, subject, created_at) VALUES ('globex', 'user', 'g1', $1) RETURNING id`,
        ['2026-01-01T00:00:00.000Z'],
      ).rows[0]!.id;
      const fact = `INSERT INTO ${s}.facts (id, partition_id, org_id, key, value, source_type, ts, created_at, memory_type) VALUES ($1, $2, $3, 'k', $4, 'user', $5, $5, 'user')`;
      conn.query(fact, ['f_acme', acme, 'acme', 'acme value', '2026-01-01T00:00:00.000Z']);
      conn.query(fact, ['f_globex', globex, 'globex', 'globex value', '2026-01-01T00:00:00.000Z']);
      applyPgServerSetup(conn, { schema });
      conn.exec(`CREATE ROLE ${quoteIdent(alice)} LOGIN`);
      conn.exec(`GRANT ${quoteIdent(groups.agent)} TO ${quoteIdent(alice)}`);
      conn.query(`INSERT INTO ${s}.${MEMBERS_TABLE} (org_id, role_name) VALUES ('acme', $1)`, [alice]);

      const url = new URL(db.url);
      url.username = alice;
      url.searchParams.set('schema', schema);
      const values = (out: string): string[] => factLines(out).map((f) => (f as { value: string }).value);
      expect(values(await ok(['facts', '--db', url.href, '--org', 'acme', '--json']))).toEqual(['acme value']);
      expect(values(await ok(['facts', '--db', url.href, '--json'], { STATELENS_ORG: 'acme' }))).toEqual(['acme value']);
      const byUrl = new URL(url.href);
      byUrl.searchParams.set('org', 'acme');
      expect(values(await ok(['facts', '--db', byUrl.href, '--json']))).toEqual(['acme value']);

      const other = await statelens(['facts', '--db', url.href, '--org', 'globex', '--json']);
      expect(other.code).toBe(1);
      expect(other.stderr).toMatch(/is not a member of org "globex".*\[PERMISSION_DENIED\]\n$/);
      const none = await statelens(['facts', '--db', url.href, '--json']);
      expect(none.stderr).toMatch(/name the org this session acts for.*\[PERMISSION_DENIED\]\n$/);
    } finally {
      conn.close();
      db.drop();
      const admin = SyncPg.open({ kind: 'server', url: SERVER_URL ?? '' });
      try {
        admin.exec(`DROP ROLE IF EXISTS ${quoteIdent(alice)}`);
        for (const g of [groups.agent, groups.reviewer, groups.admin]) admin.exec(`DROP ROLE IF EXISTS ${quoteIdent(g)}`);
      } finally {
        admin.close();
      }
    }
  }, 300_000);
});

describe('PostgreSQL URLs on the command line', () => {
  it('never print a password, in errors or otherwise', async () => {
    const r = await statelens(['facts', '--db', 'postgres://agent:s3cret-pw@127.0.0.1:1/memory?connect_timeout=2']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('postgres://agent:***@127.0.0.1:1/memory');
    expect(r.stderr).toMatch(/\[DB_UNAVAILABLE\]\n$/);
    expect(r.stdout + r.stderr).not.toContain('s3cret-pw');
  });

  it.skipIf(!SERVER_URL)('honour sslmode=verify-full: a server without TLS is refused rather than used in the clear', async () => {
    const u = new URL(SERVER_URL ?? 'postgres://localhost/test');
    u.searchParams.set('sslmode', 'verify-full');
    const r = await statelens(['facts', '--db', u.href]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/SSL|TLS/i);
  });
});
