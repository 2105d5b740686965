// `statelens runner` end to end in child processes: a long run (800 sessions) stays within the
// 5,000-word context cap and exits 0, and without --config the runner is selected by a
// statelens.toml in the working directory, the log naming the file and the active runner.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { statelens } from '../helpers/child';

const dirs: string[] = [];
function tmp(): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'statelens-runner-cli-'));
  dirs.push(d);
  return d;
}
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

interface RunJson {
  runner: string;
  totalCalls: number;
  sessions: Array<{ storeCalls: number; words: number }>;
}

describe('statelens runner (child process)', () => {
  it('runner --sessions 800 --messages 2 exits 0 and every context document stays within 5,000 words', async () => {
    const db = path.join(tmp(), 'runner.db');
    const r = await statelens(['runner', '--sessions', '800', '--messages', '2', '--db', db, '--json', '--quiet']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const [run] = JSON.parse(r.stdout) as RunJson[];
    expect(run?.runner).toBe('context_only');
    expect(run?.sessions).toHaveLength(800);
    expect(Math.max(...(run?.sessions ?? []).map((s) => s.words))).toBeLessThanOrEqual(5000);
    expect(run?.totalCalls).toBe(2400);
    // The stored document names all 800 session dates, the first and the last.
    const d = new Database(db, { readonly: true });
    try {
      const body = d.prepare('SELECT body FROM context_documents ORDER BY version DESC LIMIT 1').pluck().get() as string;
      expect(body.match(/\S+/g)?.length ?? 0).toBeLessThanOrEqual(5000);
      expect(body.match(/\b\d{4}-\d{2}-\d{2}\b/g)?.filter((x, i, a) => a.indexOf(x) === i).length).toBeGreaterThanOrEqual(800);
      expect(body).toContain('2025-01-06');
    } finally {
      d.close();
    }
  });

  it('reads ./statelens.toml when no --config is given, and logs which file and runner', async () => {
    const cwd = tmp();
    fs.writeFileSync(path.join(cwd, 'statelens.toml'), '[agent]\ncontext_only = false\nflush_every = 5\n');
    const r = await statelens(['runner', '--sessions', '2', '--json'], { cwd });
    expect(r.code).toBe(0);
    expect((JSON.parse(r.stdout) as RunJson[]).map((x) => x.runner)).toEqual(['entries']);
    const tomlPath = fs.realpathSync(path.join(cwd, 'statelens.toml'));
    expect(r.stderr).toMatch(/config=(.*)statelens\.toml context_only=false active=entries runner/);
    expect(fs.realpathSync(/config=(\S+)/.exec(r.stderr)?.[1] ?? '')).toBe(tomlPath);
    expect(r.stderr).toMatch(/runner=entries context_only=false flush_every=5/);

    // --config wins over the file in the working directory.
    const other = path.join(tmp(), 'other.toml');
    fs.writeFileSync(other, '[agent]\ncontext_only = true\n');
    const explicit = await statelens(['runner', '--sessions', '2', '--json', '--config', other], { cwd });
    expect(explicit.code).toBe(0);
    expect((JSON.parse(explicit.stdout) as RunJson[]).map((x) => x.runner)).toEqual(['context_only']);
    expect(explicit.stderr).toContain(`config=${other} context_only=true active=context_only runner`);

    // No file: the defaults (context-only), and the log says so.
    const empty = tmp();
    const defaults = await statelens(['runner', '--sessions', '2', '--json'], { cwd: empty });
    expect(defaults.code).toBe(0);
    expect((JSON.parse(defaults.stdout) as RunJson[]).map((x) => x.runner)).toEqual(['context_only']);
    expect(defaults.stderr).toMatch(/config=defaults \(no --config, no statelens\.toml in .*\) context_only=true active=context_only runner/);

    // A broken ./statelens.toml is a usage error naming the file and line, and nothing runs.
    fs.writeFileSync(path.join(cwd, 'statelens.toml'), '[agent]\ncontext_only = sometimes\n');
    const bad = await statelens(['runner', '--sessions', '2'], { cwd });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/statelens\.toml line 2/);
    expect(bad.stdout).toBe('');
  });
});
