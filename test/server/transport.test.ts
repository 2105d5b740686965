/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
// The renderer's transports against the real thing: HTTP against a running browser-mode server,
// IPC through the preload bridge, both throwing the same typed errors; the token taken from the
// page URL and removed from it; IPC picked when the preload put a bridge on window. The HTTP side
// serves the fixture as a file, in PGlite and on a server; IPC stays on the SQLite file.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StatelensError } from '../../shared/errors';
import { createClient, httpTransport, ipcTransport, pickTransport, sessionToken } from '../../renderer/api/transport';
import type { RunningServer } from '../../electron/server/server';
import { buildFixture, type Fixture } from '../contract/fixture';
import { startHarness, type Harness } from '../contract/harness';
import { dbCopyOf } from '../helpers/db-targets';
import { describeStores } from '../helpers/stores';
import { startHttpBackend, type HttpBackend } from './http-backend';

describeStores('transports against the running servers', (_open, kind) => {
  let dir: string;
  let fx: Fixture;
  let ipc: Harness;
  let backend: HttpBackend;
  let server: RunningServer;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'statelens-transport-'));
    fx = buildFixture(path.join(dir, 'a.db'));
    const copy = (await dbCopyOf(kind, fx.path, 'transport')).db;
    ipc = await startHarness({ dataDir: path.join(dir, 'data'), dbPath: fx.path });
    fs.mkdirSync(path.join(dir, 'renderer'));
    backend = await startHttpBackend({ dbPath: copy, rendererDir: path.join(dir, 'renderer'), downloadsDir: path.join(dir, 'downloads') });
    ({ server } = backend);
  }, 300_000);
  afterAll(async () => {
    await backend?.close();
    await ipc?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  describe('transports', () => {
    it('HTTP and IPC give the same values and throw the same typed errors', async () => {
      const http = createClient(httpTransport({ token: server.token, origin: server.origin }));
      const viaIpc = createClient(ipcTransport(ipc.bridge));
      expect(await http.partitions.list()).toEqual(await viaIpc.partitions.list());
      expect(await http.facts.chain({ partitionId: fx.userPartition, factId: fx.chainHeadId })).toEqual(
        await viaIpc.facts.chain({ partitionId: fx.userPartition, factId: fx.chainHeadId }),
      );
      for (const client of [http, viaIpc]) {
        const err = await client.facts.get({ partitionId: fx.userPartition, factId: 'f_nope' }).catch((e: unknown) => e);
        expect(err).toBeInstanceOf(StatelensError);
        expect(err).toMatchObject({ code: 'NOT_FOUND' });
        await expect(client.facts.list({ partitionId: fx.userPartition, bogus: 1 } as never)).rejects.toMatchObject({ code: 'INVALID_INPUT' });
      }
    });

    it('over HTTP without the right token throws UNAUTHORIZED saying what to do', async () => {
      await expect(httpTransport({ token: undefined, origin: server.origin }).call('partitions.list')).rejects.toMatchObject({
        code: 'UNAUTHORIZED',
        message: expect.stringMatching(/URL that `statelens serve` printed/),
      });
      await expect(httpTransport({ token: 'wrong-token-wrong-token', origin: server.origin }).call('partitions.list')).rejects.toMatchObject({
        code: 'UNAUTHORIZED',
      });
      await expect(httpTransport({ token: server.token, origin: 'http://127.0.0.1:1' }).call('partitions.list')).rejects.toMatchObject({
        code: 'INTERNAL',
        message: expect.stringMatching(/did not answer/),
      });
    });
  });

  function fakeWindow(href: string, bridge?: unknown, local = new Map<string, string>()): Window & { replaced: string[] } {
    const storage = new Map<string, string>();
    const replaced: string[] = [];
    const location = new URL(href);
    return {
      location,
      statelens: bridge,
      replaced,
      sessionStorage: { getItem: (k: string) => storage.get(k) ?? null, setItem: (k: string, v: string) => void storage.set(k, v) },
      localStorage: { getItem: (k: string) => local.get(k) ?? null, setItem: (k: string, v: string) => void local.set(k, v) },
      history: { state: null, replaceState: (_s: unknown, _t: string, url: string) => replaced.push(url) },
    } as unknown as Window & { replaced: string[] };
  }

  describe('picking a transport', () => {
    it('takes the token from the URL, removes it from the address bar and remembers it for reloads', () => {
      const win = fakeWindow('http://127.0.0.1:4000/?token=abc123abc123abc123&x=1#/facts');
      expect(sessionToken(win)).toBe('abc123abc123abc123');
      expect(win.replaced).toEqual(['/?x=1#/facts']);
      (win.location as unknown as URL).search = '';
      expect(sessionToken(win)).toBe('abc123abc123abc123');
    });

    it('a new tab opened from a link (its own session storage) finds the token without asking for it', () => {
      const local = new Map<string, string>();
      const first = fakeWindow('http://127.0.0.1:4000/?token=abc123abc123abc123#/memories/1', undefined, local);
      expect(sessionToken(first)).toBe('abc123abc123abc123');
      const tab = fakeWindow('http://127.0.0.1:4000/#/memories/1/fact_1', undefined, local);
      expect(sessionToken(tab)).toBe('abc123abc123abc123');
      expect(tab.replaced).toEqual([]);
      expect(sessionToken(fakeWindow('http://127.0.0.1:4000/#/memories/1'))).toBeUndefined();
    });

    it('uses IPC when the preload exposed a bridge, HTTP otherwise', () => {
      expect(pickTransport(fakeWindow('app://statelens/index.html', ipc.bridge)).kind).toBe('ipc');
      expect(pickTransport(fakeWindow(`${server.origin}/?token=${server.token}`)).kind).toBe('http');
    });
  });
});
