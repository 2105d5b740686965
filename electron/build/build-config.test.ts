// The packaging hook that hardens the app: run the real electron-builder afterPack hook
// (fuses.cjs) on an Electron-shaped binary with the fuse wire Electron ships by default, then
// read the wire back from the file, as a packaged app would be checked.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FuseState, FuseV1Options, getCurrentFuseWire } from '@electron/fuses';

const require = createRequire(import.meta.url);
const afterPack = require('./fuses.cjs') as (context: unknown) => Promise<void>;

const SENTINEL = 'dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX';
const ON = 0x31;
const OFF = 0x30;
/** The wire as a stock Electron binary carries it: RunAsNode, NODE_OPTIONS, --inspect and file://
 * privileges on; cookie encryption, asar integrity and asar-only off. */
const STOCK_WIRE = [ON, OFF, ON, ON, OFF, OFF, OFF, ON, ON];

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

function stockBinary(wire: readonly number[] = STOCK_WIRE): { appOutDir: string; file: string } {
  const appOutDir = fs.mkdtempSync(path.join(os.tmpdir(), 'statelens-fuses-'));
  dirs.push(appOutDir);
  const file = path.join(appOutDir, 'statelens');
  const filler = Buffer.alloc(64 * 1024, 0x90);
  fs.writeFileSync(file, Buffer.concat([filler, Buffer.from(SENTINEL), Buffer.from([1, wire.length, ...wire]), filler]), { mode: 0o755 });
  return { appOutDir, file };
}

const linuxContext = (appOutDir: string) => ({
  appOutDir,
  electronPlatformName: 'linux',
  arch: 1,
  packager: { executableName: 'statelens', appInfo: { productFilename: 'Statelens' } },
});

describe('the afterPack fuse hook', () => {
  it('leaves the packaged binary unable to run as Node, read NODE_OPTIONS or open --inspect, and loading only an integrity-checked app.asar', async () => {
    const { appOutDir, file } = stockBinary();
    const before = await getCurrentFuseWire(file);
    expect(before[FuseV1Options.RunAsNode]).toBe(FuseState.ENABLE);

    await afterPack(linuxContext(appOutDir));

    const wire = await getCurrentFuseWire(file);
    expect(wire[FuseV1Options.RunAsNode]).toBe(FuseState.DISABLE);
    expect(wire[FuseV1Options.EnableNodeOptionsEnvironmentVariable]).toBe(FuseState.DISABLE);
    expect(wire[FuseV1Options.EnableNodeCliInspectArguments]).toBe(FuseState.DISABLE);
    expect(wire[FuseV1Options.GrantFileProtocolExtraPrivileges]).toBe(FuseState.DISABLE);
    expect(wire[FuseV1Options.EnableEmbeddedAsarIntegrityValidation]).toBe(FuseState.ENABLE);
    expect(wire[FuseV1Options.OnlyLoadAppFromAsar]).toBe(FuseState.ENABLE);
    expect(wire[FuseV1Options.EnableCookieEncryption]).toBe(FuseState.ENABLE);
  });

  it('fails the build when the binary cannot carry the required fuses', async () => {
    const { appOutDir } = stockBinary([ON, OFF]);
    await expect(afterPack(linuxContext(appOutDir))).rejects.toThrow(/not long enough|fuses/);
  });
});
