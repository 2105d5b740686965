// Snapshots on PostgreSQL: an import leaves the planner the imported tables' statistics (so the
// first listings take index plans, not row-by-row ones), and a filtered, as-of export runs in the
// export's read-only transaction.
import fs from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { exportStore } from '../../electron/engine/snapshot/export';
import { importSnapshotFile } from '../../electron/engine/snapshot/import';
import { Store } from '../../electron/engine/store';
import { migratedServerDatabase } from '../helpers/pg';
import { describeStores, type OpenStore, type StoreKind } from '../helpers/stores';
import { openTmpStore, tmpDir } from '../helpers/tmp';

const FACTS = 120;
const ANA = { kind: 'user', org: 'acme', user: 'ana' } as const;
const tsOf = (i: number) => new Date(Date.UTC(2025, 0, 1, 0, i)).toISOString();

function writeNotes(store: Store): number {
  const ana = store.scope(ANA, { create: true });
  ana.writeFacts(
    Array.from({ length: FACTS }, (_, i) => ({ key: `note_${i}`, value: `imported note ${i}`, ts: tsOf(i) })),
    { inferSupersession: false },
  );
  return ana.id;
}

/** A store and how to dispose of it. On the server, a database of its own: the export reads on a
 * second connection, which must find the schema where a fresh connection looks for it. */
function storeFor(kind: StoreKind, open: OpenStore): { store: Store; dispose: () => void } {
  if (kind !== 'server') {
    const store = open();
    return { store, dispose: () => store.close() };
  }
  const scratch = migratedServerDatabase('export');
  const store = Store.openPostgres(scratch.target);
  return {
    store,
    dispose: () => {
      store.close();
      scratch.drop();
    },
  };
}

describeStores(
  'snapshots on PostgreSQL',
  (open, kind) => {
    it('an import leaves the planner statistics of the tables it filled', () => {
      const source = openTmpStore();
      try {
        writeNotes(source);
      } finally {
        source.close();
      }
      const store = open();
      try {
        importSnapshotFile(store, source.path);
        // reltuples is -1 until the table is first analysed.
        const rows = store.db.prepare("SELECT reltuples FROM pg_class WHERE oid = to_regclass('facts')").pluck().get();
        expect(Number(rows)).toBe(FACTS);
      } finally {
        store.close();
      }
    });

    it('exports the facts of a filter as of a time', async () => {
      const { store, dispose } = storeFor(kind, open);
      try {
        const partitionId = writeNotes(store);
        const out = path.join(tmpDir(), 'selected.ndjson');
        await exportStore(store, { format: 'ndjson', out, partitionId, filter: { validity: 'all', asOf: tsOf(59) } });
        const facts = fs
          .readFileSync(out, 'utf8')
          .trim()
          .split('\n')
          .filter((l) => l.includes('"type":"fact"'));
        expect(facts).toHaveLength(60);
      } finally {
        dispose();
      }
    });
  },
  { stores: ['pglite', 'server'], reason: 'these are PostgreSQL’s own: planner statistics and read-only transactions' },
);
