// PostgreSQL URLs on the command line: `--db postgres://…`, or STATELENS_DB_URL when --db is not
// given. Every command that takes --db takes a server URL there too.
import { isDatabaseUrl } from '../engine/db/pg/target';
import { stringOpt, type ParsedCli } from './command';

export const DB_URL_ENV = 'STATELENS_DB_URL';

/** The PostgreSQL URL this run is pointed at, or undefined when it works on a file (or nothing). */
export function databaseUrl(args: ParsedCli, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const db = stringOpt(args, 'db');
  if (db !== undefined) return isDatabaseUrl(db) ? db : undefined;
  const fromEnv = env[DB_URL_ENV]?.trim();
  return fromEnv ? fromEnv : undefined;
}
