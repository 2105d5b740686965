// The channel table drives the handlers: every call channel in the contract has a handler, and
// every engine-backed one reaches the worker's operation of the same name (real worker, real file).
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { CALL_CHANNELS, ENGINE_CHANNELS, HOST_CHANNELS } from '../../shared/contract';
import { EngineHost } from '../engine-host/facade';
import { Store } from '../engine/store';
import { DownloadRegistry, browserShell } from '../server/browser-shell';
import { tmpDbPath } from '../../test/helpers/tmp';
import { createHandlers } from './handlers';

const workerPath = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'engine-host', 'worker-node.mjs');
const engine = new EngineHost({ workerPath, pollMs: 50 });
afterAll(() => engine.close());

describe('handlers derived from the contract', () => {
  const handlers = createHandlers({ engine, shell: browserShell({ downloads: new DownloadRegistry(), token: () => 't' }) });

  it('has one handler per call channel, and every call channel is either host- or engine-answered', () => {
    expect(Object.keys(handlers).sort()).toEqual([...CALL_CHANNELS].sort());
    expect([...HOST_CHANNELS, ...ENGINE_CHANNELS].sort()).toEqual([...CALL_CHANNELS].sort());
    expect(ENGINE_CHANNELS).toContain('facts.list');
    expect(ENGINE_CHANNELS).not.toContain('db.open');
  });

  it('forwards an engine-backed channel to the worker', async () => {
    const file = tmpDbPath();
    const seed = Store.open(file);
    seed.scope({ kind: 'user', org: 'acme', user: 'ana' }, { create: true }).writeFact({ key: 'city', value: 'Lyon' });
    seed.close();
    // Before a database is open, the worker's typed error comes back through the handler.
    await expect(handlers['partitions.list']({})).rejects.toMatchObject({ code: 'NO_DATABASE' });
    await engine.call('db.openPath', { path: file, create: false, readonly: false });
    const { partitions } = await handlers['partitions.list']({});
    expect(partitions.map((p) => p.facts)).toEqual([1]);
    const page = await handlers['facts.list']({ partitionId: partitions[0]!.id });
    expect(page.rows.map((r) => r.value)).toEqual(['Lyon']);
  });
});
