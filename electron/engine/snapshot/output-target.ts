// Whether an export may write its output at a path: never over the open database or one of its
// companion files (however the path reaches it: `..`, a symlink, a hard link), never over
// something that is not a regular file, and over an existing file only when asked to.
import fs from 'node:fs';
import path from 'node:path';
import { StatelensError } from '../../../shared/errors';

/** The files SQLite keeps beside a database while it is open or mid-transaction. */
const COMPANIONS = ['', '-wal', '-shm', '-journal'];

/** `p` with every symlink of its existing part resolved; a missing tail is kept as written. */
function resolvedPath(p: string): string {
  const absolute = path.resolve(p);
  try {
    return fs.realpathSync(absolute);
  } catch {
    const parent = path.dirname(absolute);
    return parent === absolute ? absolute : path.join(resolvedPath(parent), path.basename(absolute));
  }
}

function statOf(p: string): fs.Stats | undefined {
  try {
    return fs.statSync(p);
  } catch {
    return undefined;
  }
}

/** True when `a` and `b` name one file: the same resolved path, or the same device and inode. */
function sameFile(a: string, b: string): boolean {
  if (resolvedPath(a) === resolvedPath(b)) return true;
  const sa = statOf(a);
  const sb = statOf(b);
  return sa !== undefined && sb !== undefined && sa.dev === sb.dev && sa.ino === sb.ino;
}

/** The database file behind a store path, or undefined for a store that is not a file
 * (a PostgreSQL URL, an in-memory database). */
function databaseFileOf(storePath: string): string | undefined {
  if (storePath === '' || storePath === ':memory:' || /^[a-z][a-z0-9+.-]*:\/\//i.test(storePath)) return undefined;
  return storePath;
}

/**
 * Refuses an export target that would replace the open database (or its -wal/-shm/-journal),
 * that exists and is not a regular file, or that exists without `overwrite`.
 */
export function checkExportTarget(target: string, storePath: string, overwrite: boolean): void {
  const database = databaseFileOf(storePath);
  if (database !== undefined) {
    for (const suffix of COMPANIONS) {
      if (sameFile(target, database + suffix)) {
        throw new StatelensError(
          'INVALID_INPUT',
          `${target} is the open database${suffix ? ` (its ${suffix.slice(1)} file)` : ''}: an export never replaces its own database; choose another file`,
        );
      }
    }
  }
  let existing: fs.Stats;
  try {
    existing = fs.lstatSync(target);
  } catch {
    return;
  }
  // A symlink is judged by what it points at; the export replaces the link itself.
  const pointed = existing.isSymbolicLink() ? statOf(target) : existing;
  if (pointed?.isDirectory()) throw new StatelensError('INVALID_INPUT', `${target} is a folder`);
  if (pointed !== undefined && !pointed.isFile()) {
    throw new StatelensError('INVALID_INPUT', `${target} exists and is not a regular file (a device, pipe or socket): an export only replaces regular files`);
  }
  if (!overwrite) throw new StatelensError('CONFLICT', `${target} already exists (choose another name or overwrite it)`);
}
