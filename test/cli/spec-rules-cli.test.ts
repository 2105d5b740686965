// The specification's rules through the `statelens` command (child processes on temporary files):
// maturity changes only by the audited `maturity` command, never by `ingest`; `context` defaults
// to balanced and withholds restricted facts; `end-session` clears the working set; a second
// identity in one session is refused; `statebench` defaults to an 8,000-token budget.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { statelens } from '../helpers/child';

let dir: string;
const write = (name: string, lines: object[]): string => {
  const file = path.join(dir, name);
  fs.writeFileSync(file, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
  return file;
};

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'statelens-cli-rules-'));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('specification rules through the CLI', () => {
  it('maturity: ingest cannot raise it; `statelens maturity --set` does, with an audit entry', async () => {
    const db = path.join(dir, 'tiers.db');
    const event = write('event.jsonl', [
      { type: 'state_write', ts: '2026-01-01T00:00:00Z', writes: [{ key: 'seen', value: 'A prospect replied fast', level: 'event' }] },
    ]);
    expect((await statelens(['ingest', event, '--db', db, '--partition', 'capability:acme/outreach'])).code).toBe(0);
    const strategy = write('strategy.jsonl', [
      { type: 'state_write', ts: '2026-01-02T00:00:00Z', writes: [{ key: 'playbook', value: 'Lead with ROI', level: 'strategy' }] },
    ]);
    const flag = await statelens(['ingest', strategy, '--db', db, '--partition', 'capability:acme/outreach', '--maturity', 'master']);
    expect(flag.code).toBe(2);
    expect(flag.stderr).toMatch(/statelens maturity/);
    const line = write('line.jsonl', [
      {
        type: 'state_write',
        ts: '2026-01-02T00:00:00Z',
        partition: 'capability:acme/outreach',
        maturity: 'master',
        writes: [{ key: 'playbook', value: 'Lead with ROI', level: 'strategy' }],
      },
    ]);
    const lineRun = await statelens(['ingest', line, '--db', db]);
    expect(lineRun.code).toBe(1);
    expect(lineRun.stderr).toMatch(/maturity/);
    expect((await statelens(['ingest', strategy, '--db', db, '--partition', 'capability:acme/outreach'])).stderr).toMatch(
      /junior agent may not write strategy/,
    );
    const shown = await statelens(['maturity', '--db', db, '--partition', 'capability:acme/outreach', '--json']);
    expect(JSON.parse(shown.stdout)).toMatchObject({ maturity: 'junior' });

    expect((await statelens(['maturity', '--db', db, '--partition', 'capability:acme/outreach', '--set', 'master'])).code).toBe(2); // --actor is required
    const set = await statelens([
      'maturity',
      '--db',
      db,
      '--partition',
      'capability:acme/outreach',
      '--set',
      'master',
      '--actor',
      'ops-admin',
      '--reason',
      'passed review',
      '--json',
    ]);
    expect(set.code).toBe(0);
    expect(JSON.parse(set.stdout)).toMatchObject({ from: 'junior', to: 'master', changed: true });
    expect((await statelens(['ingest', strategy, '--db', db, '--partition', 'capability:acme/outreach'])).code).toBe(0);
    const raw = new Database(db, { readonly: true });
    expect(raw.prepare("SELECT actor, reason, details FROM audit_log WHERE action = 'maturity.set'").all()).toEqual([
      { actor: 'ops-admin', reason: 'passed review', details: '{"from":"junior","to":"master"}' },
    ]);
    raw.close();
    expect((await statelens(['maturity', '--db', db, '--partition', 'capability:acme/outreach', '--set', 'guru', '--actor', 'x'])).code).toBe(2);
  });

  it('context: balanced by default, restricted facts withheld; end-session clears the working set; identity fixed per session', async () => {
    const db = path.join(dir, 'context.db');
    const events = write('events.jsonl', [
      { type: 'identity', session_id: 's1', identity_role: { user_name: 'Sam', authority: 'engineer', department: 'Engineering', organization: 'Acme' } },
      {
        type: 'state_write',
        ts: '2026-03-01T09:00:00Z',
        writes: [{ key: 'dana_review', value: '[CONFIDENTIAL — restricted to HR] Dana is on a performance plan', importance: 9 }],
      },
      { type: 'state_write', ts: '2026-03-01T09:00:00Z', writes: [{ key: 'standup', value: 'Standup is at 9:30' }] },
      { type: 'conversation_turn', ts: '2026-03-01T09:05:00Z', session_id: 's1', speaker: 'user', text: 'Please draft the agenda' },
    ]);
    expect((await statelens(['ingest', events, '--db', db, '--partition', 'user:acme/sam'])).code).toBe(0);
    const ctx = await statelens(['context', '--db', db, '--partition', 'user:acme/sam', '--json']);
    expect(ctx.code).toBe(0);
    const result = JSON.parse(ctx.stdout) as { strategy: string; text: string; provenance: Array<{ label: string; status: string; reason?: string }> };
    expect(result.strategy).toBe('balanced');
    expect(result.text).toContain('Standup');
    expect(result.text).not.toContain('performance plan');
    expect(result.provenance.find((p) => p.label === 'dana_review')).toMatchObject({ status: 'excluded', reason: 'permission' });

    const other = write('other.jsonl', [
      { type: 'identity', session_id: 's1', identity_role: { user_name: 'Sam', authority: 'HR director', department: 'HR', organization: 'Acme' } },
    ]);
    const refused = await statelens(['ingest', other, '--db', db, '--partition', 'user:acme/sam']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/fixed for the session/);

    const ref = await statelens(['context', '--db', db, '--partition', 'user:acme/sam', '--strategy', 'reference', '--session', 's1']);
    expect(ref.stdout).toContain('Please draft the agenda');
    const ended = await statelens(['end-session', '--db', db, '--partition', 'user:acme/sam', '--session', 's1', '--json']);
    expect(ended.code).toBe(0);
    expect(JSON.parse(ended.stdout)).toMatchObject({ workingItemsCleared: 1, identityReleased: true });
    const after = await statelens(['context', '--db', db, '--partition', 'user:acme/sam', '--strategy', 'reference', '--session', 's1']);
    expect(after.stdout).not.toContain('Please draft the agenda');
    expect(after.stdout).toContain('Standup');
    // After the session ended, a new one may bring another identity.
    expect(
      (
        await statelens([
          'ingest',
          write('s2.jsonl', [
            { type: 'identity', session_id: 's2', identity_role: { user_name: 'Sam', authority: 'HR director', department: 'HR', organization: 'Acme' } },
          ]),
          '--db',
          db,
          '--partition',
          'user:acme/sam',
        ])
      ).code,
    ).toBe(0);
  });

  it('statebench: the default budget is 8,000 tokens', async () => {
    const help = await statelens(['statebench', '--help']);
    expect(help.stdout).toContain('default 8000');
  });
});
