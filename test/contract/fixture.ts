// A small but complete fixture database written through the engine's own agent-side API:
// two organisations, user / capability / organisational partitions, supersession chains,
// proposals, dependencies with needs_review flags, working sets, agent state, context
// document versions, org documents and saved queries.
import { applyAgentStateUpdate } from '../../electron/engine/agent-state/agent-state';
import { putContextDocument } from '../../electron/engine/context-documents/context-documents';
import { Store } from '../../electron/engine/store';

export interface Fixture {
  readonly path: string;
  readonly userPartition: number;
  readonly capabilityPartition: number;
  readonly orgPartition: number;
  readonly otherOrgPartition: number;
  readonly factIds: readonly string[];
  readonly flaggedId: string;
  readonly chainHeadId: string;
}

export function buildFixture(path: string): Fixture {
  let counter = 0;
  let t = Date.parse('2026-03-01T09:00:00.000Z');
  const store = Store.open(path, { clock: { now: () => new Date((t += 60_000)).toISOString() }, idSource: () => String(++counter).padStart(6, '0') });
  try {
    const user = store.scope({ kind: 'user', org: 'acme', user: 'ana' }, { create: true });
    user.setIdentity({
      userName: 'Ana Ruiz',
      userId: 'ana',
      authority: 'manager',
      department: 'finance',
      organization: 'Acme',
      permissions: ['finance', 'reports'],
    });
    const base = user.writeFact({ key: 'budget', value: 'Q3 budget is $120k', source: { type: 'user', authority: 'manager' }, importance: 0.9 });
    const plan = user.writeFact({ key: 'plan', value: 'Hire two contractors within the budget', dependsOn: [base.factId] });
    const derived = user.writeFact({ key: 'forecast', value: 'Forecast assumes two contractors', dependsOn: [plan.factId] });
    const corrected = user.writeFact({ key: 'budget', value: 'Actually the Q3 budget is now $90k', source: { type: 'user', authority: 'manager' } });
    user.writeFact({ key: 'budget', value: 'Budget is $200k', source: { type: 'user', authority: 'guest' } });
    const extra = user.writeFacts(
      Array.from({ length: 60 }, (_, i) => ({
        key: `preference_${i % 12}`,
        value: `Preference number ${i} about ${['coffee', 'meetings', 'travel', 'reports'][i % 4]}`,
        importance: (i % 10) / 10,
        ...(i % 7 === 0 ? { scope: 'hypothetical' as const } : {}),
      })),
    );
    user.writeFact({
      key: 'deadline',
      value: 'Policy: reports are due every Friday',
      source: { type: 'policy', authority: 'policy' },
      isConstraint: true,
      constraintType: 'deadline',
    });
    user.addWorkingItems([
      { sessionId: 's1', key: 'turn', value: 'User asked about the Q3 budget', itemType: 'turn', speaker: 'user', turnIndex: 0 },
      { sessionId: 's1', key: 'turn', value: 'Agent answered $120k', itemType: 'turn', speaker: 'agent', turnIndex: 1 },
      { sessionId: 's2', key: 'note', value: 'Remember the Friday reports' },
    ]);
    user.setEnvironment([{ key: 'timezone', value: 'Europe/Madrid' }]);
    user.transact('agent_state', (ctx) =>
      applyAgentStateUpdate(ctx, 's1', {
        assumptions: [{ id: 'a1', hypothesis: 'Budget is the binding constraint', confidence: 0.7 }],
        expectations: [{ id: 'e1', action: 'fetch invoices', expected_outcome: 'three invoices', expected_count: 3, status: 'pending' }],
        tentative_hypotheses: [{ id: 'h1', hypothesis: 'Contractors are cheaper' }],
      }),
    );
    user.transact('context_document', (ctx) => {
      putContextDocument(ctx, 's1', '## Facts\n- Budget $120k\n');
      putContextDocument(ctx, 's1', '## Facts\n- Budget $90k (corrected)\n');
    });
    user.saveQuery({
      label: 'q1',
      prompt: 'What is the Q3 budget?',
      ts: '2026-03-02T00:00:00.000Z',
      groundTruth: { must_mention: ['$90k'], must_not_mention: ['$120k'] },
    });

    let cap = store.scope({ kind: 'capability', org: 'acme', capability: 'invoicing' }, { create: true });
    store.setMaturity(cap.id, 'senior', { actor: 'fixture' });
    cap = store.scopeById(cap.id);
    cap.writeFacts([
      { key: 'invoice_retry', value: 'Retry failed invoice uploads once', source: { type: 'observation' }, level: 'event' },
      { key: 'invoice_batching', value: 'Batch invoices by vendor', source: { type: 'pattern' }, level: 'heuristic' },
    ]);

    const org = store.scope({ kind: 'organizational', org: 'acme' }, { create: true });
    org.writeFact({ key: 'travel_policy', value: 'Economy class for flights under 6 hours', source: { type: 'policy', authority: 'policy' } });
    org.putDocument({ title: 'Expense policy', body: 'Receipts within 30 days.', acl: ['finance'] });
    org.putDocument({ title: 'Handbook', body: 'Welcome to Acme.' });

    const other = store.scope({ kind: 'user', org: 'globex', user: 'bo' }, { create: true });
    other.writeFact({ key: 'city', value: 'Bo lives in Springfield' });

    return {
      path,
      userPartition: user.id,
      capabilityPartition: cap.id,
      orgPartition: org.id,
      otherOrgPartition: other.id,
      factIds: [base.factId, plan.factId, derived.factId, corrected.factId, ...extra.map((e) => e.factId)],
      flaggedId: plan.factId,
      chainHeadId: corrected.factId,
    };
  } finally {
    store.close();
  }
}
