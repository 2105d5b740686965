import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { exportStore } from '../../electron/engine/snapshot/export';
import { importSnapshotFile } from '../../electron/engine/snapshot/import';
import { openSnapshotReadOnly } from '../../electron/engine/snapshot/open';
import { Store } from '../../electron/engine/store';
import { openTmpStore, tmpDir } from '../helpers/tmp';
import { USER, populate, withoutTimestamp } from './populate';

describe('snapshot round trip', () => {
  for (const format of ['ndjson', 'json'] as const) {
    it(`${format}: export -> import into an empty db -> export gives the same content`, async () => {
      const store = openTmpStore();
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

      const copy = openTmpStore();
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
    const store = openTmpStore();
    populate(store);
    const u = store.scope(USER);
    const dir = tmpDir();
    const out = path.join(dir, 'p.ndjson');
    await exportStore(store, { format: 'ndjson', out, partitionId: u.id });
    const text = fs.readFileSync(out, 'utf8');
    expect(text).not.toContain('Lisbon'); // user u2's fact
    expect(text).not.toContain('travel_policy');
    const copy = openTmpStore();
    importSnapshotFile(copy, out);
    const out2 = path.join(dir, 'p2.ndjson');
    await exportStore(copy, { format: 'ndjson', out: out2, partitionId: u.id });
    expect(withoutTimestamp(fs.readFileSync(out2, 'utf8'))).toBe(withoutTimestamp(text));
    expect(copy.scope(USER).currentValue('meeting')).toBe('Thursday 3pm');
    store.close();
    copy.close();
  });

  it('a SQLite copy and a JSON snapshot open read-only with the same facts', async () => {
    const store = openTmpStore();
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
});
