// Another process writing the database (run with `node --import tsx writer.ts DB`, DB a file or
// what `--db` takes for a PostgreSQL store): one fact.
import { openPgStore } from '../../electron/cli/database';
import { isDatabaseUrl } from '../../electron/engine/db/pg/target';
import { Store } from '../../electron/engine/store';

const db = process.argv[2] ?? '';
const store = isDatabaseUrl(db) ? openPgStore({ values: {}, positionals: [] }, db) : Store.open(db);
store.scope({ kind: 'user', org: 'acme', user: 'ana' }, { create: true }).writeFact({ key: 'from_another_process', value: `written by pid ${process.pid}` });
store.close();
console.log(JSON.stringify({ type: 'done' }));
