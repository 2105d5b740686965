// The inspector's test database, written through the engine like any agent would: a user
// partition with a corrected fact (explicit, implicit and authority rules, a lower-authority
// proposal), dependents flagged for review two hops down, a hostile value, bulk facts for
// scrolling, a session with agent state and context-document versions, saved queries; a
// partition whose dependency graph has thousands of nodes; capability and organisational
// partitions; a second organisation.
import type { Store } from '../../../electron/engine/store';
import type { FactWriteInput } from '../../../shared/writes';

export interface SeedOptions {
  /** Plain facts added to the main partition (table scrolling, bulk delete). */
  readonly bulk: number;
  /** Facts in the graph partition (dependency graph rendering). */
  readonly graph: number;
}

export interface SeedInfo {
  readonly mainPartition: number;
  readonly graphPartition: number;
  readonly homeCityHead: string;
  readonly homeCityFirst: string;
  readonly proposalId: string;
  readonly flaggedId: string;
  readonly flaggedTwoHopsId: string;
  readonly hostileId: string;
  readonly graphRoot: string;
  /** node_81 of the graph partition: flagged two hops below the revised node_3 ('' when the graph is smaller). */
  readonly graphFlagged: string;
  readonly zebraCount: number;
}

export const HOSTILE_VALUE = '<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script> **not bold** & <b>tags stay text</b>';

const DAY = 86_400_000;
const BASE = Date.parse('2025-01-01T09:00:00.000Z');
const at = (days: number) => new Date(BASE + days * DAY).toISOString();

const TOPICS = ['budget', 'deadline', 'vendor', 'office', 'travel', 'hiring', 'launch', 'pricing', 'meeting', 'laptop', 'coffee', 'client'];
const SOURCES = ['user', 'agent', 'tool', 'document'];
const AUTHORITIES = [null, 'employee', 'manager', 'peer'];
const SCOPES = ['global', 'global', 'global', 'task', 'session', 'draft'] as const;

function must(id: string | undefined, what: string): string {
  if (!id) throw new Error(`seed: ${what} was not written`);
  return id;
}

export function seedInspectorData(store: Store, options: SeedOptions): SeedInfo {
  const ana = store.scope({ kind: 'user', org: 'acme', user: 'ana' }, { create: true });
  ana.setIdentity({
    userName: 'Ana Lima',
    userId: 'ana',
    authority: 'manager',
    department: 'Operations',
    organization: 'Acme',
    permissions: ['finance', 'travel'],
    communicationStyle: 'brief',
  });
  ana.setEnvironment([{ key: 'timezone', value: 'Europe/Berlin', observedAt: at(200) }]);

  const user = (authority: string | null, turnIndex: number) => ({ type: 'user', identity: 'ana', authority, turnIndex });
  const lyon = ana.writeFact({ label: 'F-1', key: 'home_city', value: 'Ana lives in Lyon', ts: at(4), source: user('employee', 1), importance: 0.9 });
  const commute = ana.writeFact({
    label: 'F-2',
    key: 'commute_plan',
    value: 'Takes the TER train from Lyon Part-Dieu every Monday',
    ts: at(5),
    source: user('employee', 2),
    dependsOn: ['home_city'],
  });
  const weekend = ana.writeFact({
    label: 'F-3',
    key: 'weekend_trips',
    value: 'Plans weekend hikes reachable by the Monday train',
    ts: at(6),
    source: user('employee', 3),
    dependsOn: [commute.factId],
  });
  ana.writeFact({ key: 'home_city', value: 'Ana lives in Paris now', ts: at(59), source: user('employee', 4) });
  ana.writeFact({
    key: 'home_city',
    value: 'Correction: Ana lives in Berlin, not Paris',
    ts: at(151),
    source: user('employee', 5),
    supersedes: 'home_city',
    rule: 'explicit',
    reason: 'the user corrected the city',
  });
  const munich = ana.writeFact({
    key: 'home_city',
    value: 'HR record: Ana is based in Munich',
    ts: at(212),
    source: { type: 'document', identity: 'hr-system', authority: 'executive' },
  });
  const proposal = ana.writeFact({
    key: 'home_city',
    value: 'An intern noted Ana moved to Madrid',
    ts: at(243),
    source: { type: 'user', identity: 'intern-bot', authority: 'intern' },
  });
  ana.writeFact({
    key: 'q3_budget',
    value: 'The Q3 travel budget is capped at $50,000',
    ts: at(30),
    source: user('manager', 6),
    isConstraint: true,
    constraintType: 'budget',
    importance: 1,
  });
  ana.writeFact({ key: 'release_date', value: 'Launch is planned for 1 October', ts: at(40), source: user('manager', 7) });
  ana.writeFact({ key: 'deploy_plan', value: 'Freeze deploys two weeks before launch', ts: at(41), source: user('manager', 8), dependsOn: ['release_date'] });
  ana.writeFact({ key: 'release_date', value: 'Launch moved to 15 November', ts: at(120), source: user('manager', 9) });
  const hostile = ana.writeFact({ key: 'note_markup', value: HOSTILE_VALUE, ts: at(100), source: { type: 'tool', identity: 'web-scraper', authority: null } });

  let zebraCount = 0;
  const bulk: FactWriteInput[] = [];
  for (let i = 0; i < options.bulk; i++) {
    const topic = TOPICS[i % TOPICS.length] ?? 'note';
    const zebra = i % 23 === 0;
    if (zebra) zebraCount += 1;
    bulk.push({
      key: `${topic}_${String(i).padStart(6, '0')}`,
      value: `${topic} note ${i}: ${zebra ? 'the zebra crossing near the office' : 'routine detail'} number ${(i * 7919) % 10007}`,
      ts: new Date(BASE - 200 * DAY + i * 60_000).toISOString(),
      source: { type: SOURCES[i % SOURCES.length] ?? 'user', identity: `agent-${i % 5}`, authority: AUTHORITIES[i % AUTHORITIES.length] ?? null, turnIndex: i },
      importance: ((i * 37) % 100) / 100,
      scope: SCOPES[i % SCOPES.length],
      ...(SCOPES[i % SCOPES.length] === 'task' ? { scopeId: `task-${i % 3}` } : SCOPES[i % SCOPES.length] === 'session' ? { scopeId: 'sess-1' } : {}),
      memoryType: 'user',
      isConstraint: false,
    });
  }
  for (let i = 0; i < bulk.length; i += 2000) ana.writeFacts(bulk.slice(i, i + 2000), { inferSupersession: false });

  ana.addWorkingItems([
    { sessionId: 'sess-1', key: 'turn', value: 'User: can you book my train to Munich?', itemType: 'turn', speaker: 'user', turnIndex: 1, createdAt: at(240) },
    { sessionId: 'sess-1', key: 'task', value: 'Booking travel within the Q3 budget', itemType: 'task', createdAt: at(240) },
  ]);
  ana.applyAgentStateUpdate('sess-1', {
    current_understanding: {
      entities: [
        { id: 'e-ana', kind: 'person', name: 'Ana' },
        { id: 'e-munich', kind: 'city', name: 'Munich' },
      ],
      dependencies: [{ from: 'e-ana', to: 'e-munich', rel: 'lives in' }],
    },
    assumptions: [
      { id: 'a1', hypothesis: 'Ana prefers trains over flights', confidence: 0.82, evidence: ['turn 1'] },
      { id: 'a2', hypothesis: 'The trip is for work', confidence: 0.4 },
    ],
    expectations: [
      { id: 'x1', action: 'search trains', expected_outcome: 'at least one connection', expected_count: 1, status: 'confirmed' },
      { id: 'x2', action: 'book seat', expected_outcome: 'booking id returned', expected_type: 'booking', status: 'pending' },
      { id: 'x3', action: 'apply discount', expected_outcome: 'price reduced', status: 'failed' },
    ],
    tentative_hypotheses: [{ id: 'h1', hypothesis: 'She may travel with a colleague', reason: 'mentioned "we"' }],
    items: [
      { op: 'add', item: { id: 'i1', kind: 'task', title: 'Book the Munich train', status: 'active' } },
      { op: 'add', item: { id: 'i2', kind: 'question', title: 'Window or aisle?', status: 'resolved' } },
    ],
  });
  ana.putContextDocument('sess-1', '# Facts\n- Ana lives in Berlin\n- Budget capped at $50,000\n\n# Notes\nPrefers trains.');
  ana.putContextDocument('sess-1', '# Facts\n- Ana is based in Munich\n- Budget capped at $50,000\n\n# Notes\nPrefers trains.\nBooking pending.');
  ana.putContextDocument('sess-1', '# Facts\n- Ana is based in Munich\n- Budget capped at $50,000\n\n# Timeline\n- Train booked\n\n# Notes\nPrefers trains.');
  ana.saveQuery({ label: 'Where does Ana live?', prompt: 'Where does Ana live now?', ts: at(250) });
  ana.saveQuery({ label: 'Travel budget (as of spring)', prompt: 'How much can Ana spend on travel this quarter?', ts: at(90) });
  ana.saveQuery({ label: 'Launch timing', prompt: 'When is the launch and what does it mean for deploys?', ts: null });

  // A dense dependency graph: each fact rests on its parent (five children per fact) and every
  // seventh also on an older cousin, so a few hops hold thousands of facts.
  const g = store.scope({ kind: 'user', org: 'acme', user: 'graph' }, { create: true });
  const ids: string[] = [];
  const graphInputs: FactWriteInput[] = [];
  for (let i = 0; i < options.graph; i++) {
    const deps: string[] = [];
    if (i > 0) deps.push(`node_${Math.floor((i - 1) / 5)}`);
    if (i > 20 && i % 7 === 0) deps.push(`node_${(i * 13) % Math.floor(i / 2)}`);
    graphInputs.push({
      key: `node_${i}`,
      value: `graph fact ${i}`,
      ts: new Date(BASE + i * 1000).toISOString(),
      dependsOn: [...new Set(deps)],
      memoryType: i % 11 === 0 ? 'organizational' : 'user',
    });
  }
  for (let i = 0; i < graphInputs.length; i += 500)
    for (const r of g.writeFacts(graphInputs.slice(i, i + 500), { inferSupersession: false })) ids.push(r.factId);
  if (options.graph > 10) g.writeFact({ key: 'node_3', value: 'graph fact 3, revised', ts: new Date(BASE + DAY).toISOString() });

  let cap = store.scope({ kind: 'capability', org: 'acme', capability: 'support-bot' }, { create: true });
  store.setMaturity(cap.id, 'senior', { actor: 'seed' });
  cap = store.scopeById(cap.id);
  cap.writeFacts([
    {
      key: 'refund_flow',
      value: 'Refunds above $500 need a manager',
      level: 'heuristic',
      ts: at(10),
      source: { type: 'agent', identity: 'support-bot', authority: 'system' },
    },
    {
      key: 'ticket_8812',
      value: 'Customer asked for an invoice copy',
      level: 'event',
      ts: at(11),
      source: { type: 'agent', identity: 'support-bot', authority: 'system' },
    },
  ]);
  const org = store.scope({ kind: 'organizational', org: 'acme' }, { create: true });
  org.writeFacts([
    {
      key: 'travel_policy',
      value: 'Economy class for trips under six hours',
      ts: at(1),
      source: { type: 'policy', identity: 'handbook', authority: 'policy' },
      memoryType: 'organizational',
    },
  ]);
  org.putDocument({ title: 'Travel handbook', body: 'Book through the portal.', acl: ['travel'] });
  const bob = store.scope({ kind: 'user', org: 'globex', user: 'bob' }, { create: true });
  bob.writeFact({ key: 'favourite_colour', value: 'Bob likes teal', ts: at(3) });

  const flaggedTwoHops = ana.getFact(weekend.factId);
  return {
    mainPartition: ana.id,
    graphPartition: g.id,
    homeCityHead: munich.factId,
    homeCityFirst: lyon.factId,
    proposalId: proposal.factId,
    flaggedId: commute.factId,
    flaggedTwoHopsId: must(flaggedTwoHops?.id, 'weekend_trips'),
    hostileId: hostile.factId,
    graphRoot: must(ids[0], 'node_0'),
    graphFlagged: ids[81] ?? '',
    zebraCount,
  };
}
