// Snapshots round-trip on every store: export -> import into an empty store -> export gives the
// same file, and a SQLite database copied into a PostgreSQL store and back keeps its content.
import fs from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { exportStore } from '../../electron/engine/snapshot/export';
import { importSnapshotFile } from '../../electron/engine/snapshot/import';
import { openSnapshotReadOnly } from '../../electron/engine/snapshot/open';
import { Store } from '../../electron/engine/store';
import { describeStores, itWhere } from '../helpers/stores';
import { openTmpStore, tmpDir } from '../helpers/tmp';
import { USER, populate, withoutTimestamp } from './populate';

/** Every partition's facts and chains, by partition label: what a copy must keep. */
function factsAndChains(store: Store): Record<string, unknown> {
  return Object.fromEntries(
    store.listPartitions().map((p) => {
      const h = store.scopeById(p.id);
      const facts = h.allFacts();
      return [p.label, { facts, chains: facts.map((f) => h.chain(f.id)) }];
    }),
  );
}

/** The records of an NDJSON snapshot after its header line. */
const records = (file: string): string => fs.readFileSync(file, 'utf8').split('\n').slice(1).join('\n');

describeStores(
  'snapshot round trip',
  (openStore, kind) => {
    for (const format of ['ndjson', 'json'] as const) {
      it(`${format}: export -> import into an empty db -> export gives the same content`, async () => {
        const store = openStore();
        populate(store);
        const dir = tmpDir();
        const first = path.join(dir, `a.${format}`);
        const summary = await exportStore(store, { format, out: first });
        expect(summary.counts).toMatchObject({
          partition: 4,
          identity: 1,
          edge: 1,
          working_item: 2,
          environment: 2,
          org_document: 2,
          saved_query: 1,
          agent_state: 1,
          context_document: 2,
        });
        expect(summary.counts.audit).toBeGreaterThan(0);

        const copy = openStore();
        const imported = importSnapshotFile(copy, first);
        expect(imported.records).toBe(summary.records);
        const second = path.join(dir, `b.${format}`);
        await exportStore(copy, { format, out: second });
        expect(withoutTimestamp(fs.readFileSync(second, 'utf8'))).toBe(withoutTimestamp(fs.readFileSync(first, 'utf8')));
        store.close();
        copy.close();
      });
    }

    it('a partition snapshot holds only that partition and round-trips', async () => {
      const store = openStore();
      populate(store);
      const u = store.scope(USER);
      const dir = tmpDir();
      const out = path.join(dir, 'p.ndjson');
      await exportStore(store, { format: 'ndjson', out, partitionId: u.id });
      const text = fs.readFileSync(out, 'utf8');
      expect(text).not.toContain('Lisbon'); // user u2's fact
      expect(text).not.toContain('travel_policy');
      const copy = openStore();
      importSnapshotFile(copy, out);
      const out2 = path.join(dir, 'p2.ndjson');
      await exportStore(copy, { format: 'ndjson', out: out2, partitionId: u.id });
      expect(withoutTimestamp(fs.readFileSync(out2, 'utf8'))).toBe(withoutTimestamp(text));
      expect(copy.scope(USER).currentValue('meeting')).toBe('Thursday 3pm');
      store.close();
      copy.close();
    });

    it('a SQLite copy and a JSON snapshot open read-only with the same facts', async () => {
      const store = openStore();
      populate(store);
      const dir = tmpDir();
      const sqlite = path.join(dir, 'copy.db');
      const json = path.join(dir, 'snap.json');
      await exportStore(store, { format: 'sqlite', out: sqlite });
      await exportStore(store, { format: 'json', out: json });
      const expected = store.scope(USER).allFacts();
      for (const file of [sqlite, json]) {
        const opened = openSnapshotReadOnly(file);
        try {
          expect(opened.store.readonly).toBe(true);
          expect(opened.store.scope(USER).allFacts()).toEqual(expected);
          expect(() => opened.store.scope(USER).writeFact({ key: 'x', value: 'y' })).toThrow(/read-only/);
        } finally {
          opened.dispose();
        }
      }
      const ro = Store.open(sqlite, { readonly: true });
      expect(ro.listPartitions().length).toBe(4);
      ro.close();
      store.close();
    });

    itWhere(
      kind,
      ['pglite', 'server'],
      'copying a SQLite database into a PostgreSQL store and back needs a PostgreSQL store',
    )('a SQLite database copied into PostgreSQL and back to SQLite keeps every record, fact and chain', async () => {
      const dir = tmpDir();
      const original = openTmpStore();
      populate(original);
      const file = path.join(dir, 'original.db');
      await exportStore(original, { format: 'sqlite', out: file });

      const pg = openStore();
      importSnapshotFile(pg, file);
      expect(factsAndChains(pg)).toEqual(factsAndChains(original));
      const back = path.join(dir, 'back.db');
      await exportStore(pg, { format: 'sqlite', out: back });

      const again = openTmpStore();
      importSnapshotFile(again, back);
      expect(factsAndChains(again)).toEqual(factsAndChains(original));
      // Every record, not only the facts: the two SQLite stores export the same snapshot, and the
      // PostgreSQL store the same records under its own header.
      const snapshots = { original: path.join(dir, 'a.ndjson'), pg: path.join(dir, 'pg.ndjson'), again: path.join(dir, 'b.ndjson') };
      await exportStore(original, { format: 'ndjson', out: snapshots.original });
      await exportStore(pg, { format: 'ndjson', out: snapshots.pg });
      await exportStore(again, { format: 'ndjson', out: snapshots.again });
      expect(withoutTimestamp(fs.readFileSync(snapshots.again, 'utf8'))).toBe(withoutTimestamp(fs.readFileSync(snapshots.original, 'utf8')));
      expect(records(snapshots.pg)).toBe(records(snapshots.original));
      for (const s of [original, pg, again]) s.close();
    });
  },
  undefined,
  { roles: ['admin'] },
);
