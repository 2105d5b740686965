// The engine worker behind its facade: real worker thread, real database file.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { StatelensError } from '../../shared/errors';
import { Store } from '../engine/store';
import { tmpDbPath } from '../../test/helpers/tmp';
import { EngineHost } from './facade';

const workerPath = path.join(path.dirname(fileURLToPath(import.meta.url)), 'worker-node.mjs');
const hosts: EngineHost[] = [];
function host(): EngineHost {
  const h = new EngineHost({ workerPath, pollMs: 50 });
  hosts.push(h);
  return h;
}
afterEach(async () => {
  for (const h of hosts.splice(0)) await h.close();
});

describe('EngineHost', () => {
  it('opens a database in the worker and answers calls', async () => {
    const file = tmpDbPath();
    const seed = Store.open(file);
    seed.scope({ kind: 'user', org: 'acme', user: 'ana' }, { create: true }).writeFact({ key: 'city', value: 'Lyon' });
    seed.close();
    const h = host();
    const info = await h.call('db.openPath', { path: file, create: false, readonly: false });
    expect(info.path).toBe(file);
    const { partitions } = await h.call('partitions.list', {});
    expect(partitions).toHaveLength(1);
    expect(partitions[0]?.facts).toBe(1);
  });

  it('reports NO_DATABASE before anything is open, as a typed error', async () => {
    const h = host();
    await expect(h.call('partitions.list', {})).rejects.toMatchObject({ code: 'NO_DATABASE' });
    await expect(h.call('partitions.list', {})).rejects.toBeInstanceOf(StatelensError);
  });

  it('announces writes made by another process as data.changed', async () => {
    const file = tmpDbPath();
    Store.open(file).close();
    const h = host();
    await h.call('db.openPath', { path: file, create: false, readonly: false });
    const seen = new Promise((resolve) => h.on('changed', (e) => e.origin === 'external' && resolve(e)));
    const other = Store.open(file);
    other.scope({ kind: 'user', org: 'acme', user: 'bo' }, { create: true }).writeFact({ key: 'team', value: 'infra' });
    other.close();
    await expect(seen).resolves.toMatchObject({ origin: 'external' });
  });
});

describe('EngineHost agent-state events', () => {
  it("announces another process's agent-state change as its own event, naming the session", async () => {
    const file = tmpDbPath();
    Store.open(file).close();
    const h = host();
    await h.call('db.openPath', { path: file, create: false, readonly: false });
    const seen = new Promise((resolve) => h.on('agentStateChanged', resolve));
    const other = Store.open(file);
    const p = other.scope({ kind: 'user', org: 'acme', user: 'bo' }, { create: true });
    p.writeFact({ key: 'team', value: 'infra' });
    p.applyAgentStateUpdate('chat-7', { assumptions: [{ id: 'a1', hypothesis: 'infra owns it', confidence: 0.6 }] });
    other.close();
    await expect(seen).resolves.toEqual({ origin: 'external', partitionId: p.id, sessionId: 'chat-7' });
  });
});
