// The commands that fill a store, on PostgreSQL (a PGlite data folder always, the real server
// when STATELENS_TEST_PG_URL is set), each in a child process and each beside the same run on a
// SQLite file: `import statebench` (same stats, and a line that fails inside the transaction
// leaves the schema without a row), `statebench --db` (same figures, the schema kept), `demo`
// (same counts for a seed, an occupied schema refused) and `runner` (same store calls, the memory
// kept). STATELENS_DB_URL stands in for --db.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { REFERENCE_TABLES } from '../../electron/engine/db/dialect';
import { quoteIdent, SyncPg } from '../../electron/engine/db/pg/sync-client';
import { parsePgTarget } from '../../electron/engine/db/pg/target';
import { statelens } from '../helpers/child';
import { repoRoot } from '../helpers/paths';
import { SERVER_SKIP_REASON, SERVER_URL, serverScratchDatabase } from '../helpers/pg';
import { timeline } from './timeline';

if (!SERVER_URL) console.log(SERVER_SKIP_REASON);
let scratch: ReturnType<typeof serverScratchDatabase> | undefined;
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'statelens-pgdata-'));
afterAll(() => {
  scratch?.drop();
  fs.rmSync(root, { recursive: true, force: true });
});

// A slice of StateBench's dev split when the data is beside the repository (real timelines,
// with supersessions by label and by key); otherwise three small timelines of the same shape.
const devSplit = path.resolve(repoRoot, '..', 'shared', 'statebench', 'dev.jsonl');
const SLICE = fs.existsSync(devSplit)
  ? fs.readFileSync(devSplit, 'utf8').split('\n').filter(Boolean).slice(0, 6)
  : [timeline('T-1'), timeline('T-2'), timeline('T-3')];
if (!fs.existsSync(devSplit)) console.log(`postgres-datasets: ${devSplit} is absent; small timelines stand in for the StateBench slice`);

/** Runs `statelens` and expects it to succeed; returns its standard output. */
async function ok(args: string[], env: Record<string, string> = {}): Promise<string> {
  const r = await statelens(args, { env, timeoutMs: 400_000 });
  expect(r.code, `statelens ${args.join(' ')}: ${r.stderr}`).toBe(0);
  return r.stdout;
}

/** Rows in each engine table (the reference tables aside) of a SQLite file. */
function fileCounts(file: string): Record<string, number> {
  const db = new Database(file, { readonly: true });
  try {
    const tables = db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'facts_fts%' ORDER BY name`).pluck().all() as string[];
    return Object.fromEntries(
      tables.filter((t) => !REFERENCE_TABLES.has(t)).map((t) => [t, db.prepare(`SELECT count(*) FROM "${t}"`).pluck().get() as number]),
    );
  } finally {
    db.close();
  }
}

/** Rows in each engine table (the reference tables aside) of a PostgreSQL schema; null when the
 * schema does not exist. */
function schemaCounts(url: string, schema: string): Record<string, number> | null {
  const conn = SyncPg.open(parsePgTarget(url));
  try {
    const tables = conn
      .query<{ table_name: string }>(`SELECT table_name FROM information_schema.tables WHERE table_schema = $1 ORDER BY table_name`, [schema])
      .rows.map((r) => r.table_name);
    if (tables.length === 0) return null;
    return Object.fromEntries(
      tables
        .filter((t) => !REFERENCE_TABLES.has(t))
        .map((t) => [t, Number(conn.query<{ n: string }>(`SELECT count(*) AS n FROM ${quoteIdent(schema)}.${quoteIdent(t)}`).rows[0]?.n)]),
    );
  } finally {
    conn.close();
  }
}

const stores = [
  {
    name: 'PGlite data folder',
    enabled: true,
    url: () => `pglite:${path.join(fs.mkdtempSync(path.join(root, 'pglite-')), 'data')}`,
  },
  {
    name: 'server',
    enabled: SERVER_URL !== undefined,
    url: () => (scratch ??= serverScratchDatabase('datasets')).url,
  },
];

for (const store of stores) {
  describe.skipIf(!store.enabled)(`filling a ${store.name} from the command line`, () => {
    // A skipped describe still collects its body: make no server database when it is skipped.
    const url = store.enabled ? store.url() : '';
    const dir = fs.mkdtempSync(path.join(root, 'files-'));
    const slice = path.join(dir, 'slice.jsonl');
    fs.writeFileSync(slice, `${SLICE.join('\n')}\n`);

    it('import statebench: the same stats as on a file; a line failing inside the transaction leaves the schema without a row', async () => {
      const file = path.join(dir, 'import.db');
      const onFile = JSON.parse(await ok(['import', 'statebench', slice, '--db', file, '--json'])) as Record<string, unknown>;
      const onPg = JSON.parse(await ok(['import', 'statebench', slice, '--db', url, '--schema', 'imported', '--json'])) as Record<string, unknown>;
      expect(onPg).toEqual(onFile);
      expect(onPg).toMatchObject({ timelines: SLICE.length, partitions: SLICE.length, unresolved: [] });
      expect(onPg.supersessionsResolved).toBe(onPg.supersessionWrites);
      expect(onPg.facts).toBeGreaterThan(0);
      expect(schemaCounts(url, 'imported')).toEqual(fileCounts(file));

      // The second timeline's supersedes names no fact: refused after the first was written.
      const bad = path.join(dir, 'bad.jsonl');
      fs.writeFileSync(bad, `${timeline('T-1')}\n${timeline('T-2').replace('"supersedes":"budget"', '"supersedes":"no-such-fact"')}\n`);
      const refused = await statelens(['import', 'statebench', bad, '--schema', 'refused', '--json'], { env: { STATELENS_DB_URL: url }, timeoutMs: 400_000 });
      expect(refused.code, refused.stderr).toBe(1);
      expect(refused.stderr).toMatch(
        /1 supersedes matched no fact, so nothing was imported: line 2 \(timeline T-2, event 1\): "no-such-fact" \[IMPORT_FAILED\]\n$/,
      );
      expect(refused.stdout).toBe('');
      const counts = schemaCounts(url, 'refused');
      expect(counts).not.toBeNull();
      expect(Object.keys(counts ?? {})).toContain('facts');
      expect(Object.entries(counts ?? {}).filter(([, n]) => n !== 0)).toEqual([]);
    }, 900_000);

    it('statebench --db URL: the same figures as on a file, and the schema it assembled from is kept', async () => {
      const run = ['statebench', slice, '--strategy', 'state_based', '--budget', '2000', '--json'];
      const file = path.join(dir, 'statebench.db');
      const onFile = JSON.parse(await ok([...run, '--db', file])) as Record<string, unknown>;
      const onPg = JSON.parse(await ok([...run, '--schema', 'bench'], { STATELENS_DB_URL: url })) as Record<string, unknown>;
      expect({ ...onPg, db: undefined }).toEqual({ ...onFile, db: undefined });
      expect(onPg.db).toBe(url);
      expect(onPg).toMatchObject({ timelines: SLICE.length, primary: { strategy: 'state_based' }, comparison: { strategy: 'reference' } });
      expect(schemaCounts(url, 'bench')).toEqual(fileCounts(file));

      // Kept, so the same timelines again are refused and leave it as it was.
      const again = await statelens([...run, '--db', url, '--schema', 'bench'], { timeoutMs: 400_000 });
      expect(again.code).toBe(1);
      expect(again.stderr).toMatch(/is already imported into partition \d+.*\[IMPORT_FAILED\]\n$/);
      expect(schemaCounts(url, 'bench')).toEqual(fileCounts(file));
    }, 900_000);

    it('demo --db URL: the same counts as on a file for one seed, and a schema that holds partitions is refused', async () => {
      const demo = ['demo', '--facts', '300', '--seed', 'pg', '--json'];
      const file = path.join(dir, 'demo.db');
      const { seconds: _fileSeconds, ...onFile } = JSON.parse(await ok([...demo, '--db', file])) as Record<string, unknown>;
      const { seconds: _pgSeconds, ...onPg } = JSON.parse(await ok([...demo, '--db', url, '--schema', 'demo'])) as Record<string, unknown>;
      expect(onPg).toEqual(onFile);
      expect(onPg).toMatchObject({ facts: 300, orgs: 3 });
      const counts = schemaCounts(url, 'demo');
      expect(counts).toEqual(fileCounts(file));
      expect(counts?.facts).toBe(300);

      const occupied = await statelens(['demo', '--facts', '10', '--schema', 'demo'], { env: { STATELENS_DB_URL: url }, timeoutMs: 400_000 });
      expect(occupied.code).toBe(1);
      expect(occupied.stderr).toMatch(
        /schema "demo" on .* already holds 27 partitions; generate the demo into an empty schema \(--schema NAME\) \[CONFLICT\]\n$/,
      );
      expect(schemaCounts(url, 'demo')).toEqual(counts);
    }, 900_000);

    it('runner --db URL: the same store calls and documents as on a file, the memory kept in the schema', async () => {
      const runner = ['runner', '--sessions', '3', '--messages', '4', '--seed', '7', '--compare', '--json', '--quiet'];
      type Run = { runner: string; totalCalls: number; sessions: Array<{ storeCalls: number; words: number; callsByKind: unknown }> };
      const shape = (out: string): unknown =>
        (JSON.parse(out) as Run[]).map((r) => ({
          runner: r.runner,
          totalCalls: r.totalCalls,
          sessions: r.sessions.map((s) => ({ storeCalls: s.storeCalls, words: s.words, callsByKind: s.callsByKind })),
        }));
      const file = path.join(dir, 'runner.db');
      const onFile = shape(await ok([...runner, '--db', file]));
      const onPg = shape(await ok([...runner, '--schema', 'runner'], { STATELENS_DB_URL: url }));
      expect(onPg).toEqual(onFile);
      expect((onPg as Run[]).map((r) => [r.runner, r.totalCalls])).toEqual([
        ['entries', 24],
        ['context_only', 9],
      ]);
      const counts = schemaCounts(url, 'runner');
      expect(counts).toEqual(fileCounts(file));
      // Both runners' partitions, the entries runner's messages and both context documents.
      expect(counts).toMatchObject({ partitions: 2, working_items: 12 });
      expect(counts?.context_documents).toBeGreaterThan(0);
    }, 900_000);
  });
}
