// Raw reads and writes of a database file that SQLite may have open in this process. POSIX drops
// every fcntl lock a process holds on a file when *any* descriptor of that file is closed, SQLite's
// own locks included (sqlite.org/howtocorrupt.html, 2.2): another process could then take the
// file exclusively and, say, delete the WAL under us. So while a Store has a file open, the
// engine keeps one descriptor of it open and does every raw access through that descriptor,
// closing it only after the last Store on the file has closed its connection.
import fs from 'node:fs';

interface Held {
  readonly fd: number;
  readonly writable: boolean;
  stores: number;
}

/** Held descriptors by file identity (device and inode), not by path spelling. */
const held = new Map<string, Held>();

function identity(path: string): string | undefined {
  try {
    const s = fs.statSync(path);
    return `${s.dev}:${s.ino}`;
  } catch {
    return undefined;
  }
}

function openBest(path: string): { fd: number; writable: boolean } {
  try {
    return { fd: fs.openSync(path, 'r+'), writable: true };
  } catch {
    return { fd: fs.openSync(path, 'r'), writable: false };
  }
}

/** Called by a Store once its connection is open: holds a descriptor of the file until the
 * returned release runs (after the connection has closed). */
export function retainRawFile(path: string): () => void {
  const key = identity(path);
  if (key === undefined) return () => undefined;
  let entry = held.get(key);
  if (!entry) {
    try {
      entry = { ...openBest(path), stores: 0 };
    } catch {
      return () => undefined; // unreadable: nothing raw will work on it anyway
    }
    held.set(key, entry);
  }
  entry.stores++;
  const mine = entry;
  let released = false;
  return () => {
    if (released) return;
    released = true;
    mine.stores--;
    if (mine.stores === 0 && held.get(key) === mine) {
      held.delete(key);
      fs.closeSync(mine.fd);
    }
  };
}

/** The descriptor held for the file at `path` while a Store has it open; never close it. */
export function heldDescriptor(path: string, write = false): number | undefined {
  const key = identity(path);
  const entry = key === undefined ? undefined : held.get(key);
  if (entry && write && !entry.writable) throw new Error(`${path} is held open read-only`);
  return entry?.fd;
}

/**
 * Runs `fn` with a descriptor of the file at `path`: the held one when a Store has the file open
 * (never closed here), otherwise a fresh one closed afterwards (no Store of ours holds a lock on
 * it then). `write` asks for a descriptor open for writing; a file held read-only throws.
 */
export function withRawFile<T>(path: string, write: boolean, fn: (fd: number) => T): T {
  const heldFd = heldDescriptor(path, write);
  if (heldFd !== undefined) return fn(heldFd);
  const fd = fs.openSync(path, write ? 'r+' : 'r');
  try {
    return fn(fd);
  } finally {
    fs.closeSync(fd);
  }
}
