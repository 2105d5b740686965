// Commands that may create their database (import statebench, import snapshot, ingest) run
// their work through `withDatabase`: when the work fails and the file did not exist before, the
// file this run created (with its -wal/-shm/-journal) is removed, so a failure leaves nothing.
import fs from 'node:fs';
import { Store } from '../engine/store';

const SIDE_FILES = ['-wal', '-shm', '-journal'] as const;

/** Opens (creating when missing) the database at `path` and runs `work` on it. On failure a
 * database that this call created is deleted again; an existing one is left as it was (its own
 * transaction rolled back). */
export async function withDatabase<T>(path: string, work: (store: Store) => T | Promise<T>): Promise<T> {
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
