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
