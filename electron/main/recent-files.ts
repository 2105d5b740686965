// The recent-databases list main keeps in the app's data folder. The renderer only ever sees
// it and picks an entry by index; it never sends a path.
import fs from 'node:fs';
import path from 'node:path';
import { MAX_RECENT, type RecentEntry } from '../../shared/contract';

interface Stored {
  readonly path: string;
  readonly openedAt: string;
}

export class RecentFiles {
  constructor(
    private readonly file: string,
    private readonly now: () => string = () => new Date().toISOString(),
  ) {}

  private read(): Stored[] {
    try {
      const data: unknown = JSON.parse(fs.readFileSync(this.file, 'utf8'));
      if (!Array.isArray(data)) return [];
      return data
        .filter(
          (e): e is Stored => typeof e === 'object' && e !== null && typeof e.path === 'string' && typeof e.openedAt === 'string' && path.isAbsolute(e.path),
        )
        .slice(0, MAX_RECENT);
    } catch {
      return []; // missing or damaged: start a new list
    }
  }

  list(): RecentEntry[] {
    return this.read().map((e, index) => ({ index, path: e.path, name: path.basename(e.path), openedAt: e.openedAt, exists: fs.existsSync(e.path) }));
  }

  remember(file: string): void {
    const abs = path.resolve(file);
    const next = [{ path: abs, openedAt: this.now() }, ...this.read().filter((e) => e.path !== abs)].slice(0, MAX_RECENT);
    fs.mkdirSync(path.dirname(this.file), { recursive: true });
    const tmp = `${this.file}.tmp`;
    fs.writeFileSync(tmp, JSON.stringify(next, null, 2));
    fs.renameSync(tmp, this.file);
  }

  clear(): void {
    fs.rmSync(this.file, { force: true });
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
  constructor(
    private readonly file: string,
    private readonly now: () => string = () => new Date().toISOString(),
  ) {}

  private read(): StoredServer[] {
    try {
      const data: unknown = JSON.parse(fs.readFileSync(this.file, 'utf8'));
      if (!Array.isArray(data)) return [];
      return data
        .filter(
          (e): e is StoredServer =>
            typeof e === 'object' &&
            e !== null &&
            typeof e.url === 'string' &&
            typeof e.schema === 'string' &&
            typeof e.org === 'string' &&
            typeof e.openedAt === 'string',
        )
        .slice(0, MAX_RECENT);
    } catch {
      return []; // missing or damaged: start a new list
    }
  }

  list(): Array<StoredServer & { index: number }> {
    return this.read().map((e, index) => ({ index, url: e.url, schema: e.schema, org: e.org, openedAt: e.openedAt }));
  }

  remember(server: { url: string; schema: string; org: string }): void {
    const same = (e: StoredServer) => serverKey(e) === serverKey(server);
    const next = [{ url: server.url, schema: server.schema, org: server.org, openedAt: this.now() }, ...this.read().filter((e) => !same(e))].slice(
      0,
      MAX_RECENT,
    );
    fs.mkdirSync(path.dirname(this.file), { recursive: true });
    const tmp = `${this.file}.tmp`;
    fs.writeFileSync(tmp, JSON.stringify(next, null, 2));
    fs.renameSync(tmp, this.file);
  }

  clear(): void {
    fs.rmSync(this.file, { force: true });
  }
}

/** One server connection as the recent list and the credential store name it. */
export function serverKey(server: { url: string; schema: string; org: string }): string {
  return JSON.stringify([server.url, server.schema, server.org]);
}
