// A fact value given as an object or array is bound by the same 100,000-character limit as text
// (measured on its JSON text, the form stored) and by a nesting limit, on every way in that
// shares the validation layer: the library, ingest, StateBench import, snapshot import and
// environment signals. Refused values are INVALID_INPUT (IMPORT_FAILED for files), never a stack
// overflow, and write nothing.
import fs from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { MAX_VALUE_CHARS, MAX_VALUE_DEPTH } from '../../shared/writes';
import { isStatelensError } from '../../shared/errors';
import { ingestEvents } from '../../electron/engine/ingest/ingest';
import { importStatebenchText } from '../../electron/engine/import/statebench';
import { exportStore } from '../../electron/engine/snapshot/export';
import { importSnapshotFile } from '../../electron/engine/snapshot/import';
import { describeStores } from '../helpers/stores';
import { tmpDir } from '../helpers/tmp';

const USER = { kind: 'user', org: 'acme', user: 'u1' } as const;

/** An array nested `depth` levels deep around one string. */
function nested(depth: number): unknown {
  let v: unknown = 'core';
  for (let i = 0; i < depth; i++) v = [v];
  return v;
}

/** An object whose JSON text is exactly `chars` characters long. */
function objectOfLength(chars: number): Record<string, string> {
  const frame = JSON.stringify({ text: '' }).length;
  return { text: 'x'.repeat(chars - frame) };
}

function codeOf(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    return isStatelensError(e) ? `${e.code}: ${e.message}` : `untyped: ${String(e)}`;
  }
  return 'no error';
}

// As JSON text: a value nested 10,000 deep cannot even be serialised by JSON.stringify.
const deepObjectText = `${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}`;
const tooLong = [objectOfLength(MAX_VALUE_CHARS + 1), ['y'.repeat(MAX_VALUE_CHARS)], { a: 'z'.repeat(3_000_000) }];
const tooDeep = [nested(MAX_VALUE_DEPTH + 1), nested(10_000), JSON.parse(deepObjectText) as unknown];
const textOf = (value: unknown): string =>
  value === tooDeep[1] ? `${'['.repeat(10_000)}"core"${']'.repeat(10_000)}` : value === tooDeep[2] ? deepObjectText : JSON.stringify(value);

describeStores('bounded fact values', (open) => {
  it('the library: an object at the limit is stored; one character over, or nested too deep, is INVALID_INPUT and writes nothing', () => {
    const store = open();
    try {
      const h = store.scope(USER, { create: true });
      expect(h.writeFact({ key: 'at_limit', value: objectOfLength(MAX_VALUE_CHARS) }).outcome).toBe('created');
      expect(h.getFact(h.currentFact('at_limit')?.id ?? '')?.value).toHaveLength(MAX_VALUE_CHARS);
      expect(h.writeFact({ key: 'deep_ok', value: nested(MAX_VALUE_DEPTH) as unknown[] }).outcome).toBe('created');
      for (const value of tooLong)
        expect(codeOf(() => h.writeFact({ key: 'big', value: value as Record<string, unknown> }))).toMatch(/^INVALID_INPUT: .*over the limit of 100000/);
      for (const value of tooDeep)
        expect(codeOf(() => h.writeFact({ key: 'deep', value: value as unknown[] }))).toMatch(/^INVALID_INPUT: .*deeper than 64 levels/);
      // A batch with one refused value writes none of it.
      expect(
        codeOf(() =>
          h.writeFacts([
            { key: 'fine', value: 'v' },
            { key: 'deep', value: nested(10_000) as unknown[] },
          ]),
        ),
      ).toMatch(/^INVALID_INPUT/);
      expect(
        h
          .allFacts()
          .map((f) => f.key)
          .sort(),
      ).toEqual(['at_limit', 'deep_ok']);
    } finally {
      store.close();
    }
  });

  it('ingest, StateBench import and environment signals refuse the same values', () => {
    const store = open();
    try {
      const h = store.scope(USER, { create: true });
      for (const value of [...tooLong, ...tooDeep]) {
        const ingest = codeOf(() =>
          ingestEvents(store, [{ type: 'state_write', ts: '2026-01-01T00:00:00Z', writes: [{ key: 'k', value }] }], { partition: USER }),
        );
        expect(ingest).toMatch(/^IMPORT_FAILED: .*field writes\.0\.value/);
        const timeline = {
          id: 't1',
          actors: { user: { id: 'u1', org: 'acme' } },
          initial_state: { persistent_facts: [{ id: 'F-1', key: 'k', value: '__value__' }] },
          events: [],
        };
        const line = JSON.stringify(timeline).replace('"value":"__value__"', `"value":${textOf(value)}`);
        expect(codeOf(() => importStatebenchText(store, `${line}\n`))).toMatch(/^(IMPORT_FAILED|INVALID_INPUT): .*value/);
        expect(codeOf(() => h.setEnvironment([{ key: 'alert', value }]))).toMatch(/^INVALID_INPUT: Environment signal alert: the value/);
      }
      expect(store.listPartitions().map((p) => p.label)).toEqual(['acme / user u1']);
      expect(h.allFacts()).toEqual([]);
      expect(h.environment()).toEqual([]);
    } finally {
      store.close();
    }
  });

  it('snapshot import: a stored value of 100,001 characters is IMPORT_FAILED and nothing is imported', async () => {
    const source = open();
    const dir = tmpDir();
    const file = path.join(dir, 's.ndjson');
    try {
      source.scope(USER, { create: true }).writeFact({ key: 'k', value: 'short' });
      await exportStore(source, { format: 'ndjson', out: file });
    } finally {
      source.close();
    }
    const text = fs.readFileSync(file, 'utf8').replace('"value":"short"', `"value":"${'v'.repeat(MAX_VALUE_CHARS + 1)}"`);
    fs.writeFileSync(file, text);
    const target = open();
    try {
      expect(codeOf(() => importSnapshotFile(target, file))).toMatch(/^IMPORT_FAILED: .*field fact\.value/);
      expect(target.listPartitions()).toEqual([]);
    } finally {
      target.close();
    }
  });
});
