// Foreign imports on a PostgreSQL store under the server setup's roles: the administrator imports
// with provenance; an agent login, which may append only its own audit actions, is refused as a
// whole and leaves nothing behind.
import { beforeAll, describe, expect, it } from 'vitest';
import { applyForeignPlan } from '../../../electron/engine/import/foreign/apply';
import { readMcpMemory } from '../../../electron/engine/import/foreign/mcp-memory';
import { openRoleStores, ROLE_ORG, ROLE_STORE_KINDS, startRoleStores } from '../../helpers/role-stores';

const graph = [
  { type: 'entity', name: 'Ann', entityType: 'person', observations: ['Lives in Oslo'] },
  { type: 'relation', from: 'Ann', to: 'Ann', relationType: 'knows' },
]
  .map((l) => JSON.stringify(l))
  .join('\n');

describe.each(ROLE_STORE_KINDS)('foreign import under PostgreSQL roles [%s]', (kind) => {
  beforeAll(() => startRoleStores(kind), 300_000);

  it('the administrator imports with provenance; an agent is refused and nothing is written', () => {
    const roles = openRoleStores(kind);
    const user = `import-${kind}-${Date.now()}`;
    const plan = () => readMcpMemory(graph, 'memory.jsonl', { kind: 'user', org: ROLE_ORG, user });
    const agent = roles.open('agent');
    try {
      expect(() => applyForeignPlan(agent, plan())).toThrow(/may not record the audit action import; nothing was imported/);
    } finally {
      agent.close();
    }
    const count = (): number =>
      Number(
        roles.root<{ n: string }>(`SELECT count(*) AS n FROM ${roles.schema}.facts WHERE source_type = 'mcp-memory' AND org_id = $1`, [ROLE_ORG]).rows[0]?.n,
      );
    expect(count()).toBe(0);
    const admin = roles.open('admin');
    try {
      const summary = applyForeignPlan(admin, plan());
      expect(summary.facts).toBe(3);
    } finally {
      admin.close();
    }
    expect(count()).toBe(3);
    const audit = roles.root<{ n: string }>(`SELECT count(*) AS n FROM ${roles.schema}.audit_log WHERE action = 'import'`).rows[0]?.n;
    expect(Number(audit)).toBeGreaterThan(0);
  }, 300_000);
});
