// One of several agent processes writing into the same partition of a PostgreSQL store at once:
// `--writes` facts over `--keys` shared keys, `--batch` facts per transaction, as fast as it can.
// Prints JSON lines: ready (the store is open), committed after every transaction (facts
// committed so far), done with its counts, outcomes and errors. Values name the writer and the
// write, so a check afterwards can tell every write apart.
// Usage: pg-writer-process.ts --url URL [--schema statelens] [--org acme] [--user shared]
//        [--writer 0] [--writes 1000] [--keys 50] [--batch 1] [--start-at EPOCH_MS] [--hold-at N]
// With --hold-at, the N-th transaction (from 0) writes its facts, prints `inside` and then stays
// open for a minute: a kill then lands mid-transaction for certain.
import { parseArgs } from 'node:util';
import { isStatelensError } from '../../../shared/errors';
import type { FactWriteInput } from '../../../shared/writes';
import { parsePgTarget } from '../../engine/db/pg/target';
import { writeFactsBatched } from '../../engine/facts/write';
import { Store } from '../../engine/store';

const { values } = parseArgs({
  options: {
    url: { type: 'string' },
    schema: { type: 'string', default: 'statelens' },
    org: { type: 'string', default: 'acme' },
    user: { type: 'string', default: 'shared' },
    writer: { type: 'string', default: '0' },
    writes: { type: 'string', default: '1000' },
    keys: { type: 'string', default: '50' },
    batch: { type: 'string', default: '1' },
    'start-at': { type: 'string' },
    'hold-at': { type: 'string' },
  },
});
if (!values.url) throw new Error('--url is required');
const writer = Number(values.writer);
const writes = Number(values.writes);
const keys = Number(values.keys);
const batchSize = Math.max(1, Number(values.batch));
const holdAt = values['hold-at'] === undefined ? -1 : Number(values['hold-at']);

const say = (msg: Record<string, unknown>): void => {
  process.stdout.write(`${JSON.stringify(msg)}\n`);
};

/** The i-th shared key: one word, so no two keys read as versions of one entity. */
function sharedKey(i: number): string {
  return `slot${String.fromCharCode(97 + (i % 26))}${String.fromCharCode(97 + Math.floor(i / 26))}`;
}

// Writers started together begin together (SIGUSR2 from the parent once all are open, or the
// given time): the point is that they overlap.
let go = false;
process.on('SIGUSR2', () => {
  go = true;
});
const store = Store.openPostgres(parsePgTarget(values.url), { schema: values.schema });
const handle = store.scope({ kind: 'user', org: values.org ?? 'acme', user: values.user ?? 'shared' }, { create: true });
say({ type: 'ready', pid: process.pid, partition: handle.id });
const startAt = Number(values['start-at'] ?? 0);
while (!go && Date.now() < startAt) await new Promise((r) => setTimeout(r, 5));

const outcomes: Record<string, number> = {};
const errors: Array<{ code: string; message: string }> = [];
let committed = 0;
let transactions = 0;
const start = performance.now();
for (let i = 0; i < writes; i += batchSize) {
  const batch: FactWriteInput[] = [];
  for (let j = i; j < Math.min(writes, i + batchSize); j++) {
    batch.push({
      key: sharedKey((j * 7 + writer * 3) % keys),
      value: `writer ${writer} write ${j}`,
      source: { type: 'user', identity: `writer-${writer}`, authority: 'manager' },
    });
  }
  try {
    const results =
      transactions === holdAt
        ? handle.transact('facts', (ctx) => {
            const written = writeFactsBatched(ctx, batch);
            say({ type: 'inside', transaction: transactions });
            Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 60_000);
            return written;
          })
        : handle.writeFacts(batch);
    for (const r of results) outcomes[r.outcome] = (outcomes[r.outcome] ?? 0) + 1;
    committed += batch.length;
    transactions++;
    say({ type: 'committed', committed });
  } catch (e) {
    errors.push({ code: isStatelensError(e) ? e.code : 'UNTYPED', message: e instanceof Error ? e.message : String(e) });
    if (errors.length > 50) break;
  }
}
const elapsed = (performance.now() - start) / 1000;
store.close();
say({ type: 'done', writer, committed, transactions, elapsed, rate: committed / elapsed, outcomes, errorCount: errors.length, errors: errors.slice(0, 10) });
