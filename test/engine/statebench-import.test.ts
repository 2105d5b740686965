// StateBench conformance: both shared splits replay into every store with every supersession
// write resolved, superseded facts dead and superseding facts alive.
import fs from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { importStatebenchFile, importStatebenchText } from '../../electron/engine/import/statebench';
import { thrownBy } from '../helpers/errors';
import { repoRoot } from '../helpers/paths';
import { describeStores } from '../helpers/stores';

const dataDir = path.resolve(repoRoot, '..', 'shared', 'statebench');
const haveData = fs.existsSync(path.join(dataDir, 'dev.jsonl')) && fs.existsSync(path.join(dataDir, 'test.jsonl'));
if (!haveData) console.log(`statebench-import: skipping the split tests, ${dataDir} is absent`);

interface RawTimeline {
  id: string;
  actors: { user: { org: string } };
  events: Array<{ type: string; writes?: Array<{ supersedes?: string | null; layer: string }> }>;
}

function timelinesOf(file: string): RawTimeline[] {
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as RawTimeline);
}

if (haveData)
  describeStores('StateBench import of the shared splits', (openStore) => {
    let total = 0;
    for (const split of ['dev', 'test'] as const) {
      it(`imports ${split}.jsonl with every supersession resolved and applied`, () => {
        const file = path.join(dataDir, `${split}.jsonl`);
        const store = openStore();
        const stats = importStatebenchFile(store, file, { collectSupersessions: true });
        const timelines = timelinesOf(file);
        expect(stats.timelines).toBe(timelines.length);
        expect(stats.unresolved).toEqual([]);
        expect(stats.supersessionsResolved).toBe(stats.supersessionWrites);
        const named = timelines.flatMap((t) => t.events.flatMap((e) => (e.writes ?? []).filter((w) => w.layer === 'persistent_facts' && w.supersedes))).length;
        expect(stats.supersessionWrites).toBe(named);
        total += stats.supersessionWrites;
        console.log(
          `${split}: ${stats.timelines} timelines, ${stats.facts} facts, ${stats.supersessionWrites} supersession writes, ${stats.supersessionsResolved} resolved, ${stats.turns} turns, ${stats.queries} queries`,
        );

        const applied = stats.applied ?? [];
        for (const t of timelines) {
          const handle = store.scope({ kind: 'user', org: t.actors.user.org, user: t.id });
          const mine = applied.filter((a) => a.timeline === t.id);
          const supersededLater = new Set(mine.map((a) => a.oldFactId));
          for (const a of mine) {
            expect(a.partitionId).toBe(handle.id);
            const old = handle.getFact(a.oldFactId as string);
            expect(old, `${t.id}: superseded fact ${a.oldFactId}`).toBeDefined();
            expect(old?.isValid, `${t.id}: ${a.oldFactId} (named "${a.supersedes}") must be invalid`).toBe(false);
            const fresh = handle.getFact(a.newFactId);
            expect(fresh?.supersedes).toBe(a.oldFactId);
            if (supersededLater.has(a.newFactId) || fresh?.supersededBy) {
              expect(fresh?.isValid).toBe(false);
              expect(handle.getFact(fresh?.supersededBy as string)).toBeDefined();
            } else {
              expect(fresh?.isValid, `${t.id}: superseding fact ${a.newFactId} must be valid`).toBe(true);
            }
          }
          // No valid fact carries a successor, and every chain pointer resolves in the partition.
          for (const f of handle.allFacts()) {
            if (f.isValid) expect(f.supersededBy).toBeNull();
            if (f.supersededBy) expect(handle.getFact(f.supersededBy)).toBeDefined();
            if (f.supersedes) expect(handle.getFact(f.supersedes)).toBeDefined();
          }
          const queries = handle.savedQueries();
          expect(queries.map((q) => q.label)).toEqual(queries.map((_, i) => `Q${i}`));
        }
        store.close();
        // A split is thousands of writes: near two minutes on PGlite on a loaded machine.
      }, 600_000);
    }

    it('resolves every supersession write across both splits', () => {
      console.log(`both splits: ${total} supersession writes, all resolved (the full dataset has 1,065)`);
      expect(total).toBeGreaterThan(0);
    });
  });

const good = JSON.stringify({
  id: 'T-1',
  actors: { user: { id: 'u1', role: 'Manager', org: 'acme' } },
  initial_state: {
    identity_role: { user_name: 'Ann', authority: 'Manager', department: 'Sales', organization: 'Acme', communication_style: null },
    persistent_facts: [
      {
        id: 'F-1',
        key: 'budget',
        value: '$200,000',
        source: { type: 'system', identity: null, authority: 'peer' },
        ts: '2025-01-01T10:00:00',
        is_valid: true,
        scope: 'global',
        depends_on: [],
        derived_facts: [],
        is_constraint: false,
        constraint_type: null,
      },
      {
        id: 'F-2',
        key: 'plan',
        value: 'buy servers',
        source: { type: 'user', identity: null, authority: 'peer' },
        ts: '2025-01-01T10:01:00',
        depends_on: ['F-1', 'F-2'],
        derived_facts: [],
      },
      { id: 'F-0', key: 'old_office', value: 'Berlin', source: { type: 'user' }, ts: '2025-01-01T09:00:00', is_valid: false, superseded_by: 'F-3' },
      { id: 'F-3', key: 'office', value: 'Paris', source: { type: 'user' }, ts: '2025-01-01T09:30:00' },
      { id: 'F-4', key: 'parking', value: 'none', source: { type: 'user' }, ts: '2025-01-01T09:30:00', is_valid: false },
    ],
    working_set: [{ item_type: 'context', content: 'drafting the Q4 plan', ts: '2025-01-01T10:00:00', priority: 1 }],
    environment: { now: '2025-01-01T10:05:00', deadline: 'Friday' },
  },
  events: [
    { ts: '2025-01-01T10:06:00', type: 'conversation_turn', speaker: 'user', text: 'The budget changed', implicit_supersession: null },
    {
      ts: '2025-01-01T10:07:00',
      type: 'supersession',
      writes: [
        {
          id: 'W-AUTO',
          layer: 'persistent_facts',
          key: 'budget_corrected',
          value: '$120,000',
          source: { type: 'user', identity: null, authority: 'peer' },
          scope: 'global',
          supersedes: 'budget',
          depends_on: [],
        },
      ],
    },
    { ts: '2025-01-01T10:08:00', type: 'state_write', writes: [{ id: 'W-AUTO', layer: 'environment', key: 'alert', value: 'freeze' }] },
    {
      ts: '2025-01-01T10:09:00',
      type: 'query',
      prompt: 'What is the budget?',
      ground_truth: { decision: '$120,000', must_mention: ['$120,000'], must_not_mention: ['$200,000'] },
    },
  ],
  metadata: null,
});

describeStores('StateBench import of hand-written timelines', (openStore) => {
  it('maps identity, initial facts (chains, invalid facts, dependencies), working set, environment, turns and queries', () => {
    const store = openStore();
    const stats = importStatebenchText(store, `${good}\n`);
    expect(stats).toMatchObject({
      timelines: 1,
      initialFacts: 5,
      supersessionWrites: 1,
      supersessionsResolved: 1,
      turns: 1,
      queries: 1,
      workingItems: 1,
      environmentSignals: 3,
    });
    const h = store.scope({ kind: 'user', org: 'acme', user: 'T-1' });
    expect(h.identity()).toMatchObject({ userName: 'Ann', userId: 'u1', permissions: [] });
    const facts = h.allFacts();
    const byLabel = (l: string) => facts.find((f) => f.label === l);
    expect(byLabel('F-1')?.isValid).toBe(false);
    expect(byLabel('F-0')?.isValid).toBe(false);
    expect(byLabel('F-0')?.supersededBy).toBe(byLabel('F-3')?.id);
    expect(byLabel('F-3')?.isValid).toBe(true);
    expect(byLabel('F-4')?.isValid).toBe(false);
    expect(byLabel('F-4')?.supersededBy).toBeNull();
    const plan = h.getFact(byLabel('F-2')?.id as string);
    expect(plan?.dependsOn).toEqual([byLabel('F-1')?.id]);
    expect(plan?.needsReview).toBe(true); // flagged when the budget it rests on was superseded
    expect(h.currentValue('budget')).toBe('$120,000');
    const corrected = facts.find((f) => f.key === 'budget_corrected');
    expect(corrected?.source.eventIndex).toBe(1);
    expect(corrected?.source.turnIndex).toBe(0);
    expect(h.environment().map((s) => [s.key, s.value])).toEqual([
      ['alert', 'freeze'],
      ['deadline', 'Friday'],
      ['now', '2025-01-01T10:05:00'],
    ]);
    const items = h.workingItems({ at: '2025-01-01T00:00:00' });
    expect(items.map((i) => [i.key, i.itemType])).toEqual([
      ['ws:0', 'context'],
      ['turn:0', 'turn'],
    ]);
    expect(h.savedQueries()[0]).toMatchObject({ label: 'Q0', prompt: 'What is the budget?', ts: '2025-01-01T10:09:00.000Z' });
    store.close();
  });

  it('initial facts meet the supersession rules as any write does: an outranked instruction is replaced, an overruling one is a proposal', () => {
    const store = openStore();
    const t = JSON.parse(good) as { id: string; initial_state: { persistent_facts: unknown[] }; events: unknown[] };
    const instruction = (id: string, key: string, value: string, authority: string, ts: string) => ({
      id,
      key,
      value,
      source: { type: 'user', identity: null, authority },
      ts,
    });
    t.id = 'T-3';
    t.initial_state.persistent_facts = [
      instruction('F-A', 'instruction_a', 'The feature will take 3 weeks to build', 'peer', '2025-01-01T09:01:00'),
      instruction('F-B', 'instruction_b', 'Ship the feature by Friday, scope down if needed', 'executive', '2025-01-01T09:02:00'),
      instruction('F-C', 'directive_a', 'Use PostgreSQL for all new services', 'manager', '2025-01-01T09:01:00'),
      instruction('F-D', 'directive_b', 'MongoDB would be better, use that instead', 'subordinate', '2025-01-01T09:02:00'),
    ];
    t.events = [];
    const stats = importStatebenchText(store, `${JSON.stringify(t)}\n`);
    expect(stats).toMatchObject({ initialFacts: 4, facts: 4, inferredSupersessions: 1, proposals: 1 });
    const facts = store.scope({ kind: 'user', org: 'acme', user: 'T-3' }).allFacts();
    const byLabel = (l: string) => facts.find((f) => f.label === l);
    expect(byLabel('F-A')?.isValid).toBe(false);
    expect(byLabel('F-A')?.supersededBy).toBe(byLabel('F-B')?.id);
    expect(byLabel('F-B')?.isValid).toBe(true);
    expect(byLabel('F-C')?.isValid).toBe(true);
    expect(byLabel('F-D')?.status).toBe('proposal');
    store.close();
  });

  it('a malformed line imports nothing and names the line and field', () => {
    const store = openStore();
    const broken = JSON.parse(good) as { id: string; events: Array<Record<string, unknown>> };
    broken.id = 'T-2';
    (broken.events[1] as { writes: Array<Record<string, unknown>> }).writes[0]!.key = 42;
    const err = thrownBy(() => importStatebenchText(store, `${good}\n${JSON.stringify(broken)}\n`, { sourceName: 'x.jsonl' }));
    expect(err.code).toBe('IMPORT_FAILED');
    expect(err.message).toMatch(/x\.jsonl line 2: field events\.1\.writes\.0\.key/);
    expect(store.listPartitions()).toEqual([]);

    expect(thrownBy(() => importStatebenchText(store, `${good}\n{"id": "T-3",\n`)).message).toMatch(/line 2: not valid JSON/);
    expect(thrownBy(() => importStatebenchText(store, '\n\n')).code).toBe('IMPORT_FAILED');
    expect(thrownBy(() => importStatebenchText(store, `${good}\n${good}\n`)).message).toMatch(/line 2: field id: timeline "T-1" repeats line 1/);
    expect(store.listPartitions()).toEqual([]);
    store.close();
  });

  it('an engine refusal mid-file rolls the whole file back, naming the line', () => {
    const store = openStore();
    importStatebenchText(store, good);
    const before = store.listPartitions();
    const second = JSON.stringify({ ...(JSON.parse(good) as object), id: 'T-9' });
    const err = thrownBy(() => importStatebenchText(store, `${second}\n${good}\n`));
    expect(err.code).toBe('IMPORT_FAILED');
    expect(err.message).toMatch(/line 2 \(timeline T-1\): timeline T-1 is already imported/);
    expect(store.listPartitions()).toEqual(before);
    store.close();
  });

  it('reports a missing file as NOT_FOUND', () => {
    const store = openStore();
    expect(thrownBy(() => importStatebenchFile(store, '/nonexistent/statebench.jsonl')).code).toBe('NOT_FOUND');
    store.close();
  });

  it('records turns through the engine turn path, applying events in timestamp order', () => {
    const store = openStore();
    const line = JSON.stringify({
      id: 'T-turns',
      actors: { user: { id: 'u1', role: 'Planner', org: 'acme' } },
      initial_state: { persistent_facts: [], working_set: [], environment: { now: '2025-03-01T08:00:00' } },
      events: [
        { ts: '2025-03-01T08:02:00', type: 'conversation_turn', speaker: 'user', text: 'Book the venue for Tuesday.' },
        { ts: '2025-03-01T08:03:00', type: 'conversation_turn', speaker: 'assistant', text: 'Venue booked for Tuesday.' },
        { ts: '2025-03-01T08:04:00', type: 'conversation_turn', speaker: 'user', text: 'No wait, change that to Wednesday.' },
        // Listed after the turns but written before them: it must exist when they are checked.
        {
          ts: '2025-03-01T08:01:00',
          type: 'state_write',
          writes: [{ id: 'F-V', layer: 'persistent_facts', key: 'venue_day', value: 'Tuesday', source: { type: 'user' } }],
        },
        { ts: '2025-03-01T08:05:00', type: 'query', prompt: 'Which day is the venue?' },
      ],
    });
    const stats = importStatebenchText(store, line);
    expect(stats.turns).toBe(3);
    expect(stats.inferredSupersessions).toBe(1);
    const p = store.scope({ kind: 'user', org: 'acme', user: 'T-turns' });
    expect(p.currentValue('venue_day')).toBe('Wednesday');
    expect(
      p
        .workingItems()
        .filter((w) => w.itemType === 'turn')
        .map((w) => w.turnIndex),
    ).toEqual([0, 1, 2]);
    store.close();
  });
});
