// A large streamed export in a child process, with its peak memory measured and printed: the
// NDJSON file grows with the store, the exporting process's memory does not.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { envInt } from '../helpers/child';
import { repoRoot } from '../helpers/paths';
import { tmpDir } from '../helpers/tmp';

const FACTS = envInt('STATELENS_LARGE_EXPORT_FACTS', 200_000);
const fixture = path.join(repoRoot, 'test', 'snapshot', 'fixtures', 'export-memory.ts');

function runFixture(args: string[]): Promise<Record<string, number | string>> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, ['--expose-gc', '--import', 'tsx', fixture, ...args], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    proc.stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
    proc.stderr.setEncoding('utf8').on('data', (c: string) => (err += c));
    proc.on('error', reject);
    proc.on('exit', (code) => {
      const line = out.trim().split('\n').pop() ?? '';
      if (code !== 0 || !line.startsWith('{')) reject(new Error(`fixture ${args[0]} exited ${code}\n${err.slice(-3000)}`));
      else resolve(JSON.parse(line) as Record<string, number | string>);
    });
  });
}

const mb = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

describe('large streamed export', () => {
  it(`exports ${FACTS.toLocaleString('en')} facts as NDJSON with flat memory`, async () => {
    const dir = tmpDir('statelens-large-export-');
    const db = path.join(dir, 'large.db');
    const out = path.join(dir, 'large.ndjson');
    const generated = await runFixture(['generate', '--db', db, '--facts', String(FACTS)]);
    expect(generated.facts).toBe(FACTS);
    const r = await runFixture(['export', '--db', db, '--out', out]);
    const bytes = fs.statSync(out).size;
    const growth = Number(r.peakRss) - Number(r.baselineRss);
    console.log(
      `[large export] ${FACTS} facts, ${r.records} records, ${mb(bytes)} of NDJSON in ${(Number(r.ms) / 1000).toFixed(1)} s; ` +
        `RSS ${mb(Number(r.baselineRss))} before, peak ${mb(Number(r.peakRss))} (+${mb(growth)}); heap peak ${mb(Number(r.peakHeap))}; ` +
        `maxRSS ${mb(Number(r.maxRssKb) * 1024)}; ${r.progressCalls} progress reports (generation took ${(Number(generated.ms) / 1000).toFixed(1)} s)`,
    );
    expect(r.facts).toBe(FACTS);
    expect(bytes).toBe(r.bytes);
    // Memory does not follow the file: the export's growth stays far below the file's size.
    expect(growth).toBeLessThan(Math.max(96 * 1024 * 1024, bytes / 3));
    // First and last lines only: the file is too big to read whole here.
    const fd = fs.openSync(out, 'r');
    const head = Buffer.alloc(4096);
    const tail = Buffer.alloc(Math.min(4096, bytes));
    fs.readSync(fd, head, 0, head.length, 0);
    fs.readSync(fd, tail, 0, tail.length, bytes - tail.length);
    fs.closeSync(fd);
    expect(JSON.parse(head.toString('utf8').split('\n')[0] as string)).toMatchObject({ type: 'header', format: 'statelens-snapshot' });
    expect(JSON.parse(tail.toString('utf8').trimEnd().split('\n').at(-1) as string)).toMatchObject({ type: 'end', records: r.records });
  }, 600_000);
});
