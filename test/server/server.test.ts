// Browser mode: loopback only, a session token on every request, the renderer with its CSP, and
// the contract over HTTP + SSE answering exactly as IPC does on the same fixture database, with
// the HTTP side on a copy of the fixture file, the fixture imported into PGlite or (with
// STATELENS_TEST_PG_URL) into a server schema; IPC stays on the SQLite fixture.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CALL_CHANNELS, TOKEN_HEADER, callDef, callResultSchema, splitChannel, type CallResult } from '../../shared/contract';
import type { AppServices } from '../../electron/handlers/app-services';
import type { DownloadRegistry } from '../../electron/server/browser-shell';
import { startServer, type RunningServer } from '../../electron/server/server';
import { buildFixture, type Fixture } from '../contract/fixture';
import { startHarness, type Harness } from '../contract/harness';
import { redactUrl } from '../../electron/engine/db/pg/target';
import { dbCopyOf } from '../helpers/db-targets';
import { repoRoot } from '../helpers/paths';
import { describeStores, itWhere } from '../helpers/stores';
import { readSamples } from '../contract/samples';
import { startHttpBackend, type HttpBackend } from './http-backend';
import { openEvents, request } from './http-client';

describeStores('statelens serve', (_open, kind) => {
  let dir: string;
  let fx: Fixture;
  let httpDb: string;
  let ipc: Harness;
  let backend: HttpBackend;
  let services: AppServices;
  let downloads: DownloadRegistry;
  let server: RunningServer;
  let rendererDir: string;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'statelens-server-'));
    fx = buildFixture(path.join(dir, 'ipc.db'));
    httpDb = (await dbCopyOf(kind, fx.path, 'http')).db;
    rendererDir = path.join(dir, 'renderer');
    fs.mkdirSync(path.join(rendererDir, 'assets'), { recursive: true });
    fs.writeFileSync(path.join(rendererDir, 'index.html'), '<!doctype html><div id="root"></div><script type="module" src="/assets/app.js"></script>');
    fs.writeFileSync(path.join(rendererDir, 'assets', 'app.js'), 'console.log("statelens")');
    fs.writeFileSync(path.join(dir, 'secret.txt'), 'outside the renderer');

    ipc = await startHarness({ dataDir: path.join(dir, 'ipc-data'), dbPath: fx.path });
    backend = await startHttpBackend({ dbPath: httpDb, rendererDir, downloadsDir: path.join(dir, 'downloads') });
    ({ services, downloads, server } = backend);
  }, 300_000);

  afterAll(async () => {
    await backend?.close();
    await ipc?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  async function call(
    channel: string,
    input: unknown,
    headers: Record<string, string> = { [TOKEN_HEADER]: server.token },
  ): Promise<{ status: number; body: CallResult<unknown> }> {
    const r = await request(`${server.origin}/api/${channel}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(input),
    });
    return { status: r.status, body: JSON.parse(r.body) as CallResult<unknown> };
  }

  type AnyCall = (input?: unknown) => Promise<CallResult<unknown>>;
  function viaIpc(channel: string, input: unknown): Promise<CallResult<unknown>> {
    const [ns, m] = splitChannel(channel as never);
    return (ipc.bridge as unknown as Record<string, Record<string, AnyCall>>)[ns]![m]!(input);
  }

  /** An assembly reads the clock ("now" is in its text, and the digits change token counts and
   * what fits the budget at the margin); it is compared by what it decided about each item.
   * Everything else must match exactly. */
  function stable(value: unknown): unknown {
    return JSON.parse(JSON.stringify(value), (_k, v: unknown) => {
      if (v && typeof v === 'object' && 'now' in v && 'provenance' in v) {
        const a = v as unknown as { strategy: string; budget: number | null; query: string; provenance: Array<{ kind: string; id: string; status: string }> };
        return { strategy: a.strategy, budget: a.budget, query: a.query, items: a.provenance.map((p) => `${p.kind}:${p.id}`).sort() };
      }
      return v;
    });
  }

  describe('binding and access', () => {
    it('refuses to bind anywhere but 127.0.0.1', async () => {
      for (const host of ['0.0.0.0', '::', '::1', '192.168.1.10', 'example.com', '']) {
        await expect(startServer({ host, dispatch: services.dispatch, events: services.events, rendererDir }), host).rejects.toMatchObject({
          code: 'PERMISSION_DENIED',
        });
      }
      expect(server.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    });

    it("is not reachable on the machine's other addresses", async () => {
      const external = Object.values(os.networkInterfaces())
        .flat()
        .find((a) => a && a.family === 'IPv4' && !a.internal);
      if (!external) {
        console.log('no non-loopback IPv4 interface on this machine: reachability from outside not checked');
        return;
      }
      const refused = await new Promise<boolean>((resolve) => {
        const socket = net.connect({ host: external.address, port: server.port });
        socket.once('connect', () => {
          socket.destroy();
          resolve(false);
        });
        socket.once('error', () => resolve(true));
      });
      expect(refused).toBe(true);
    });

    it('answers 401 to every request without the token', async () => {
      for (const p of ['/', '/index.html', '/assets/app.js', '/api/events', '/api/download/abc']) {
        expect((await request(`${server.origin}${p}`)).status, p).toBe(401);
        expect((await request(`${server.origin}${p}?token=wrong`)).status, p).toBe(401);
      }
      expect((await call('partitions.list', {}, {})).status).toBe(401);
      expect((await call('partitions.list', {}, { [TOKEN_HEADER]: 'x'.repeat(43) })).status).toBe(401);
      const unauthorised = await call('partitions.list', {}, {});
      expect(unauthorised.body).toMatchObject({ ok: false, error: { code: 'UNAUTHORIZED' } });
      // The page's token in the query is not enough for a call: calls need the header.
      const viaQuery = await request(`${server.origin}/api/partitions.list?token=${server.token}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
      expect(viaQuery.status).toBe(401);
    });

    it('refuses a foreign Host header (DNS rebinding) and cross-origin calls', async () => {
      const rebinding = await request(`${server.url}`, { headers: { host: `evil.example:${server.port}` } });
      expect(rebinding.status).toBe(403);
      const crossOrigin = await call('partitions.list', {}, { [TOKEN_HEADER]: server.token, origin: 'https://evil.example' });
      expect(crossOrigin.status).toBe(403);
    });

    it('serves the renderer with the CSP and a token cookie, refusing paths outside it', async () => {
      const page = await request(server.url);
      expect(page.status).toBe(200);
      expect(page.headers['content-security-policy']).toContain("script-src 'self'");
      expect(page.headers['content-security-policy']).not.toMatch(/script-src[^;]*unsafe-inline/);
      expect(page.headers['x-frame-options']).toBe('DENY');
      const cookie = String(page.headers['set-cookie']);
      expect(cookie).toContain('HttpOnly');
      expect(cookie).toContain('SameSite=Strict');
      const jar = cookie.split(';')[0] ?? '';
      const asset = await request(`${server.origin}/assets/app.js`, { headers: { cookie: jar } });
      expect(asset.status).toBe(200);
      expect(asset.headers['content-type']).toContain('javascript');
      const spa = await request(`${server.origin}/memories`, { headers: { cookie: jar } });
      expect(spa.body).toContain('id="root"');
      for (const p of ['/../secret.txt', '/%2e%2e/secret.txt', '/assets/..%2f..%2fsecret.txt', '/..%5csecret.txt', '/%00index.html']) {
        const r = await request(`${server.origin}${p}`, { headers: { cookie: jar } });
        expect(r.status, p).toBeGreaterThanOrEqual(400);
        expect(r.body).not.toContain('outside the renderer');
      }
    });

    it('refuses bodies that are not JSON, not application/json or too large', async () => {
      const h = { [TOKEN_HEADER]: server.token };
      expect(
        (await request(`${server.origin}/api/partitions.list`, { method: 'POST', headers: { ...h, 'content-type': 'text/plain' }, body: '{}' })).status,
      ).toBe(415);
      expect(
        (await request(`${server.origin}/api/partitions.list`, { method: 'POST', headers: { ...h, 'content-type': 'application/json' }, body: '{' })).status,
      ).toBe(400);
      expect((await request(`${server.origin}/api/partitions.list`, { method: 'GET', headers: h })).status).toBe(405);
      const huge = JSON.stringify({ partitionId: 1, selection: { ids: Array.from({ length: 200_000 }, (_, i) => `f_${i}_${'y'.repeat(40)}`) } });
      expect(
        (await request(`${server.origin}/api/deletion.preview`, { method: 'POST', headers: { ...h, 'content-type': 'application/json' }, body: huge })).status,
      ).toBe(413);
      const unknown = await call('facts.create', { key: 'x', value: 'y' });
      expect(unknown.status).toBe(404);
      expect(unknown.body).toMatchObject({ ok: false, error: { code: 'UNKNOWN_CHANNEL' } });
    });
  });

  describe('the same answers as IPC', () => {
    it('answers every read channel exactly as IPC does on the same fixture', async () => {
      const samples = readSamples(fx);
      let compared = 0;
      for (const channel of CALL_CHANNELS) {
        const inputs = (samples as Record<string, readonly unknown[]>)[channel];
        if (!inputs || channel === 'db.info' || channel === 'db.recent') continue;
        for (const input of inputs) {
          const [h, i] = [await call(channel, input), await viaIpc(channel, input)];
          expect(h.status).toBe(200);
          expect(callResultSchema(callDef(channel as never).output).safeParse(h.body).success).toBe(true);
          expect(stable(h.body), `${channel} ${JSON.stringify(input)}`).toEqual(stable(i));
          compared += 1;
        }
      }
      expect(compared).toBeGreaterThan(25);
    });

    it('answers invalid input and missing facts with the same typed errors', async () => {
      const cases: Array<[string, unknown]> = [
        ['facts.list', { partitionId: 1, extra: true }],
        ['facts.list', { partitionId: 'one' }],
        ['facts.get', { partitionId: fx.userPartition, factId: 'f_missing' }],
        ['facts.list', { partitionId: 999 }],
        ['context.compare', { partitionId: 1, strategies: ['recent'] }],
      ];
      for (const [channel, input] of cases) expect((await call(channel, input)).body).toEqual(await viaIpc(channel, input));
    });

    it('answers a typed error with its matching HTTP status, and a malformed percent-escape with 400', async () => {
      const cases: Array<[string, unknown, number, string]> = [
        ['facts.get', { partitionId: fx.userPartition, factId: 'f_missing' }, 404, 'NOT_FOUND'],
        ['facts.list', { partitionId: 999 }, 404, 'NOT_FOUND'],
        ['facts.list', { partitionId: 'one' }, 400, 'INVALID_INPUT'],
      ];
      for (const [channel, input, status, code] of cases) {
        const r = await call(channel, input);
        expect(r.status, `${channel} ${JSON.stringify(input)}`).toBe(status);
        expect(r.body).toMatchObject({ ok: false, error: { code } });
      }
      for (const bad of ['facts.list%E0%A4%A', '%', 'facts%zz.list']) {
        const r = await call(bad, {});
        expect(r.status, bad).toBe(400);
        expect(r.body).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT', message: expect.stringMatching(/percent-escape/) as unknown } });
      }
    });

    it('applies a deletion and a dismissal with the same results, and refuses to open other files', async () => {
      const dismiss = { partitionId: fx.userPartition, factIds: [fx.flaggedId], reason: 'checked' };
      expect((await call('review.dismiss', dismiss)).body).toEqual(await viaIpc('review.dismiss', dismiss));
      const del = { partitionId: fx.userPartition, selection: { filter: { search: 'meetings' } }, reason: 'cleanup' };
      const [h, i] = [(await call('deletion.apply', del)).body, await viaIpc('deletion.apply', del)];
      expect(h.ok && i.ok).toBe(true);
      if (h.ok && i.ok) {
        const { scrub: _a, ...hv } = h.value as Record<string, unknown>;
        const { scrub: _b, ...iv } = i.value as Record<string, unknown>;
        expect(hv).toEqual(iv);
      }
      expect((await call('db.open', { source: 'dialog' })).body).toMatchObject({ ok: false, error: { code: 'PERMISSION_DENIED' } });
      // The HTTP side is on the store under test (the comparison above is across stores).
      const where = kind === 'sqlite' ? httpDb : redactUrl(httpDb);
      expect((await call('db.info', {})).body).toMatchObject({ ok: true, value: { mode: 'browser', canOpenOther: false, db: { path: where } } });
    });
  });

  describe('events and downloads', () => {
    itWhere(
      kind,
      ['sqlite', 'server'],
      "a PGlite folder is one process's at a time: no other process can write it while the server holds it",
    )('streams data.changed when another process writes the database', async () => {
      const stream = await openEvents(`${server.origin}/api/events?token=${server.token}`);
      try {
        expect(stream.status).toBe(200);
        const writer = spawnSync(process.execPath, ['--import', 'tsx', path.join(repoRoot, 'test', 'server', 'writer.ts'), httpDb], {
          cwd: repoRoot,
          encoding: 'utf8',
        });
        expect(writer.status, writer.stderr).toBe(0);
        const e = await stream.waitFor((x) => x.event === 'data.changed' && (x.data as { origin: string }).origin === 'external');
        expect(e.data).toMatchObject({ origin: 'external' });
      } finally {
        stream.close();
      }
    });

    it('exports as a one-time download with progress events', async () => {
      const stream = await openEvents(`${server.origin}/api/events?token=${server.token}`);
      try {
        const r = await call('export.start', { format: 'csv', partitionId: fx.userPartition, operationId: 'http-export-1' });
        expect(r.body.ok).toBe(true);
        if (!r.body.ok) return;
        const result = r.body.value as { status: string; url: string; fileName: string; bytes: number };
        expect(result.status).toBe('download');
        expect(result.fileName).toMatch(/\.csv$/);
        const file = await request(`${server.origin}${result.url}`);
        expect(file.status).toBe(200);
        expect(file.headers['content-disposition']).toContain('attachment');
        expect(file.body.split('\n')[0]).toContain('key');
        expect(Buffer.byteLength(file.body)).toBe(result.bytes);
        expect((await request(`${server.origin}${result.url}`)).status).toBe(404);
        expect(fs.readdirSync(downloads.dir)).toEqual([]);
        await stream.waitFor((x) => x.event === 'progress' && (x.data as { operationId: string; finished: boolean }).operationId === 'http-export-1');
      } finally {
        stream.close();
      }
    });
  });
});
