// The specification's three test vectors in their literal form, through the command line: the
// events go in with `statelens ingest`, the context comes out of `statelens context`.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { statelens } from '../helpers/child';

let dir: string;
let db: string;
const ts = (d: number): string => `2026-01-0${d}T10:00:00Z`;

async function ingest(name: string, events: object[]): Promise<Record<string, unknown>> {
  const file = path.join(dir, `${name}.jsonl`);
  fs.writeFileSync(file, events.map((e) => JSON.stringify(e)).join('\n') + '\n');
  const r = await statelens(['ingest', file, '--db', db, '--json']);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as Record<string, unknown>;
}

async function context(partition: string, query: string): Promise<string> {
  const r = await statelens(['context', '--db', db, '--partition', partition, '--strategy', 'state_based', '--query', query]);
  expect(r.code, r.stderr).toBe(0);
  return r.stdout.split('\n--- ')[0] as string;
}

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'statelens-spec-cli-'));
  db = path.join(dir, 'spec.db');
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('specification test vectors through the CLI', () => {
  it('1: basic supersession', async () => {
    const partition = 'user:acme/t1';
    await ingest('t1', [
      { type: 'state_write', ts: ts(1), partition, writes: [{ key: 'status_v1', value: 'approved' }] },
      { type: 'state_write', ts: ts(2), partition, writes: [{ key: 'status_v2', value: 'cancelled', supersedes: 'status_v1' }] },
    ]);
    const text = await context(partition, 'What is the current status?');
    expect(text).toContain('cancelled');
    expect(text).not.toContain('approved');
  });

  it('2: emphatic repetition', async () => {
    const partition = 'user:acme/t2';
    const approved = { type: 'state_write', ts: ts(1), partition, writes: [{ key: 'order_v1', value: 'approved' }] };
    const summary = await ingest('t2', [
      approved,
      approved,
      approved,
      { type: 'state_write', ts: ts(2), partition, writes: [{ key: 'order_v2', value: 'cancelled', supersedes: 'order_v1' }] },
    ]);
    expect(summary.outcomes).toMatchObject({ created: 1, duplicate: 2, superseded: 1 });
    const text = await context(partition, 'Should we proceed with the order?');
    expect(text).toContain('cancelled');
    expect(text).not.toContain('approved');
  });

  it("3: authority override — an intern's plain write does not supersede the CFO policy", async () => {
    const partition = 'user:acme/ian';
    const summary = await ingest('t3', [
      { type: 'identity', partition, identity_role: { user_name: 'Ian', authority: 'intern', department: 'Sales', organization: 'Acme' } },
      { type: 'state_write', ts: ts(1), partition, writes: [{ key: 'policy', value: 'max 15%', source: 'CFO' }] },
      { type: 'conversation_turn', ts: ts(2), partition, speaker: 'user', text: "Let's offer 25%" },
      { type: 'state_write', ts: ts(2), partition, writes: [{ key: 'policy', value: "Let's offer 25%" }] },
    ]);
    expect(summary.outcomes).toMatchObject({ created: 1, proposal: 1, superseded: 0 });
    const text = await context(partition, 'Can we offer 25%?');
    expect(text).toContain('max 15%');
    const facts = await statelens(['facts', '--db', db, '--partition', partition, '--valid', '--json']);
    expect(facts.code, facts.stderr).toBe(0);
    const valid = facts.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { key: string; value: string });
    expect(valid.map((f) => `${f.key}=${f.value}`)).toEqual(['policy=max 15%']);
  });
});
