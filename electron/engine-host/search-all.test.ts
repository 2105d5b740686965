// Find everywhere (facts.searchAll) through the real worker, on a SQLite file and on PostgreSQL
// (PGlite always, the real server when STATELENS_TEST_PG_URL is set): matches grouped by
// partition, the asked-for partition first, bounded per partition, meaningless searches refused.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { migratePg } from '../engine/db/pg/schema';
import { SyncPg } from '../engine/db/pg/sync-client';
import type { PgTarget } from '../engine/db/pg/target';
import { Store } from '../engine/store';
import { migratedServerDatabase, SERVER_SKIP_REASON, SERVER_URL } from '../../test/helpers/pg';
import { tmpDbPath } from '../../test/helpers/tmp';
import { EngineHost } from './facade';

const workerPath = path.join(path.dirname(fileURLToPath(import.meta.url)), 'worker-node.mjs');
const hosts: EngineHost[] = [];
afterEach(async () => {
  for (const h of hosts.splice(0)) await h.close();
});

/** Three partitions: ana's and bob's both mention the pallet cost (bob's eight times), eve's not. */
function seed(store: Store): void {
  try {
    const ana = store.scope({ kind: 'user', org: 'acme', user: 'ana' }, { create: true });
    ana.writeFact({ key: 'quote.pallet_cost', value: 'The pallet cost is 40 EUR' });
    ana.writeFact({ key: 'home_city', value: 'Lyon' });
    const bob = store.scope({ kind: 'user', org: 'acme', user: 'bob' }, { create: true });
    for (let i = 0; i < 8; i++) bob.writeFact({ key: `quote.pallet_${i}`, value: `Pallet cost offer ${i}` });
    store.scope({ kind: 'user', org: 'acme', user: 'eve' }, { create: true }).writeFact({ key: 'tea', value: 'green' });
  } finally {
    store.close();
  }
}

async function checkSearch(h: EngineHost): Promise<void> {
  const { partitions } = await h.call('partitions.list', {});
  const id = (label: string) => partitions.find((p) => p.label.endsWith(label))?.id ?? -1;
  const bobFirst = await h.call('facts.searchAll', { search: 'pallet', first: id('bob'), perPartition: 5 });
  expect(bobFirst.groups.map((g) => g.partitionId)).toEqual([id('bob'), id('ana')]);
  expect(bobFirst.groups[0]?.rows).toHaveLength(5);
  expect(bobFirst.groups[0]?.total).toEqual({ count: 8, capped: false });
  expect(bobFirst.groups[1]?.rows.map((r) => r.key)).toEqual(['quote.pallet_cost']);
  expect(bobFirst.unsearched).toBe(0);
  const anaFirst = await h.call('facts.searchAll', { search: 'pallet', first: id('ana'), perPartition: 5 });
  expect(anaFirst.groups.map((g) => g.label)).toEqual([partitions.find((p) => p.id === id('ana'))?.label, partitions.find((p) => p.id === id('bob'))?.label]);
  expect((await h.call('facts.searchAll', { search: 'nothing_matches_this', perPartition: 5 })).groups).toEqual([]);
  await expect(h.call('facts.searchAll', { search: '((', perPartition: 5 })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
}

describe('facts.searchAll', () => {
  it('on a SQLite file', async () => {
    const file = tmpDbPath();
    seed(Store.open(file));
    const h = new EngineHost({ workerPath, pollMs: 50 });
    hosts.push(h);
    await h.call('db.openPath', { path: file, create: false, readonly: true });
    await checkSearch(h);
  });

  function seedPg(target: PgTarget): void {
    seed(Store.openPostgres(target));
  }

  it('on PGlite', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'statelens-search-all-'));
    const target = { kind: 'pglite', dataDir: dir } as const;
    const setup = SyncPg.open(target);
    try {
      migratePg(setup);
    } finally {
      setup.close();
    }
    seedPg(target);
    const h = new EngineHost({ workerPath, pollMs: 50 });
    hosts.push(h);
    await h.call('db.openServer', { url: `pglite:${dir}`, password: null, schema: 'statelens', org: 'acme', readonly: false });
    await checkSearch(h);
  }, 120_000);

  it.skipIf(!SERVER_URL)(
    'on the PostgreSQL server',
    async () => {
      const db = migratedServerDatabase('search_all');
      try {
        seedPg(db.target);
        const h = new EngineHost({ workerPath, pollMs: 50 });
        hosts.push(h);
        await h.call('db.openServer', { url: db.url, password: null, schema: 'statelens', org: 'acme', readonly: false });
        await checkSearch(h);
        await h.close();
      } finally {
        db.drop();
      }
    },
    120_000,
  );
});
if (!SERVER_URL) console.log(`search-all.test: ${SERVER_SKIP_REASON}`);
