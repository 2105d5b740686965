// Builds better-sqlite3 for Electron's ABI into .electron-native/electron-<version>/ without
// touching node_modules/better-sqlite3 (whose Node build serves the tests and the CLI). The app's
// engine worker loads that file through better-sqlite3's `nativeBinding` option.
//
// How: copy the package sources (not its build/) into .electron-native/src-<version>/, then in
// that copy try prebuild-install for the Electron runtime (downloads a prebuilt binary) and fall
// back to node-gyp against Electron's headers (downloads the headers, compiles). Both need
// internet once; without it this script says so and exits 1, changing nothing else.
// Usage: node electron/build/electron-native.mjs [--force]
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const modules = path.join(root, 'node_modules');
const sourcePkg = path.join(modules, 'better-sqlite3');
const force = process.argv.includes('--force');

function fail(message) {
  console.error(`electron-native: ${message}`);
  process.exit(1);
}

function readVersion(pkgDir) {
  try {
    return JSON.parse(fs.readFileSync(path.join(pkgDir, 'package.json'), 'utf8')).version;
  } catch {
    return undefined;
  }
}

const electronVersion = readVersion(path.join(modules, 'electron'));
if (!electronVersion) fail('electron is not installed; run `npm install` first.');
if (!fs.existsSync(path.join(sourcePkg, 'binding.gyp'))) fail('node_modules/better-sqlite3 is missing or incomplete; run `npm install` first.');

const outDir = path.join(root, '.electron-native', `electron-${electronVersion}`);
const target = path.join(outDir, 'better_sqlite3.node');
const stampFile = path.join(outDir, 'built-from.json');
const sqliteVersion = readVersion(sourcePkg);
const stamp = JSON.stringify({ electron: electronVersion, betterSqlite3: sqliteVersion, platform: process.platform, arch: process.arch });

if (!force && fs.existsSync(target) && fs.existsSync(stampFile) && fs.readFileSync(stampFile, 'utf8') === stamp) {
  console.log(`electron-native: better-sqlite3 ${sqliteVersion} for Electron ${electronVersion} is ready (${path.relative(root, target)})`);
  process.exit(0);
}

const work = path.join(root, '.electron-native', `src-${electronVersion}`, 'better-sqlite3');
fs.rmSync(path.dirname(work), { recursive: true, force: true });
fs.mkdirSync(work, { recursive: true });
for (const entry of ['package.json', 'binding.gyp', 'lib', 'src', 'deps']) {
  const from = path.join(sourcePkg, entry);
  if (fs.existsSync(from)) fs.cpSync(from, path.join(work, entry), { recursive: true });
}
// The copy resolves its tools (prebuild-install, node-gyp, bindings) from the project's modules.
fs.symlinkSync(modules, path.join(work, 'node_modules'), 'dir');

function run(label, command, args) {
  console.log(`electron-native: ${label}...`);
  const r = spawnSync(command, args, {
    cwd: work,
    stdio: ['ignore', 'pipe', 'pipe'],
    encoding: 'utf8',
    env: { ...process.env, npm_config_runtime: 'electron', npm_config_target: electronVersion },
  });
  const output = `${r.stdout ?? ''}${r.stderr ?? ''}`.trim();
  return { ok: r.status === 0, output };
}

const built = path.join(work, 'build', 'Release', 'better_sqlite3.node');
const attempts = [];
const prebuild = run(
  `downloading a prebuilt better-sqlite3 ${sqliteVersion} for Electron ${electronVersion} (${process.platform}-${process.arch})`,
  process.execPath,
  [
    path.join(modules, 'prebuild-install', 'bin.js'),
    '--runtime=electron',
    `--target=${electronVersion}`,
    `--arch=${process.arch}`,
    `--platform=${process.platform}`,
    '--verbose',
  ],
);
attempts.push(['prebuild-install', prebuild]);
if (!prebuild.ok || !fs.existsSync(built)) {
  const gypBin = path.join(modules, 'node-gyp', 'bin', 'node-gyp.js');
  const gyp = fs.existsSync(gypBin)
    ? run(`compiling against Electron ${electronVersion} headers with node-gyp`, process.execPath, [
        gypBin,
        'rebuild',
        '--release',
        '--runtime=electron',
        `--target=${electronVersion}`,
        `--arch=${process.arch}`,
        '--dist-url=https://electronjs.org/headers',
      ])
    : { ok: false, output: 'node-gyp is not installed' };
  attempts.push(['node-gyp', gyp]);
}

if (!fs.existsSync(built)) {
  for (const [name, r] of attempts) console.error(`--- ${name} ---\n${r.output.split('\n').slice(-12).join('\n')}`);
  fs.rmSync(path.dirname(work), { recursive: true, force: true });
  const nativeRoot = path.join(root, '.electron-native');
  if (fs.existsSync(nativeRoot) && fs.readdirSync(nativeRoot).length === 0) fs.rmdirSync(nativeRoot);
  fail(
    [
      `could not build better-sqlite3 for Electron ${electronVersion}.`,
      'Both ways need internet once: prebuild-install downloads a prebuilt binary from GitHub; node-gyp',
      'downloads Electron headers from electronjs.org and compiles (needs python3, make and a C++ compiler).',
      'Connect and run `node electron/build/electron-native.mjs` (or `npm start`) again.',
      'node_modules/better-sqlite3 was not touched: `npm test` and the CLI keep working.',
    ].join('\n  '),
  );
}

fs.mkdirSync(outDir, { recursive: true });
fs.copyFileSync(built, target);
fs.writeFileSync(stampFile, stamp);
fs.rmSync(path.dirname(work), { recursive: true, force: true });
console.log(`electron-native: built ${path.relative(root, target)} (better-sqlite3 ${sqliteVersion}, Electron ${electronVersion})`);
