// `npm start` without a usable Electron binary, as a newcomer meets it offline: the real npm
// script in a child process, the binary hidden through Electron's own ELECTRON_OVERRIDE_DIST_PATH
// (so the test means the same on a machine that has downloaded Electron).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../test/helpers/paths';
import { tmpDir } from '../../test/helpers/tmp';

const READY = path.join(repoRoot, 'electron', 'build', 'electron-ready.mjs');

function run(command: string, args: string[], distDir: string): { code: number | null; out: string } {
  const r = spawnSync(command, args, {
    cwd: repoRoot,
    env: { ...process.env, ELECTRON_OVERRIDE_DIST_PATH: distDir, NO_COLOR: '1' },
    encoding: 'utf8',
    timeout: 120_000,
  });
  if (r.error) throw r.error;
  return { code: r.status, out: `${r.stdout}${r.stderr}` };
}

/** A stack frame line ("    at fn (file:1:2)") or the build tool's own failure. */
const STACK = /^\s+at .+[:(]/m;

describe('npm start without a usable Electron binary', () => {
  it('says what is missing, the command that gets it (internet once) and the browser mode, with no stack trace', () => {
    const r = run('npm', ['start'], tmpDir());
    expect(r.code).not.toBe(0);
    expect(r.out).toContain('The Electron binary is missing');
    expect(r.out).toContain('npx install-electron');
    expect(r.out).toMatch(/internet once/);
    expect(r.out).toContain('`npx statelens serve` opens the same inspector in a browser');
    expect(r.out).not.toMatch(STACK);
    expect(r.out).not.toContain('Electron uninstall');
    // It stops before the Electron-ABI build and the build tool (both would need the network).
    expect(r.out).not.toContain('electron-native:');
  });

  it('names a binary that is there but cannot run, with the same way out', () => {
    const dist = tmpDir();
    fs.writeFileSync(path.join(dist, process.platform === 'win32' ? 'electron.exe' : 'electron'), 'not a program', { mode: 0o644 });
    const r = run(process.execPath, [READY], dist);
    expect(r.code).toBe(1);
    expect(r.out).toContain('cannot run here');
    expect(r.out).toContain('npx install-electron');
    expect(r.out).toContain('npx statelens serve');
    expect(r.out).not.toMatch(STACK);
  });

  it.skipIf(process.platform === 'win32')('lets a binary that answers its version through', () => {
    const dist = tmpDir();
    fs.writeFileSync(path.join(dist, 'electron'), '#!/bin/sh\necho v45.0.0\n', { mode: 0o755 });
    const r = run(process.execPath, [READY], dist);
    expect(r.out).toBe('');
    expect(r.code).toBe(0);
  });
});
