// One suite, every role: the store's operations (facts, supersession, turns, layers, deletion,
// review, assembly, snapshot import, tiers) run with the session logged in as an agent, a reviewer
// and an administrator of a store under the server setup, on PGlite and (STATELENS_TEST_PG_URL)
// the server; then MCP over stdio and `statelens serve` over HTTP as an agent and a reviewer login
// (server only: a child process connects as the login by URL). Both sides each time: what the
// role may do succeeds and is read back as stored (as the superuser, outside row-level security);
// what it may not do is refused with PERMISSION_DENIED and changes no row of any table.
//
// Which subset, and why: the whole parametrised suite as each role would triple the slowest part
// of the unit run (each PostgreSQL test migrates a schema; under the setup it also applies the
// roles). So the matrix below takes one representative operation per area for every role, and
// whole describeStores suites run again under a role only where every step is the role's to take:
// as an agent, the writing suites (supersession rules and as-of history, turns that change facts,
// the working set, identity, state_based assembly); as an administrator, the suites that need its
// rights (deletion chains, dependents, preview and audit, tiers, the snapshot round trip). A
// reviewer writes nothing, so no suite that writes its own data can run as one: its operations
// are covered here, on data an agent wrote.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { TOKEN_HEADER } from '../../shared/contract';
import { StatelensError } from '../../shared/errors';
import { PG_ORG_TABLES } from '../../electron/engine/db/pg/server-setup';
import { exportStore } from '../../electron/engine/snapshot/export';
import { importSnapshotFile } from '../../electron/engine/snapshot/import';
import type { Store } from '../../electron/engine/store';
import { connectMcp } from '../mcp/client';
import { request } from '../server/http-client';
import { cliEntry, repoRoot } from '../helpers/paths';
import { openRoleStores, PG_ROLES, ROLE_ORG, ROLE_STORE_KINDS, startRoleStores, type PgRole, type RoleStores } from '../helpers/role-stores';
import { SERVER_SKIP_REASON, SERVER_URL } from '../helpers/pg';

const USER = { kind: 'user', org: ROLE_ORG, user: 'u1' } as const;
const TOOL = { kind: 'capability', org: ROLE_ORG, capability: 'search' } as const;

/** What an agent wrote before the role under test acts: a supersession chain, a dependent
 * flagged for review, and a snapshot of the same data for an import. */
interface Seed {
  readonly hamburg: string;
  readonly berlin: string;
  readonly desk: string;
  readonly flagged: string;
  readonly partitionId: number;
  readonly toolId: number;
  readonly snapshot: string;
}

interface Operation {
  readonly area: string;
  readonly allowed: readonly PgRole[];
  run(store: Store, seed: Seed): void;
  /** Reads back, as the superuser, that the operation is stored. */
  stored(r: RoleStores, seed: Seed): void;
}

const q = (r: RoleStores, sql: string, params: unknown[] = []): Record<string, unknown>[] =>
  r.root(sql.replaceAll('$S', `"${r.schema}"`), params).rows as Record<string, unknown>[];

const OPERATIONS: readonly Operation[] = [
  {
    area: 'facts: a new fact',
    allowed: ['agent', 'admin'],
    run: (s) => void s.scope(USER).writeFact({ key: 'team', value: 'platform' }),
    stored: (r) => expect(q(r, "SELECT value, status FROM $S.facts WHERE key = 'team'")).toEqual([{ value: 'platform', status: 'active' }]),
  },
  {
    area: 'supersession: a correction of a key',
    allowed: ['agent', 'admin'],
    run: (s) => void s.scope(USER).writeFact({ key: 'office', value: 'Actually Munich', supersedes: 'office' }),
    stored: (r, seed) => {
      expect(q(r, "SELECT value FROM $S.facts WHERE key = 'office' AND status = 'active'")).toEqual([{ value: 'Actually Munich' }]);
      expect(q(r, 'SELECT status, superseded_by IS NOT NULL AS linked FROM $S.facts WHERE id = $1', [seed.berlin])).toEqual([
        { status: 'superseded', linked: true },
      ]);
    },
  },
  {
    area: 'turns: a turn that changes a fact',
    allowed: ['agent', 'admin'],
    run: (s) => void s.scope(USER).recordTurns('s9', [{ speaker: 'user', text: "Let's do the meeting Thursday at 3pm" }]),
    stored: (r) => {
      expect(q(r, "SELECT value FROM $S.facts WHERE key = 'meeting' AND status = 'active'")).toEqual([{ value: 'Meeting is Thursday at 3pm' }]);
      expect(q(r, "SELECT count(*)::int AS n FROM $S.working_items WHERE session_id = 's9'")).toEqual([{ n: 1 }]);
    },
  },
  {
    area: 'layers: a working-set item',
    allowed: ['agent', 'admin'],
    run: (s) => void s.scope(USER).addWorkingItems([{ sessionId: 's9', key: 'todo', value: 'call back' }]),
    stored: (r) => expect(q(r, "SELECT value FROM $S.working_items WHERE key = 'todo'")).toEqual([{ value: 'call back' }]),
  },
  {
    area: 'deletion: a fact in a chain, relinking and flagging',
    allowed: ['reviewer', 'admin'],
    run: (s, seed) => void s.scope(USER).deleteFacts({ ids: [seed.berlin] }, { actor: 'someone', reason: 'wrong' }),
    stored: (r, seed) => {
      expect(q(r, 'SELECT id FROM $S.facts WHERE id = $1', [seed.berlin])).toEqual([]);
      expect(q(r, 'SELECT superseded_by FROM $S.facts WHERE id = $1', [seed.hamburg])).toEqual([{ superseded_by: null }]);
      expect(q(r, 'SELECT needs_review FROM $S.facts WHERE id = $1', [seed.desk])).toEqual([{ needs_review: 1 }]);
      expect(q(r, "SELECT count(*)::int AS n FROM $S.audit_log WHERE action = 'delete'")).toEqual([{ n: 1 }]);
    },
  },
  {
    area: 'review: dismissing a flag',
    allowed: ['reviewer', 'admin'],
    run: (s, seed) => void s.scope(USER).dismissReview([seed.flagged], { actor: 'someone', reason: 'checked' }),
    stored: (r, seed) => expect(q(r, 'SELECT needs_review FROM $S.facts WHERE id = $1', [seed.flagged])).toEqual([{ needs_review: 0 }]),
  },
  {
    area: 'assembly: a context (read only)',
    allowed: ['agent', 'reviewer', 'admin'],
    run: (s) => {
      const context = s.scope(USER).assemble({ query: 'Where is the office?', budget: 500 });
      expect(context.provenance.length).toBeGreaterThan(0);
    },
    stored: () => undefined,
  },
  {
    area: 'tiers: a partition made master',
    allowed: ['admin'],
    run: (s, seed) => void s.setMaturity(seed.toolId, 'master', { actor: 'someone', reason: 'proven' }),
    stored: (r, seed) => expect(q(r, 'SELECT maturity FROM $S.partitions WHERE id = $1', [seed.toolId])).toEqual([{ maturity: 'master' }]),
  },
];

/** Every row of every table the setup scopes by org: nothing a refused call may change. */
function everything(r: RoleStores): unknown {
  return Object.keys(PG_ORG_TABLES).map((t) => [t, q(r, `SELECT * FROM $S.${t} ORDER BY 1`)]);
}

function seed(r: RoleStores, dir: string): Seed {
  const agent = r.open('agent');
  try {
    const p = agent.scope(USER, { create: true });
    const hamburg = p.writeFact({ key: 'office', value: 'Hamburg' }).factId;
    const berlin = p.writeFact({ key: 'office', value: 'Berlin', supersedes: 'office' }).factId;
    const desk = p.writeFact({ key: 'desk', value: 'near the window', dependsOn: [berlin] }).factId;
    const flagged = p.writeFact({ key: 'parking', value: 'level 2' }).factId;
    p.writeFact({ key: 'meeting', value: 'Meeting is Tuesday at 2pm' });
    const toolId = agent.scope(TOOL, { create: true }).id;
    // A flag as a turn or a deletion leaves one (the superuser: the agent may not set it by hand).
    r.root(`UPDATE "${r.schema}".facts SET needs_review = 1, review_cause = 'seeded' WHERE id = $1`, [flagged]);
    return { hamburg, berlin, desk, flagged, partitionId: p.id, toolId, snapshot: path.join(dir, `${r.schema}.ndjson`) };
  } finally {
    agent.close();
  }
}

let dir: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'statelens-every-role-'));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

for (const kind of ROLE_STORE_KINDS) {
  for (const role of PG_ROLES) {
    describe(`every operation as ${role} [${kind}]`, () => {
      const opened: Store[] = [];
      beforeAll(() => startRoleStores(kind));
      afterEach(() => {
        for (const s of opened.splice(0)) s.close();
      });
      const as = (r: RoleStores): Store => {
        const s = r.open(role);
        opened.push(s);
        return s;
      };

      for (const op of OPERATIONS) {
        const may = op.allowed.includes(role);
        it(`${op.area}: ${may ? 'succeeds and is stored' : 'is refused with PERMISSION_DENIED, changing nothing'}`, () => {
          const r = openRoleStores(kind);
          const s0 = seed(r, dir);
          if (may) {
            op.run(as(r), s0);
            op.stored(r, s0);
            return;
          }
          const before = everything(r);
          let thrown: unknown;
          try {
            op.run(as(r), s0);
          } catch (e) {
            thrown = e;
          }
          expect(thrown, op.area).toBeInstanceOf(StatelensError);
          expect((thrown as StatelensError).code, String(thrown)).toBe('PERMISSION_DENIED');
          expect(everything(r)).toEqual(before);
        });
      }

      it(`snapshot import into an empty store: ${role === 'admin' ? 'succeeds and is stored' : 'is refused with PERMISSION_DENIED, importing nothing'}`, async () => {
        const source = openRoleStores(kind);
        const s0 = seed(source, dir);
        const owner = source.open('admin', {}, { allOrgs: true });
        try {
          await exportStore(owner, { format: 'ndjson', out: s0.snapshot, partitionId: null });
        } finally {
          owner.close();
        }
        const target = openRoleStores(kind);
        const before = everything(target);
        const store = as(target);
        if (role === 'admin') {
          importSnapshotFile(store, s0.snapshot);
          expect(q(target, 'SELECT id, value, status FROM $S.facts ORDER BY id')).toEqual(q(source, 'SELECT id, value, status FROM $S.facts ORDER BY id'));
          return;
        }
        let thrown: unknown;
        try {
          importSnapshotFile(store, s0.snapshot);
        } catch (e) {
          thrown = e;
        }
        expect((thrown as StatelensError | undefined)?.code, String(thrown)).toBe('PERMISSION_DENIED');
        expect(everything(target)).toEqual(before);
      });
    });
  }
}

// MCP and serve as login roles: child processes connect to the server by URL as the login.
if (!SERVER_URL) console.log(`MCP and serve per role are skipped: ${SERVER_SKIP_REASON} (a child process cannot log in to PGlite as a role)`);
describe.skipIf(!SERVER_URL)('MCP over stdio and statelens serve over HTTP, logged in as each role [server]', () => {
  beforeAll(() => startRoleStores('server'));

  it('MCP as an agent: a supersession and a turn are stored; as a reviewer: a memory write is refused and nothing is stored', async () => {
    const r = openRoleStores('server');
    const agent = await connectMcp(r.url('agent'));
    try {
      await agent.ok('record_facts', { partition: 'user:acme/u1', facts: [{ key: 'office', value: 'Hamburg', ts: '2026-01-01T00:00:00Z' }] });
      await agent.ok('record_facts', {
        partition: 'user:acme/u1',
        facts: [{ key: 'office', value: 'Actually Berlin', supersedes: 'office', ts: '2026-01-02T00:00:00Z' }],
      });
      await agent.ok('record_facts', { partition: 'user:acme/u1', facts: [{ key: 'meeting', value: 'Meeting is Tuesday at 2pm' }] });
      await agent.ok('record_turns', {
        partition: 'user:acme/u1',
        session_id: 's1',
        turns: [{ speaker: 'user', text: "Let's do the meeting Thursday at 3pm" }],
      });
    } finally {
      await agent.close();
    }
    expect(q(r, "SELECT value, status FROM $S.facts WHERE key IN ('office', 'meeting') ORDER BY rid")).toEqual([
      { value: 'Hamburg', status: 'superseded' },
      { value: 'Actually Berlin', status: 'active' },
      { value: 'Meeting is Tuesday at 2pm', status: 'superseded' },
      { value: 'Meeting is Thursday at 3pm', status: 'active' },
    ]);
    expect(q(r, 'SELECT DISTINCT actor FROM $S.audit_log')).toEqual([{ actor: r.logins.agent }]);

    const before = everything(r);
    const reviewer = await connectMcp(r.url('reviewer'));
    try {
      const refused = await reviewer.fails('record_facts', { partition: 'user:acme/u1', facts: [{ key: 'office', value: 'forged' }] });
      expect(refused.code).toBe('PERMISSION_DENIED');
    } finally {
      await reviewer.close();
    }
    expect(everything(r)).toEqual(before);
  }, 300_000);

  it('serve as a reviewer: a delete and a dismissal are stored; as an agent: a delete is refused with PERMISSION_DENIED, changing nothing', async () => {
    const r = openRoleStores('server');
    const s0 = seed(r, dir);
    const renderer = path.join(dir, 'renderer');
    fs.mkdirSync(renderer, { recursive: true });
    fs.writeFileSync(path.join(renderer, 'index.html'), '<!doctype html><div id="root"></div>');

    const before = everything(r);
    await served(r.url('agent'), renderer, async (call) => {
      const refused = await call('deletion.apply', { partitionId: s0.partitionId, selection: { ids: [s0.berlin] }, reason: 'wrong' });
      expect(refused.status).toBe(403);
      expect(JSON.parse(refused.body)).toMatchObject({ ok: false, error: { code: 'PERMISSION_DENIED' } });
    });
    expect(everything(r)).toEqual(before);

    await served(r.url('reviewer'), renderer, async (call) => {
      const deleted = await call('deletion.apply', { partitionId: s0.partitionId, selection: { ids: [s0.berlin] }, reason: 'wrong' });
      expect(deleted.status, deleted.body).toBe(200);
      const dismissed = await call('review.dismiss', { partitionId: s0.partitionId, factIds: [s0.flagged], reason: 'checked' });
      expect(dismissed.status, dismissed.body).toBe(200);
    });
    expect(q(r, 'SELECT id FROM $S.facts WHERE id = $1', [s0.berlin])).toEqual([]);
    expect(q(r, 'SELECT needs_review FROM $S.facts WHERE id = $1', [s0.desk])).toEqual([{ needs_review: 1 }]);
    expect(q(r, 'SELECT needs_review FROM $S.facts WHERE id = $1', [s0.flagged])).toEqual([{ needs_review: 0 }]);
    expect(q(r, "SELECT actor, action FROM $S.audit_log WHERE action <> 'supersede' ORDER BY id")).toEqual([
      { actor: r.logins.reviewer, action: 'delete' },
      { actor: r.logins.reviewer, action: 'dismiss_review' },
    ]);
  }, 300_000);
});

type Call = (channel: string, input: unknown) => Promise<{ status: number; body: string }>;

/** Runs `statelens serve` on `db` while `body` calls its API with the printed token, then stops it. */
async function served(db: string, renderer: string, body: (call: Call) => Promise<void>): Promise<void> {
  const child = spawn(process.execPath, [cliEntry, 'serve', '--db', db, '--renderer', renderer], {
    cwd: repoRoot,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, XDG_CONFIG_HOME: path.join(dir, 'config') },
  });
  let out = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  try {
    const printed = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        const m = /Open (http:\/\/\S+)/.exec(out);
        if (m?.[1]) resolve(m[1]);
      });
      child.stderr.on('data', (d: Buffer) => (out += d.toString()));
      child.once('exit', () => reject(new Error(`serve exited before printing a URL:\n${out}`)));
    });
    const url = new URL(printed);
    const token = url.searchParams.get('token') ?? '';
    await body((channel, input) =>
      request(`${url.origin}/api/${channel}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', [TOKEN_HEADER]: token },
        body: JSON.stringify(input),
      }),
    );
  } finally {
    child.kill('SIGTERM');
  }
  expect(await exited, out).toBe(0);
}
