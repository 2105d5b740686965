// PostgreSQL URLs on the command line: `--db postgres://…`, or STATELENS_DB_URL when --db is not
// given. Commands that cannot use a server yet say so with a typed error before touching anything.
import { StatelensError } from '../../shared/errors';
import { isDatabaseUrl, redactUrl } from '../engine/db/pg/target';
import { stringOpt, type CliCommand, type ParsedCli } from './command';

export const DB_URL_ENV = 'STATELENS_DB_URL';

/** The PostgreSQL URL this run is pointed at, or undefined when it works on a file (or nothing). */
export function databaseUrl(args: ParsedCli, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const db = stringOpt(args, 'db');
  if (db !== undefined) return isDatabaseUrl(db) ? db : undefined;
  const fromEnv = env[DB_URL_ENV]?.trim();
  return fromEnv ? fromEnv : undefined;
}

/** Refuses a PostgreSQL URL for a command that takes --db but cannot work on a server yet. */
export function refuseUnsupportedUrl(cmd: CliCommand, args: ParsedCli, env: NodeJS.ProcessEnv = process.env): void {
  if (cmd.acceptsDatabaseUrl || !('db' in cmd.options)) return;
  const url = databaseUrl(args, env);
  if (url === undefined) return;
  const from = stringOpt(args, 'db') === undefined ? ` (from ${DB_URL_ENV})` : '';
  throw new StatelensError(
    'NOT_SUPPORTED',
    `PostgreSQL is not supported by this command yet: ${redactUrl(url)}${from} is a server URL; give --db a Statelens database file (\`statelens init\` already creates a server schema)`,
    { command: cmd.name },
  );
}
