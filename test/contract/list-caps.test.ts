// Unpaged list answers stay bounded: a partition with more sessions and saved queries than
// MAX_LISTED answers with the first MAX_LISTED and `truncated: true`, through the real worker,
// handlers, registrar and bridge (output validation on).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_LISTED } from '../../shared/contract';
import { Store } from '../../electron/engine/store';
import { startHarness, type Harness } from './harness';

const USER = { kind: 'user', org: 'acme', user: 'many' } as const;
let dir: string;
let h: Harness;
let partitionId: number;
let smallPartition: number;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'statelens-caps-'));
  const dbPath = path.join(dir, 'many.db');
  const store = Store.open(dbPath);
  const handle = store.scope(USER, { create: true });
  partitionId = handle.id;
  handle.addWorkingItems(
    Array.from({ length: MAX_LISTED + 5 }, (_, i) => ({
      sessionId: `s-${String(i).padStart(5, '0')}`,
      key: 'turn',
      value: `turn ${i}`,
      createdAt: new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString(),
    })),
  );
  for (let i = 0; i < MAX_LISTED + 3; i++) handle.saveQuery({ label: `q${i}`, prompt: `question ${i}` });
  const small = store.scope({ kind: 'user', org: 'acme', user: 'few' }, { create: true });
  smallPartition = small.id;
  small.saveQuery({ label: 'only', prompt: 'the one question' });
  store.close();
  h = await startHarness({ dataDir: path.join(dir, 'data'), dbPath });
}, 120_000);
afterAll(async () => {
  await h?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('unpaged lists', () => {
  it('carry at most MAX_LISTED rows and say when there were more', async () => {
    const sessions = await h.bridge.sessions.list({ partitionId });
    expect(sessions.ok).toBe(true);
    if (!sessions.ok) return;
    expect(sessions.value.sessions).toHaveLength(MAX_LISTED);
    expect(sessions.value.truncated).toBe(true);
    // Most recently active first: the newest session leads, the five oldest are the ones left out.
    expect(sessions.value.sessions[0]?.sessionId).toBe(`s-${String(MAX_LISTED + 4).padStart(5, '0')}`);
    expect(sessions.value.sessions.some((s) => s.sessionId === 's-00000')).toBe(false);

    const queries = await h.bridge.savedQueries.list({ partitionId });
    expect(queries.ok).toBe(true);
    if (!queries.ok) return;
    expect(queries.value.queries).toHaveLength(MAX_LISTED);
    expect(queries.value.truncated).toBe(true);
    expect(queries.value.queries[0]?.label).toBe('q0');

    const few = await h.bridge.savedQueries.list({ partitionId: smallPartition });
    expect(few).toMatchObject({ ok: true, value: { truncated: false, queries: [{ label: 'only' }] } });
  });
});
