// The session's agent state in the assembled context (state_based): assumptions with their
// confidence, expectations with their status, tentative hypotheses, active items and the
// entities understood; of this session only, never of another, and never a superseded value.
import { expect, it } from 'vitest';
import { describeStores } from '../helpers/stores';

const USER = { kind: 'user', org: 'acme', user: 'u1' } as const;

describeStores('state_based includes the agent state of the session', (openStore) => {
  it('lists assumptions, expectations, hypotheses, active items and understanding in their own section', () => {
    const store = openStore();
    const p = store.scope(USER, { create: true });
    p.writeFact({ key: 'vendor', value: 'Vendor is Acme' });
    p.applyAgentStateUpdate('s1', {
      current_understanding: {
        entities: [
          { id: 'p1', kind: 'project', name: 'Apollo' },
          { id: 'v1', kind: 'vendor' },
        ],
        dependencies: [{ from: 'p1', to: 'v1', rel: 'buys from' }],
      },
      assumptions: [{ id: 'a1', hypothesis: 'The budget is fixed for Q3', confidence: 0.8 }],
      expectations: [{ id: 'e1', action: 'create the kickoff task', expected_outcome: 'one task exists', expected_count: 1 }],
      tentative_hypotheses: [{ id: 'h1', hypothesis: 'Globex could undercut Acme', reason: 'last quote' }],
      items: [
        { op: 'add', item: { id: 'i1', kind: 'question', title: 'Who signs off?', status: 'active' } },
        { op: 'add', item: { id: 'i2', kind: 'task', title: 'Old chore', status: 'resolved' } },
      ],
    });
    p.applyAgentStateUpdate('other', { assumptions: [{ id: 'x', hypothesis: 'Something of another session', confidence: 0.5 }] });

    const r = p.assemble({ strategy: 'state_based', query: 'What do we know about the vendor?', sessionId: 's1' });
    const section = r.sections.find((s) => s.name === 'agent_state');
    expect(section?.title).toBe('Agent state (this session)');
    const text = r.text.slice(section?.span[0], section?.span[1]);
    expect(text).toContain('- Assumption (confidence 0.80): The budget is fixed for Q3');
    expect(text).toContain('- Expectation [pending]: create the kickoff task → one task exists');
    expect(text).toContain('- Tentative hypothesis: Globex could undercut Acme (last quote)');
    expect(text).toContain('- Question: Who signs off?');
    expect(text).toContain('- Entity: Apollo (project, p1)');
    expect(text).toContain('- Dependency: Apollo → v1 (buys from)');
    expect(text).not.toContain('Old chore');
    expect(r.text).not.toContain('another session');
    expect(r.tokens).toBeLessThanOrEqual(r.budget ?? 0);
    store.close();
  });

  it('withholds a superseded value the agent state still quotes', () => {
    const store = openStore();
    const p = store.scope(USER, { create: true });
    p.writeFact({ key: 'vendor', value: 'Vendor is Initech' });
    p.writeFact({ key: 'vendor', value: 'Vendor is Globex', supersedes: 'vendor' });
    p.applyAgentStateUpdate('s1', { assumptions: [{ id: 'a1', hypothesis: 'Vendor is Initech', confidence: 0.9 }] });
    const r = p.assemble({ strategy: 'state_based', query: 'vendor', sessionId: 's1' });
    expect(r.text).toContain('Vendor is Globex');
    expect(r.text).not.toContain('Initech');
    store.close();
  });
});
