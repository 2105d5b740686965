// `statelens verify`: SQLite's integrity and foreign-key checks, the full-text index against its
// content and the engine's invariants, via the engine's verifier. Exit 0 only when
// every check holds.
import fs from 'node:fs';
import { StatelensError } from '../../../shared/errors';
import { Store } from '../../engine/store';
import { formatVerifyReport, verifyDatabase } from '../../engine/verify/verify';
import { EXIT, requireString, type CliCommand, type CliIO } from '../command';
import { formatPgRoleReport } from '../../engine/db/pg/role-report';
import { openPgStore, PG_OPTIONS, PG_USAGE } from '../database';
import { databaseUrl } from '../db-url';

export const verifyCommand: CliCommand = {
  name: 'verify',
  summary: 'Check database integrity and the engine invariants; exit 0 only when all hold',
  usage: `statelens verify --db FILE|URL [--roles] [--json]

Runs SQLite's integrity and foreign-key checks, compares the full-text index with the facts and
checks every invariant of the engine's model (a valid fact has no successor, chains are acyclic
and every pointer resolves, edges and rows stay inside their partition, ...) on FILE, opened
read-only and never modified. Prints each check with its result; --json prints the report as
one JSON object. Exit codes: 0 every check holds, 1 a check failed or the file cannot be
verified (not a Statelens database, corrupt, newer schema), 2 usage error.
On PostgreSQL the file checks give way to the schema version, the server's constraints (every
one validated) and its foreign keys (every one resolving); the model's invariants are the same.
--roles (a schema under the server setup) lists instead what each role can do there, table by
table, as the server answers for it, and fails when a grant differs from what the setup grants.
${PG_USAGE}`,
  options: {
    ...PG_OPTIONS,
    db: { type: 'string' },
    json: { type: 'boolean' },
    roles: { type: 'boolean' },
  },
  async run(args, io) {
    const url = databaseUrl(args);
    let store: Store;
    if (url !== undefined) store = openPgStore(args, url, { readonly: true });
    else {
      const path = requireString(args, 'db');
      if (!fs.existsSync(path)) throw new StatelensError('NOT_FOUND', `${path} does not exist`);
      store = Store.open(path, { readonly: true });
    }
    try {
      if (args.values.roles) return rolesReport(store, args.values.json === true, io);
      const report = verifyDatabase(store);
      if (args.values.json) io.out(JSON.stringify(report));
      else for (const line of formatVerifyReport(report)) io.out(line);
      return report.ok ? EXIT.ok : EXIT.failed;
    } finally {
      store.close();
    }
  },
};

function rolesReport(store: Store, json: boolean, io: CliIO): number {
  const report = store.roleReport();
  if (json) io.out(JSON.stringify(report));
  else for (const line of formatPgRoleReport(report)) io.out(line);
  return report.differences.length === 0 ? EXIT.ok : EXIT.failed;
}
