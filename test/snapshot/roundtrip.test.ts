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

    it("keeps each session's identity through export and import; a snapshot naming no session imports as the default session's", async () => {
      const store = openStore();
      const p = store.scope(USER, { create: true });
      const person = { department: 'Finance', organization: 'Acme', permissions: [] };
      p.setIdentity({ userName: 'Ann', userId: 'ann', authority: 'intern', ...person });
      p.setIdentity({ userName: 'Ann', userId: 'ann', authority: 'analyst', ...person }, { sessionId: 'analyst' });
      p.setIdentity({ userName: 'Vic', userId: 'vic', authority: 'VP Finance', ...person, communicationStyle: 'brief' }, { sessionId: 'vp' });
      p.writeFact({ key: 'plan', value: '[CONFIDENTIAL — restricted to VP+] Layoffs planned for Q3' });
      const sessionsOf = (s: Store): Array<[string, string]> =>
        s
          .scope(USER)
          .identities()
          .map((i) => [i.sessionId, i.identity.authority]);
      const sees = (s: Store, sessionId: string): boolean =>
        s.scope(USER).assemble({ strategy: 'state_based', budget: 4000, query: 'plan', sessionId }).text.includes('Layoffs');
      const dir = tmpDir();
      const first = path.join(dir, 'ids.ndjson');
      expect((await exportStore(store, { format: 'ndjson', out: first })).counts.identity).toBe(3);
      const identityRecords = fs
        .readFileSync(first, 'utf8')
        .split('\n')
        .filter((l) => l.includes('"type":"identity"'))
        .map((l) => JSON.parse(l) as { sessionId?: string });
      // The default session's record names no session, as every snapshot before sessions did.
      expect(identityRecords.map((r) => r.sessionId ?? null)).toEqual(['analyst', null, 'vp']);

      const copy = openStore();
      importSnapshotFile(copy, first);
      expect(sessionsOf(copy)).toEqual([
        ['analyst', 'analyst'],
        ['default', 'intern'],
        ['vp', 'VP Finance'],
      ]);
      expect(copy.scope(USER).identity('vp')).toEqual(store.scope(USER).identity('vp'));
      expect([sees(copy, 'vp'), sees(copy, 'analyst'), sees(copy, 'default'), sees(copy, 'nobody')]).toEqual([true, false, false, false]);
      const second = path.join(dir, 'ids2.ndjson');
      await exportStore(copy, { format: 'ndjson', out: second });
      expect(withoutTimestamp(fs.readFileSync(second, 'utf8'))).toBe(withoutTimestamp(fs.readFileSync(first, 'utf8')));

      // A snapshot from before identities were kept per session: schema 5, no sessionId.
      const older = fs
        .readFileSync(first, 'utf8')
        .split('\n')
        .filter((l) => !(l.includes('"type":"identity"') && l.includes('"sessionId"')))
        .map((l) => {
          const rec = l ? (JSON.parse(l) as { type: string; schemaVersion?: number; records?: number; counts?: Record<string, number> }) : null;
          if (rec?.type === 'header') rec.schemaVersion = 5;
          else if (rec?.type === 'end' && rec.counts && rec.records !== undefined) {
            rec.records -= 2;
            rec.counts.identity = 1;
          } else return l;
          return JSON.stringify(rec);
        })
        .join('\n');
      const olderFile = path.join(dir, 'older.ndjson');
      fs.writeFileSync(olderFile, older);
      const fromOlder = openStore();
      importSnapshotFile(fromOlder, olderFile);
      expect(sessionsOf(fromOlder)).toEqual([['default', 'intern']]);
      expect(fromOlder.scope(USER).identity()?.authority).toBe('intern');

      // Two identities for one session of one partition: refused, nothing imported.
      const twice = fs
        .readFileSync(first, 'utf8')
        .split('\n')
        .map((l) => (l.includes('"sessionId":"vp"') ? l.replace('"sessionId":"vp"', '"sessionId":"analyst"') : l))
        .join('\n');
      const twiceFile = path.join(dir, 'twice.ndjson');
      fs.writeFileSync(twiceFile, twice);
      const refused = openStore();
      expect(() => importSnapshotFile(refused, twiceFile)).toThrow(
        expect.objectContaining({ code: 'IMPORT_FAILED', message: expect.stringMatching(/two identities for session "analyst"/) }),
      );
      expect(refused.listPartitions()).toEqual([]);
      for (const s of [store, copy, fromOlder, refused]) s.close();
    });
  },
  undefined,
  { roles: ['admin'] },
);
