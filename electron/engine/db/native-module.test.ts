// A native module that cannot load is reported as what it is, with the command that builds it:
// through openDatabase with a broken Electron build (a new file and an existing one), and the
// error Node's own build gives when it was never made (the bindings package's real failure).
import { createRequire } from 'node:module';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { StatelensError } from '../../../shared/errors';
import { tmpDbPath, tmpDir } from '../../../test/helpers/tmp';
import { nativeModuleError } from './native-module';
import { openDatabase } from './open';

function thrown(f: () => unknown): StatelensError {
  try {
    f();
  } catch (e) {
    if (e instanceof StatelensError) return e;
    throw e;
  }
  throw new Error('nothing was thrown');
}

describe('a native module that cannot load', () => {
  it('an unloadable Electron build names the command that rebuilds it, for a new file and an existing one', () => {
    const broken = path.join(tmpDir(), 'better_sqlite3.node');
    fs.writeFileSync(broken, 'not a shared library');
    const fresh = thrown(() => openDatabase(tmpDbPath(), { nativeBinding: broken }));
    expect(fresh.code).toBe('DB_UNAVAILABLE');
    expect(fresh.message).toContain('node electron/build/electron-native.mjs --force');

    const existing = tmpDbPath();
    openDatabase(existing).close();
    const again = thrown(() => openDatabase(existing, { readonly: true, nativeBinding: broken }));
    expect(again.code).toBe('DB_UNAVAILABLE');
    expect(again.message).not.toMatch(/corrupt/i);
  });

  it("Node's build never made (a blocked install script) names `npm rebuild better-sqlite3`", () => {
    const bindings = createRequire(import.meta.url)('bindings') as (o: { bindings: string; module_root: string }) => unknown;
    let error: unknown;
    try {
      bindings({ bindings: 'better_sqlite3.node', module_root: tmpDir() });
    } catch (e) {
      error = e;
    }
    const typed = nativeModuleError(error);
    expect(typed?.code).toBe('DB_UNAVAILABLE');
    expect(typed?.message).toContain('`npm rebuild better-sqlite3`');
    expect(typed?.message).toContain('allowScripts');
  });

  it('leaves every other error to the SQLite mapping', () => {
    expect(nativeModuleError(Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' }))).toBeUndefined();
  });
});
