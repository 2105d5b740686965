// Commands that may create their database (import statebench, import snapshot, ingest) run
// their work through `withDatabase`: when the work fails and the file did not exist before, the
// file this run created (with its -wal/-shm/-journal) is removed, so a failure leaves nothing.
// A PostgreSQL store (--db URL) is opened instead, its schema created when missing; the work's
// own transaction leaves it as it was on failure.
import fs from 'node:fs';
import { Store } from '../engine/store';
import { requireString, type ParsedCli } from './command';
import { openPgStore } from './database';
import { databaseUrl } from './db-url';

const SIDE_FILES = ['-wal', '-shm', '-journal'] as const;

/** Opens (creating when missing) the database --db names and runs `work` on it. On failure a
 * database file that this call created is deleted again; an existing one is left as it was (its
 * own transaction rolled back). */
export async function withDatabase<T>(args: ParsedCli, work: (store: Store) => T | Promise<T>): Promise<T> {
  const url = databaseUrl(args);
  if (url !== undefined) {
    const store = openPgStore(args, url, { create: true });
    try {
      return await work(store);
    } finally {
      store.close();
    }
  }
  const path = requireString(args, 'db');
  const existed = fs.existsSync(path);
  const store = Store.open(path, { create: true });
  let ok = false;
  try {
    const result = await work(store);
    ok = true;
    return result;
  } finally {
    store.close();
    if (!ok && !existed) {
      for (const file of [path, ...SIDE_FILES.map((s) => `${path}${s}`)]) fs.rmSync(file, { force: true });
    }
  }
}
