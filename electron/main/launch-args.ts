// The desktop app's command line: `--open-database=PATH` (what `statelens open FILE` passes)
// names the database to open instead of the last one. Kept free of Electron so the CLI shares it.

export const OPEN_DATABASE_FLAG = '--open-database';

/** The database named on a command line (the app's own, or a second launch's), if any. */
export function databaseFromArgv(argv: readonly string[]): string | undefined {
  for (const arg of argv) {
    if (arg.startsWith(`${OPEN_DATABASE_FLAG}=`)) {
      const value = arg.slice(OPEN_DATABASE_FLAG.length + 1);
      if (value !== '') return value;
    }
  }
  return undefined;
}
