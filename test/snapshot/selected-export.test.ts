// Exports of a filtered view or of the state as of a time, in every format: exactly the facts
// the inspector's filter lists, facts as they stood at the as-of time, the other layers as far
// as they existed by then, and snapshots that still re-import on their own.
import fs from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { openDatabase } from '../../electron/engine/db/open';
import { exportStore } from '../../electron/engine/snapshot/export';
import { importSnapshotFile } from '../../electron/engine/snapshot/import';
import type { Store } from '../../electron/engine/store';
import type { ExportFormat, SnapshotHeader, SnapshotRecord } from '../../shared/snapshot';
import { describeStores } from '../helpers/stores';
import { tmpDir } from '../helpers/tmp';
import { USER, populate } from './populate';

const AS_OF = '2026-01-02T12:00:00.000Z';
/** The store's clock (what stamps agent state, documents and undated facts): after AS_OF. */
const LATER = { start: '2026-06-01T00:00:00.000Z' };

async function exported(store: Store, format: ExportFormat, extra: Record<string, unknown>): Promise<string> {
  const out = path.join(tmpDir(), `x.${format}`);
  await exportStore(store, { format, out, ...extra });
  return out;
}

function ndjson(file: string): { header: SnapshotHeader; records: SnapshotRecord[] } {
  const lines = fs
    .readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { type: string });
  return { header: lines[0] as unknown as SnapshotHeader, records: lines.slice(1, -1) as SnapshotRecord[] };
}

function facts(records: readonly SnapshotRecord[]) {
  return records.flatMap((r) => (r.type === 'fact' ? [r.fact] : []));
}

describeStores('filtered and as-of exports', (openStore) => {
  it('ndjson of a filter: exactly the facts the table lists, edges between them only, and it re-imports', async () => {
    const store = openStore();
    populate(store);
    const u = store.scope(USER);
    const listed = u.listFacts({ filter: { validity: 'valid', search: 'Approved' } }).rows.map((r) => r.id);
    expect(listed).toHaveLength(1);
    const file = await exported(store, 'ndjson', { partitionId: u.id, filter: { validity: 'valid', search: 'Approved' } });
    const { header, records } = ndjson(file);
    expect(header.selection).toEqual({ filter: expect.objectContaining({ validity: 'valid', search: 'Approved' }), facts: 1 });
    expect(facts(records).map((f) => f.id)).toEqual(listed);
    // The decision depends on the superseded budget, which is not in the file: no edge to it.
    expect(records.filter((r) => r.type === 'edge')).toEqual([]);
    const fresh = openStore();
    importSnapshotFile(fresh, file);
    expect(
      fresh
        .scope(USER)
        .validFacts()
        .map((f) => f.value),
    ).toEqual(['Approved $150,000 purchase']);
    fresh.close();
    store.close();
  });

  it('ndjson as of a time: the facts valid then, as they stood, and only what existed by then', async () => {
    const store = openStore(LATER);
    populate(store);
    const u = store.scope(USER);
    const then = u.allFactsAsOf(AS_OF);
    const file = await exported(store, 'ndjson', { partitionId: u.id, filter: { asOf: AS_OF } });
    const { header, records } = ndjson(file);
    expect(header.selection?.filter.asOf).toBe(AS_OF);
    const out = facts(records);
    expect(out.map((f) => f.id).sort()).toEqual(then.map((f) => f.id).sort());
    // "Tuesday 2pm" was superseded only on the 3rd: as of the 2nd it stood, valid.
    const tuesday = out.find((f) => f.value === 'Tuesday 2pm');
    expect(tuesday).toMatchObject({ status: 'active', isValid: true, supersededBy: null, validTo: null });
    for (const f of out) expect(f.isValid).toBe(true);
    // Working items (the 4th), agent state and context documents (stamped by the clock in June) came later.
    for (const type of ['working_item', 'agent_state', 'context_document', 'environment']) expect(records.filter((r) => r.type === type)).toEqual([]);
    const fresh = openStore();
    importSnapshotFile(fresh, file);
    expect(
      fresh
        .scope(USER)
        .validFacts()
        .map((f) => f.value)
        .sort(),
    ).toEqual(then.map((f) => f.value).sort());
    fresh.close();
    store.close();
  });

  it('sqlite copy of the whole database as of a time holds the as-of facts of every partition', async () => {
    const store = openStore(LATER);
    populate(store);
    const u = store.scope(USER);
    const file = await exported(store, 'sqlite', { filter: { asOf: AS_OF } });
    const db = openDatabase(file, { readonly: true });
    const rows = db.prepare('SELECT id, is_valid FROM facts').all() as Array<{ id: string; is_valid: number }>;
    db.close();
    // Only the user partitions had facts by the 2nd (the capability and org facts are dated by the clock, in June).
    const expected = [...u.allFactsAsOf(AS_OF), ...store.scope({ kind: 'user', org: 'acme', user: 'u2' }).allFactsAsOf(AS_OF)];
    expect(rows.map((r) => r.id).sort()).toEqual(expected.map((f) => f.id).sort());
    expect(rows.every((r) => r.is_valid === 1)).toBe(true);
    store.close();
  });

  it('markdown and statebench follow the filter and the as-of time', async () => {
    const store = openStore(LATER);
    populate(store);
    const u = store.scope(USER);
    const md = fs.readFileSync(await exported(store, 'markdown', { partitionId: u.id, filter: { asOf: AS_OF } }), 'utf8');
    expect(md).toContain('the state as of 2026-01-02T12:00:00.000Z');
    expect(md).toContain('Tuesday 2pm');
    expect(md).not.toContain('Thursday 3pm');
    expect(md).not.toContain('### Working set');
    const filtered = fs.readFileSync(await exported(store, 'markdown', { partitionId: u.id, filter: { search: 'Thursday' } }), 'utf8');
    expect(filtered).toContain('only the facts of a filter (1 fact)');
    expect(filtered).toContain('Thursday 3pm');
    expect(filtered).not.toContain('Max discount');
    const sb = JSON.parse(
      fs.readFileSync(await exported(store, 'statebench', { partitionId: u.id, filter: { validity: 'valid', search: 'discount' } }), 'utf8'),
    ) as {
      initial_state: { persistent_facts: Array<{ value: string; is_valid: boolean }> };
    };
    expect(sb.initial_state.persistent_facts.map((f) => f.value)).toEqual(['Max discount is 15%']);
    store.close();
  });
});
