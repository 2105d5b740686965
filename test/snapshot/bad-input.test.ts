// Every kind of bad snapshot file, imported into every store: the error names the line and
// field, and nothing is imported.
import Database from 'better-sqlite3';
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { StatelensError } from '../../shared/errors';
import { exportStore } from '../../electron/engine/snapshot/export';
import { importSnapshotFile, type ImportOptions } from '../../electron/engine/snapshot/import';
import type { Store } from '../../electron/engine/store';
import { describeStores, type OpenStore } from '../helpers/stores';
import { openTmpStore, tmpDir } from '../helpers/tmp';
import { populate } from './populate';

let ndjson: string[];
let json: string;
let sqliteCopy: Buffer;

beforeAll(async () => {
  const store = openTmpStore();
  populate(store);
  const dir = tmpDir();
  await exportStore(store, { format: 'ndjson', out: path.join(dir, 's.ndjson') });
  await exportStore(store, { format: 'json', out: path.join(dir, 's.json') });
  await exportStore(store, { format: 'sqlite', out: path.join(dir, 's.db') });
  ndjson = fs.readFileSync(path.join(dir, 's.ndjson'), 'utf8').split('\n').filter(Boolean);
  json = fs.readFileSync(path.join(dir, 's.json'), 'utf8');
  sqliteCopy = fs.readFileSync(path.join(dir, 's.db'));
  store.close();
});

function isEmpty(store: Store): boolean {
  const n = (sql: string) => store.db.prepare(sql).pluck().get() as number;
  return (
    n('SELECT count(*) FROM partitions') === 0 &&
    n('SELECT count(*) FROM facts') === 0 &&
    n('SELECT count(*) FROM audit_log') === 0 &&
    n("SELECT count(*) FROM statelens_meta WHERE key = 'snapshot_import'") === 0
  );
}

/** Imports `content` into a fresh store and returns the error, checking nothing landed. */
function failureOn(openStore: OpenStore, content: string | Buffer, name = 'bad.ndjson', options: ImportOptions = {}): StatelensError {
  const file = path.join(tmpDir(), name);
  fs.writeFileSync(file, content);
  const store = openStore();
  try {
    importSnapshotFile(store, file, options);
  } catch (e) {
    expect(e).toBeInstanceOf(StatelensError);
    expect(isEmpty(store)).toBe(true);
    store.close();
    return e as StatelensError;
  }
  store.close();
  throw new Error('the import was expected to fail');
}

const lines = (...l: string[]) => `${l.join('\n')}\n`;
const edit = (i: number, fn: (rec: Record<string, unknown>) => void): string[] => {
  const copy = [...ndjson];
  const rec = JSON.parse(copy[i] as string) as Record<string, unknown>;
  fn(rec);
  copy[i] = JSON.stringify(rec);
  return copy;
};
const indexOfType = (type: string): number => ndjson.findIndex((l) => (JSON.parse(l) as { type: string }).type === type);

describeStores('bad snapshot files import nothing and say where', (openStore) => {
  const failure = (content: string | Buffer, name?: string, options?: ImportOptions): StatelensError => failureOn(openStore, content, name, options);

  it('a valid file imports (control)', () => {
    const file = path.join(tmpDir(), 'ok.ndjson');
    fs.writeFileSync(file, lines(...ndjson));
    const store = openStore();
    expect(importSnapshotFile(store, file).records).toBe(ndjson.length - 2);
    store.close();
  });

  it('empty file', () => {
    expect(failure('').message).toMatch(/empty/);
  });

  it('not a snapshot at all', () => {
    const e = failure('hello world\n');
    expect(e.message).toMatch(/line 1: not a Statelens snapshot/);
  });

  it('wrong format name in the header', () => {
    const e = failure(lines(...edit(0, (h) => (h.format = 'other-tool')), ...ndjson.slice(1)));
    expect(e.message).toMatch(/line 1: field format: not a Statelens snapshot/);
  });

  it('a newer format version', () => {
    const e = failure(lines(...edit(0, (h) => (h.formatVersion = 99))));
    expect(e.message).toMatch(/line 1: field formatVersion: snapshot format version 99 is newer/);
    expect(e.details).toMatchObject({ line: 1, field: 'formatVersion' });
  });

  it('a newer database schema', () => {
    const e = failure(lines(...edit(0, (h) => (h.schemaVersion = 999))));
    expect(e.message).toMatch(/line 1: field schemaVersion: .*schema 999/);
  });

  it('a malformed header field', () => {
    const e = failure(lines(...edit(0, (h) => (h.scope = { kind: 'galaxy' }))));
    expect(e.message).toMatch(/line 1: field scope/);
  });

  it('a line that is not JSON', () => {
    const copy = [...ndjson];
    copy[3] = '{"type":"fact", oops';
    const e = failure(lines(...copy));
    expect(e.message).toMatch(/line 4: not valid JSON/);
    expect(e.details).toMatchObject({ line: 4 });
  });

  it('truncated mid-record (the last line is cut)', () => {
    const whole = lines(...ndjson);
    const e = failure(whole.slice(0, whole.length - 40));
    expect(e.message).toMatch(/not valid JSON .*truncated/);
  });

  it('truncated at a line boundary (no end record)', () => {
    const e = failure(lines(...ndjson.slice(0, -3)));
    expect(e.message).toMatch(/truncated: it has no end record/);
  });

  it('a field of the wrong type, named with its path', () => {
    const i = indexOfType('fact');
    const e = failure(lines(...edit(i, (r) => ((r.fact as Record<string, unknown>).importance = 'high'))));
    expect(e.message).toMatch(new RegExp(`line ${i + 1}: field fact\\.importance`));
    expect(e.details).toMatchObject({ line: i + 1, field: 'fact.importance' });
  });

  it('an unknown field', () => {
    const i = indexOfType('edge');
    const e = failure(lines(...edit(i, (r) => (r.weight = 3))));
    expect(e.message).toMatch(new RegExp(`line ${i + 1}: .*weight`));
  });

  it('an unknown record type', () => {
    const copy = [...ndjson];
    copy.splice(2, 0, '{"type":"mystery","partition":1}');
    const e = failure(lines(...copy));
    expect(e.message).toMatch(/line 3: field type/);
  });

  it('a broken invariant: a valid fact with a successor', () => {
    const i = ndjson.findIndex((l) => l.includes('"isValid":true'));
    const e = failure(lines(...edit(i, (r) => ((r.fact as Record<string, unknown>).supersededBy = 'f_x'))));
    expect(e.message).toMatch(new RegExp(`line ${i + 1}: field fact\\.supersededBy: a valid fact cannot have supersededBy`));
  });

  it('records out of order', () => {
    const copy = [...ndjson];
    const e1 = indexOfType('edge');
    const [edge] = copy.splice(e1, 1);
    copy.splice(2, 0, edge as string); // an edge before its facts
    const e = failure(lines(...copy));
    expect(e.message).toMatch(/line 3: field type: a "edge" record after "identity" records|line 3: field (dependent|dependsOn)/);
  });

  it('a record naming a partition that is not in the file', () => {
    const i = indexOfType('environment');
    const e = failure(lines(...edit(i, (r) => (r.partition = 77))));
    expect(e.message).toMatch(new RegExp(`line ${i + 1}: field partition: partition 77`));
  });

  it('a duplicate fact id', () => {
    const i = indexOfType('fact');
    const copy = [...ndjson];
    copy.splice(i + 1, 0, copy[i] as string);
    const e = failure(lines(...copy));
    expect(e.message).toMatch(new RegExp(`line ${i + 2}: duplicate fact record`));
  });

  it('a chain pointer to a fact missing from the file', () => {
    const i = ndjson.findIndex((l) => l.includes('"supersedes":"f_'));
    const e = failure(lines(...edit(i, (r) => ((r.fact as Record<string, unknown>).supersedes = 'f_nowhere'))));
    expect(e.message).toMatch(new RegExp(`line ${i + 1}: field fact\\.supersedes: .*f_nowhere`));
  });

  /** The file with two facts of one chain (`older` superseded by `newer`) rewritten by `fn`. */
  const chainEdited = (fn: (older: Record<string, unknown>, newer: Record<string, unknown>) => void): string => {
    const copy = [...ndjson];
    const newerAt = copy.findIndex((l) => l.includes('"supersedes":"f_'));
    const newer = JSON.parse(copy[newerAt] as string) as { fact: Record<string, unknown> };
    const olderAt = copy.findIndex((l) => l.includes(`"id":"${String(newer.fact.supersedes)}"`));
    const older = JSON.parse(copy[olderAt] as string) as { fact: Record<string, unknown> };
    fn(older.fact, newer.fact);
    copy[newerAt] = JSON.stringify(newer);
    copy[olderAt] = JSON.stringify(older);
    return lines(...copy);
  };
  const supersededBy = (fact: Record<string, unknown>, successor: unknown): void => {
    Object.assign(fact, { supersededBy: successor, isValid: false, status: 'superseded' });
  };

  it('two facts superseding each other: IMPORT_FAILED before commit', () => {
    const e = failure(
      chainEdited((older, newer) => {
        older.supersedes = newer.id;
        supersededBy(newer, older.id);
      }),
    );
    expect(e.code).toBe('IMPORT_FAILED');
    expect(e.message).toMatch(/supersession chains are broken \((superseded_by|supersedes)_acyclic\)/);
  });

  it('a fact superseding itself', () => {
    const e = failure(
      chainEdited((older) => {
        older.supersedes = older.id;
        supersededBy(older, older.id);
      }),
    );
    expect(e.message).toMatch(/supersession chains are broken/);
  });

  it('pointers that disagree (a successor its predecessor does not name)', () => {
    const e = failure(chainEdited((older) => (older.supersededBy = null)));
    expect(e.message).toMatch(/supersession chains are broken \(supersedes_mirrored\)/);
  });

  it('an edge crossing partitions', () => {
    const i = indexOfType('edge');
    const e = failure(lines(...edit(i, (r) => (r.partition = 2))));
    expect(e.message).toMatch(new RegExp(`line ${i + 1}: field dependent: .*never crosses partitions`));
  });

  it('an end record whose counts do not match (records lost)', () => {
    const copy = [...ndjson];
    copy.splice(indexOfType('working_item'), 1);
    const e = failure(lines(...copy));
    expect(e.message).toMatch(new RegExp(`line ${copy.length}: field records: the end record counts`));
  });

  it('data after the end record', () => {
    const e = failure(lines(...ndjson, ndjson[1] as string));
    expect(e.message).toMatch(new RegExp(`line ${ndjson.length + 1}: data after the end record`));
  });

  it('a blank line inside the stream', () => {
    const copy = [...ndjson];
    copy.splice(3, 0, '');
    expect(failure(lines(...copy)).message).toMatch(/line 4: empty line/);
  });

  it('an oversized line', () => {
    const i = indexOfType('fact');
    const e = failure(lines(...edit(i, (r) => ((r.fact as Record<string, unknown>).value = 'x'.repeat(5000)))), 'big.ndjson', { maxLineBytes: 4096 });
    expect(e.message).toMatch(new RegExp(`line ${i + 1}: longer than the limit of 4096 bytes`));
  });

  it('an oversized value with the default limits', () => {
    const i = indexOfType('fact');
    const e = failure(lines(...edit(i, (r) => ((r.fact as Record<string, unknown>).value = 'y'.repeat(1_000_001)))));
    expect(e.message).toMatch(new RegExp(`line ${i + 1}: field fact\\.value`));
  });

  it('text that is not UTF-8', () => {
    const good = Buffer.from(lines(...ndjson.slice(0, 3)));
    const bad = Buffer.concat([good, Buffer.from([0xff, 0xfe, 0x7b, 0x0a]), Buffer.from(lines(...ndjson.slice(3)))]);
    expect(failure(bad).message).toMatch(/line 4: not valid UTF-8/);
  });

  it('a target database that is not empty', () => {
    const file = path.join(tmpDir(), 'ok.ndjson');
    fs.writeFileSync(file, lines(...ndjson));
    const store = openStore();
    store.scope({ kind: 'user', org: 'x', user: 'y' }, { create: true }).writeFact({ key: 'k', value: 'v' });
    expect(() => importSnapshotFile(store, file)).toThrow(/not empty/);
    expect(store.listPartitions()).toHaveLength(1);
    store.close();
  });

  describe('JSON documents', () => {
    it('a syntax error names its line', () => {
      const broken = json.replace('"records":[', '"records":[,');
      const e = failure(broken, 'bad.json');
      expect(e.message).toMatch(/line 2: not valid JSON/);
    });

    it('truncated', () => {
      const e = failure(json.slice(0, Math.floor(json.length / 2)), 'cut.json');
      expect(e.message).toMatch(/truncated|not valid JSON/);
    });

    it('a bad record names records[i] and its line', () => {
      const doc = JSON.parse(json) as { records: Array<Record<string, unknown>> };
      const i = doc.records.findIndex((r) => r.type === 'fact');
      const broken = json.split('\n');
      // Records sit one per line from line 3 on.
      broken[i + 2] = (broken[i + 2] as string).replace('"key":"budget"', '"key":42');
      const e = failure(broken.join('\n'), 'field.json');
      expect(e.message).toMatch(new RegExp(`records\\[${i}\\] \\(line ${i + 3}\\): field fact\\.key`));
    });

    it('missing end', () => {
      const doc = JSON.parse(json) as Record<string, unknown>;
      delete doc.end;
      expect(failure(JSON.stringify(doc), 'noend.json').message).toMatch(/field end: missing/);
    });

    it('unknown top-level key', () => {
      const doc = JSON.parse(json) as Record<string, unknown>;
      doc.extra = 1;
      expect(failure(JSON.stringify(doc), 'extra.json').message).toMatch(/field extra: unknown top-level key/);
    });

    it('over the size limit for a JSON document', () => {
      expect(failure(json, 'large.json', { maxJsonBytes: 1000 }).message).toMatch(/over the 1000-byte limit.*NDJSON/);
    });
  });

  describe('SQLite copies', () => {
    it('a truncated copy is refused before anything is imported', () => {
      const e = failure(sqliteCopy.subarray(0, Math.floor(sqliteCopy.length / 2)), 'cut.db');
      expect(['CORRUPT_DB', 'NOT_A_STATELENS_DB', 'IMPORT_FAILED']).toContain(e.code);
    });

    it('a SQLite file of another application', () => {
      const file = path.join(tmpDir(), 'other.db');
      const other = new Database(file);
      other.exec('CREATE TABLE t (x)');
      other.close();
      const e = failure(fs.readFileSync(file), 'other.db');
      expect(e.code).toBe('NOT_A_STATELENS_DB');
    });
  });
});
