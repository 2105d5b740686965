// A snapshot imported into PostgreSQL is ready to be read at once: the planner has the imported
// tables' statistics, so the first listings take index plans rather than row-by-row ones.
import { expect, it } from 'vitest';
import { importSnapshotFile } from '../../electron/engine/snapshot/import';
import { describeStores } from '../helpers/stores';
import { openTmpStore } from '../helpers/tmp';

const FACTS = 120;

describeStores(
  'a snapshot import into PostgreSQL',
  (open) => {
    it('leaves the planner statistics of the tables it filled', () => {
      const source = openTmpStore();
      const file = source.path;
      try {
        source.scope({ kind: 'user', org: 'acme', user: 'ana' }, { create: true }).writeFacts(
          Array.from({ length: FACTS }, (_, i) => ({ key: `note_${i}`, value: `imported note ${i}`, ts: new Date(Date.UTC(2025, 0, 1, 0, i)).toISOString() })),
          { inferSupersession: false },
        );
      } finally {
        source.close();
      }
      const store = open();
      try {
        importSnapshotFile(store, file);
        // reltuples is -1 until the table is first analysed.
        const rows = store.db.prepare("SELECT reltuples FROM pg_class WHERE oid = to_regclass('facts')").pluck().get();
        expect(Number(rows)).toBe(FACTS);
      } finally {
        store.close();
      }
    });
  },
  { stores: ['pglite', 'server'], reason: 'planner statistics are PostgreSQL’s; SQLite plans without them' },
);
