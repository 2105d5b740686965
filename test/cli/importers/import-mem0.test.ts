// `statelens import mem0` on a history database written by mem0ai's own SQLite history store
// (the JavaScript library, offline: the store needs no model), on the Python library's `history`
// table (with actor and role) and a memory export, both built from Mem0's published schema since
// no npm package writes them offline, and on bad input.
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { HistoryManagerFactory } from 'mem0ai/oss';
import { describe, expect, it } from 'vitest';
import { Store } from '../../../electron/engine/store';
import { statelens } from '../../helpers/child';
import { tmpDir } from '../../helpers/tmp';

function partitionFacts(db: string, ref: Parameters<Store['scope']>[0]) {
  const store = Store.open(db, { readonly: true });
  try {
    return store.scope(ref).allFacts();
  } finally {
    store.close();
  }
}

function audit(db: string, action: string): Array<{ actor: string; target_ids: string; reason: string; details: string }> {
  const raw = new Database(db, { readonly: true });
  try {
    return raw.prepare('SELECT actor, target_ids, reason, details FROM audit_log WHERE action = ? ORDER BY id').all(action) as never;
  } finally {
    raw.close();
  }
}

/** The Python library's history table, as Mem0 publishes it (memory/storage.py). */
function pythonHistory(
  file: string,
  rows: ReadonlyArray<readonly [string, string | null, string | null, string, string | null, string | null, number, string | null, string | null]>,
): void {
  const db = new Database(file);
  db.exec(`CREATE TABLE history (id TEXT PRIMARY KEY, memory_id TEXT, old_memory TEXT, new_memory TEXT, event TEXT,
    created_at DATETIME, updated_at DATETIME, is_deleted INTEGER, actor_id TEXT, role TEXT)`);
  const insert = db.prepare('INSERT INTO history VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)');
  rows.forEach((r, i) => insert.run(`h${i}`, ...r));
  db.close();
}

describe('statelens import mem0', () => {
  it("imports mem0ai's own history store: ADD starts a chain, UPDATE supersedes keeping the old text, DELETE is a deletion in the audit", async () => {
    const dir = tmpDir();
    const historyDb = path.join(dir, 'history.db');
    // The calls Mem0's Memory makes on its history store for an add, an update and a delete.
    const history = HistoryManagerFactory.create('sqlite', { provider: 'sqlite', config: { historyDbPath: historyDb } }) as {
      addHistory(
        id: string,
        prev: string | null,
        next: string | null,
        action: string,
        createdAt?: string,
        updatedAt?: string,
        isDeleted?: number,
      ): Promise<void>;
      close(): void;
    };
    await history.addHistory('m-1', null, 'Lives in Oslo', 'ADD', '2026-01-01T10:00:00.000Z');
    await history.addHistory('m-2', null, 'Likes green tea', 'ADD', '2026-01-01T10:01:00.000Z');
    await history.addHistory('m-1', 'Lives in Oslo', 'Lives in Bergen', 'UPDATE', '2026-01-01T10:00:00.000Z', '2026-02-01T09:00:00.000Z');
    await history.addHistory('m-3', null, 'Password is hunter2', 'ADD', '2026-01-02T10:00:00.000Z');
    await history.addHistory('m-3', 'Password is hunter2', null, 'DELETE', undefined, undefined, 1);
    history.close();

    const db = path.join(dir, 'mem0.db');
    const r = await statelens(['import', 'mem0', historyDb, '--db', db, '--partition', 'user:acme/ann']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/: 3 facts \(1 superseding an earlier version\), 0 dependencies, 1 deletions recorded/);
    const facts = partitionFacts(db, { kind: 'user', org: 'acme', user: 'ann' });
    const m1 = facts.filter((f) => f.key === 'mem0 memory m-1').sort((a, b) => a.ts.localeCompare(b.ts));
    expect(m1.map((f) => [f.value, f.isValid, f.label])).toEqual([
      ['Lives in Oslo', false, 'm-1@1'],
      ['Lives in Bergen', true, 'm-1@2'],
    ]);
    expect(m1[0]?.supersededBy).toBe(m1[1]?.id);
    expect(m1[1]?.ts).toBe('2026-02-01T09:00:00.000Z');
    expect(facts.every((f) => f.source.type === 'mem0')).toBe(true);
    // The deleted memory's text is nowhere; its deletion is in the audit.
    expect(facts.some((f) => String(f.value).includes('hunter2'))).toBe(false);
    expect(fs.readFileSync(db).includes('hunter2')).toBe(false);
    const [deletion] = audit(db, 'delete');
    expect(JSON.parse(deletion?.target_ids ?? '[]')).toEqual(['mem0:m-3']);
    expect(deletion?.reason).toMatch(/deleted in mem0 before the import \(1 version\)/);
    expect((await statelens(['verify', '--db', db])).code).toBe(0);
  }, 60_000);

  it("maps the Python history's actor and role, and an export's user / agent / run ids, onto partitions, sessions and provenance", async () => {
    const dir = tmpDir();
    const historyDb = path.join(dir, 'history.db');
    pythonHistory(historyDb, [
      ['m-1', null, 'Budget is $200k', 'ADD', '2026-03-01T08:00:00-05:00', null, 0, 'cfo', 'user'],
      ['m-1', 'Budget is $200k', 'Budget is $120k', 'UPDATE', '2026-03-01T08:00:00-05:00', '2026-03-05 09:30:00', 0, 'cfo', 'user'],
      ['m-2', null, 'Deploys on Fridays', 'ADD', '2026-03-02T08:00:00Z', null, 0, null, 'assistant'],
      ['m-4', null, '', 'ADD', '2026-03-02T08:00:00Z', null, 0, null, 'user'],
      ['m-4', null, 'x', 'NONE', '2026-03-02T08:00:00Z', null, 0, null, 'user'],
    ]);
    const exportFile = path.join(dir, 'memories.json');
    fs.writeFileSync(
      exportFile,
      JSON.stringify({
        results: [
          { id: 'm-1', memory: 'Budget is $120k', user_id: 'ann', run_id: 'run-7', metadata: { topic: 'finance' }, created_at: '2026-03-01T08:00:00-05:00' },
          { id: 'm-2', memory: 'Deploys on Fridays', agent_id: 'release-bot', created_at: '2026-03-02T08:00:00Z', shard: 3 },
          { id: 'm-5', memory: 'Prefers email', user_id: 'ann', created_at: '2026-03-03T08:00:00Z', updated_at: '2026-03-04T08:00:00Z' },
          { id: 'm-6', memory: '   ', user_id: 'ann' },
          { id: 'm-7', memory: 'Bad user', user_id: 'a\u202Eb' },
        ],
      }),
    );
    const db = path.join(dir, 'mem0.db');
    const r = await statelens(['import', 'mem0', exportFile, historyDb, '--db', db, '--org', 'acme']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/: 4 facts \(1 superseding an earlier version\).* 4 records left out, in user:acme\/ann, capability:acme\/release-bot/);
    for (const why of [
      /left out: history row 4: ADD of memory m-4: the value is empty/,
      /left out: history row 5: unknown event "NONE"/,
      /left out: memory 4 \(m-6\): the value is empty/,
      /left out: memory 5 \(m-7\): cannot name a partition/,
      /note: history row 2: timestamp "2026-03-05 09:30:00" has no time zone: read as UTC/,
      /note: memory 2: fields not imported: shard/,
    ])
      expect(r.stderr).toMatch(why);
    const ann = partitionFacts(db, { kind: 'user', org: 'acme', user: 'ann' });
    const budget = ann.filter((f) => f.key === 'mem0 memory m-1').sort((a, b) => a.ts.localeCompare(b.ts));
    expect(budget.map((f) => [f.value, f.isValid, f.ts, f.source.identity, f.scope, f.scopeId])).toEqual([
      ['Budget is $200k', false, '2026-03-01T13:00:00.000Z', 'cfo', 'session', 'run-7'],
      ['Budget is $120k', true, '2026-03-05T09:30:00.000Z', 'cfo', 'session', 'run-7'],
    ]);
    expect(ann.find((f) => f.key === 'mem0 memory m-5')).toMatchObject({ value: 'Prefers email', ts: '2026-03-04T08:00:00.000Z', isValid: true });
    const bot = partitionFacts(db, { kind: 'capability', org: 'acme', capability: 'release-bot' });
    expect(bot.map((f) => f.value)).toEqual(['Deploys on Fridays']);
    const origins = audit(db, 'import').flatMap((a) => Object.values((JSON.parse(a.details) as { origins: Record<string, Record<string, unknown>> }).origins));
    expect(origins).toContainEqual(
      expect.objectContaining({
        sourceId: 'm-1',
        where: 'history row 2',
        actor: 'cfo',
        extra: expect.objectContaining({ role: 'user', runId: 'run-7', metadata: { topic: 'finance' } }),
      }),
    );
  }, 60_000);

  it('refuses input it cannot read as Mem0, naming where, and writes nothing', async () => {
    const dir = tmpDir();
    const db = path.join(dir, 'mem0.db');
    const cases: Array<[string, string | ((file: string) => void), RegExp]> = [
      ['broken.json', '[\n {"id": "m-1", "memory": "a"},\n {"id": \n', /broken\.json line 3: not valid JSON/],
      ['object.json', '{"memories": 3}', /is not a Mem0 memory export/],
      ['item.json', '[{"id": "m-1", "memory": "a"}, 7]', /item\.json memory 2: is not an object/],
      [
        'other.db',
        (file) => {
          const d = new Database(file);
          d.exec('CREATE TABLE notes (x)');
          d.close();
        },
        /holds no Mem0 history table/,
      ],
      [
        'columns.db',
        (file) => {
          const d = new Database(file);
          d.exec('CREATE TABLE history (id TEXT, memory_id TEXT, event TEXT)');
          d.close();
        },
        /table history: has no column old_memory, new_memory/,
      ],
    ];
    for (const [name, content, message] of cases) {
      const file = path.join(dir, name);
      if (typeof content === 'string') fs.writeFileSync(file, content);
      else content(file);
      const r = await statelens(['import', 'mem0', file, '--db', db]);
      expect(r.code, name).toBe(1);
      expect(r.stderr).toMatch(message);
      expect(r.stderr).toMatch(/nothing was imported.*\[IMPORT_FAILED\]/);
      expect(fs.existsSync(db)).toBe(false);
    }
  }, 60_000);
});
