import { expect, it } from 'vitest';
import { AgentState } from '../../../shared/domain';
import { codeOf } from '../../../test/helpers/errors';
import { describeStores, itWhere, type OpenStore } from '../../../test/helpers/stores';
import { Store } from '../store';

const USER = { kind: 'user', org: 'acme', user: 'u1' } as const;

function setup(openStore: OpenStore) {
  const store = openStore();
  return { store, p: store.scope(USER, { create: true }) };
}

describeStores('agent state deltas', (openStore) => {
  it('starts empty and is stored per (partition, session)', () => {
    const { store, p } = setup(openStore);
    expect(p.agentState('s1')).toEqual({
      sessionId: 's1',
      current_understanding: { entities: [], dependencies: [] },
      assumptions: [],
      expectations: [],
      tentative_hypotheses: [],
      items: [],
    });
    expect(p.agentStateRecord('s1')).toEqual({ state: null, updatedAt: null });
    p.applyAgentStateUpdate('s1', { assumptions: [{ id: 'a1', hypothesis: 'user prefers email', confidence: 0.6 }] });
    expect(p.agentState('s2').assumptions).toEqual([]);
    const other = store.scope({ kind: 'user', org: 'acme', user: 'u2' }, { create: true });
    expect(other.agentState('s1').assumptions).toEqual([]);
    const rec = p.agentStateRecord('s1');
    expect(AgentState.parse(rec.state)).toEqual(rec.state);
    expect(rec.updatedAt).not.toBeNull();
    store.close();
  });

  it('merges entities by id and dependencies by (from, to, rel)', () => {
    const { store, p } = setup(openStore);
    p.applyAgentStateUpdate('s', {
      current_understanding: { entities: [{ id: 'p1', kind: 'project', name: 'Apollo' }], dependencies: [{ from: 't1', to: 'p1', rel: 'in' }] },
    });
    const s = p.applyAgentStateUpdate('s', {
      current_understanding: {
        entities: [
          { id: 'p1', kind: 'project' },
          { id: 't1', kind: 'task', name: 'Draft' },
        ],
        dependencies: [
          { from: 't1', to: 'p1', rel: 'in' },
          { from: 't1', to: 'p1', rel: 'blocks' },
        ],
      },
    });
    expect(s.current_understanding.entities).toEqual([
      { id: 'p1', kind: 'project', name: 'Apollo' },
      { id: 't1', kind: 'task', name: 'Draft' },
    ]);
    expect(s.current_understanding.dependencies).toEqual([
      { from: 't1', to: 'p1', rel: 'in' },
      { from: 't1', to: 'p1', rel: 'blocks' },
    ]);
    store.close();
  });

  it('upserts assumptions, hypotheses and expectations by id; new expectations get an id and pending', () => {
    const { store, p } = setup(openStore);
    p.applyAgentStateUpdate('s', {
      assumptions: [{ id: 'a1', hypothesis: 'h', confidence: 0.5, evidence: ['m1'] }],
      tentative_hypotheses: [{ id: 'h1', hypothesis: 'maybe' }],
      expectations: [{ action: 'create', expected_outcome: '2 tasks', expected_count: 2 }],
    });
    const s = p.applyAgentStateUpdate('s', {
      assumptions: [{ id: 'a1', hypothesis: 'h', confidence: 0.2 }],
      tentative_hypotheses: [
        { id: 'h1', hypothesis: 'maybe', reason: 'contradiction' },
        { id: 'h2', hypothesis: 'or this' },
      ],
    });
    expect(s.assumptions).toEqual([{ id: 'a1', hypothesis: 'h', confidence: 0.2, evidence: ['m1'] }]);
    expect(s.tentative_hypotheses.map((h) => [h.id, h.reason])).toEqual([
      ['h1', 'contradiction'],
      ['h2', undefined],
    ]);
    expect(s.expectations).toHaveLength(1);
    const e = s.expectations[0]!;
    expect(e.id).toMatch(/^exp_/);
    expect(e.status).toBe('pending');
    const again = p.applyAgentStateUpdate('s', { expectations: [{ id: e.id, action: 'create', expected_outcome: '3 tasks' }] });
    expect(again.expectations).toEqual([{ ...e, expected_outcome: '3 tasks' }]);
    store.close();
  });

  it('applies item add / update / remove deltas in order', () => {
    const { store, p } = setup(openStore);
    let s = p.applyAgentStateUpdate('s', {
      items: [
        { op: 'add', item: { id: 'i1', kind: 'task', title: 'Write spec', status: 'active' } },
        {
          op: 'add',
          item: { id: 'i2', kind: 'question', title: 'Budget?', status: 'active', createdAt: '2026-01-01T00:00:00Z', updatedAt: '2026-01-01T00:00:00Z' },
        },
      ],
    });
    const created = s.items[0]!.createdAt;
    expect(s.items.map((i) => i.id)).toEqual(['i1', 'i2']);
    s = p.applyAgentStateUpdate('s', {
      items: [
        { op: 'update', id: 'i1', patch: { status: 'resolved', details: 'done' } },
        { op: 'remove', id: 'i2' },
        { op: 'remove', id: 'absent' },
      ],
    });
    expect(s.items).toHaveLength(1);
    expect(s.items[0]).toMatchObject({ id: 'i1', status: 'resolved', details: 'done', createdAt: created });
    expect(s.items[0]!.updatedAt > created).toBe(true);
    store.close();
  });

  it('refuses a bad delta whole: nothing of it is stored', () => {
    const { store, p } = setup(openStore);
    p.applyAgentStateUpdate('s', { items: [{ op: 'add', item: { id: 'i1', kind: 'task', title: 't', status: 'active' } }] });
    const before = p.agentStateRecord('s');
    expect(
      codeOf(() =>
        p.applyAgentStateUpdate('s', {
          assumptions: [{ id: 'a', hypothesis: 'x', confidence: 0.5 }],
          items: [{ op: 'add', item: { id: 'i1', kind: 'task', title: 'dup', status: 'active' } }],
        }),
      ),
    ).toBe('CONFLICT');
    expect(codeOf(() => p.applyAgentStateUpdate('s', { items: [{ op: 'update', id: 'nope', patch: { title: 'x' } }] }))).toBe('NOT_FOUND');
    expect(codeOf(() => p.applyAgentStateUpdate('s', { assumptions: [{ id: 'a', hypothesis: 'x', confidence: 2 }] }))).toBe('INVALID_INPUT');
    expect(codeOf(() => p.applyAgentStateUpdate('s', { surprise: true } as object))).toBe('INVALID_INPUT');
    expect(codeOf(() => p.applyAgentStateUpdate('', {}))).toBe('INVALID_INPUT');
    expect(p.agentStateRecord('s')).toEqual(before);
    store.close();
  });

  it('reports stored state that is not valid agent state as CORRUPT_DB', () => {
    const { store, p } = setup(openStore);
    store.db.prepare("INSERT INTO agent_states (partition_id, session_id, state, updated_at) VALUES (?, 'bad', '{not json', 'x')").run(p.id);
    expect(codeOf(() => p.agentState('bad'))).toBe('CORRUPT_DB');
    store.close();
  });
});

describeStores('verifyExpectation', (openStore) => {
  function withExpectation(e: object) {
    const { store, p } = setup(openStore);
    const s = p.applyAgentStateUpdate('s', { expectations: [{ action: 'create tasks', expected_outcome: 'two tasks created', ...e }] });
    return { store, p, id: s.expectations[0]!.id! };
  }

  it('a match confirms the expectation and stamps last_checked_at', () => {
    const { store, p, id } = withExpectation({ expected_count: 2 });
    const r = p.verifyExpectation('s', id, { id: 'tool-1', count: 2 });
    expect(r).toMatchObject({ outcome: 'confirmed', verdict: 'match', criterion: 'count', assumption: null });
    const e = p.agentState('s').expectations[0]!;
    expect(e.status).toBe('confirmed');
    expect(e.last_checked_at).toBeDefined();
    expect(p.agentState('s').assumptions).toEqual([]);
    store.close();
  });

  it('a mismatch fails it and adds an assumption describing the discrepancy', () => {
    const { store, p, id } = withExpectation({ expected_type: 'task' });
    const r = p.verifyExpectation('s', id, { id: 'tool-2', types: ['doc'], summary: 'created 1 doc' });
    expect(r.outcome).toBe('failed');
    const state = p.agentState('s');
    expect(state.expectations[0]!.status).toBe('failed');
    expect(state.assumptions).toHaveLength(1);
    expect(state.assumptions[0]).toMatchObject({ hypothesis: 'Expected "two tasks created" but got "created 1 doc"', confidence: 0.7, evidence: ['tool-2'] });
    expect(r.assumption).toEqual(state.assumptions[0]);
    store.close();
  });

  it('a skip leaves the state unchanged and says why', () => {
    const { store, p, id } = withExpectation({});
    const before = p.agentStateRecord('s');
    const r = p.verifyExpectation('s', id, { id: 'tool-3', ids: ['x'] });
    expect(r).toMatchObject({ outcome: 'skipped', verdict: 'skip', criterion: null, assumption: null });
    expect(r.reason).toMatch(/no ids, type or count/);
    expect(p.agentStateRecord('s')).toEqual(before);
    store.close();
  });

  it('NOT_FOUND for an unknown expectation, INVALID_INPUT for a malformed tool result', () => {
    const { store, p, id } = withExpectation({ expected_count: 1 });
    expect(codeOf(() => p.verifyExpectation('s', 'nope', { id: 't', count: 1 }))).toBe('NOT_FOUND');
    expect(codeOf(() => p.verifyExpectation('s', id, { id: 't', count: -1 }))).toBe('INVALID_INPUT');
    expect(codeOf(() => p.verifyExpectation('s', id, { count: 1 } as never))).toBe('INVALID_INPUT');
    store.close();
  });
});

describeStores("the summarizer's output as a delta", (openStore) => {
  it('applies {agent_state_item_updates, agent_state_updates} as one delta and stamps lastSummarizedAt', () => {
    const { store, p } = setup(openStore);
    p.applyAgentStateUpdate('s', { items: [{ op: 'add', item: { id: 'i1', kind: 'task', title: 'Draft plan', status: 'active' } }] });
    const s = p.applyAgentStateUpdate('s', {
      agent_state_item_updates: [
        { op: 'update', id: 'i1', patch: { id: 'i1', status: 'resolved' } },
        {
          op: 'add',
          item: { id: 'i2', kind: 'question', title: 'Which vendor?', status: 'active', createdAt: '2026-01-01T00:00:00Z', updatedAt: '2026-01-01T00:00:00Z' },
        },
      ],
      agent_state_updates: {
        current_understanding: { entities: [{ id: 'p1', kind: 'project', name: 'Apollo' }] },
        assumptions: [{ id: 'a1', hypothesis: 'Budget is fixed', confidence: 0.8, evidence: ['turn 3'] }],
        expectations: [{ id: 'e1', action: 'create 2 tasks', expected_outcome: 'two tasks exist', expected_count: 2 }],
        tentative_hypotheses: [{ id: 'h1', hypothesis: 'Globex may be cheaper' }],
      },
    });
    expect(s.items.map((i) => [i.id, i.status])).toEqual([
      ['i1', 'resolved'],
      ['i2', 'active'],
    ]);
    expect(s.current_understanding.entities).toEqual([{ id: 'p1', kind: 'project', name: 'Apollo' }]);
    expect(s.assumptions[0]?.hypothesis).toBe('Budget is fixed');
    expect(s.expectations[0]).toMatchObject({ id: 'e1', status: 'pending' });
    expect(s.tentative_hypotheses[0]?.id).toBe('h1');
    expect(s.lastSummarizedAt).toBeDefined();
    store.close();
  });

  it('refuses a malformed summarizer output naming the field, and changes nothing', () => {
    const { store, p } = setup(openStore);
    const err = (() => {
      try {
        p.applyAgentStateUpdate('s', { agent_state_updates: { assumptions: [{ id: 'a', hypothesis: 'x', confidence: 2 }] } });
      } catch (e) {
        return e as Error;
      }
      return null;
    })();
    expect(err?.message).toMatch(/Invalid summarizer output: agent_state_updates\.assumptions\.0\.confidence/);
    expect(codeOf(() => p.applyAgentStateUpdate('s', { agent_state_updates: { items: [] } } as never))).toBe('INVALID_INPUT');
    expect(p.agentStateRecord('s').state).toBeNull();
    store.close();
  });
});

describeStores('agent-state change events', (openStore, kind) => {
  it('a delta or a verification announces the session changed; a fact write or a skipped check does not', () => {
    const { store, p } = setup(openStore);
    const seen: unknown[] = [];
    store.onChange((e) => seen.push(e.agentStates ?? null));
    p.writeFact({ key: 'k', value: 'v' });
    p.applyAgentStateUpdate('s', {
      expectations: [
        { id: 'e1', action: 'a', expected_outcome: 'o', expected_count: 1 },
        { id: 'e2', action: 'b', expected_outcome: 'vague' },
      ],
    });
    p.verifyExpectation('s', 'e2', { id: 't1', count: 1 });
    p.verifyExpectation('s', 'e1', { id: 't2', count: 1 });
    expect(seen).toEqual([null, [{ partitionId: p.id, sessionId: 's' }], null, [{ partitionId: p.id, sessionId: 's' }]]);
    store.close();
  });

  itWhere(
    kind,
    ['sqlite'],
    'a second connection to the same store is a reopened SQLite file here; hearing another connection on the server is tested in test/engine/pg-live-updates.test.ts',
  )("another connection's change is announced for the sessions it touched, once", () => {
    const { store, p } = setup(openStore);
    p.applyAgentStateUpdate('s1', { assumptions: [{ id: 'a', hypothesis: 'h', confidence: 0.5 }] });
    const seen: unknown[] = [];
    store.onChange((e) => seen.push(e));
    const other = Store.open(store.path);
    const q = other.scope(USER);
    q.applyAgentStateUpdate('s2', { assumptions: [{ id: 'b', hypothesis: 'h', confidence: 0.5 }] });
    q.writeFact({ key: 'k', value: 'v' });
    expect(store.pollExternalChanges()).toBe(true);
    q.writeFact({ key: 'k2', value: 'v' });
    expect(store.pollExternalChanges()).toBe(true);
    other.close();
    expect(seen).toEqual([
      { origin: 'external', partitionIds: [], what: ['external write'], agentStates: [{ partitionId: p.id, sessionId: 's2' }] },
      { origin: 'external', partitionIds: [], what: ['external write'] },
    ]);
    store.close();
  });
});
