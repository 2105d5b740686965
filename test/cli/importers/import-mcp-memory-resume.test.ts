// `statelens import mcp-memory --watch` catching up beside the real MCP memory server (a child
// over stdio): deletions made in Statelens while no watcher ran are written back when it starts
// (the server's next read_graph no longer shows them), what the server deletes from its file is
// deleted in Statelens too (audited with the file named), and the fact detail says which facts
// can be deleted at their source.
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Store } from '../../../electron/engine/store';
import { statelens } from '../../helpers/child';
import { spawnMcpMemoryWatcher, startMemoryServer, type MemoryServer } from './memory-server';

type Event = { kind: string; facts?: number; removed?: number; pending?: number; deleted?: number; reason?: string };
const PARTITION = { kind: 'user', org: 'local', user: 'mcp-memory' } as const;

let dir: string;
let memoryFile: string;
let db: string;
let server: MemoryServer;
let watcher: ChildProcess | undefined;
const events: Event[] = [];
let watcherErr = '';

async function nextEvent(from: number, pred: (e: Event) => boolean, timeoutMs = 20_000): Promise<Event> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const found = events.slice(from).find(pred);
    if (found) return found;
    if (Date.now() > until) throw new Error(`no such event from the watcher; events: ${JSON.stringify(events)}; stderr: ${watcherErr}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

function withStore<T>(fn: (store: Store) => T): T {
  const store = Store.open(db, { readonly: true });
  try {
    return fn(store);
  } finally {
    store.close();
  }
}

const stored = (): Array<{ id: string; value: unknown }> =>
  withStore((s) =>
    s
      .scope(PARTITION)
      .allFacts()
      .map((f) => ({ id: f.id, value: f.value })),
  );

const factWith = (value: string): string => {
  const f = stored().find((x) => x.value === value);
  if (!f) throw new Error(`no stored fact "${value}"`);
  return f.id;
};

function startWatcher(): void {
  watcher = spawnMcpMemoryWatcher(
    memoryFile,
    db,
    (e) => events.push(e as Event),
    (text) => (watcherErr += text),
  );
}

async function stopWatcher(): Promise<number | null> {
  const w = watcher;
  if (!w || w.exitCode !== null) return w?.exitCode ?? null;
  const exited = new Promise<number | null>((r) => w.once('exit', (code) => r(code)));
  w.kill('SIGTERM');
  return exited;
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'statelens-mcp-resume-'));
  memoryFile = path.join(dir, 'memory.jsonl');
  db = path.join(dir, 'memory.db');
  server = await startMemoryServer(memoryFile);
  await server.call('create_entities', {
    entities: [
      { name: 'Ann_Lee', entityType: 'person', observations: ['Works at Acme as CFO', 'Prefers morning meetings', 'Lives in Bergen'] },
      { name: 'Bob', entityType: 'person', observations: ['Has a cat'] },
      { name: 'Acme', entityType: 'organization', observations: ['Budget for Q3 is $120k'] },
    ],
  });
  await server.call('create_relations', { relations: [{ from: 'Bob', to: 'Ann_Lee', relationType: 'knows' }] });
  const imported = await statelens(['import', 'mcp-memory', memoryFile, '--db', db]);
  expect(imported.code, imported.stderr).toBe(0);
}, 60_000);

afterAll(async () => {
  await stopWatcher();
  await server?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('statelens import mcp-memory --watch, catching up', () => {
  it('says a fact is deleted in Statelens only until a watcher keeps its file', () => {
    withStore((s) => expect(s.scope(PARTITION).factDetail(factWith('Lives in Bergen')).sourceDeletion).toBeNull());
  });

  it('writes back deletions made while no watcher ran, when the watcher starts', async () => {
    const before = fs.readFileSync(memoryFile, 'utf8');
    for (const value of ['Prefers morning meetings', 'Bob is a person']) {
      const del = await statelens(['delete', '--db', db, factWith(value), '--yes', '--reason', 'wrong']);
      expect(del.code, del.stderr + del.stdout).toBe(0);
    }
    // Nothing runs: the file is as it was.
    expect(fs.readFileSync(memoryFile, 'utf8')).toBe(before);
    startWatcher();
    expect(await nextEvent(0, (e) => e.kind === 'resumed')).toMatchObject({ pending: 2 });
    // The observation, and Bob with his relation.
    await nextEvent(0, (e) => e.kind === 'written-back' && e.removed === 3);
    const graph = await server.readGraph();
    expect(graph.entities.map((e) => e.name).sort()).toEqual(['Acme', 'Ann_Lee']);
    expect(graph.entities.find((e) => e.name === 'Ann_Lee')?.observations).toEqual(['Works at Acme as CFO', 'Lives in Bergen']);
    expect(graph.relations).toEqual([]);
    expect(fs.readFileSync(`${memoryFile}.bak`, 'utf8')).toBe(before);
    // Not imported again from the version read before the write-back.
    expect(stored().map((f) => f.value)).not.toContain('Prefers morning meetings');
    expect(stored().map((f) => f.value)).toContain('Lives in Bergen');
  }, 60_000);

  it('says which facts can be deleted at their source once a watcher keeps the file', () => {
    withStore((s) => {
      const detail = s.scope(PARTITION).factDetail(factWith('Lives in Bergen'));
      expect(detail.sourceDeletion).toEqual({ system: 'mcp-memory', file: path.resolve(memoryFile) });
    });
  });

  it('deletes here what the memory server deletes from its file, naming the file', async () => {
    const from = events.length;
    const bergen = factWith('Lives in Bergen');
    const acme = factWith('Acme is a organization');
    const budget = factWith('Budget for Q3 is $120k');
    await server.call('delete_observations', { deletions: [{ entityName: 'Ann_Lee', observations: ['Lives in Bergen'] }] });
    await server.call('delete_entities', { entityNames: ['Acme'] });
    const until = Date.now() + 20_000;
    while (stored().some((f) => [bergen, acme, budget].includes(f.id)) && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
    for (const id of [bergen, acme, budget]) expect(stored().map((f) => f.id)).not.toContain(id);
    // The watcher reports after its delete commits: wait for the line rather than racing it.
    expect(await nextEvent(from, (e) => e.kind === 'mirrored')).toBeTruthy();
    const audit = withStore((s) => s.scope(PARTITION).factDetail(factWith('Works at Acme as CFO')).audit);
    expect(audit.length).toBeGreaterThan(0);
    const raw = new Database(db, { readonly: true });
    const deletion = raw.prepare("SELECT actor, reason FROM audit_log WHERE action = 'delete' AND target_ids LIKE ?").get(`%${bergen}%`);
    raw.close();
    expect(deletion).toMatchObject({ actor: 'mcp-memory watch', reason: `removed from ${memoryFile} by its memory server` });
    // What the server still holds is untouched, and nothing was written back for these.
    const graph = await server.readGraph();
    expect(graph.entities.map((e) => e.name)).toEqual(['Ann_Lee']);
    expect(graph.entities[0]?.observations).toEqual(['Works at Acme as CFO']);
    expect(events.slice(from).filter((e) => e.kind === 'written-back')).toEqual([]);
  }, 60_000);

  it('stops cleanly and leaves nothing pending for the next start', async () => {
    expect(await stopWatcher()).toBe(0);
    const from = events.length;
    startWatcher();
    // Several polls (100 ms apart) on the unchanged file.
    await new Promise((r) => setTimeout(r, 1500));
    expect(events.slice(from).filter((e) => e.kind === 'resumed' || e.kind === 'written-back')).toEqual([]);
    expect(await stopWatcher()).toBe(0);
    expect((await statelens(['verify', '--db', db])).code).toBe(0);
  }, 60_000);
});
