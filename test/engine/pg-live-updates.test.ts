// Live updates across processes on a PostgreSQL server: a commit by another connection or another
// process reaches a store's change listener as an `external` event naming the partitions it
// changed, heard through LISTEN/NOTIFY rather than polled; the notification carries partition ids
// only (LISTEN is outside row-level security). The delay is printed, not asserted. PGlite has one
// connection per data folder, so it has no other writer to hear: only the server is tested.
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { benchScript, spawnScript } from '../../electron/bench/child-process';
import { changeChannel } from '../../electron/engine/db/pg/schema';
import type { ChangeEvent } from '../../electron/engine/context';
import { Store } from '../../electron/engine/store';
import { SERVER_SKIP_REASON, SERVER_URL, migratedServerDatabase } from '../helpers/pg';

if (!SERVER_URL) console.log(SERVER_SKIP_REASON);
console.log('PGlite: one in-process connection per data folder, so no other writer exists to be heard; only the server is tested');
let scratch: ReturnType<typeof migratedServerDatabase> | undefined;
afterAll(() => scratch?.drop());

function database(): string {
  scratch ??= migratedServerDatabase('live');
  return scratch.url;
}

/** Polls the store as the inspector's host does until an external event comes (or 10 s pass). */
async function nextExternal(store: Store, events: ChangeEvent[]): Promise<{ event: ChangeEvent | undefined; ms: number }> {
  const t0 = performance.now();
  while (performance.now() - t0 < 10_000) {
    store.pollExternalChanges();
    const event = events.find((e) => e.origin === 'external');
    if (event) return { event, ms: performance.now() - t0 };
    await new Promise((r) => setTimeout(r, 5));
  }
  return { event: undefined, ms: performance.now() - t0 };
}

describe.skipIf(!SERVER_URL)('live updates on a PostgreSQL server', () => {
  it("another connection's commit reaches the change listener with its partition; the store's own writes do not", async () => {
    const url = database();
    const target = { kind: 'server', url } as const;
    const inspector = Store.openPostgres(target);
    const agent = Store.openPostgres(target);
    // A raw listener on the channel sees exactly what travels: the partition ids.
    const raw = new pg.Client({ connectionString: url });
    await raw.connect();
    const payloads: string[] = [];
    raw.on('notification', (m) => payloads.push(m.payload ?? ''));
    await raw.query(`LISTEN "${changeChannel('statelens')}"`);
    try {
      const events: ChangeEvent[] = [];
      inspector.onChange((e) => events.push(e));
      const own = inspector.scope({ org: 'acme', kind: 'user', user: 'inspector' }, { create: true });
      own.writeFact({ key: 'city', value: 'Lyon' });
      expect(inspector.pollExternalChanges()).toBe(false);
      expect(events.map((e) => e.origin)).toEqual(['local']);
      events.length = 0;

      const p = agent.scope({ org: 'acme', kind: 'user', user: 'agent' }, { create: true });
      // Creating the partition was a commit of its own: heard first, then the write.
      expect((await nextExternal(inspector, events)).event?.partitionIds).toEqual([p.id]);
      events.length = 0;
      payloads.length = 0;
      const t0 = performance.now();
      p.writeFact({ key: 'budget', value: '$100,000 for the launch' });
      const { event, ms } = await nextExternal(inspector, events);
      console.log(`[live] another connection's commit heard after ${(performance.now() - t0).toFixed(1)} ms (${ms.toFixed(1)} ms of polling)`);
      expect(event?.partitionIds).toEqual([p.id]);
      // The notification named the partition, nothing of the fact.
      await new Promise((r) => setTimeout(r, 100));
      expect(payloads.length).toBeGreaterThan(0);
      for (const payload of payloads) expect(payload).toMatch(/^\d+(,\d+)*$/);
      expect(payloads.join(',')).not.toContain('budget');
      // Heard once: the next poll has nothing new.
      expect(inspector.pollExternalChanges()).toBe(false);
    } finally {
      await raw.end();
      agent.close();
      inspector.close();
    }
  }, 120_000);

  it("another process's commit reaches the change listener with its partition", async () => {
    const url = database();
    const inspector = Store.openPostgres({ kind: 'server', url });
    try {
      const events: ChangeEvent[] = [];
      inspector.onChange((e) => events.push(e));
      const writer = spawnScript(benchScript('load/pg-writer-process.ts'), [
        ...['--url', url, '--user', 'other-process', '--writes', '1', '--keys', '1'],
        // It waits for the signal below to write.
        ...['--start-at', String(Date.now() + 120_000)],
      ]);
      const ready = await writer.waitFor((m) => m.type === 'ready', 120_000);
      // Creating its partition was a commit too: start from what follows it.
      await nextExternal(inspector, events);
      events.length = 0;
      writer.proc.kill('SIGUSR2');
      await writer.waitFor((m) => m.type === 'committed', 120_000);
      const t0 = performance.now();
      const { event, ms } = await nextExternal(inspector, events);
      console.log(`[live] another process's commit heard ${(performance.now() - t0).toFixed(1)} ms after its report (${ms.toFixed(1)} ms of polling)`);
      expect(event?.partitionIds).toEqual([Number(ready.partition)]);
      await writer.exited;
    } finally {
      inspector.close();
    }
  }, 180_000);
});
