// `statelens open [FILE|URL]`: launches the desktop app (Electron, from the electron package
// installed beside statelens) on a database file, or on the last one opened when none is given.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { StatelensError } from '../../../shared/errors';
import { OPEN_DATABASE_FLAG } from '../../main/launch-args';
import { EXIT, type CliCommand } from '../command';
import { packageRoot } from '../package-root';

/**
 * The Electron executable the electron package downloaded on install, found as that package
 * finds it (node_modules/electron/path.txt, or ELECTRON_OVERRIDE_DIST_PATH) but without loading
 * the package, which would start a download when the executable is missing.
 */
export function electronBinary(root: string): { path: string } | { missing: string } {
  let dir: string;
  try {
    dir = path.dirname(createRequire(path.join(root, 'package.json')).resolve('electron/package.json'));
  } catch {
    return { missing: 'the electron package is not installed' };
  }
  const pathFile = path.join(dir, 'path.txt');
  const executable = fs.existsSync(pathFile) ? fs.readFileSync(pathFile, 'utf8').trim() : undefined;
  const override = process.env.ELECTRON_OVERRIDE_DIST_PATH;
  if (!override && !executable) return { missing: `Electron's executable was never downloaded (${pathFile} is missing)` };
  const binary = override ? path.join(override, executable || 'electron') : path.join(dir, 'dist', executable ?? 'electron');
  if (!fs.existsSync(binary)) return { missing: `Electron's executable ${binary} is not there (its download did not finish or was removed)` };
  return { path: binary };
}

/** A database argument as a file path: a plain path, or a file:// URL. Other URLs are refused. */
export function databasePath(arg: string): string {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(arg)) {
    if (arg.toLowerCase().startsWith('file://')) return fileURLToPath(arg);
    throw new StatelensError(
      'INVALID_INPUT',
      `statelens open takes a database file or a file:// URL, not ${arg.slice(0, 80)}; to look at a \`statelens serve\` address, open it in a browser`,
    );
  }
  return path.resolve(arg);
}

export const openCommand: CliCommand = {
  name: 'open',
  summary: 'Open the desktop app on a database (FILE or file:// URL; default: the last one)',
  usage: `statelens open [FILE|URL]

Starts the Statelens desktop app (Electron) on FILE, or on the database it opened last when no
FILE is given, and returns at once; the app keeps running. A file:// URL is read as its path.
Needs the Electron executable that \`npm install\` downloads with the electron package; without it
this says so and exits 1 (use \`statelens serve --db FILE\` for the browser instead).`,
  options: {},
  allowPositionals: true,
  async run(args, io) {
    if (args.positionals.length > 1) throw new StatelensError('INVALID_INPUT', 'statelens open takes one database (FILE or URL)');
    const arg = args.positionals[0];
    const db = arg === undefined ? undefined : databasePath(arg);
    if (db !== undefined && !fs.existsSync(db)) throw new StatelensError('NOT_FOUND', `${db} does not exist (create one with \`statelens demo --db FILE\`)`);
    const root = packageRoot();
    const electron = electronBinary(root);
    if ('missing' in electron) {
      io.err(
        `statelens open: cannot start the desktop app: ${electron.missing}. Run \`npx install-electron\` or reinstall with \`npm install\` (either downloads Electron), or use \`statelens serve${db ? ` --db ${db}` : ''}\` to inspect in a browser.`,
      );
      return EXIT.failed;
    }
    const child = spawn(electron.path, [root, ...(db ? [`${OPEN_DATABASE_FLAG}=${db}`] : [])], { cwd: root, detached: true, stdio: 'ignore' });
    await new Promise<void>((resolve, reject) => {
      child.once('spawn', () => resolve());
      child.once('error', (e) => reject(new StatelensError('INTERNAL', `Could not start ${electron.path}: ${e.message}`)));
    });
    child.unref();
    io.out(`statelens open: started the desktop app${db ? ` on ${db}` : ''}`);
    return EXIT.ok;
  },
};
