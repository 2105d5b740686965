// Path traversal and fallbacks of the static file resolver (browser mode and app://).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentTypeOf, resolveStatic } from './static-files';

let root: string;
let outside: string;
beforeAll(() => {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'statelens-static-'));
  root = path.join(base, 'renderer');
  outside = path.join(base, 'secret.txt');
  fs.mkdirSync(path.join(root, 'assets'), { recursive: true });
  fs.writeFileSync(path.join(root, 'index.html'), 'index');
  fs.writeFileSync(path.join(root, 'assets', 'a.js'), 'js');
  fs.writeFileSync(outside, 'secret');
  fs.symlinkSync(outside, path.join(root, 'assets', 'link.txt'));
});
afterAll(() => fs.rmSync(path.dirname(root), { recursive: true, force: true }));

describe('resolveStatic', () => {
  it('serves files inside the root and index.html for the root and client routes', () => {
    expect(resolveStatic(root, '/assets/a.js')).toEqual({ kind: 'file', file: fs.realpathSync(path.join(root, 'assets', 'a.js')) });
    expect(resolveStatic(root, '/')).toMatchObject({ kind: 'file', file: expect.stringMatching(/index\.html$/) });
    expect(resolveStatic(root, '/memories/view')).toMatchObject({ kind: 'file', file: expect.stringMatching(/index\.html$/) });
    expect(resolveStatic(root, '/assets/missing.js')).toEqual({ kind: 'missing' });
  });

  it('refuses every way out of the root', () => {
    for (const p of [
      '/../secret.txt',
      '/assets/../../secret.txt',
      '/%2e%2e/secret.txt',
      '/..%2fsecret.txt',
      '/..%5csecret.txt',
      '/%00',
      '/a\\..\\b',
      '/C:/Windows',
      'assets/a.js',
      '/%E0%A4%A',
      '/./index.html',
      '/assets/link.txt',
    ]) {
      expect(resolveStatic(root, p).kind, p).not.toBe('file');
    }
  });

  it('names content types', () => {
    expect(contentTypeOf('a.js')).toContain('javascript');
    expect(contentTypeOf('a.css')).toContain('text/css');
    expect(contentTypeOf('a.bin')).toBe('application/octet-stream');
  });
});
