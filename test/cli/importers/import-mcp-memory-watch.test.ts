// `statelens import mcp-memory --watch` as a child process beside the real MCP memory server
// (a child over stdio): what the server adds is imported, a fact deleted with `statelens delete`
// is removed from the memory file (the server's next read_graph no longer shows it), an entity
// goes with its relations, and writes the server makes meanwhile are never clobbered.
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Store } from '../../../electron/engine/store';
import { statelens } from '../../helpers/child';
import { spawnMcpMemoryWatcher, startMemoryServer, type MemoryServer } from './memory-server';

type Event = { kind: string; facts?: number; removed?: number; reason?: string };

let dir: string;
let memoryFile: string;
let db: string;
let server: MemoryServer;
let watcher: ChildProcess;
const events: Event[] = [];
let watcherErr = '';

/** Resolves with the first event after `from` matching `pred`. */
async function nextEvent(from: number, pred: (e: Event) => boolean, timeoutMs = 20_000): Promise<Event> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const found = events.slice(from).find(pred);
    if (found) return found;
    if (Date.now() > until) throw new Error(`no such event from the watcher; events: ${JSON.stringify(events)}; stderr: ${watcherErr}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

function stored(): Array<{ id: string; key: string; value: unknown }> {
  const store = Store.open(db, { readonly: true });
  try {
    return store
      .scope({ kind: 'user', org: 'local', user: 'mcp-memory' })
      .allFacts()
      .map((f) => ({ id: f.id, key: f.key, value: f.value }));
  } finally {
    store.close();
  }
}

const factWith = (value: string): string => {
  const f = stored().find((x) => x.value === value);
  if (!f) throw new Error(`no stored fact "${value}"`);
  return f.id;
};

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'statelens-mcp-watch-'));
  memoryFile = path.join(dir, 'memory.jsonl');
  db = path.join(dir, 'memory.db');
  server = await startMemoryServer(memoryFile);
  await server.call('create_entities', {
    entities: [
      { name: 'Ann_Lee', entityType: 'person', observations: ['Works at Acme as CFO', 'Prefers morning meetings'] },
      { name: 'Acme', entityType: 'organization', observations: ['Budget for Q3 is $120k'] },
      { name: 'Bob', entityType: 'person', observations: ['Has a cat'] },
    ],
  });
  await server.call('create_relations', {
    relations: [
      { from: 'Ann_Lee', to: 'Acme', relationType: 'works_at' },
      { from: 'Bob', to: 'Ann_Lee', relationType: 'knows' },
    ],
  });
  watcher = spawnMcpMemoryWatcher(
    memoryFile,
    db,
    (e) => events.push(e as Event),
    (text) => (watcherErr += text),
  );
  // 3 entities + 4 observations + 2 relations.
  await nextEvent(0, (e) => e.kind === 'synced' && e.facts === 9);
}, 60_000);

afterAll(async () => {
  if (watcher && watcher.exitCode === null) {
    const exited = new Promise((r) => watcher.once('exit', r));
    watcher.kill('SIGTERM');
    await exited;
  }
  await server?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('statelens import mcp-memory --watch', () => {
  it('imports what the running server adds to the file', async () => {
    const from = events.length;
    await server.call('add_observations', { observations: [{ entityName: 'Ann_Lee', contents: ['Speaks Norwegian'] }] });
    await nextEvent(from, (e) => e.kind === 'synced' && e.facts === 1);
    const f = stored().find((x) => x.value === 'Speaks Norwegian');
    expect(f?.key).toBe('Ann_Lee · observation 3');
    expect(stored()).toHaveLength(10);
  }, 60_000);

  it('removes an observation deleted in Statelens from the file: the server no longer shows it', async () => {
    const before = fs.readFileSync(memoryFile, 'utf8');
    const from = events.length;
    const del = await statelens(['delete', '--db', db, factWith('Prefers morning meetings'), '--yes', '--reason', 'wrong']);
    expect(del.code, del.stderr + del.stdout).toBe(0);
    await nextEvent(from, (e) => e.kind === 'written-back' && e.removed === 1);
    const graph = await server.readGraph();
    const ann = graph.entities.find((e) => e.name === 'Ann_Lee');
    expect(ann?.observations).toEqual(['Works at Acme as CFO', 'Speaks Norwegian']);
    expect(graph.entities).toHaveLength(3);
    expect(graph.relations).toHaveLength(2);
    // The version replaced is the backup; no temporary file is left beside the file.
    expect(fs.readFileSync(`${memoryFile}.bak`, 'utf8')).toBe(before);
    expect(fs.readdirSync(dir).filter((n) => n.endsWith('.tmp'))).toEqual([]);
    // A writer that read the file before the removal and writes that version back (as the
    // server's whole-file rewrite does) does not bring it back: it is removed again.
    const stale = events.length;
    fs.copyFileSync(`${memoryFile}.bak`, memoryFile);
    await nextEvent(stale, (e) => e.kind === 'written-back' && e.removed === 1);
    expect((await server.readGraph()).entities.find((e) => e.name === 'Ann_Lee')?.observations).toEqual(['Works at Acme as CFO', 'Speaks Norwegian']);
    expect(stored().map((f) => f.value)).not.toContain('Prefers morning meetings');
    // Not brought back by a later change of the file.
    const again = events.length;
    await server.call('add_observations', { observations: [{ entityName: 'Acme', contents: ['Based in Oslo'] }] });
    await nextEvent(again, (e) => e.kind === 'synced' && e.facts === 1);
    expect(stored().map((f) => f.value)).not.toContain('Prefers morning meetings');
  }, 60_000);

  it('removes a deleted entity with its observations and relations, from the file and the store', async () => {
    const from = events.length;
    const del = await statelens(['delete', '--db', db, factWith('Bob is a person'), '--yes']);
    expect(del.code, del.stderr + del.stdout).toBe(0);
    await nextEvent(from, (e) => e.kind === 'written-back' && e.removed === 2);
    const graph = await server.readGraph();
    expect(graph.entities.map((e) => e.name).sort()).toEqual(['Acme', 'Ann_Lee']);
    expect(graph.relations).toEqual([expect.objectContaining({ from: 'Ann_Lee', to: 'Acme', relationType: 'works_at' })]);
    // Bob's observation and the relation naming him go from the store too, audited as the watcher's.
    const until = Date.now() + 10_000;
    while (stored().some((f) => f.value === 'Has a cat' || f.value === 'Bob knows Ann_Lee') && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
    expect(stored().map((f) => f.value)).not.toContain('Has a cat');
    expect(stored().map((f) => f.value)).not.toContain('Bob knows Ann_Lee');
  }, 60_000);

  it('never clobbers what the server writes while deletions are written back', async () => {
    const added = Array.from({ length: 12 }, (_, i) => `Note ${i}`);
    const writes = (async () => {
      for (const note of added) await server.call('add_observations', { observations: [{ entityName: 'Acme', contents: [note] }] });
    })();
    const from = events.length;
    const del = await statelens(['delete', '--db', db, factWith('Budget for Q3 is $120k'), '--yes']);
    // The watcher imports the server's notes meanwhile: a write during the delete's scrub can keep
    // its WAL from being emptied, which the delete reports (exit 1) with the facts deleted.
    if (del.code !== 0) expect(del.stderr).toMatch(/deleted, but copies of the deleted text remain on disk/);
    await writes;
    await nextEvent(from, (e) => e.kind === 'written-back');
    const graph = await server.readGraph();
    const acme = graph.entities.find((e) => e.name === 'Acme');
    expect(acme?.observations).not.toContain('Budget for Q3 is $120k');
    for (const note of added) expect(acme?.observations).toContain(note);
    expect(acme?.observations).toContain('Based in Oslo');
    const refusals = events.slice(from).filter((e) => e.kind === 'refused');
    for (const r of refusals) expect(r.reason).toMatch(/changed (since it was read|while it was being rewritten)/);
  }, 60_000);

  it('stops on SIGTERM with nothing left to write back', async () => {
    const exited = new Promise<number | null>((r) => watcher.once('exit', (code) => r(code)));
    watcher.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(watcherErr).toMatch(/SIGTERM, stopping/);
    expect((await statelens(['verify', '--db', db])).code).toBe(0);
  }, 60_000);
});
