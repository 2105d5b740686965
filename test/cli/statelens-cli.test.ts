// End to end: `statelens demo`, `import statebench`, `facts`, `verify` and `bench`, each run as
// a child process on temporary files, checking output, exit codes and that bad input changes
// nothing.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import os from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { statelens } from '../helpers/child';
import { repoRoot } from '../helpers/paths';
import { timeline } from './timeline';

const dataDir = path.resolve(repoRoot, '..', 'shared', 'statebench');
const haveData = fs.existsSync(path.join(dataDir, 'dev.jsonl'));
if (!haveData) console.log(`statelens-cli: skipping the StateBench split import, ${dataDir} is absent`);

const sha = (file: string): string => crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');

function oneLine(text: string): void {
  expect(text.trim().split('\n')).toHaveLength(1);
  expect(text).not.toMatch(/\n\s+at /); // no stack trace
}

describe('statelens CLI (child processes)', () => {
  let dir: string;
  let demoDb: string;
  beforeAll(async () => {
    // One folder for the whole file (the demo database is shared by the tests below).
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'statelens-cli-'));
    demoDb = path.join(dir, 'demo.db');
    const r = await statelens(['demo', '--facts', '400', '--db', demoDb, '--seed', 'cli', '--json']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const stats = JSON.parse(r.stdout) as { facts: number; partitions: number };
    expect(stats).toMatchObject({ facts: 400, partitions: 27 });
  });

  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('prints help for each command and exits 0', async () => {
    for (const cmd of [['import', 'statebench'], ['verify']]) {
      const r = await statelens([...cmd, '--help']);
      expect(r.code, cmd.join(' ')).toBe(0);
      expect(r.stdout).toContain(`Usage: statelens ${cmd.join(' ')}`);
    }
    const top = await statelens(['--help']);
    for (const name of ['demo', 'import statebench', 'facts', 'verify', 'bench']) expect(top.stdout).toContain(name);
  });

  it('demo: a human summary, no progress bar off a terminal, and refuses a used database or a bad size', async () => {
    const db = path.join(dir, 'demo2.db');
    const r = await statelens(['demo', '--facts', '150', '--db', db]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Wrote 150 facts to .*demo2\.db/);
    expect(r.stderr).not.toContain('\r');
    const again = await statelens(['demo', '--facts', '10', '--db', db]);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/already holds 27 partitions; .*\[CONFLICT\]/);
    oneLine(again.stderr);
    const bad = await statelens(['demo', '--facts', 'many', '--db', path.join(dir, 'x.db')]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--facts must be a non-negative whole number/);
  });

  it('facts: a table, JSON lines, search, valid-only, one partition, limits', async () => {
    const table = await statelens(['facts', '--db', demoDb, '--limit', '5']);
    expect(table.code).toBe(0);
    const lines = table.stdout.trim().split('\n');
    expect(lines[0]).toBe('PARTITION\tID\tSTATUS\tTS\tKEY\tVALUE\tFLAGS');
    expect(lines).toHaveLength(6);
    expect(table.stderr).toMatch(/5 facts \(limit 5/);

    const json = await statelens(['facts', '--db', demoDb, '--search', 'travel', '--valid', '--json', '--limit', '20']);
    expect(json.code).toBe(0);
    const facts = json.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { isValid: boolean; key: string; value: string; partition: string });
    expect(facts.length).toBeGreaterThan(0);
    for (const f of facts) {
      expect(f.isValid).toBe(true);
      expect(`${f.key} ${f.value}`.toLowerCase()).toContain('travel');
    }

    const one = await statelens(['facts', '--db', demoDb, '--partition', 'user:northwind/ann.keller', '--json', '--limit', '1000']);
    const mine = one.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { partition: string; key: string; isValid: boolean; value: string });
    expect(new Set(mine.map((f) => f.partition))).toEqual(new Set(['user:northwind/ann.keller']));
    expect(mine.find((f) => f.key === 'travel.budget_per_trip' && f.isValid)?.value).toBe('Travel spend must not exceed $2,500 per trip');

    const noPartition = await statelens(['facts', '--db', demoDb, '--partition', '99999']);
    expect(noPartition.code).toBe(1);
    expect(noPartition.stderr).toMatch(/No partition with id 99999 \[NOT_FOUND\]/);
    oneLine(noPartition.stderr);
  });

  it('verify: exit 0 with every check listed on a sound database, 1 on a broken one or a non-database', async () => {
    const ok = await statelens(['verify', '--db', demoDb]);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toMatch(/^ok {2}/m);
    expect(ok.stdout).toMatch(/All \d+ checks passed/);

    // Break an invariant behind the engine's back: a chain pointer that resolves nowhere.
    const broken = path.join(dir, 'broken.db');
    fs.copyFileSync(demoDb, broken);
    const db = new Database(broken);
    db.pragma('foreign_keys = OFF');
    db.prepare("UPDATE facts SET supersedes = 'f_nowhere' WHERE rid = (SELECT min(rid) FROM facts)").run();
    db.close();
    const before = sha(broken);
    const bad = await statelens(['verify', '--db', broken]);
    expect(bad.code).toBe(1);
    expect(bad.stdout).toMatch(/^FAIL/m);
    expect(sha(broken)).toBe(before);

    const text = path.join(dir, 'notes.txt');
    fs.writeFileSync(text, 'not a database\n'.repeat(20));
    const notDb = await statelens(['verify', '--db', text]);
    expect(notDb.code).toBe(1);
    expect(notDb.stderr).toMatch(/not a SQLite database.*\[NOT_A_STATELENS_DB\]/);
    oneLine(notDb.stderr);
    expect(fs.readFileSync(text, 'utf8')).toBe('not a database\n'.repeat(20));
  });

  it('import statebench: imports a file, and a malformed line, a missing file or a non-database change nothing', async () => {
    const file = path.join(dir, 'timelines.jsonl');
    fs.writeFileSync(file, `${timeline('T-1')}\n${timeline('T-2')}\n`);
    const db = path.join(dir, 'sb.db');
    const r = await statelens(['import', 'statebench', file, '--db', db]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/Imported 2 timelines .*: 4 facts \(2 initial\), 2 supersession writes \(2 resolved\)/);
    const facts = await statelens(['facts', '--db', db, '--partition', 'user:acme/T-1', '--valid', '--json']);
    expect(
      facts.stdout
        .trim()
        .split('\n')
        .map((l) => (JSON.parse(l) as { value: string }).value),
    ).toEqual(['$120,000 budget']);

    const dump = (): unknown => {
      const d = new Database(db, { readonly: true });
      try {
        return [d.prepare('SELECT count(*) FROM facts').pluck().get(), d.prepare('SELECT org_id, subject FROM partitions ORDER BY id').all()];
      } finally {
        d.close();
      }
    };
    const before = dump();

    const bad = path.join(dir, 'bad.jsonl');
    fs.writeFileSync(bad, `${timeline('T-3')}\n${timeline('T-4').replace('"speaker":"user"', '"speaker":7')}\n`);
    const malformed = await statelens(['import', 'statebench', bad, '--db', db]);
    expect(malformed.code).toBe(1);
    expect(malformed.stderr).toMatch(/bad\.jsonl line 2: field events\.0\.speaker: .*\[IMPORT_FAILED\]/);
    oneLine(malformed.stderr);
    expect(dump()).toEqual(before);

    // Fails inside the transaction (T-1 is already there) after T-5 was written: rolled back.
    const conflict = path.join(dir, 'conflict.jsonl');
    fs.writeFileSync(conflict, `${timeline('T-5')}\n${timeline('T-1')}\n`);
    const again = await statelens(['import', 'statebench', conflict, '--db', db, '--json']);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/line 2 \(timeline T-1\): timeline T-1 is already imported/);
    expect(again.stdout).toBe('');
    expect(dump()).toEqual(before);

    const missing = await statelens(['import', 'statebench', path.join(dir, 'nope.jsonl'), '--db', db]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/does not exist \[NOT_FOUND\]/);

    const text = path.join(dir, 'plain.txt');
    fs.writeFileSync(text, 'hello\n'.repeat(40));
    const textBefore = sha(text);
    const notDb = await statelens(['import', 'statebench', file, '--db', text]);
    expect(notDb.code).toBe(1);
    expect(notDb.stderr).toMatch(/\[NOT_A_STATELENS_DB\]/);
    expect(sha(text)).toBe(textBefore);

    const newDb = path.join(dir, 'never.db');
    const nothing = await statelens(['import', 'statebench', bad, '--db', newDb]);
    expect(nothing.code).toBe(1);
    expect(fs.existsSync(newDb)).toBe(false); // validated before the database is created
  });

  it.runIf(haveData)('import statebench: the dev split resolves every supersession', async () => {
    const db = path.join(dir, 'dev.db');
    const r = await statelens(['import', 'statebench', path.join(dataDir, 'dev.jsonl'), '--db', db, '--json']);
    expect(r.code).toBe(0);
    const stats = JSON.parse(r.stdout) as { timelines: number; supersessionWrites: number; supersessionsResolved: number; unresolved: unknown[] };
    expect(stats.timelines).toBe(209);
    expect(stats.unresolved).toEqual([]);
    expect(stats.supersessionsResolved).toBe(stats.supersessionWrites);
    const verify = await statelens(['verify', '--db', db]);
    expect(verify.code).toBe(0);
  });

  it('bench: refuses an unknown section as a usage error', async () => {
    const r = await statelens(['bench', '--only', 'nonesuch']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/Unknown bench section nonesuch; sections: cli, ingest/);
  });
});
