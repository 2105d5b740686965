// The `statelens` commands of the snapshot / ingest / review side, end to end in child
// processes: export (every format), import snapshot, ingest, chain, delete and mcp --help,
// with their exit codes, --json output and error messages.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli as runCliInProcess } from '../../electron/cli/main';
import { Store } from '../../electron/engine/store';
import { statelens, type CliResult } from '../helpers/child';
import { cliEntry, repoRoot } from '../helpers/paths';

const cli = (args: readonly string[], input?: string) => statelens(args, { input });

const EVENTS = [
  { type: 'identity', identity_role: { user_name: 'Ann', authority: 'manager', department: 'Finance', organization: 'Acme' } },
  { type: 'state_write', ts: '2026-01-01T10:00:00Z', writes: [{ id: 'F-1', key: 'budget', value: '$200,000', source: { type: 'system', authority: 'peer' } }] },
  { type: 'state_write', ts: '2026-01-01T11:00:00Z', writes: [{ key: 'decision', value: 'Approved $150,000', depends_on: ['budget'] }] },
  { type: 'supersession', ts: '2026-01-02T10:00:00Z', writes: [{ key: 'budget_v2', value: '$120,000', supersedes: 'budget' }] },
  { type: 'conversation_turn', ts: '2026-01-02T10:01:00Z', speaker: 'user', text: 'The budget changed again' },
  { type: 'query', ts: '2026-01-03T00:00:00Z', prompt: 'What is the budget?' },
];
const jsonl = (events: object[]): string => events.map((e) => JSON.stringify(e)).join('\n') + '\n';

let dir: string;
let db: string;

beforeAll(async () => {
  // Its own folder: tmpDir() folders are removed after each test, these outlive one test.
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'statelens-cli-'));
  db = path.join(dir, 'agent.db');
  const events = path.join(dir, 'events.jsonl');
  fs.writeFileSync(events, jsonl(EVENTS));
  const r = await cli(['ingest', events, '--db', db, '--org', 'acme', '--user', 'u1', '--json']);
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  const summary = JSON.parse(r.stdout) as { lines: number; outcomes: { superseded: number } };
  expect(summary.lines).toBe(EVENTS.length);
  expect(summary.outcomes.superseded).toBe(1);
  return () => fs.rmSync(dir, { recursive: true, force: true });
}, 60_000);

describe('statelens ingest', () => {
  it('reads standard input, per-line partitions and --dry-run', async () => {
    const target = path.join(dir, 'stdin.db');
    const lines = jsonl([{ type: 'conversation_turn', ts: '2026-01-01T00:00:00Z', speaker: 'user', text: 'hi', partition: 'user:acme/u9' }]);
    const dry = await cli(['ingest', '-', '--db', target, '--dry-run'], lines);
    expect(dry.code).toBe(0);
    expect(dry.stdout).toMatch(/Checked \(dry run, nothing written\) 1 events into user:acme\/u9/);
    const real = await cli(['ingest', '-', '--db', target], lines);
    expect(real.code).toBe(0);
    const store = Store.open(target, { readonly: true });
    expect(store.scope({ kind: 'user', org: 'acme', user: 'u9' }).workingItems({ includeExpired: true })).toHaveLength(1);
    store.close();
  });

  it('a bad line: exit 1, the line and field named, nothing written', async () => {
    const target = path.join(dir, 'bad.db');
    const file = path.join(dir, 'bad.jsonl');
    fs.writeFileSync(file, jsonl([EVENTS[1] as object, { type: 'state_write', ts: '2026-01-01T00:00:00Z', writes: [{ key: 'k' }] }]));
    const r = await cli(['ingest', file, '--db', target, '--org', 'acme', '--user', 'u1']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/line 2: field writes\.0\.value/);
    expect(fs.existsSync(target)).toBe(false); // the failed run created it, so it removed it
    const usage = await cli(['ingest', file, '--db', target, '--user', 'u1']);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toMatch(/need --org/);
  });
});

describe('statelens chain', () => {
  it('shows the chain by key within a partition, and by id', async () => {
    const r = await cli(['chain', 'budget', '--db', db, '--partition', 'user:acme/u1']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/2 versions/);
    expect(r.stdout).toMatch(/budget = "\$200,000" .*superseded by .*explicit/);
    expect(r.stdout).toMatch(/budget_v2 = "\$120,000" .*CURRENT/);
    const j = await cli(['chain', 'F-1', '--db', db, '--partition', 'user:acme/u1', '--json']);
    const parsed = JSON.parse(j.stdout) as { factId: string; versions: Array<{ value: string }> };
    expect(parsed.versions.map((v) => v.value)).toEqual(['$200,000', '$120,000']);
    const byId = await cli(['chain', parsed.factId, '--db', db]);
    expect(byId.code).toBe(0);
    expect(byId.stdout).toContain('acme / user u1');
    const missing = await cli(['chain', 'nope', '--db', db]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/No fact with id "nope".*\[NOT_FOUND\]/);
  });
});

describe('statelens export and import snapshot', () => {
  it('writes every format, and a snapshot imports into a new database', async () => {
    for (const format of ['json', 'ndjson', 'sqlite', 'markdown', 'csv', 'statebench']) {
      const out = path.join(dir, `out.${format}`);
      const r = await cli(['export', '--db', db, '--format', format, '--out', out, '--json']);
      expect(r.code, `${format}: ${r.stderr}`).toBe(0);
      const summary = JSON.parse(r.stdout) as { format: string; bytes: number };
      expect(summary.format).toBe(format);
      expect(fs.statSync(out).size).toBe(summary.bytes);
    }
    expect(fs.readFileSync(path.join(dir, 'out.markdown'), 'utf8')).toContain('## acme / user u1');
    for (const format of ['ndjson', 'json', 'sqlite']) {
      const target = path.join(dir, `restored-${format}.db`);
      const r = await cli(['import', 'snapshot', path.join(dir, `out.${format}`), '--db', target, '--json']);
      expect(r.code, r.stderr).toBe(0);
      expect((JSON.parse(r.stdout) as { kind: string }).kind).toBe(format);
      const store = Store.open(target, { readonly: true });
      expect(store.scope({ kind: 'user', org: 'acme', user: 'u1' }).currentValue('budget')).toBe('$120,000');
      store.close();
    }
    const again = await cli(['import', 'snapshot', path.join(dir, 'out.ndjson'), '--db', path.join(dir, 'restored-ndjson.db')]);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/not empty.*\[CONFLICT\]/);
  });

  it('reads a JSON or NDJSON snapshot in place, read-only, leaving no temporary database', async () => {
    for (const format of ['ndjson', 'json']) {
      const snap = path.join(dir, `out.${format}`);
      const before = fs.readFileSync(snap);
      const tmpBefore = fs.readdirSync(os.tmpdir()).filter((n) => n.startsWith('statelens-snapshot-')).length;
      const facts = await cli(['facts', '--db', snap, '--search', 'budget', '--json']);
      expect(facts.code, facts.stderr).toBe(0);
      const values = facts.stdout
        .trim()
        .split('\n')
        .map((l) => (JSON.parse(l) as { value: string }).value);
      expect(values).toContain('$120,000');
      const chain = await cli(['chain', 'budget', '--db', snap, '--partition', 'user:acme/u1', '--json']);
      expect(chain.code, chain.stderr).toBe(0);
      expect(chain.stdout).toContain('$200,000');
      // The snapshot is a read-only source: a write command refuses it, the bytes stay as they were.
      const del = await cli(['delete', '--db', snap, '--partition', 'user:acme/u1', '--search', 'budget', '--yes']);
      expect(del.code).not.toBe(0);
      expect(fs.readFileSync(snap).equals(before)).toBe(true);
      expect(fs.readdirSync(os.tmpdir()).filter((n) => n.startsWith('statelens-snapshot-')).length).toBe(tmpBefore);
    }
  });

  it('csv and every other format with filter flags; usage errors exit 2', async () => {
    const out = path.join(dir, 'valid.csv');
    const r = await cli(['export', '--db', db, '--format', 'csv', '--out', out, '--partition', 'user:acme/u1', '--validity', 'valid', '--search', 'budget']);
    expect(r.code, r.stderr).toBe(0);
    const rows = fs.readFileSync(out, 'utf8').trimEnd().split('\r\n');
    expect(rows).toHaveLength(2);
    expect(rows[1]).toContain('$120,000');
    // The same filter narrows a JSON snapshot, whose header says so.
    const json = path.join(dir, 'x.json');
    const filtered = await cli([
      'export',
      '--db',
      db,
      '--format',
      'json',
      '--out',
      json,
      '--partition',
      'user:acme/u1',
      '--validity',
      'valid',
      '--search',
      'budget',
    ]);
    expect(filtered.code, filtered.stderr).toBe(0);
    const doc = JSON.parse(fs.readFileSync(json, 'utf8')) as {
      header: { selection?: { facts: number } };
      records: Array<{ type: string; fact?: { value: string } }>;
    };
    expect(doc.header.selection?.facts).toBe(1);
    const values = doc.records.filter((r) => r.type === 'fact').map((r) => r.fact?.value);
    expect(values).toHaveLength(1);
    expect(values[0]).toContain('$120,000');
    const badFormat = await cli(['export', '--db', db, '--format', 'xml', '--out', path.join(dir, 'x.xml')]);
    expect(badFormat.code).toBe(2);
    expect(badFormat.stderr).toMatch(/--format must be one of/);
    const noDb = await cli(['export', '--db', path.join(dir, 'missing.db'), '--format', 'json', '--out', path.join(dir, 'y.json')]);
    expect(noDb.code).toBe(1);
    expect(noDb.stderr).toMatch(/does not exist/);
    const exists = await cli(['export', '--db', db, '--format', 'csv', '--out', out]);
    expect(exists.code).toBe(1);
    expect(exists.stderr).toMatch(/already exists/);
  });

  it('a bad snapshot: exit 1 naming the line and field; the target stays empty', async () => {
    const lines = fs.readFileSync(path.join(dir, 'out.ndjson'), 'utf8').trimEnd().split('\n');
    lines[2] = lines[2]?.replace('"userName":"Ann"', '"userName":7') ?? '';
    const bad = path.join(dir, 'bad.ndjson');
    fs.writeFileSync(bad, `${lines.join('\n')}\n`);
    const target = path.join(dir, 'bad-target.db');
    const r = await cli(['import', 'snapshot', bad, '--db', target]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/line 3: field identity\.userName/);
    expect(fs.existsSync(target)).toBe(false); // the failed run created it, so it removed it
  });

  it('two facts superseding each other: exit 1 with IMPORT_FAILED, no database left to fail verify', async () => {
    const source = path.join(dir, 'cycle-source.ndjson');
    expect((await cli(['export', '--db', db, '--format', 'ndjson', '--out', source])).code).toBe(0);
    const lines = fs.readFileSync(source, 'utf8').trimEnd().split('\n');
    const records = lines.map((l) => JSON.parse(l) as { type: string; fact?: Record<string, unknown> });
    const newer = records.find((r) => r.fact?.supersedes)?.fact;
    const older = records.find((r) => r.fact?.id === newer?.supersedes)?.fact;
    if (!newer || !older) throw new Error('the CLI fixture has a chain of two facts');
    older.supersedes = newer.id;
    Object.assign(newer, { supersededBy: older.id, isValid: false, status: 'superseded' });
    const bad = path.join(dir, 'cycle.ndjson');
    fs.writeFileSync(bad, `${records.map((r) => JSON.stringify(r)).join('\n')}\n`);
    const target = path.join(dir, 'cycle-target.db');
    const r = await cli(['import', 'snapshot', bad, '--db', target]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/supersession chains are broken.*\[IMPORT_FAILED\]/);
    expect(fs.existsSync(target)).toBe(false);
  });
});

describe('statelens delete', () => {
  it('previews, refuses without a terminal and --yes, deletes with --yes', async () => {
    const copy = path.join(dir, 'delete.db');
    const snapshot = path.join(dir, 'for-delete.ndjson');
    expect((await cli(['export', '--db', db, '--format', 'ndjson', '--out', snapshot])).code).toBe(0);
    expect((await cli(['import', 'snapshot', snapshot, '--db', copy])).code).toBe(0);
    const refused = await cli(['delete', '--db', copy, '--partition', 'user:acme/u1', '--key', 'budget']);
    expect(refused.code).toBe(2);
    expect(refused.stdout).toMatch(/would delete 1 fact \(0 valid now\)/);
    expect(refused.stdout).toMatch(/1 dependent fact would be flagged needs_review|0 dependent facts/);
    expect(refused.stdout).toMatch(/supersedes: .* -> \(cleared\)/);
    expect(refused.stderr).toMatch(/refusing to delete 1 fact without confirmation/);
    const dry = await cli(['delete', '--db', copy, '--partition', 'user:acme/u1', '--key', 'budget', '--dry-run', '--json']);
    expect(dry.code).toBe(0);
    expect((JSON.parse(dry.stdout) as { preview: { toDelete: number }; result: null }).preview.toDelete).toBe(1);
    let store = Store.open(copy, { readonly: true });
    expect(store.scope({ kind: 'user', org: 'acme', user: 'u1' }).allFacts()).toHaveLength(3);
    store.close();

    const done = await cli(['delete', '--db', copy, '--partition', 'user:acme/u1', '--key', 'budget_v2', '--yes', '--reason', 'user asked', '--json']);
    expect(done.code, done.stderr).toBe(0);
    const out = JSON.parse(done.stdout) as { result: { deleted: number; auditId: number; scrub: { complete: boolean } } };
    expect(out.result.deleted).toBe(1);
    expect(out.result.scrub.complete).toBe(true);
    store = Store.open(copy, { readonly: true });
    const facts = store.scope({ kind: 'user', org: 'acme', user: 'u1' }).allFacts();
    expect(facts.map((f) => f.key).sort()).toEqual(['budget', 'decision']);
    store.close();
    expect(fs.readFileSync(copy).includes('$120,000')).toBe(false);

    const both = await cli(['delete', '--db', copy, '--partition', 'user:acme/u1', 'f_1', '--key', 'x']);
    expect(both.code).toBe(2);
    const noPartition = await cli(['delete', '--db', copy, '--all']);
    expect(noPartition.code).toBe(2);
    expect(noPartition.stderr).toMatch(/needs --partition/);
    const unknownId = await cli(['delete', '--db', copy, 'f_missing', '--yes']);
    expect(unknownId.code).toBe(1);
  });

  it('on a terminal asks first: "no" keeps the fact, "yes" deletes it', async (ctx) => {
    // A real pseudo-terminal through util-linux `script`; the answer is typed once the prompt shows.
    if (spawnSync('script', ['--version']).status !== 0) {
      console.log('[delete on a terminal] SKIPPED: util-linux `script` is not installed (it provides the pseudo-terminal)');
      return ctx.skip();
    }
    const copy = path.join(dir, 'delete-tty.db');
    const snapshot = path.join(dir, 'for-delete-tty.ndjson');
    expect((await cli(['export', '--db', db, '--format', 'ndjson', '--out', snapshot])).code).toBe(0);
    expect((await cli(['import', 'snapshot', snapshot, '--db', copy])).code).toBe(0);
    const onTerminal = (answer: string): Promise<Pick<CliResult, 'code' | 'stdout' | 'stderr'>> =>
      new Promise((resolve, reject) => {
        const command = [process.execPath, cliEntry, 'delete', '--db', copy, '--partition', 'user:acme/u1', '--key', 'decision'].map((a) => `'${a}'`).join(' ');
        const proc = spawn('script', ['-qec', command, '/dev/null'], { cwd: repoRoot, stdio: ['pipe', 'pipe', 'pipe'] });
        let stdout = '';
        let answered = false;
        proc.stdout.setEncoding('utf8').on('data', (c: string) => {
          stdout += c;
          if (!answered && stdout.includes('Type "yes" to confirm')) {
            answered = true;
            proc.stdin.write(`${answer}\n`);
          }
        });
        proc.on('error', reject);
        proc.on('exit', (code) => resolve({ code, stdout, stderr: '' }));
        setTimeout(() => proc.kill('SIGKILL'), 60_000).unref();
      });
    const keys = () => {
      const store = Store.open(copy, { readonly: true });
      try {
        return store
          .scope({ kind: 'user', org: 'acme', user: 'u1' })
          .allFacts()
          .map((f) => f.key)
          .sort();
      } finally {
        store.close();
      }
    };
    const declined = await onTerminal('no');
    expect(declined.stdout).toMatch(/would delete 1 fact/);
    expect(declined.stdout).toContain('Not confirmed: nothing was deleted.');
    expect(declined.code).toBe(1);
    expect(keys()).toContain('decision');
    const confirmed = await onTerminal('yes');
    expect(confirmed.stdout).toMatch(/Deleted 1 fact/);
    expect(confirmed.code).toBe(0);
    expect(keys()).not.toContain('decision');
  });
});

describe('help and mcp', () => {
  it('every command of this side answers --help with exit 0', async () => {
    // In process (the same dispatch the binary runs) for each command; one real child below.
    for (const cmd of [['export'], ['import', 'snapshot'], ['ingest'], ['chain'], ['delete'], ['mcp'], ['runner']]) {
      const out: string[] = [];
      const code = await runCliInProcess([...cmd, '--help'], { out: (l) => out.push(l), err: (l) => out.push(l), isTTY: false, prompt: async () => undefined });
      expect(code, cmd.join(' ')).toBe(0);
      expect(out.join('\n')).toMatch(/Usage: statelens/);
    }
    const top = await cli(['--help']);
    for (const name of ['export', 'import snapshot', 'ingest', 'chain', 'delete', 'mcp', 'runner']) expect(top.stdout).toContain(name);
    const mcpNoDb = await cli(['mcp']);
    expect(mcpNoDb.code).toBe(2);
    expect(mcpNoDb.stderr).toMatch(/--db is required/);
  });
});
