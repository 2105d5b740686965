// What every open that does not migrate says about a store older than this build: the error,
// naming the one command that upgrades it (`statelens init --db …`), for a SQLite file and for a
// PostgreSQL schema alike.
import { StatelensError } from '../../../shared/errors';
import { DEFAULT_PG_SCHEMA } from './pg/schema';

/** `value` as one shell word (quoted only when it needs to be). */
function shellWord(value: string): string {
  return /^[\w@%+=:,./-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
}

/** The command that creates the store `db` names, or migrates it to this build's schema. */
export function initCommandFor(db: string, schema: string = DEFAULT_PG_SCHEMA): string {
  return `statelens init --db ${shellWord(db)}${schema === DEFAULT_PG_SCHEMA ? '' : ` --schema ${shellWord(schema)}`}`;
}

/** A SQLite file at an older schema version, opened read-only (which never migrates). */
export function olderFileError(path: string, version: number, current: number): StatelensError {
  return new StatelensError(
    'READ_ONLY',
    `${path} has schema version ${version}, older than this Statelens's ${current}; read-only mode does not migrate it. ` +
      `Upgrade it with \`${initCommandFor(path)}\` (copy the file first if an older Statelens still uses it).`,
    { fileVersion: version, supportedVersion: current, upgrade: initCommandFor(path) },
  );
}

/** A PostgreSQL schema with no store yet (version 0) or an older one: opening never creates or
 * migrates it. `where` is the redacted target, so a password shows as *** in the command. */
export function olderPgSchemaError(schema: string, where: string, version: number, current: number): StatelensError {
  const command = initCommandFor(where, schema);
  const password = where.includes('***') ? ' (with the password in place of ***)' : '';
  const what = version === 0 ? `holds no Statelens store yet; create it` : `has schema version ${version}, older than this Statelens's ${current}; upgrade it`;
  return new StatelensError('NOT_FOUND', `Schema "${schema}" on ${where} ${what} with \`${command}\`${password}.`, {
    schemaVersion: version,
    supportedVersion: current,
    upgrade: command,
  });
}
