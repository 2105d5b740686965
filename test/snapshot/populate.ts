// Test data touching every layer a snapshot carries: chains with each supersession rule,
// proposals, dependency edges with needs_review flags, constraints, scopes, capability levels,
// working items, environment, organisational documents, saved queries, agent state, context
// documents and the audit log those writes leave — all through the engine's own APIs.
import type { Store } from '../../electron/engine/store';

export const USER = { kind: 'user', org: 'acme', user: 'u1' } as const;
export const USER2 = { kind: 'user', org: 'acme', user: 'u2' } as const;
export const CAP = { kind: 'capability', org: 'acme', capability: 'billing' } as const;
export const ORG = { kind: 'organizational', org: 'acme' } as const;

/** A session's agent state (with a verified expectation) and two context document versions. */
export function putSessionRows(store: Store, partitionId: number, sessionId: string): void {
  const h = store.scopeById(partitionId);
  h.applyAgentStateUpdate(sessionId, {
    current_understanding: { entities: [{ id: 'e1', kind: 'project', name: 'Apollo' }] },
    assumptions: [{ id: 'a1', hypothesis: 'budget is fixed', confidence: 0.6 }],
    expectations: [
      { id: 'x1', action: 'create tasks', expected_outcome: '2 tasks', expected_count: 2 },
      { id: 'x2', action: 'link', expected_outcome: 'linked t1', expected_ids: ['t1'] },
    ],
  });
  h.verifyExpectation(sessionId, 'x1', { id: 'call-1', count: 2 });
  for (let v = 1; v <= 2; v++) h.putContextDocument(sessionId, `## Facts\n- version ${v}, with "quotes", commas, and\nnew lines`);
}

export function populate(store: Store): void {
  const u = store.scope(USER, { create: true });
  u.setIdentity({
    userName: 'Ann',
    userId: 'u1',
    authority: 'manager',
    department: 'Finance',
    organization: 'Acme',
    permissions: ['finance'],
    communicationStyle: 'brief',
  });
  const budget = u.writeFact({
    label: 'F-1',
    key: 'budget',
    value: '$200,000 available in Q4',
    source: { type: 'system', authority: 'peer' },
    ts: '2026-01-01T10:00:00Z',
  });
  u.writeFact({ key: 'decision', value: 'Approved $150,000 purchase', dependsOn: [budget.factId], ts: '2026-01-01T11:00:00Z' });
  u.writeFact({ key: 'budget_corrected', value: '$120,000 total', supersedes: 'budget', ts: '2026-01-02T09:00:00Z' });
  u.writeFact({ key: 'meeting', value: 'Tuesday 2pm', ts: '2026-01-02T10:00:00Z' });
  u.writeFact({ key: 'meeting', value: 'Thursday 3pm', ts: '2026-01-03T10:00:00Z' });
  u.writeFact({ key: 'discount', value: 'Max discount is 15%', source: { type: 'policy', authority: 'policy' }, ts: '2026-01-03T11:00:00Z' });
  u.writeFact({ key: 'discount', value: "Let's offer 25%", source: { type: 'user', authority: 'intern' }, ts: '2026-01-03T12:00:00Z' });
  u.writeFact({ key: 'stock_price', value: '$100', ts: '2026-01-01T00:00:00Z' });
  u.writeFact({ key: 'stock_price', value: '$95', ts: '2026-01-15T00:00:00Z' });
  u.writeFact({ key: 'stock_price', value: '$90', ts: '2026-01-10T00:00:00Z' });
  u.writeFact({ key: 'plan', value: 'What if we hire two engineers?', ts: '2026-01-04T00:00:00Z' });
  u.writeFact({ key: 'formula', value: '=HYPERLINK("http://evil.example","click")', ts: '2026-01-04T01:00:00Z' });
  u.writeFact({ key: 'multi|line', value: 'first line\nsecond, "quoted" | piped <b>bold</b>', ts: '2026-01-04T02:00:00Z', scope: 'session', scopeId: 's-1' });
  u.addWorkingItems([
    { sessionId: 's-1', key: 'turn:0', value: 'Hello there', itemType: 'turn', speaker: 'user', turnIndex: 0, createdAt: '2026-01-04T00:00:00Z' },
    { sessionId: 's-1', key: 'draft', value: 'tentative plan', createdAt: '2026-01-04T00:01:00Z', expiresAt: '2026-01-05T00:00:00Z', priority: 2 },
  ]);
  u.setEnvironment([
    { key: 'now', value: '2026-01-04T00:00:00Z', observedAt: '2026-01-04T00:00:00Z' },
    { key: 'timezone', value: 'Europe/Berlin', observedAt: '2026-01-04T00:00:00Z' },
  ]);
  u.saveQuery({ label: 'Q0', prompt: 'What is the budget?', ts: '2026-01-05T00:00:00Z', groundTruth: { must_mention: ['$120,000'] } });
  putSessionRows(store, u.id, 's-1');

  const u2 = store.scope(USER2, { create: true });
  u2.writeFact({ key: 'city', value: 'Lisbon', ts: '2026-01-01T00:00:00Z' });

  store.setMaturity(store.scope(CAP, { create: true }).id, 'senior', { actor: 'admin' });
  const cap = store.scope(CAP);
  cap.writeFact({ key: 'retry', value: 'retry failed invoices after 1h', source: { type: 'observation' }, level: 'event' });
  cap.writeFact({ key: 'retry_rule', value: 'retry twice then escalate', source: { type: 'heuristic' }, level: 'heuristic' });

  const org = store.scope(ORG, { create: true });
  org.writeFact({ key: 'travel_policy', value: 'Flights must not exceed $500', source: { type: 'policy', authority: 'policy' } });
  org.putDocument({ title: 'Salary bands', body: 'Band A: ...', acl: ['hr'] });
  org.putDocument({ title: 'Handbook', body: 'Welcome' });
}

/** The export without its timestamp: the only thing allowed to differ between two exports. */
export function withoutTimestamp(text: string): string {
  return text.replace(/"exportedAt":"[^"]*"/g, '"exportedAt":""');
}
