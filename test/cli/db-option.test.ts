// `--db` on `statelens statebench` and `statelens bench` (every command that reads or builds a database takes --db), in
// child processes: statebench imports into and assembles from the given file and keeps it;
// bench builds its scratch databases in the given folder and prints its rows as JSON on --json.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { statelens } from '../helpers/child';
import { timeline } from './timeline';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'statelens-db-option-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('--db on statebench and bench (child processes)', () => {
  it('statebench --db: imports into the file, assembles from it and keeps it', async () => {
    const help = await statelens(['statebench', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/--db\s+import into this database and assemble from it, keeping it afterwards/);

    const file = path.join(dir, 'split.jsonl');
    fs.writeFileSync(file, `${timeline('T-1')}\n${timeline('T-2')}\n`);
    const db = path.join(dir, 'statebench.db');
    const r = await statelens(['statebench', file, '--strategy', 'state_based', '--db', db, '--json']);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as { timelines: number; db: string; primary: { queries: number } };
    expect(out).toMatchObject({ timelines: 2, db, primary: { queries: 2 } });
    expect(fs.existsSync(db)).toBe(true);
    const facts = await statelens(['facts', '--db', db, '--partition', 'user:acme/T-2', '--valid', '--json']);
    expect(facts.code).toBe(0);
    expect(
      facts.stdout
        .trim()
        .split('\n')
        .map((l) => (JSON.parse(l) as { value: string }).value),
    ).toEqual(['$120,000 budget']);

    const text = await statelens(['statebench', file, '--strategy', 'recent', '--db', path.join(dir, 'second.db')]);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain(`kept the database ${path.join(dir, 'second.db')} (2 timelines imported)`);

    // The same timelines twice into one file are refused (exit 1), the file left as it was.
    const again = await statelens(['statebench', file, '--strategy', 'state_based', '--db', db]);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/already imported/);

    // An import that fails inside its transaction leaves no new file behind.
    const bad = path.join(dir, 'unresolved.jsonl');
    fs.writeFileSync(bad, `${timeline('T-3')}\n${timeline('T-4').replace('"supersedes":"budget"', '"supersedes":"no-such-fact"')}\n`);
    const fresh = path.join(dir, 'never.db');
    const failed = await statelens(['statebench', bad, '--db', fresh]);
    expect(failed.code).toBe(1);
    expect(failed.stderr).toMatch(/"no-such-fact" \[IMPORT_FAILED\]\n$/);
    expect(fs.readdirSync(dir).filter((f) => f.startsWith('never.db'))).toEqual([]);
  });

  it('bench --db DIR --json: scratch databases built in DIR (created, left empty), rows as one JSON array', async () => {
    const help = await statelens(['bench', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/--db DIR\s+the folder the benchmark builds its databases in/);
    expect(help.stdout).toMatch(/--json\s+print the figures as one JSON array of rows/);

    const scratch = path.join(dir, 'bench', 'scratch');
    const r = await statelens(['bench', '--quick', '--only', 'runners', '--db', scratch, '--json']);
    expect(r.code).toBe(0);
    const rows = JSON.parse(r.stdout) as Array<{ section: string; metric: string; value: number | null; unit: string }>;
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((row) => row.section === 'runners' && typeof row.metric === 'string' && typeof row.unit === 'string')).toBe(true);
    expect(rows.find((row) => row.metric.startsWith('context_only runner: store calls'))?.value).toBe(3);
    expect(fs.readdirSync(scratch)).toEqual([]);

    const file = path.join(dir, 'not-a-folder.db');
    fs.writeFileSync(file, '');
    const refused = await statelens(['bench', '--only', 'runners', '--db', file]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/is a file; bench builds its own databases/);
  });
});
