// better-sqlite3's native module failing to load (never built because its install script was
// blocked or skipped, or built for another Node or for Electron) is not a database problem: the
// typed error says which build is missing and the command that makes it.
import { StatelensError } from '../../../shared/errors';

/** Signs of a native module that cannot be loaded, in Node's and the bindings package's words. */
const LOAD_FAILURE =
  /Could not locate the bindings file|NODE_MODULE_VERSION|was compiled against a different Node\.js version|ERR_DLOPEN_FAILED|invalid ELF header/;

/** The typed error for `e` when it is a failure to load the native module, else undefined.
 * `nativeBinding` is the Electron-ABI build the desktop app passes (absent: Node's own build). */
export function nativeModuleError(e: unknown, nativeBinding?: string): StatelensError | undefined {
  const code = typeof e === 'object' && e !== null && 'code' in e ? String((e as { code: unknown }).code) : '';
  const message = e instanceof Error ? e.message : String(e);
  const missingBinding = nativeBinding !== undefined && code === 'MODULE_NOT_FOUND' && message.includes(nativeBinding);
  if (!missingBinding && code !== 'ERR_DLOPEN_FAILED' && !LOAD_FAILURE.test(message)) return undefined;
  const firstLine = message.split('\n')[0]?.trim() ?? '';
  const fix =
    nativeBinding !== undefined
      ? `The Electron build of better-sqlite3 (${nativeBinding}) cannot be loaded: rebuild it with \`node electron/build/electron-native.mjs --force\` (needs internet once).`
      : "better-sqlite3's native module is not built for this Node: its install script did not run (npm 12 runs only the install scripts package.json's allowScripts allows; --ignore-scripts runs none) or ran under another Node. Build it with `npm rebuild better-sqlite3` in the Statelens folder.";
  return new StatelensError('DB_UNAVAILABLE', `SQLite cannot start. ${fix} (${firstLine})`, { node: process.version });
}
