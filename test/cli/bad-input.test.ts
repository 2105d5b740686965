// The CLI's answers to input that cannot mean anything: timestamps that are not date-times,
// StateBench timelines whose supersessions name nothing or whose fact ids repeat, and failed
// imports into a database that did not exist (which must leave no file behind). Real child
// processes on real files.
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { tmpDir } from '../helpers/tmp';
import { statelens } from '../helpers/child';
import { timeline } from './timeline';

function factCount(db: string): number {
  const d = new Database(db, { readonly: true });
  try {
    return d.prepare('SELECT count(*) FROM facts').pluck().get() as number;
  } finally {
    d.close();
  }
}

describe('statelens CLI refuses input that cannot mean anything', () => {
  it('ingest refuses a timestamp that is not a date-time, and stores offsets in UTC', async () => {
    const dir = tmpDir();
    const db = path.join(dir, 'agent.db');
    const good = path.join(dir, 'good.jsonl');
    fs.writeFileSync(good, `${JSON.stringify({ type: 'state_write', ts: '2026-01-01T10:00:00+05:00', writes: [{ key: 'city', value: 'Pune' }] })}\n`);
    expect((await statelens(['ingest', good, '--db', db, '--partition', 'user:acme/u1'])).code).toBe(0);
    const facts = await statelens(['facts', '--db', db, '--partition', 'user:acme/u1', '--json']);
    expect((JSON.parse(facts.stdout.trim()) as { ts: string }).ts).toBe('2026-01-01T05:00:00.000Z');
    for (const ts of ['zzzz', '9999-pinned']) {
      const bad = path.join(dir, 'bad.jsonl');
      fs.writeFileSync(bad, `${JSON.stringify({ type: 'state_write', ts, writes: [{ key: 'city', value: 'Oslo' }] })}\n`);
      const r = await statelens(['ingest', bad, '--db', db, '--partition', 'user:acme/u1']);
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(new RegExp(`line 1: field ts: not a date-time: "${ts}".*\\[IMPORT_FAILED\\]`));
    }
    expect(factCount(db)).toBe(1);
    expect((await statelens(['verify', '--db', db])).code).toBe(0);
  });

  it('ingest refuses an object value over 100,000 characters as JSON and one nested 10,000 deep', async () => {
    const dir = tmpDir();
    const db = path.join(dir, 'agent.db');
    const line = (value: string): string => `{"type":"state_write","ts":"2026-01-01T10:00:00Z","writes":[{"key":"blob","value":${value}}]}\n`;
    const cases = [
      [JSON.stringify({ a: 'z'.repeat(1_000_000) }), /field writes\.0\.value: the value is \d+ characters as JSON, over the limit of 100000/],
      [`${'['.repeat(10_000)}1${']'.repeat(10_000)}`, /field writes\.0\.value: the value nests objects or arrays deeper than 64 levels/],
    ] as const;
    for (const [value, message] of cases) {
      const file = path.join(dir, 'bad.jsonl');
      fs.writeFileSync(file, line(value));
      const r = await statelens(['ingest', file, '--db', db, '--partition', 'user:acme/u1']);
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(message);
      expect(r.stderr).toMatch(/\[IMPORT_FAILED\]/);
      expect(fs.existsSync(db)).toBe(false);
    }
  });

  it('import statebench: a supersedes that matches no fact fails with exit 1 and writes nothing', async () => {
    const dir = tmpDir();
    const file = path.join(dir, 'ghost.jsonl');
    const ghost = timeline('T-1').replace('"supersedes":"budget"', '"supersedes":"no_such_fact"');
    fs.writeFileSync(file, `${timeline('T-0')}\n${ghost}\n`);
    const db = path.join(dir, 'sb.db');
    const r = await statelens(['import', 'statebench', file, '--db', db]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/1 supersedes matched no fact, so nothing was imported: line 2 \(timeline T-1, event 1\): "no_such_fact" \[IMPORT_FAILED\]/);
    expect(r.stdout).toBe('');
    expect(fs.existsSync(db)).toBe(false);
  });

  it('import statebench: a fact id repeated inside one timeline is refused', async () => {
    const dir = tmpDir();
    const file = path.join(dir, 'dup.jsonl');
    const t = JSON.parse(timeline('T-1')) as { initial_state: { persistent_facts: Array<Record<string, unknown>> } };
    t.initial_state.persistent_facts.push({ ...t.initial_state.persistent_facts[0], key: 'other', value: 'other' });
    fs.writeFileSync(file, `${JSON.stringify(t)}\n`);
    const db = path.join(dir, 'sb.db');
    const r = await statelens(['import', 'statebench', file, '--db', db]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /line 1 \(timeline T-1\): field initial_state\.persistent_facts\.1\.id: fact id "F-1" repeats initial_state\.persistent_facts\.0\.id.*\[IMPORT_FAILED\]/,
    );
    expect(fs.existsSync(db)).toBe(false);
  });

  it('a failed ingest or import snapshot into a new database leaves no file behind; an existing one is kept', async () => {
    const dir = tmpDir();
    const bad = path.join(dir, 'bad.jsonl');
    fs.writeFileSync(bad, `${JSON.stringify({ type: 'query', prompt: 'q', colour: 'red' })}\n`);
    const snapshot = path.join(dir, 'snap.ndjson');
    fs.writeFileSync(snapshot, 'not a snapshot\n');
    const runs: Array<[string, string[]]> = [
      ['ingest, bad line', ['ingest', bad, '--partition', 'user:acme/u1']],
      ['ingest, bad line and no partition', ['ingest', bad]],
      ['ingest, missing file', ['ingest', path.join(dir, 'missing.jsonl'), '--partition', 'user:acme/u1']],
      ['import snapshot, not a snapshot', ['import', 'snapshot', snapshot]],
      ['import snapshot, missing file', ['import', 'snapshot', path.join(dir, 'missing.ndjson')]],
    ];
    for (const [name, args] of runs) {
      const db = path.join(dir, `${name.replace(/\W+/g, '-')}.db`);
      const r = await statelens([...args, '--db', db]);
      expect(r.code, name).toBe(1);
      expect(
        fs.readdirSync(dir).filter((f) => f.endsWith('.db') || f.includes('.db-')),
        name,
      ).toEqual([]);
    }
    const existing = path.join(dir, 'kept.db');
    const good = path.join(dir, 'good.jsonl');
    fs.writeFileSync(good, `${JSON.stringify({ type: 'state_write', ts: '2026-01-01T00:00:00Z', writes: [{ key: 'k', value: 'v' }] })}\n`);
    expect((await statelens(['ingest', good, '--db', existing, '--partition', 'user:acme/u1'])).code).toBe(0);
    expect((await statelens(['ingest', bad, '--db', existing, '--partition', 'user:acme/u1'])).code).toBe(1);
    expect(factCount(existing)).toBe(1);
  });
});
