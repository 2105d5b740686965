// Many agent processes writing the same keys of one partition of a PostgreSQL server at once:
// supersession decisions are serialised per key inside the database, so afterwards every key has
// exactly one valid fact and one whole chain, nothing is lost and no conflict reaches a writer.
// Real child processes; 8 × 1,000 writes on 50 keys by default (about a minute on a loaded
// two-core machine), fewer with STATELENS_PG_WRITERS / STATELENS_PG_WRITES. A writer killed with kill -9 mid-run leaves whole
// transactions only, and the others carry on. Rates are printed, never asserted.
import { afterAll, describe, expect, it } from 'vitest';
import { checkChains, startPgWriters } from '../../electron/bench/load/pg-writers';
import { SyncPg } from '../../electron/engine/db/pg/sync-client';
import { envInt } from '../helpers/child';
import { SERVER_SKIP_REASON, SERVER_URL, migratedServerDatabase } from '../helpers/pg';

const WRITERS = envInt('STATELENS_PG_WRITERS', 8);
const WRITES = envInt('STATELENS_PG_WRITES', 1000);
const KEYS = 50;

if (!SERVER_URL) console.log(SERVER_SKIP_REASON);
let scratch: ReturnType<typeof migratedServerDatabase> | undefined;
afterAll(() => scratch?.drop());

function database(): string {
  scratch ??= migratedServerDatabase('writers');
  return scratch.url;
}

describe.skipIf(!SERVER_URL)('concurrent writers on a PostgreSQL server', () => {
  it(`${WRITERS} processes × ${WRITES} writes on ${KEYS} shared keys: one valid fact per key, whole chains, nothing lost`, async () => {
    const url = database();
    const run = await startPgWriters({ url, writers: WRITERS, writes: WRITES, keys: KEYS, user: 'shared' });
    const { done, seconds } = await run.finished;
    const committed = done.reduce((a, d) => a + Number(d.committed), 0);
    const outcomes: Record<string, number> = {};
    for (const d of done) for (const [k, n] of Object.entries(d.outcomes as Record<string, number>)) outcomes[k] = (outcomes[k] ?? 0) + n;
    console.log(
      `[pg writers] ${WRITERS} × ${WRITES} writes in ${seconds.toFixed(1)} s: ${(committed / seconds).toFixed(0)} writes/s; outcomes ${JSON.stringify(outcomes)}`,
    );

    for (const d of done) expect(d.errorCount, JSON.stringify(d.errors)).toBe(0);
    expect(committed).toBe(WRITERS * WRITES);
    expect(outcomes.duplicate ?? 0).toBe(0);

    const report = checkChains(url, 'statelens', run.partition);
    expect(report.facts).toBe(WRITERS * WRITES);
    expect(report.keys).toBe(KEYS);
    expect(report.keysWithoutOneValid).toEqual([]);
    expect(report.brokenLinks).toEqual([]);
    expect(report.incompleteChains).toEqual([]);
  }, 600_000);

  it('a writer killed with kill -9 mid-transaction leaves only whole transactions; the others finish', async () => {
    const url = database();
    const batch = 10;
    const writes = 200;
    const held = 5;
    // Writer 0 writes its sixth transaction and then holds it open (its key locks too).
    const run = await startPgWriters({ url, writers: 3, writes, keys: KEYS, batch, user: 'killed', holdAt: held });
    // The victim never prints its done line: waited on per writer below instead.
    run.finished.catch(() => undefined);
    const victim = run.children[0];
    if (!victim) throw new Error('no writer started');
    await victim.waitFor((m) => m.type === 'inside', 120_000);
    victim.killHard();
    const exit = await victim.exited;
    expect(exit.signal).toBe('SIGKILL');
    const seenBeforeKill = Math.max(0, ...victim.messages.filter((m) => m.type === 'committed').map((m) => Number(m.committed)));
    expect(seenBeforeKill).toBe(held * batch);

    const others = await Promise.all(run.children.slice(1).map((c) => c.waitFor((m) => m.type === 'done', 600_000)));
    for (const d of others) {
      expect(d.errorCount, JSON.stringify(d.errors)).toBe(0);
      expect(d.committed).toBe(writes);
    }

    const conn = SyncPg.open({ kind: 'server', url }, { searchPath: '"statelens"' });
    let victimFacts: number;
    try {
      victimFacts = Number(
        conn.query<{ n: number }>("SELECT count(*)::int AS n FROM facts WHERE partition_id = $1 AND value LIKE 'writer 0 write %'", [run.partition]).rows[0]?.n,
      );
    } finally {
      conn.close();
    }
    console.log(`[pg writers] killed writer: ${seenBeforeKill} facts reported committed, ${victimFacts} stored`);
    // Whole transactions only: every one it committed is there, nothing of the one it died in.
    expect(victimFacts).toBe(seenBeforeKill);

    const report = checkChains(url, 'statelens', run.partition);
    expect(report.facts).toBe(2 * writes + victimFacts);
    expect(report.keysWithoutOneValid).toEqual([]);
    expect(report.brokenLinks).toEqual([]);
    expect(report.incompleteChains).toEqual([]);
  }, 600_000);
});
