// `statelens import mcp-memory` on a memory file written by the real MCP memory server (run as
// a child over stdio), then on hostile and messy files: a line that is not JSON refuses the whole
// file, naming the line; duplicates, empty and oversized observations and unknown records are
// left out and listed.
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Store } from '../../../electron/engine/store';
import { statelens } from '../../helpers/child';
import os from 'node:os';
import { startMemoryServer } from './memory-server';

let dir: string;
let memoryFile: string;

beforeAll(async () => {
  // Shared by the tests (the per-test temporary folders go after each test).
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'statelens-mcp-memory-'));
  memoryFile = path.join(dir, 'memory.jsonl');
  const server = await startMemoryServer(memoryFile);
  try {
    await server.call('create_entities', {
      entities: [
        { name: 'Ann_Lee', entityType: 'person', observations: ['Works at Acme as CFO', 'Prefers morning meetings'] },
        { name: 'Acme', entityType: 'organization', observations: ['Budget for Q3 is $120k'] },
      ],
    });
    await server.call('create_relations', { relations: [{ from: 'Ann_Lee', to: 'Acme', relationType: 'works_at' }] });
    await server.call('add_observations', { observations: [{ entityName: 'Ann_Lee', contents: ['Speaks Norwegian'] }] });
  } finally {
    await server.close();
  }
}, 60_000);

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function facts(db: string, user = 'mcp-memory') {
  const store = Store.open(db, { readonly: true });
  try {
    return store.scope({ kind: 'user', org: 'local', user }).allFacts();
  } finally {
    store.close();
  }
}

describe('statelens import mcp-memory', () => {
  it('imports the graph the real server wrote: entities, observations keyed by entity, relations as dependent facts, with provenance', async () => {
    expect(fs.readFileSync(memoryFile, 'utf8')).toContain('"type":"relation"');
    const db = path.join(dir, 'graph.db');
    const r = await statelens(['import', 'mcp-memory', memoryFile, '--db', db, '--json']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const summary = JSON.parse(r.stdout) as { facts: number; dependencyEdges: number; skipped: unknown[] };
    // 2 entities + 4 observations + 1 relation; each observation depends on its entity, the relation on both.
    expect(summary).toMatchObject({ facts: 7, dependencyEdges: 6, skipped: [] });

    const all = facts(db);
    expect(all.every((f) => f.isValid && f.source.type === 'mcp-memory')).toBe(true);
    const byKey = new Map(all.map((f) => [f.key, f]));
    expect(byKey.get('Ann_Lee')?.value).toBe('Ann_Lee is a person');
    expect(byKey.get('Acme')?.value).toBe('Acme is a organization');
    expect(byKey.get('Ann_Lee · observation 3')?.value).toBe('Speaks Norwegian');
    expect(byKey.get('Ann_Lee · observation 1')?.label).toBe('entity:Ann_Lee#0');
    expect(byKey.get('Ann_Lee works_at Acme')?.value).toBe('Ann_Lee works_at Acme');

    // The import's audit entry keeps the rest of each fact's provenance (entity type, line).
    const raw = new Database(db, { readonly: true });
    try {
      const row = raw.prepare("SELECT actor, details FROM audit_log WHERE action = 'import'").get() as { actor: string; details: string };
      expect(row.actor).toBe('mcp-memory import');
      const details = JSON.parse(row.details) as {
        system: string;
        origins: Record<string, { sourceId: string; where: string; extra: Record<string, unknown> }>;
      };
      expect(details.system).toBe('mcp-memory');
      const obs = byKey.get('Ann_Lee · observation 1')?.id as string;
      expect(details.origins[obs]).toMatchObject({ sourceId: 'Ann_Lee', where: 'line 1', extra: { kind: 'observation', entityType: 'person' } });
      const edges = raw.prepare('SELECT count(*) FROM fact_edges').pluck().get() as number;
      expect(edges).toBe(6);
    } finally {
      raw.close();
    }

    // Importing the same file into the same partition again would double every memory.
    const again = await statelens(['import', 'mcp-memory', memoryFile, '--db', db]);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/already holds memory imported from mcp-memory/);
    expect(facts(db)).toHaveLength(7);
    expect((await statelens(['verify', '--db', db])).code).toBe(0);
  }, 60_000);

  it('refuses a file with a line that is not JSON, naming the line, and writes nothing', async () => {
    const bad = path.join(dir, 'bad.jsonl');
    const good = fs.readFileSync(memoryFile, 'utf8').split('\n');
    fs.writeFileSync(bad, [good[0], '{"type":"entity","name":"Bob"', good[1]].join('\n'));
    const db = path.join(dir, 'bad.db');
    const r = await statelens(['import', 'mcp-memory', bad, '--db', db]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/bad\.jsonl line 2: not valid JSON.*nothing was imported.*\[IMPORT_FAILED\]/);
    expect(fs.existsSync(db)).toBe(false);
    fs.writeFileSync(bad, `${good[0]}\n[1,2]\n`);
    const r2 = await statelens(['import', 'mcp-memory', bad, '--db', db]);
    expect(r2.stderr).toMatch(/line 2: not a JSON object/);
    expect(fs.existsSync(db)).toBe(false);
  }, 60_000);

  it('imports what is valid from a messy file and lists the rest', async () => {
    const messy = path.join(dir, 'messy.jsonl');
    const lines = [
      { type: 'entity', name: 'Kim', entityType: 'person', observations: ['Likes tea', 'Likes tea', '', 'x'.repeat(200_000), 42, 'Lives in Oslo'], mood: 'ok' },
      { type: 'entity', name: '', entityType: 'person', observations: ['nameless'] },
      { type: 'entity', name: 'Kim', entityType: 'person', observations: ['Likes tea', 'Has a cat'] },
      { type: 'entity', name: 'Tea', observations: [] },
      { type: 'relation', from: 'Kim', to: 'Tea', relationType: 'likes' },
      { type: 'relation', from: 'Kim', to: 'Tea', relationType: 'likes' },
      { type: 'relation', from: 'Kim', to: 'Nobody', relationType: 'knows' },
      { type: 'relation', from: 'Kim', relationType: 'knows' },
      { type: 'checkpoint', at: 3 },
    ];
    fs.writeFileSync(messy, `${lines.map((l) => JSON.stringify(l)).join('\n')}\n\n`);
    const db = path.join(dir, 'messy.db');
    const r = await statelens(['import', 'mcp-memory', messy, '--db', db, '--partition', 'user:home/kim']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/Imported mcp-memory memory from .*messy\.jsonl.*: 7 facts .* 6 dependencies.* 9 records left out, in user:home\/kim/);
    for (const why of [
      /left out: line 1 observation 2: duplicate observation of "Kim"/,
      /left out: line 1 observation 3: the value is empty/,
      /left out: line 1 observation 4: the value is 200000 characters, over the limit of 100000/,
      /left out: line 1 observation 5: an observation is not text/,
      /left out: line 2: an entity needs a name/,
      /left out: line 3 observation 1: duplicate observation of "Kim"/,
      /left out: line 6: duplicate relation Kim likes Tea/,
      /left out: line 8: a relation needs from, to and relationType as text/,
      /left out: line 9: unknown record type "checkpoint"/,
      /note: line 1: fields not imported: mood/,
      /note: line 3: entity "Kim" repeats line 1: its observations are merged/,
      /note: line 4: entity "Tea" has no entityType: kept as "unknown"/,
      /note: line 7: the relation names entity "Nobody", which the file does not hold/,
    ])
      expect(r.stderr).toMatch(why);
    const store = Store.open(db, { readonly: true });
    try {
      const kept = store
        .scope({ kind: 'user', org: 'home', user: 'kim' })
        .allFacts()
        .map((f) => f.value)
        .sort();
      expect(kept).toEqual(['Has a cat', 'Kim is a person', 'Kim knows Nobody', 'Kim likes Tea', 'Likes tea', 'Lives in Oslo', 'Tea is a unknown']);
    } finally {
      store.close();
    }
  }, 60_000);
});
