// Lookalike partition names do not become distinct partitions: a fullwidth or decomposed spelling
// reaches the same partition, and names with invisible characters or mixed scripts are refused
// with INVALID_INPUT and create nothing, through the library and the CLI (a real child process).
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { statelens } from '../helpers/child';
import { describeStores } from '../helpers/stores';
import { tmpDir } from '../helpers/tmp';
import { codeOf } from '../helpers/errors';

describeStores('lookalike partition names', (open) => {
  it('the library: one partition for every normal-form spelling; zero-width and mixed-script names refused', () => {
    const store = open();
    try {
      const acme = store.scope({ kind: 'user', org: 'acme', user: 'rene\u0301' }, { create: true });
      acme.writeFact({ key: 'budget', value: '$100' });
      const fullwidth = store.scope({ kind: 'user', org: 'ａｃｍｅ', user: 'ren\u00e9' }, { create: true });
      expect(fullwidth.id).toBe(acme.id);
      expect(fullwidth.currentValue('budget')).toBe('$100');
      for (const ref of [
        { kind: 'user', org: '\u0430cme', user: 'u1' },
        { kind: 'user', org: 'ac\u200bme', user: 'u1' },
        { kind: 'user', org: 'acme', user: 'u\u200d1' },
        { kind: 'capability', org: 'acme', capability: 'b\u0456lling' },
        { kind: 'organizational', org: 'acme\ufeff' },
      ] as const) {
        expect(
          codeOf(() => store.scope(ref, { create: true })),
          JSON.stringify(ref),
        ).toBe('INVALID_INPUT');
      }
      expect(store.listPartitions().map((p) => p.label)).toEqual(['acme / user rené']);
    } finally {
      store.close();
    }
  });
});

describe('lookalike partition names on the command line', () => {
  it('statelens ingest: a lookalike --partition is exit 2 with a message naming the characters; nothing is created', async () => {
    const dir = tmpDir();
    const db = path.join(dir, 'agent.db');
    const events = path.join(dir, 'e.jsonl');
    fs.writeFileSync(events, `${JSON.stringify({ type: 'state_write', ts: '2026-01-01T00:00:00Z', writes: [{ key: 'k', value: 'v' }] })}\n`);
    const mixed = await statelens(['ingest', events, '--db', db, '--partition', 'user:\u0430cme/u1']);
    expect(mixed.code).toBe(2);
    expect(mixed.stderr).toMatch(/mixes scripts \(Cyrillic "а" \(U\+0430\), Latin "c".*\[INVALID_INPUT\]/);
    const invisible = await statelens(['ingest', events, '--db', db, '--partition', 'user:acme/u\u200b1']);
    expect(invisible.code).toBe(2);
    expect(invisible.stderr).toMatch(/u\\u200b1.*invisible characters.*\[INVALID_INPUT\]/);
    expect(fs.existsSync(db)).toBe(false);
    const ok = await statelens(['ingest', events, '--db', db, '--partition', 'user:ａｃｍｅ/u1']);
    expect(ok.code, ok.stderr).toBe(0);
    const facts = await statelens(['facts', '--db', db, '--partition', 'user:acme/u1', '--json']);
    expect(facts.stdout).toMatch(/"key":"k"/);
  });
});
