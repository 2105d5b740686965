// Where the statelens package lives: the folder holding its package.json, found by walking up
// from this module. The same answer from the TypeScript sources and from the compiled bundle
// (which sit at different depths), so commands never count `..` segments.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

let cached: { root: string; version: string } | undefined;

function find(): { root: string; version: string } {
  for (let dir = path.dirname(fileURLToPath(import.meta.url)); ; dir = path.dirname(dir)) {
    const file = path.join(dir, 'package.json');
    if (fs.existsSync(file)) {
      const pkg = JSON.parse(fs.readFileSync(file, 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'statelens') return { root: dir, version: pkg.version ?? '0.0.0' };
    }
    if (path.dirname(dir) === dir) throw new Error('statelens: cannot find its own package.json above ' + fileURLToPath(import.meta.url));
  }
}

export function packageRoot(): string {
  cached ??= find();
  return cached.root;
}

export function packageVersion(): string {
  cached ??= find();
  return cached.version;
}
