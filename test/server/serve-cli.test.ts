// `statelens serve` end to end in a child process: prints a tokened URL on 127.0.0.1, refuses
// requests without the token, answers the contract with it, refuses other hosts and a store that
// is not there (creating none), stops cleanly; on a file, a PGlite folder and a server schema.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { TOKEN_HEADER } from '../../shared/contract';
import { redactUrl } from '../../electron/engine/db/pg/target';
import { buildFixture, type Fixture } from '../contract/fixture';
import { dbCopyOf, dbTarget, type DbTarget } from '../helpers/db-targets';
import { cliEntry, repoRoot } from '../helpers/paths';
import { describeStores } from '../helpers/stores';
import { request } from './http-client';

let dir: string;
let fx: Fixture;
let rendererDir: string;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'statelens-serve-'));
  fx = buildFixture(path.join(dir, 'fixture.db'));
  rendererDir = path.join(dir, 'renderer');
  fs.mkdirSync(rendererDir);
  fs.writeFileSync(path.join(rendererDir, 'index.html'), '<!doctype html><div id="root"></div>');
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function serve(args: string[]): { child: ChildProcess; url: Promise<string>; exit: Promise<number | null>; output: () => string } {
  const child = spawn(process.execPath, [cliEntry, 'serve', ...args], {
    cwd: repoRoot,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, XDG_CONFIG_HOME: path.join(dir, 'config') },
  });
  let out = '';
  const url = new Promise<string>((resolve, reject) => {
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /Open (http:\/\/\S+)/.exec(out);
      if (m?.[1]) resolve(m[1]);
    });
    child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
    child.once('exit', () => reject(new Error(`serve exited before printing a URL:\n${out}`)));
  });
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, url, exit, output: () => out };
}

describeStores('statelens serve', (_open, kind) => {
  let db: string;
  beforeAll(async () => {
    db = (await dbCopyOf(kind, fx.path, 'serve')).db;
  }, 300_000);

  it('serves the fixture on 127.0.0.1 behind the token and stops on SIGTERM', async () => {
    const s = serve(['--db', db, '--renderer', rendererDir]);
    try {
      const url = new URL(await s.url);
      expect(url.hostname).toBe('127.0.0.1');
      // It says which store it serves (a server URL without its password).
      expect(s.output()).toContain(`statelens serve: ${kind === 'sqlite' ? path.resolve(db) : redactUrl(db)}\n`);
      const token = url.searchParams.get('token') ?? '';
      expect(token.length).toBeGreaterThanOrEqual(40);
      expect((await request(`${url.origin}/`)).status).toBe(401);
      const page = await request(url.toString());
      expect(page.status).toBe(200);
      expect(page.headers['content-security-policy']).toContain("script-src 'self'");
      const noToken = await request(`${url.origin}/api/partitions.list`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
      expect(noToken.status).toBe(401);
      const ok = await request(`${url.origin}/api/partitions.list`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', [TOKEN_HEADER]: token },
        body: '{}',
      });
      expect(ok.status).toBe(200);
      const body = JSON.parse(ok.body) as { ok: boolean; value: { partitions: unknown[] } };
      expect(body.ok).toBe(true);
      expect(body.value.partitions).toHaveLength(4);
    } finally {
      s.child.kill('SIGTERM');
    }
    expect(await s.exit).toBe(0);
  }, 120_000);

  it('refuses a non-loopback host and a missing database with a clear message', () => {
    const host = spawnSync(process.execPath, [cliEntry, 'serve', '--db', db, '--renderer', rendererDir, '--host', '0.0.0.0'], {
      cwd: repoRoot,
      encoding: 'utf8',
    });
    expect(host.status).toBe(1);
    expect(host.stderr).toMatch(/binds to 127\.0\.0\.1 only.*PERMISSION_DENIED/s);
    // A store that is not there is refused, and serving it creates nothing (no file, no folder).
    const nope: DbTarget = dbTarget(kind, 'nope');
    const missing = spawnSync(process.execPath, [cliEntry, 'serve', '--db', nope.db, '--renderer', rendererDir], {
      cwd: repoRoot,
      encoding: 'utf8',
    });
    expect(missing.status).toBe(1);
    expect(missing.stderr).toMatch(
      kind === 'server' ? /holds no Statelens store yet; create it with `statelens init --db .*NOT_FOUND/s : /does not exist.*NOT_FOUND/s,
    );
    if (kind !== 'server') expect(fs.existsSync(nope.db.replace(/^pglite:/, ''))).toBe(false);
    const renderer = spawnSync(process.execPath, [cliEntry, 'serve', '--db', db, '--renderer', path.join(dir, 'no-renderer')], {
      cwd: repoRoot,
      encoding: 'utf8',
    });
    expect(renderer.status).toBe(1);
    expect(renderer.stderr).toMatch(/holds no built renderer/);
  }, 120_000);
});
