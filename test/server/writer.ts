// Another process writing the database (run with `node --import tsx writer.ts DB`, DB a file or
// what `--db` takes for a PostgreSQL store): one fact.
import { openDb } from '../../electron/cli/database';

const store = openDb({ values: { db: process.argv[2] ?? '' }, positionals: [] }, {});
store.scope({ kind: 'user', org: 'acme', user: 'ana' }, { create: true }).writeFact({ key: 'from_another_process', value: `written by pid ${process.pid}` });
store.close();
console.log(JSON.stringify({ type: 'done' }));
