// File › Import from… for real: the menu's action with its dialogs answered by the test (the app
// passes Electron's), the real engine worker (EngineHost) on a real database file, and files made
// by the real projects: the MCP memory server's (a child over stdio) and mem0ai's history store.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { MenuItemConstructorOptions } from 'electron';
import { HistoryManagerFactory } from 'mem0ai/oss';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Progress } from '../../shared/contract';
import { Store } from '../engine/store';
import { EngineHost } from '../engine-host/facade';
import { startMemoryServer } from '../../test/cli/importers/memory-server';

import { IMPORT_SOURCES, importFromMenu, type ImportDialogs, type ImportSource } from './foreign-import';
import { menuTemplate, type MenuActions } from './menu';

const workerPath = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'engine-host', 'worker-node.mjs');
let dir: string;
let db: string;
let engine: EngineHost;
const progress: Progress[] = [];

/** Dialogs that pick `file` and remember what they were asked and shown. */
function dialogs(file: string | null) {
  const asked: ImportSource[] = [];
  const shown: Array<Parameters<ImportDialogs['showMessage']>[0]> = [];
  const bar: Array<number | null> = [];
  const d: ImportDialogs = {
    chooseFile: async (source) => {
      asked.push(source);
      return file;
    },
    showMessage: async (m) => {
      shown.push(m);
    },
    setProgress: (f) => bar.push(f),
  };
  return { d, asked, shown, bar };
}

function factsIn(user: string): Array<{ key: string; value: unknown }> {
  const store = Store.open(db, { readonly: true });
  try {
    return store
      .scope({ kind: 'user', org: 'local', user })
      .allFacts()
      .map((f) => ({ key: f.key, value: f.value }));
  } finally {
    store.close();
  }
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'statelens-import-menu-'));
  db = path.join(dir, 'inspector.db');
  Store.open(db).close();
  engine = new EngineHost({ workerPath, pollMs: 50 });
  engine.on('progress', (p) => progress.push(p));
  await engine.call('db.openPath', { path: db, create: false, readonly: false });
}, 60_000);
afterAll(async () => {
  await engine?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('File › Import from…', () => {
  it('lists one item per importer, each running the import for its system', () => {
    const chosen: string[] = [];
    const actions = new Proxy({} as MenuActions, {
      get: (_t, name) => (name === 'importFrom' ? (system: string) => chosen.push(system) : () => {}),
    });
    const file = menuTemplate({ recent: [], isMac: false, devTools: false, actions })[0]?.submenu as MenuItemConstructorOptions[];
    const importFrom = file.find((i) => i.label === 'Import From');
    const items = importFrom?.submenu as MenuItemConstructorOptions[];
    expect(items.map((i) => i.label)).toEqual(['MCP Memory JSONL…', 'Mem0 History Database or Export…', 'LangGraph Store Export…', 'Letta Agent File…']);
    for (const i of items) (i.click as () => void)();
    expect(chosen).toEqual(['mcp-memory', 'mem0', 'langgraph', 'letta']);
  });

  it("imports the memory server's file into the open database, with progress and a summary", async () => {
    const memoryFile = path.join(dir, 'memory.jsonl');
    const server = await startMemoryServer(memoryFile);
    try {
      await server.call('create_entities', {
        entities: [
          { name: 'Ann_Lee', entityType: 'person', observations: ['Works at Acme as CFO', 'Works at Acme as CFO', 'Prefers morning meetings'] },
          { name: 'Acme', entityType: 'organization', observations: [] },
        ],
      });
      await server.call('create_relations', { relations: [{ from: 'Ann_Lee', to: 'Acme', relationType: 'works_at' }] });
    } finally {
      await server.close();
    }
    const from = progress.length;
    const { d, asked, shown, bar } = dialogs(memoryFile);
    const outcome = await importFromMenu('mcp-memory', engine, d);
    expect(outcome.status).toBe('imported');
    expect(asked.map((s) => s.system)).toEqual(['mcp-memory']);
    expect(asked[0]?.filters[0]?.extensions).toContain('jsonl');
    // The summary, as a message box.
    expect(shown).toHaveLength(1);
    expect(shown[0]).toMatchObject({ type: 'info', title: 'Import finished' });
    expect(shown[0]?.detail).toContain(`From ${memoryFile} into user:local/mcp-memory:`);
    expect(shown[0]?.detail).toMatch(/5 facts \(0 superseding an earlier version\), 4 dependencies/);
    // Progress: events the renderer hears (display only), ending finished, and the window's bar, cleared.
    const mine = progress.slice(from).filter((p) => p.operation === 'import');
    expect(mine.length).toBeGreaterThan(0);
    expect(mine.at(-1)?.finished).toBe(true);
    expect(bar.at(-1)).toBeNull();
    expect(factsIn('mcp-memory').map((f) => f.value)).toEqual(
      expect.arrayContaining(['Ann_Lee is a person', 'Works at Acme as CFO', 'Prefers morning meetings', 'Ann_Lee works_at Acme']),
    );
  }, 60_000);

  it("imports mem0ai's own history database (opened in the worker)", async () => {
    const historyDb = path.join(dir, 'history.db');
    const history = HistoryManagerFactory.create('sqlite', { provider: 'sqlite', config: { historyDbPath: historyDb } }) as {
      addHistory(id: string, prev: string | null, next: string | null, action: string, createdAt?: string, updatedAt?: string): Promise<void>;
      close(): void;
    };
    await history.addHistory('m-1', null, 'Lives in Oslo', 'ADD', '2026-01-01T10:00:00.000Z');
    await history.addHistory('m-1', 'Lives in Oslo', 'Lives in Bergen', 'UPDATE', '2026-01-01T10:00:00.000Z', '2026-02-01T09:00:00.000Z');
    history.close();
    const { d, shown } = dialogs(historyDb);
    const outcome = await importFromMenu('mem0', engine, d);
    expect(outcome.status, JSON.stringify(shown)).toBe('imported');
    expect(shown[0]?.detail).toMatch(/2 facts \(1 superseding an earlier version\)/);
    expect(factsIn('mem0').map((f) => f.value)).toEqual(expect.arrayContaining(['Lives in Oslo', 'Lives in Bergen']));
  }, 60_000);

  it('does nothing when the dialog is cancelled', async () => {
    const { d, shown } = dialogs(null);
    expect(await importFromMenu('letta', engine, d)).toEqual({ status: 'cancelled' });
    expect(shown).toEqual([]);
  });

  it('shows a malformed file as an error naming its line, and imports nothing', async () => {
    const before = factsIn('mcp-memory').length;
    const bad = path.join(dir, 'bad.jsonl');
    fs.writeFileSync(bad, `${JSON.stringify({ type: 'entity', name: 'Zed', entityType: 'person', observations: ['ok'] })}\n{not json\n`);
    const { d, shown } = dialogs(bad);
    const outcome = await importFromMenu('mcp-memory', engine, d);
    expect(outcome.status).toBe('failed');
    expect(outcome.status === 'failed' && outcome.error.code).toBe('IMPORT_FAILED');
    expect(shown[0]).toMatchObject({ type: 'error', title: 'Import failed' });
    expect(shown[0]?.detail).toMatch(/line 2: not valid JSON/);
    expect(shown[0]?.detail).toContain('Nothing was imported.');
    expect(factsIn('mcp-memory')).toHaveLength(before);
  }, 60_000);

  it('refuses importing the same file into the same partition twice, leaving the first import', async () => {
    const { d, shown } = dialogs(path.join(dir, 'memory.jsonl'));
    const outcome = await importFromMenu('mcp-memory', engine, d);
    expect(outcome.status === 'failed' && outcome.error.details).toMatchObject({ cause: 'CONFLICT' });
    expect(shown[0]?.detail).toMatch(/already holds memory imported from mcp-memory/);
    expect(factsIn('mcp-memory')).toHaveLength(5);
  }, 60_000);

  it('has a source for every importer', () => {
    expect(IMPORT_SOURCES.map((s) => s.system).sort()).toEqual(['langgraph', 'letta', 'mcp-memory', 'mem0']);
  });
});
