// Before `npm start` / `npm run dev`: is there an Electron binary that runs? npm installs the
// electron package without it (Electron downloads it on first launch, which needs internet), so a
// newcomer offline would otherwise meet a stack trace from the build tool. Without one, this says
// what is missing, the command that gets it, and the browser mode that works now; exits 1.
// Finds the binary as the electron package does (path.txt, ELECTRON_OVERRIDE_DIST_PATH).
// Usage: node electron/build/electron-ready.mjs
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const electronDir = path.join(root, 'node_modules', 'electron');

const PLATFORM_PATHS = { darwin: 'Electron.app/Contents/MacOS/Electron', linux: 'electron', freebsd: 'electron', openbsd: 'electron', win32: 'electron.exe' };

/** Where the electron package would start the binary from (it need not exist). */
function electronBinaryPath() {
  const pathFile = path.join(electronDir, 'path.txt');
  const name = fs.existsSync(pathFile) ? fs.readFileSync(pathFile, 'utf8').trim() : (PLATFORM_PATHS[process.platform] ?? 'electron');
  const override = process.env.ELECTRON_OVERRIDE_DIST_PATH;
  return override ? path.join(override, name) : path.join(electronDir, 'dist', name);
}

const BROWSER_MODE = [
  'Meanwhile `npx statelens serve` opens the same inspector in a browser, offline, on the same',
  'database (add `--db FILE` for another one).',
];

function refuse(lines) {
  console.error(['statelens: the desktop app cannot start.', ...lines, ...BROWSER_MODE].join('\n  '));
  process.exit(1);
}

if (!fs.existsSync(path.join(electronDir, 'package.json'))) {
  refuse([
    'The electron package is not installed (node_modules/electron is missing).',
    'Install the dependencies with `npm install`, then run `npm start` again.',
  ]);
}

const binary = electronBinaryPath();
const shown = path.relative(root, binary).startsWith('..') ? binary : path.relative(root, binary);
if (!fs.existsSync(binary)) {
  refuse([
    `The Electron binary is missing (${shown}): \`npm install\` does not download it; Electron`,
    'fetches it on first launch, and that needs internet once. Get it with:',
    '',
    '    npx install-electron',
    '',
    'then run `npm start` again (its first run also builds better-sqlite3 for Electron, again with internet).',
  ]);
}

// The binary's own version answer, run as plain Node so that no window or display is needed:
// it fails when the file is not executable or lacks its shared libraries.
const probe = spawnSync(binary, ['--version'], { env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' }, encoding: 'utf8', timeout: 30_000 });
if (probe.error || probe.status !== 0) {
  const why = (probe.error?.message ?? `${probe.stderr ?? ''}${probe.stdout ?? ''}`.trim()) || `exit ${probe.status ?? probe.signal}`;
  refuse([
    `The Electron binary at ${shown} cannot run here:`,
    `    ${why.split('\n').slice(0, 3).join('\n    ')}`,
    'A missing shared library needs the system packages Electron needs (on Debian: libnss3, libgtk-3-0,',
    'libasound2); a damaged download is fetched again by removing node_modules/electron/dist and running',
    '`npx install-electron` (internet once).',
  ]);
}
