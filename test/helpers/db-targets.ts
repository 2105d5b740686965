// A database a child process reaches by `--db`, on every store kind: a SQLite file, a PGlite data
// folder and, when STATELENS_TEST_PG_URL is set, a schema of its own in the file's scratch server
// database. The test reads back what the child wrote through `open`.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll } from 'vitest';
import { Store } from '../../electron/engine/store';
import { statelens } from './child';
import { serverScratchDatabase } from './pg';
import type { StoreKind } from './stores';

export interface DbTarget {
  readonly kind: StoreKind;
  /** What `--db` takes: the file's path, `pglite:DIR` or a `postgres://…?schema=` URL. */
  readonly db: string;
  /** The store in this process. A PGlite folder has one process at a time: the child that
   * serves it must have exited first. */
  open(options?: { readonly?: boolean }): Store;
}

let root: string | undefined;
let scratch: ReturnType<typeof serverScratchDatabase> | undefined;
let counter = 0;

afterAll(() => {
  scratch?.drop();
  scratch = undefined;
  if (root) fs.rmSync(root, { recursive: true, force: true });
  root = undefined;
});

/** A fresh, empty database of `kind`, named after `label` (a schema the child creates on first use). */
export function dbTarget(kind: StoreKind, label: string): DbTarget {
  root ??= fs.mkdtempSync(path.join(os.tmpdir(), 'statelens-targets-'));
  const name = `${label}_${++counter}`;
  if (kind === 'sqlite') {
    const file = path.join(root, `${name}.db`);
    return { kind, db: file, open: (o = {}) => Store.open(file, { readonly: o.readonly ?? false }) };
  }
  if (kind === 'pglite') {
    const dataDir = path.join(root, name);
    return { kind, db: `pglite:${dataDir}`, open: (o = {}) => Store.openPostgres({ kind: 'pglite', dataDir }, { readonly: o.readonly ?? false }) };
  }
  scratch ??= serverScratchDatabase('targets');
  const server = scratch.url;
  const url = new URL(server);
  url.searchParams.set('schema', name);
  return { kind, db: url.href, open: (o = {}) => Store.openPostgres({ kind: 'server', url: server }, { schema: name, readonly: o.readonly ?? false }) };
}

/** A database of `kind` holding what the SQLite file `file` holds, with the same partition and
 * fact ids (so one input names the same rows in both): the file copied, or imported into the
 * store by `statelens import snapshot`. */
export async function dbCopyOf(kind: StoreKind, file: string, label: string): Promise<DbTarget> {
  const target = dbTarget(kind, label);
  if (kind === 'sqlite') fs.copyFileSync(file, target.db);
  else {
    const imported = await statelens(['import', 'snapshot', file, '--db', target.db]);
    if (imported.code !== 0) throw new Error(`statelens import snapshot into ${target.db} failed: ${imported.stderr}`);
  }
  return target;
}
