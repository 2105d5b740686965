// Writes per second on a PostgreSQL server with 1, 4 and 8 writer processes on the same 50 keys
// of one partition (each run in a partition of its own), and the chain check after each run.
// Figures for the machine, printed. Works in a scratch schema of the given database, dropped after.
// Usage: pg-writers-bench.ts --url postgres://… [--writes 1000] [--writers 1,4,8] [--keys 50]
import { parseArgs } from 'node:util';
import { migratePg } from '../../engine/db/pg/schema';
import { quoteIdent, SyncPg } from '../../engine/db/pg/sync-client';
import { checkChains, startPgWriters } from './pg-writers';

const { values } = parseArgs({
  options: {
    url: { type: 'string', default: process.env.STATELENS_TEST_PG_URL },
    writes: { type: 'string', default: '1000' },
    writers: { type: 'string', default: '1,4,8' },
    keys: { type: 'string', default: '50' },
  },
});
if (!values.url) throw new Error('--url (or STATELENS_TEST_PG_URL) is required');
const url = values.url;
const schema = `bench_writers_${process.pid}`;
const admin = SyncPg.open({ kind: 'server', url });
migratePg(admin, { schema });
try {
  for (const writers of (values.writers ?? '1,4,8').split(',').map(Number)) {
    const run = await startPgWriters({ url, schema, writers, writes: Number(values.writes), keys: Number(values.keys), user: `bench${writers}` });
    const { done, seconds } = await run.finished;
    const committed = done.reduce((a, d) => a + Number(d.committed), 0);
    const errors = done.reduce((a, d) => a + Number(d.errorCount), 0);
    const chains = checkChains(url, schema, run.partition);
    const whole = chains.keysWithoutOneValid.length === 0 && chains.brokenLinks.length === 0 && chains.incompleteChains.length === 0;
    console.log(
      `${writers} writer(s) × ${values.writes}: ${committed} writes in ${seconds.toFixed(1)} s = ${(committed / seconds).toFixed(0)} writes/s; errors ${errors}; chains ${whole ? 'whole' : 'BROKEN'}`,
    );
  }
} finally {
  admin.exec(`DROP SCHEMA ${quoteIdent(schema)} CASCADE`);
  admin.close();
}
