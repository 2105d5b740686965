import { describe, expect, it } from 'vitest';
import { isStatelensError } from '../../../shared/errors';
import { describeStores, itWhere } from '../../../test/helpers/stores';
import { hasCorrectionCue, inferConstraintType, inferScope, inferTimeSensitive, looksLikeConstraint } from '../facts/inference';
import type { Store } from '../store';
import { verifyDatabase } from '../verify/verify';
import { generateDemo } from './generate';
import { Rng } from './prng';
import { CONSTRAINTS, ORG_TEMPLATES, ORGS, USER_TEMPLATES } from './vocabulary';

function dump(store: Store): unknown {
  const all = (sql: string) => store.db.prepare(sql).all();
  return {
    partitions: all('SELECT org_id, kind, subject, maturity FROM partitions ORDER BY id'),
    identities: all('SELECT * FROM identities ORDER BY partition_id'),
    facts: all('SELECT * FROM facts ORDER BY rid'),
    edges: all('SELECT * FROM fact_edges ORDER BY dependent, depends_on'),
    working: all('SELECT * FROM working_items ORDER BY rid'),
    env: all('SELECT * FROM environment_signals ORDER BY partition_id, key'),
    docs: all('SELECT * FROM org_documents ORDER BY rid'),
    queries: all('SELECT * FROM saved_queries ORDER BY id'),
    agent: all('SELECT * FROM agent_states ORDER BY partition_id, session_id'),
    context: all('SELECT * FROM context_documents ORDER BY partition_id, session_id, version'),
  };
}

const count = (store: Store, sql: string): number => store.db.prepare(sql).pluck().get() as number;

describeStores('demo generator', (openStore, kind) => {
  // Thousands of facts take minutes on PGlite: PostgreSQL stores generate smaller demos.
  const small = kind !== 'sqlite';

  it('is deterministic: the same seed gives the same database (dependency web included), another seed another one', () => {
    // One store at a time: a PostgreSQL test store is a schema on the file's one connection.
    const generated = (seed: string) => {
      const store = openStore();
      generateDemo(store, { facts: small ? 300 : 2100, seed });
      expect(verifyDatabase(store).checks.filter((c) => !c.ok)).toEqual([]);
      const d = dump(store);
      store.close();
      return d;
    };
    const a = generated('same');
    expect(generated('same')).toEqual(a);
    expect(generated('other')).not.toEqual(a);
  });

  it('writes exactly the number of facts asked for, in batches', () => {
    for (const n of [0, 7, small ? 600 : 1234]) {
      const store = openStore();
      const progress: number[] = [];
      const stats = generateDemo(store, { facts: n, seed: 1, batchSize: 500, onProgress: (done) => progress.push(done) });
      expect(stats.facts).toBe(n);
      expect(count(store, 'SELECT count(*) FROM facts')).toBe(n);
      expect(stats.partitions).toBe(27);
      expect(progress).toEqual(n === 0 ? [] : Array.from({ length: Math.ceil(n / 500) }, (_, i) => Math.min(n, (i + 1) * 500)));
      store.close();
    }
  });

  it("ends its history before the store's clock at generation, so every time is in the past", () => {
    const store = openStore({ start: '2031-06-15T12:00:00.000Z' });
    generateDemo(store, { facts: 200, seed: 'past' });
    const done = Date.parse(store.services.clock.now());
    const latest = (sql: string) => Date.parse(String(store.db.prepare(sql).pluck().get()));
    const newestFact = latest('SELECT max(ts) FROM facts');
    expect(newestFact).toBeLessThan(done);
    expect(latest('SELECT min(ts) FROM facts')).toBeGreaterThan(done - 400 * 86_400_000);
    expect(latest('SELECT max(observed_at) FROM environment_signals')).toBeLessThan(done);
    expect(latest('SELECT max(created_at) FROM working_items')).toBeLessThan(done);
    store.close();
  });

  it('refuses a bad size with a typed error', () => {
    const store = openStore();
    for (const facts of [-1, 1.5, 1e9]) {
      try {
        generateDemo(store, { facts });
        expect.unreachable();
      } catch (e) {
        expect(isStatelensError(e) && e.code).toBe('INVALID_INPUT');
      }
    }
    store.close();
  });

  itWhere(
    kind,
    ['sqlite'],
    'showing every feature takes 3,000 facts (about a minute on PGlite); smaller demos are generated and verified on every store above',
  )('shows every rule, constraint type, scope, level and layer, and passes verification', () => {
    const store = openStore();
    const stats = generateDemo(store, { facts: 3000, seed: 'features' });
    for (const rule of ['explicit', 'implicit', 'authority', 'temporal'] as const) expect(stats.rules[rule], rule).toBeGreaterThan(0);
    expect(stats.outcomes.proposal).toBeGreaterThan(0);
    expect(stats.outcomes.stale).toBeGreaterThan(0);
    expect(count(store, "SELECT count(*) FROM facts WHERE status = 'proposal' AND proposal_for IS NOT NULL")).toBeGreaterThan(0);
    expect(count(store, 'SELECT count(*) FROM facts WHERE needs_review = 1 AND review_cause_fact IS NOT NULL')).toBeGreaterThan(0);
    expect(count(store, 'SELECT count(*) FROM fact_edges')).toBeGreaterThan(0);
    const types = store.db.prepare('SELECT DISTINCT constraint_type FROM facts WHERE is_constraint = 1 ORDER BY 1').pluck().all();
    expect(types).toEqual(['budget', 'capacity', 'deadline', 'policy']);
    const scopes = store.db.prepare('SELECT DISTINCT scope FROM facts ORDER BY 1').pluck().all();
    expect(scopes).toEqual(['draft', 'global', 'hypothetical', 'session', 'task']);
    const levels = store.db
      .prepare("SELECT DISTINCT p.maturity || ':' || f.level FROM facts f JOIN partitions p ON p.id = f.partition_id WHERE f.level IS NOT NULL ORDER BY 1")
      .pluck()
      .all();
    expect(levels).toEqual(['junior:event', 'master:event', 'master:heuristic', 'master:strategy', 'senior:event', 'senior:heuristic']);
    const memoryTypes = store.db.prepare('SELECT DISTINCT memory_type FROM facts ORDER BY 1').pluck().all();
    expect(memoryTypes).toEqual(['capability', 'organizational', 'user']);

    // The showcase: a policy beat the employee's travel figure; the guest's figure is a proposal.
    const ann = store.scope({ kind: 'user', org: 'northwind', user: 'ann.keller' });
    expect(ann.currentValue('travel.budget_per_trip')).toBe('Travel spend must not exceed $2,500 per trip');
    expect(ann.currentValue('meeting.weekly_sync.slot')).toBe('Thursday at 15:00');
    const decision = ann.allFacts().find((f) => f.label === 'F-DECISION');
    expect(decision && ann.getFact(decision.id)?.needsReview).toBe(true);
    expect(ann.identity()).toMatchObject({ userName: 'Ann Keller', authority: 'employee', department: 'Operations' });
    expect(ann.environment().map((s) => s.key)).toEqual(['alert', 'calendar', 'deadline', 'now', 'timezone']);
    expect(ann.workingItems({ includeExpired: true }).length).toBeGreaterThan(6);
    expect(ann.savedQueries().map((q) => q.label)).toEqual(['Q0', 'Q1', 'Q2']);
    const state = ann.agentState('session-1');
    expect(state.expectations.map((e) => e.status)).toEqual(['confirmed', 'failed', 'pending']);
    expect(state.assumptions.length).toBe(3); // two stated, one added by the failed expectation
    expect(ann.contextDocumentVersions('session-1').length).toBe(2);

    // Documents and their ACLs, enforced for an identity.
    const org = store.scope({ kind: 'organizational', org: 'northwind' });
    const identity = ann.identity();
    if (!identity) throw new Error('no identity');
    const { allowed, denied } = org.documentsFor(identity);
    expect(allowed.map((d) => d.title)).toContain('Warehouse incident runbook');
    expect(denied.map((d) => d.title)).toContain('Board pack: Q3 results');

    const report = verifyDatabase(store);
    expect(report.checks.filter((c) => !c.ok)).toEqual([]);
    store.close();
  });
});

describeStores(
  'demo dependency web',
  (openStore) => {
    it('gives one partition chains five levels deep, fan-in and fan-out, and a 2,000-fact neighbourhood', () => {
      const store = openStore();
      generateDemo(store, { facts: 10_000, seed: 'web' });
      const org = store.scope({ kind: 'organizational', org: 'northwind' });
      const idOf = (key: string) => {
        const f = org.allFacts().find((x) => x.key === key && x.status !== 'proposal');
        if (!f) throw new Error(`no ${key}`);
        return f.id;
      };
      // Fan-out: the budget's neighbourhood within three hops holds more than 2,000 facts.
      const hood = org.neighbourhood(idOf('plan.atlas.budget'), { hops: 3, maxNodes: 5000 });
      expect(hood.nodes.length).toBeGreaterThanOrEqual(2000);
      expect(hood.truncated).toBe(false);
      // Fan-in: hundreds of decisions rest on one vendor quote.
      const quoteIds = org
        .allFacts()
        .filter((f) => /^quote\.[a-z_]+\.pallet_cost$/.test(f.key))
        .map((f) => f.id);
      const fanIn = count(
        store,
        `SELECT max(n) FROM (SELECT count(*) AS n FROM fact_edges WHERE depends_on IN (${quoteIds.map((q) => `'${q}'`).join(',')}) GROUP BY depends_on)`,
      );
      expect(fanIn).toBeGreaterThanOrEqual(50);
      // Depth: outlook <- forecast <- decision <- workstream <- allocation <- budget.
      const outlook = org.getFact(idOf('forecast.atlas.outlook'));
      expect(outlook?.dependsOn.length).toBe(12);
      const deep = org.neighbourhood(idOf('forecast.atlas.outlook'), { hops: 5, maxNodes: 5000 });
      expect(deep.nodes.some((n) => n.key === 'plan.atlas.budget' && n.hop === 5)).toBe(true);
      // The corrected allocation flagged everything downstream of it, several hops deep, with a path.
      const flagged = org.getFact(idOf('forecast.atlas.fleet.spend'));
      expect(flagged?.needsReview).toBe(true);
      const path = org.neighbourhood(flagged?.id ?? '', { hops: 1 }).propagation?.path ?? [];
      expect(path.length).toBeGreaterThanOrEqual(4);
      expect(verifyDatabase(store).checks.filter((c) => !c.ok)).toEqual([]);
      store.close();
    });
  },
  { stores: ['sqlite'], reason: 'it generates 10,000 facts; the generator runs on every store in the smaller tests above' },
);

describe('demo vocabulary', () => {
  const rng = new Rng('vocabulary');
  it('marks exactly the time-sensitive templates so, and ordinary values carry no cue words', () => {
    for (const org of ORGS) {
      for (const t of [...USER_TEMPLATES, ...ORG_TEMPLATES]) {
        for (let i = 0; i < 60; i++) {
          const key = t.key(rng, org, i);
          expect(inferTimeSensitive(key), `${t.name}: ${key}`).toBe(t.timeSensitive);
          const value = t.value(rng, org);
          expect(hasCorrectionCue(value), `${t.name}: ${value}`).toBe(false);
          expect(inferScope(value), `${t.name}: ${value}`).toBe('global');
          expect(looksLikeConstraint(value, 'user'), `${t.name}: ${value}`).toBe(false);
        }
      }
    }
  });

  it('phrases constraints so the engine detects their type', () => {
    for (const org of ORGS) {
      for (const c of CONSTRAINTS) {
        const key = c.key(rng, org);
        const value = c.value(rng, org);
        expect(looksLikeConstraint(value, 'user'), value).toBe(true);
        expect(inferConstraintType(`${key} ${value}`), value).toBe(c.type);
      }
    }
  });
});
