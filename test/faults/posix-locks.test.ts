// POSIX drops every fcntl lock a process holds on a file when any descriptor of it is closed,
// SQLite's included. The engine reads the database file directly (the deletion scrub, the header
// check on open); these tests ask a real second process whether it could now take the file
// exclusively, which a live Store's shared lock must prevent.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { sniffSnapshot } from '../../electron/engine/snapshot/import';
import { isTextSnapshot } from '../../electron/engine/snapshot/open';
import { Store } from '../../electron/engine/store';
import { tmpDbPath } from '../helpers/tmp';

const sqlite = createRequire(import.meta.url).resolve('better-sqlite3');
const PROBE = `const D = require(${JSON.stringify(sqlite)});
const db = new D(process.argv[1], { timeout: 0 });
try { db.pragma('locking_mode = EXCLUSIVE'); db.exec('BEGIN EXCLUSIVE'); db.exec('ROLLBACK'); console.log('granted'); }
catch (e) { console.log('refused ' + e.code); }`;

/** Whether another process can lock the database file exclusively right now. */
function otherProcessGetsExclusive(path: string): boolean {
  const r = spawnSync(process.execPath, ['-e', PROBE, path], { encoding: 'utf8' });
  expect(r.status, r.stderr).toBe(0);
  return r.stdout.trim() === 'granted';
}

function storeWithFacts(): Store {
  const store = Store.open(tmpDbPath());
  const p = store.scope({ kind: 'user', org: 'acme', user: 'u1' }, { create: true });
  p.writeFacts(Array.from({ length: 300 }, (_, i) => ({ key: `k${i % 40}`, value: `value ${i} ${'detail '.repeat(i % 20)}` })));
  return store;
}

describe('raw file access keeps SQLite’s locks', () => {
  it('the probe can tell: closing a stray descriptor of the file drops the lock', () => {
    const store = storeWithFacts();
    expect(otherProcessGetsExclusive(store.path)).toBe(false);
    fs.closeSync(fs.openSync(store.path, 'r'));
    expect(otherProcessGetsExclusive(store.path)).toBe(true);
    store.close();
  });

  it('a delete with its scrub (checkpoint, wipe, rescan) leaves the lock held', () => {
    const store = storeWithFacts();
    const p = store.scope({ kind: 'user', org: 'acme', user: 'u1' });
    const ids = (store.db.prepare('SELECT id FROM facts WHERE rid % 3 = 0').pluck().all() as string[]).slice(0, 50);
    const result = p.deleteFacts({ ids }, { actor: 'test' });
    expect(result.scrub?.complete).toBe(true);
    expect(result.scrub?.remedy).not.toBe('vacuum');
    expect(otherProcessGetsExclusive(store.path)).toBe(false);
    store.close();
    expect(otherProcessGetsExclusive(store.path)).toBe(true);
  });

  it('opening and closing a second Store on the same file leaves the first one’s lock held', () => {
    const store = storeWithFacts();
    const second = Store.open(store.path);
    second.close();
    expect(otherProcessGetsExclusive(store.path)).toBe(false);
    expect(store.db.prepare('SELECT count(*) FROM facts').pluck().get()).toBe(300);
    store.close();
  });

  it('telling a snapshot from a database by its first bytes leaves the lock held', () => {
    const store = storeWithFacts();
    expect(isTextSnapshot(store.path)).toBe(false);
    expect(sniffSnapshot(store.path)).toBe('sqlite');
    expect(otherProcessGetsExclusive(store.path)).toBe(false);
    store.close();
  });
});
