// `statelens import langgraph` on a store written by @langchain/langgraph-checkpoint-postgres's
// own PostgresStore on the local PostgreSQL server (skipped, saying why, without one; the store
// talks to a server over its wire protocol, which PGlite does not offer), read both from the
// server URL and from rows exported from its table; and on exported files that are messy or broken.
import fs from 'node:fs';
import path from 'node:path';
import { PostgresStore } from '@langchain/langgraph-checkpoint-postgres/store';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Store } from '../../../electron/engine/store';
import { statelens } from '../../helpers/child';
import { SERVER_SKIP_REASON, SERVER_URL, serverScratchDatabase } from '../../helpers/pg';
import { tmpDir } from '../../helpers/tmp';

if (!SERVER_URL) console.log(`import langgraph from a PostgresStore: ${SERVER_SKIP_REASON}`);

function partitionFacts(db: string, user: string, org = 'local') {
  const store = Store.open(db, { readonly: true });
  try {
    return store.scope({ kind: 'user', org, user }).allFacts();
  } finally {
    store.close();
  }
}

describe.skipIf(!SERVER_URL)('statelens import langgraph from a PostgresStore on the server', () => {
  let source: ReturnType<typeof serverScratchDatabase>;
  beforeAll(async () => {
    source = serverScratchDatabase('langgraph');
    const store = PostgresStore.fromConnString(source.url);
    try {
      await store.setup();
      await store.put(['memories', 'ann'], 'food', { content: 'Ann is vegetarian', kind: 'preference' });
      await store.put(['memories', 'ann'], 'city', { content: 'Ann lives in Oslo' });
      await store.put(['memories', 'ann'], 'city', { content: 'Ann moved to Bergen' });
      await store.put(['memories', 'bob'], 'tz', { content: 'Bob works in CET' });
      await store.put(['memories', 'bob'], 'tmp', { content: 'gone soon' });
      await store.delete(['memories', 'bob'], 'tmp');
    } finally {
      await store.stop();
    }
  }, 60_000);
  afterAll(() => source?.drop());

  it('reads the store table from the server URL: namespaces become partitions, items facts with their times', async () => {
    const db = path.join(tmpDir(), 'lg.db');
    const r = await statelens(['import', 'langgraph', source.url, '--db', db, '--org', 'acme']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/: 3 facts .* in user:acme\/memories\/ann, user:acme\/memories\/bob/);
    expect(r.stdout).not.toContain('postgres@');
    const ann = partitionFacts(db, 'memories/ann', 'acme');
    expect(ann.map((f) => [f.key, JSON.parse(String(f.value)) as unknown, f.source.type]).sort()).toEqual([
      ['city', { content: 'Ann moved to Bergen' }, 'langgraph'],
      ['food', { content: 'Ann is vegetarian', kind: 'preference' }, 'langgraph'],
    ]);
    // The fact's time is the item's updated_at on the server.
    const client = new pg.Client({ connectionString: source.url });
    await client.connect();
    try {
      const row = await client.query<{ updated_at: Date }>("SELECT updated_at FROM store WHERE namespace_path = 'memories:ann' AND key = 'city'");
      expect(ann.find((f) => f.key === 'city')?.ts).toBe(row.rows[0]?.updated_at.toISOString());
    } finally {
      await client.end();
    }
    expect(partitionFacts(db, 'memories/bob', 'acme').map((f) => f.key)).toEqual(['tz']);
  }, 60_000);

  it('reads the same rows exported from the table as JSON lines', async () => {
    const dir = tmpDir();
    const client = new pg.Client({ connectionString: source.url });
    await client.connect();
    let lines: string[];
    try {
      lines = (await client.query<{ j: unknown }>('SELECT row_to_json(s) AS j FROM store s ORDER BY namespace_path, key')).rows.map((r) => JSON.stringify(r.j));
    } finally {
      await client.end();
    }
    const file = path.join(dir, 'store.jsonl');
    fs.writeFileSync(file, `${lines.join('\n')}\n`);
    const db = path.join(dir, 'lg.db');
    const r = await statelens(['import', 'langgraph', file, '--db', db, '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ facts: 3, skipped: [] });
    expect(
      partitionFacts(db, 'memories/ann')
        .map((f) => f.key)
        .sort(),
    ).toEqual(['city', 'food']);
  }, 60_000);

  it('says when the database holds no store table, and writes nothing', async () => {
    const db = path.join(tmpDir(), 'lg.db');
    const r = await statelens(['import', 'langgraph', source.url, '--db', db, '--store-schema', 'nowhere']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/holds no LangGraph store table nowhere\.store; nothing was imported/);
    expect(fs.existsSync(db)).toBe(false);
  }, 60_000);
});

describe('statelens import langgraph from exported rows', () => {
  it("imports the Python store's prefix rows, leaving out expired, empty and repeated items", async () => {
    const dir = tmpDir();
    const file = path.join(dir, 'store.jsonl');
    const rows = [
      { prefix: 'memories.u1', key: 'k1', value: { content: 'Likes jazz' }, created_at: '2026-01-01T10:00:00+00:00', updated_at: '2026-01-02T10:00:00+00:00' },
      {
        prefix: 'memories.u1',
        key: 'k2',
        value: { content: 'Old' },
        created_at: '2026-01-01T10:00:00',
        updated_at: '2026-01-01T10:00:00',
        expires_at: '2020-01-01T00:00:00Z',
      },
      { prefix: 'memories.u1', key: 'k3', value: {}, created_at: '2026-01-01T10:00:00Z' },
      { prefix: 'memories.u1', key: 'k1', value: { content: 'again' } },
      { prefix: 'memories.u2', key: 'k1', value: 'plain text', created_at: '2026-01-03 08:00:00', region: 'eu' },
      { prefix: '', key: 'k9', value: 'nowhere' },
    ];
    fs.writeFileSync(file, rows.map((r) => JSON.stringify(r)).join('\n'));
    const db = path.join(dir, 'lg.db');
    const r = await statelens(['import', 'langgraph', file, '--db', db]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/: 2 facts .* 4 records left out, in user:local\/memories\/u1, user:local\/memories\/u2/);
    for (const why of [
      /left out: line 2: the item expired at 2020-01-01T00:00:00.000Z/,
      /left out: line 3: the value is empty/,
      /left out: line 4: namespace memories\/u1 repeats key k1/,
      /left out: line 6: the namespace is empty or not text/,
      /note: line 5: fields not imported: region/,
      /note: line 5: timestamp "2026-01-03 08:00:00" has no time zone: read as UTC/,
    ])
      expect(r.stderr).toMatch(why);
    expect(partitionFacts(db, 'memories/u2')).toMatchObject([{ key: 'k1', value: 'plain text', ts: '2026-01-03T08:00:00.000Z' }]);
  }, 60_000);

  it('refuses a file it cannot read as store rows, naming the line, and writes nothing', async () => {
    const dir = tmpDir();
    const db = path.join(dir, 'lg.db');
    for (const [content, message] of [
      ['{"prefix":"a","key":"k","value":1}\n{"prefix":"a",\n', /line 2: not valid JSON/],
      ['{"prefix":"a","key":"k","value":1}\n"text"\n', /line 2: is not a store row object/],
      ['{"prefix":"a","value":1}\n', /line 1: a store row needs a namespace .*, a key and a value/],
      ['[{"prefix":"a","key":"k","value":1},\n 5]', /row 2: is not a store row object/],
      ['\n\n', /holds no store rows/],
    ] as const) {
      const file = path.join(dir, 'rows.jsonl');
      fs.writeFileSync(file, content);
      const r = await statelens(['import', 'langgraph', file, '--db', db]);
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(message);
      expect(r.stderr).toMatch(/nothing was imported/);
      expect(fs.existsSync(db)).toBe(false);
    }
  }, 60_000);
});
