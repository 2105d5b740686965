// The recent-databases list main keeps in the app's data folder. The renderer only ever sees
// it and picks an entry by index; it never sends a path.
import fs from 'node:fs';
import path from 'node:path';
import { MAX_RECENT, type RecentEntry } from '../../shared/contract';

interface Stored {
  readonly path: string;
  readonly openedAt: string;
}

/** A most-recent-first list of up to MAX_RECENT entries in one JSON file, written whole through a
 * temporary file; a missing or damaged file reads as an empty list. */
class RecentList<T extends { readonly openedAt: string }> {
  constructor(
    private readonly file: string,
    private readonly isEntry: (e: unknown) => e is T,
    private readonly same: (a: T, b: T) => boolean,
  ) {}

  read(): T[] {
    try {
      const data: unknown = JSON.parse(fs.readFileSync(this.file, 'utf8'));
      if (!Array.isArray(data)) return [];
      return data.filter(this.isEntry).slice(0, MAX_RECENT);
    } catch {
      return []; // missing or damaged: start a new list
    }
  }

  remember(entry: T): void {
    const next = [entry, ...this.read().filter((e) => !this.same(e, entry))].slice(0, MAX_RECENT);
    fs.mkdirSync(path.dirname(this.file), { recursive: true });
    const tmp = `${this.file}.tmp`;
    fs.writeFileSync(tmp, JSON.stringify(next, null, 2));
    fs.renameSync(tmp, this.file);
  }

  clear(): void {
    fs.rmSync(this.file, { force: true });
  }
}

const isObject = (e: unknown): e is Record<string, unknown> => typeof e === 'object' && e !== null;

export class RecentFiles {
  private readonly entries: RecentList<Stored>;

  constructor(
    file: string,
    private readonly now: () => string = () => new Date().toISOString(),
  ) {
    this.entries = new RecentList(
      file,
      (e): e is Stored => isObject(e) && typeof e.path === 'string' && typeof e.openedAt === 'string' && path.isAbsolute(e.path),
      (a, b) => a.path === b.path,
    );
  }

  list(): RecentEntry[] {
    return this.entries.read().map((e, index) => ({ index, path: e.path, name: path.basename(e.path), openedAt: e.openedAt, exists: fs.existsSync(e.path) }));
  }

  remember(file: string): void {
    this.entries.remember({ path: path.resolve(file), openedAt: this.now() });
  }

  clear(): void {
    this.entries.clear();
  }
}

interface StoredServer {
  readonly url: string;
  readonly schema: string;
  readonly org: string;
  readonly openedAt: string;
}

/** Servers connected to before, beside the files: URL (never with a password), schema and
 * organisation. Their passwords, when kept, live encrypted in ServerCredentials. */
export class RecentServers {
  private readonly entries: RecentList<StoredServer>;

  constructor(
    file: string,
    private readonly now: () => string = () => new Date().toISOString(),
  ) {
    this.entries = new RecentList(
      file,
      (e): e is StoredServer =>
        isObject(e) && typeof e.url === 'string' && typeof e.schema === 'string' && typeof e.org === 'string' && typeof e.openedAt === 'string',
      (a, b) => serverKey(a) === serverKey(b),
    );
  }

  list(): Array<StoredServer & { index: number }> {
    return this.entries.read().map((e, index) => ({ index, url: e.url, schema: e.schema, org: e.org, openedAt: e.openedAt }));
  }

  remember(server: { url: string; schema: string; org: string }): void {
    this.entries.remember({ url: server.url, schema: server.schema, org: server.org, openedAt: this.now() });
  }

  clear(): void {
    this.entries.clear();
  }
}

/** One server connection as the recent list and the credential store name it. */
export function serverKey(server: { url: string; schema: string; org: string }): string {
  return JSON.stringify([server.url, server.schema, server.org]);
}
