// Browser mode given a search that means nothing, or a delete whose filter restricts nothing:
// HTTP 400 with the typed INVALID_INPUT body, and not one fact deleted. Only { all: true }
// previews the whole partition. On the fixture as a file, in PGlite and on a server.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { TOKEN_HEADER, type CallResult } from '../../shared/contract';
import type { RunningServer } from '../../electron/server/server';
import { buildFixture, type Fixture } from '../contract/fixture';
import { dbCopyOf } from '../helpers/db-targets';
import { describeStores } from '../helpers/stores';
import { startHttpBackend, type HttpBackend } from './http-backend';
import { request } from './http-client';

describeStores('browser mode refuses searches and delete filters that mean nothing', (_open, kind) => {
  let dir: string;
  let fx: Fixture;
  let backend: HttpBackend;
  let server: RunningServer;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'statelens-server-search-'));
    fx = buildFixture(path.join(dir, 'fixture.db'));
    const db = (await dbCopyOf(kind, fx.path, 'search')).db;
    const rendererDir = path.join(dir, 'renderer');
    fs.mkdirSync(rendererDir);
    fs.writeFileSync(path.join(rendererDir, 'index.html'), '<!doctype html><div id="root"></div>');
    backend = await startHttpBackend({ dbPath: db, rendererDir, downloadsDir: path.join(dir, 'downloads'), actor: 'tester (search refused)' });
    ({ server } = backend);
  }, 300_000);

  afterAll(async () => {
    await backend?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  async function call(channel: string, input: unknown): Promise<{ status: number; body: CallResult<unknown> }> {
    const r = await request(`${server.origin}/api/${channel}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', [TOKEN_HEADER]: server.token },
      body: JSON.stringify(input),
    });
    return { status: r.status, body: JSON.parse(r.body) as CallResult<unknown> };
  }

  async function total(): Promise<number> {
    const r = await call('facts.list', { partitionId: fx.userPartition, page: { limit: 1 } });
    if (!r.body.ok) throw new Error(r.body.error.message);
    return (r.body.value as { total: { count: number } }).total.count;
  }

  it('answers 400 INVALID_INPUT for punctuation-only and oversized searches, deleting nothing', async () => {
    const before = await total();
    const p = fx.userPartition;
    for (const search of ['*', '"', '', '"((', Array.from({ length: 40 }, (_, i) => `w${i}`).join(' '), 'x'.repeat(200_000)]) {
      for (const [channel, input] of [
        ['facts.list', { partitionId: p, filter: { search } }],
        ['facts.searchAll', { search, first: p }],
        ['deletion.preview', { partitionId: p, selection: { filter: { search } } }],
        ['deletion.apply', { partitionId: p, selection: { filter: { search } } }],
      ] as const) {
        const r = await call(channel, input);
        const what = `${channel} ${JSON.stringify(search.slice(0, 30))}`;
        expect(r.status, what).toBe(400);
        expect(r.body, what).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT', message: expect.stringMatching(/search/) } });
      }
    }
    expect(await total()).toBe(before);
  });

  it('refuses a delete filter that restricts nothing; { all: true } previews everything', async () => {
    const before = await total();
    for (const filter of [{}, { validity: 'all' }]) {
      const r = await call('deletion.apply', { partitionId: fx.userPartition, selection: { filter } });
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT', message: expect.stringMatching(/restricts nothing/) } });
    }
    const all = await call('deletion.preview', { partitionId: fx.userPartition, selection: { all: true } });
    expect(all.body).toMatchObject({ ok: true, value: { toDelete: before, selection: { kind: 'all' } } });
    expect(await total()).toBe(before);
  });
});
