// The CLI as people expect it, through the real launcher in child processes: --version, help on
// a bare `statelens`, commands in groups, "did you mean" for a slip, `statelens open` (with and
// without Electron's executable), and the compiled bundle: in a checkout only while it is current,
// in an installed copy always.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tmpDir } from '../helpers/tmp';
import { statelens } from '../helpers/child';
import { repoRoot } from '../helpers/paths';

const version = (JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { version: string }).version;

describe('statelens, the way people type it', () => {
  it('--version prints the package version', async () => {
    const r = await statelens(['--version']);
    expect(r).toMatchObject({ code: 0, stdout: `${version}\n` });
  });

  it('a bare `statelens` prints the help, commands grouped, the imports together', async () => {
    const r = await statelens([]);
    expect(r.code).toBe(0);
    const lines = r.stdout.split('\n');
    const names = lines.filter((l) => /^ {2}\S/.test(l)).map((l) => l.trim().split(/\s{2,}/)[0]);
    expect(names.indexOf('import snapshot') - names.indexOf('import statebench')).toBe(1);
    expect(names.slice(0, 2)).toEqual(['open', 'serve']);
    expect(lines.filter((l) => /^[A-Z][a-z ]+:$/.test(l))).toEqual(['Inspect:', 'Bring memory in:', 'Maintain:', 'Measure:']);
  });

  it('a near miss is answered with the command meant', async () => {
    const facts = await statelens(['fatcs', '--db', 'x.db']);
    expect(facts.code).toBe(2);
    expect(facts.stderr).toContain('unknown command "fatcs". Did you mean `statelens facts`?');
    const imp = await statelens(['import', 'statebnch', 'file.jsonl']);
    expect(imp.stderr).toContain('Did you mean `statelens import statebench`?');
    const far = await statelens(['photosynthesis']);
    expect(far.stderr).not.toContain('Did you mean');
    expect(far.stderr).toContain('statelens --help');
  });
});

describe('statelens open', () => {
  // Made once for the three cases (a per-test temp folder would be gone after the first).
  let dir: string;
  let db: string;
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'statelens-open-'));
    db = path.join(dir, 'memory.db');
    expect((await statelens(['demo', '--db', db, '--facts', '50'])).code).toBe(0);
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('without the Electron executable says so, suggests the browser instead, and exits 1', async () => {
    const empty = tmpDir('statelens-no-electron-');
    const r = await statelens(['open', db], { env: { ELECTRON_OVERRIDE_DIST_PATH: empty } });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/cannot start the desktop app: Electron's executable .* is not there/);
    expect(r.stderr).toContain(`statelens serve --db ${db}`);
  });

  it('starts the Electron executable on the app with the database, and returns', async () => {
    // An executable in Electron's place that records how it was started.
    const dist = tmpDir('statelens-fake-electron-');
    const record = path.join(dist, 'argv.json');
    fs.writeFileSync(
      path.join(dist, 'electron'),
      `#!${process.execPath}\nrequire('node:fs').writeFileSync(${JSON.stringify(record)}, JSON.stringify(process.argv.slice(2)));\n`,
      { mode: 0o755 },
    );
    const r = await statelens(['open', `file://${db}`], { env: { ELECTRON_OVERRIDE_DIST_PATH: dist } });
    expect(r.code, r.stderr).toBe(0);
    for (let i = 0; i < 100 && !fs.existsSync(record); i++) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(JSON.parse(fs.readFileSync(record, 'utf8'))).toEqual([repoRoot, `--open-database=${db}`]);
  });

  it('refuses a missing file and a web address with a clear message', async () => {
    const missing = await statelens(['open', path.join(dir, 'nope.db')]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/nope\.db does not exist.*\[NOT_FOUND\]/);
    const web = await statelens(['open', 'http://127.0.0.1:9/?token=x']);
    expect(web.code).toBe(2);
    expect(web.stderr).toContain('open it in a browser');
  });
});

describe('the compiled CLI', () => {
  const bundle = path.join(repoRoot, 'out', 'cli', 'statelens.mjs');
  const source = path.join(repoRoot, 'electron', 'cli', 'suggest.ts');
  let sourceTimes: fs.Stats;

  beforeAll(async () => {
    // What `npm install` runs after installing (postinstall).
    const built = await new Promise<string>((resolve, reject) =>
      execFile(process.execPath, [path.join(repoRoot, 'electron', 'build', 'build-cli.mjs')], { cwd: repoRoot }, (error, stdout, stderr) =>
        error ? reject(new Error(stderr)) : resolve(stdout),
      ),
    );
    expect(built).toContain('compiled the CLI into out/cli/statelens.mjs');
    sourceTimes = fs.statSync(source);
  });
  afterAll(() => {
    fs.utimesSync(source, sourceTimes.atime, sourceTimes.mtime);
  });

  /** Which code a start ran, as the launcher reports it. */
  async function ranFrom(env: Readonly<Record<string, string>> = {}): Promise<'bundle' | 'sources'> {
    const r = await statelens(['--version'], { env: { ...env, STATELENS_CLI_TRACE: '1' } });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`${version}\n`);
    return r.stderr.includes('running out/cli/statelens.mjs') ? 'bundle' : 'sources';
  }

  it('runs the bundle while it is current, and the sources once one of its inputs is newer', async () => {
    expect(fs.existsSync(bundle)).toBe(true);
    expect(await ranFrom()).toBe('bundle');
    expect(await ranFrom({ STATELENS_CLI_SOURCE: '1' })).toBe('sources');
    const later = new Date(fs.statSync(bundle).mtimeMs + 5000);
    fs.utimesSync(source, later, later);
    expect(await ranFrom()).toBe('sources');
  });

  it('an installed copy (no .git) runs its bundle without looking at its sources', async () => {
    // The launcher, the bundle, package.json and the packages, and none of the sources the bundle
    // lists as its inputs: a development checkout would call that stale.
    const copy = tmpDir('statelens-installed-');
    fs.mkdirSync(path.join(copy, 'electron', 'cli'), { recursive: true });
    fs.copyFileSync(path.join(repoRoot, 'electron', 'cli', 'statelens.mjs'), path.join(copy, 'electron', 'cli', 'statelens.mjs'));
    fs.cpSync(path.dirname(bundle), path.join(copy, 'out', 'cli'), { recursive: true });
    fs.copyFileSync(path.join(repoRoot, 'package.json'), path.join(copy, 'package.json'));
    fs.symlinkSync(path.join(repoRoot, 'node_modules'), path.join(copy, 'node_modules'), 'dir');
    const r = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
      execFile(
        process.execPath,
        [path.join(copy, 'electron', 'cli', 'statelens.mjs'), '--version'],
        { cwd: copy, env: { ...process.env, STATELENS_CLI_TRACE: '1' } },
        (error, stdout, stderr) => resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr }),
      ),
    );
    expect(r).toMatchObject({ code: 0, stdout: `${version}\n` });
    expect(r.stderr).toContain('running out/cli/statelens.mjs');
  });

  it('keeps better-sqlite3 and the other packages outside the bundle', () => {
    // The entry and the chunks it loads on demand: the import may sit in either.
    const chunks = path.join(path.dirname(bundle), 'chunks');
    const files = [bundle, ...(fs.existsSync(chunks) ? fs.readdirSync(chunks).map((f) => path.join(chunks, f)) : [])];
    const texts = files.map((f) => fs.readFileSync(f, 'utf8'));
    expect(texts.some((t) => /from "better-sqlite3"/.test(t))).toBe(true);
    for (const t of texts) expect(t).not.toContain('class Database');
  });
});
