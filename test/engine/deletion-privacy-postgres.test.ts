// Deleted text is gone from the server's files: after the engine's delete and its scrub
// (VACUUM (FULL) of the tables a delete writes), no table, TOAST or index file of the store's
// schema holds a byte of it. The scan reads the relation files straight from the data directory
// (the tests run on the server's machine), so it first proves it finds a live marker, and that a
// plain DELETE and even a plain VACUUM leave the bytes behind.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { migratePg } from '../../electron/engine/db/pg/schema';
import { SyncPg } from '../../electron/engine/db/pg/sync-client';
import { Store } from '../../electron/engine/store';
import { SERVER_SKIP_REASON, SERVER_URL, serverScratchDatabase } from '../helpers/pg';

const USER = { kind: 'user', org: 'acme', user: 'u1' } as const;

if (!SERVER_URL) console.log(`${SERVER_SKIP_REASON} (the byte scan of the server's relation files needs one)`);
let scratch: ReturnType<typeof serverScratchDatabase> | undefined;
afterAll(() => scratch?.drop());

/** Every file of every table, TOAST table and index of the schema (all 1 GB segments). */
function relationFiles(conn: SyncPg, schema: string): string[] {
  const dataDir = conn.query<{ data_directory: string }>('SHOW data_directory').rows[0]?.data_directory ?? '';
  const rels = conn.query<{ file: string | null }>(
    `WITH own AS (SELECT c.oid, c.reltoastrelid FROM pg_class c WHERE c.relnamespace = $1::regnamespace AND c.relkind IN ('r', 'i', 'm')),
          rels AS (SELECT oid FROM own
                   UNION SELECT reltoastrelid FROM own WHERE reltoastrelid <> 0
                   UNION SELECT i.indexrelid FROM pg_index i JOIN own ON i.indrelid = own.reltoastrelid)
     SELECT pg_relation_filepath(oid) AS file FROM rels`,
    [schema],
  ).rows;
  const files: string[] = [];
  for (const { file } of rels) {
    if (!file) continue;
    const base = path.join(dataDir, file);
    for (let segment = 0; ; segment++) {
      const p = segment === 0 ? base : `${base}.${segment}`;
      if (!fs.existsSync(p)) break;
      files.push(p);
    }
  }
  return files;
}

/** The relation files holding `marker`, after a checkpoint wrote every dirty page out. */
function filesHolding(conn: SyncPg, schema: string, marker: string): string[] {
  conn.exec('CHECKPOINT');
  const needle = Buffer.from(marker, 'utf8');
  return relationFiles(conn, schema).filter((f) => fs.readFileSync(f).includes(needle));
}

describe.skipIf(!SERVER_URL)('privacy-grade deletion on a PostgreSQL server', () => {
  it('leaves no byte of a deleted fact in any table or index file of the schema', () => {
    scratch = serverScratchDatabase('privacy');
    const admin = SyncPg.open(scratch.target);
    try {
      migratePg(admin);
      const schema = 'statelens';
      const unique = `${process.pid}${Date.now().toString(36)}`;
      const forgotten = `zqforgotten${unique}`;
      const lingering = `zqlingering${unique}`;
      const kept = `zqkept${unique}`;

      const store = Store.openPostgres(scratch.target);
      try {
        const p = store.scope(USER, { create: true });
        const secret = p.writeFact({ key: `diagnosis_${forgotten}`, value: `the diagnosis is ${forgotten}`, label: `label_${forgotten}` }).factId;
        p.writeFact({ key: 'plan', value: `a plan resting on it ${kept}`, dependsOn: [secret] });
        const bypassed = p.writeFact({ key: 'note', value: `a note saying ${lingering}` }).factId;

        // The scan can fail: it finds live text, in the table and in its key index.
        expect(filesHolding(admin, schema, forgotten).length).toBeGreaterThan(1);
        // A plain DELETE, and a plain VACUUM after it, leave the row's bytes in the files.
        admin.query('DELETE FROM statelens.facts WHERE id = $1', [bypassed]);
        admin.exec('VACUUM statelens.facts');
        expect(filesHolding(admin, schema, lingering)).not.toEqual([]);

        const result = p.deleteFacts({ ids: [secret] }, { actor: 'dana', reason: 'asked to forget' });
        expect(result.deleted).toBe(1);
        expect(result.scrub).toMatchObject({ complete: true, remedy: 'vacuum', rebuilt: ['facts', 'fact_edges', 'audit_log'] });
        expect(filesHolding(admin, schema, forgotten)).toEqual([]);
        // The scrub rewrote the whole tables: the bypassed row's leftovers went with them.
        expect(filesHolding(admin, schema, lingering)).toEqual([]);
        // What was not deleted is still there.
        expect(filesHolding(admin, schema, kept).length).toBeGreaterThan(0);
      } finally {
        store.close();
      }
    } finally {
      admin.close();
    }
  });
});
