// Consolidation through the store on every backend: tiers give proposals instead of facts, runs
// are idempotent and audited once, a dry run writes nothing, derived_from edges flag the
// abstraction when an event is deleted, and stale superseded events are archived.
import { expect, it } from 'vitest';
import type { Maturity } from '../../../shared/domain';
import { describeStores } from '../../../test/helpers/stores';
import { stmt } from '../db/statements';
import type { Store } from '../store';
import { ABOVE_TIER_CAUSE } from './consolidate';
import { CACHE, DEPLOY, NEAR_MISSES } from './fixtures.test-helper';

const agent = { kind: 'capability', org: 'acme', capability: 'deployer' } as const;
const TABLES = ['partitions', 'identities', 'facts', 'fact_edges', 'working_items', 'environment_signals', 'org_documents', 'audit_log'];

function seeded(store: Store, maturity: Maturity) {
  const p = store.scope(agent, { create: true });
  if (maturity !== 'junior') store.setMaturity(p.id, maturity, { actor: 'admin', reason: 'test' });
  const q = store.scopeById(p.id);
  const ids = new Map<string, string>();
  for (const e of [...DEPLOY, ...NEAR_MISSES, ...CACHE]) {
    const r = q.writeFact({ key: e.key, value: e.value, entity: e.entityKey, level: 'event', source: { type: 'observation' } }, { inferSupersession: false });
    ids.set(e.id, r.factId);
  }
  return { p: q, ids };
}

function dump(store: Store): string {
  return JSON.stringify(TABLES.map((t) => stmt(store.db, `SELECT * FROM ${t} ORDER BY 1`).all()));
}

describeStores('consolidation', (openStore) => {
  it('writes a heuristic per cluster with derived_from edges where the maturity allows it', () => {
    const store = openStore();
    const { p, ids } = seeded(store, 'senior');
    const r = p.consolidate({}, { actor: 'nightly' });
    const heuristics = r.abstractions.filter((a) => a.level === 'heuristic');
    expect(heuristics.map((a) => [a.stem, a.outcome, [...a.from].sort()])).toEqual([
      ['deploy', 'fact', DEPLOY.map((e) => ids.get(e.id)).sort()],
      ['cache', 'fact', CACHE.map((e) => ids.get(e.id)).sort()],
    ]);
    const fact = p.getFact(heuristics[0]?.id as string);
    expect(fact).toMatchObject({ level: 'heuristic', status: 'active', memoryType: 'capability' });
    expect(fact?.dependsOn.sort()).toEqual(DEPLOY.map((e) => ids.get(e.id)).sort());
    expect(p.consolidationEdges(fact?.id as string).consolidatedFrom).toEqual(DEPLOY.map((e) => ids.get(e.id)).sort());
    expect(p.consolidationEdges(ids.get('c1') as string).consolidatedInto).toEqual([heuristics[1]?.id]);
    expect(p.consolidationEdges(ids.get('n1') as string)).toEqual({ consolidatedFrom: [], consolidatedInto: [] });
    // No strategy: a senior agent may not hold one, and two heuristics of other stems do not cluster.
    expect(r.abstractions.filter((a) => a.level === 'strategy')).toEqual([]);
    store.close();
  });

  it('gives a junior partition proposals in the review queue, nothing above its tier', () => {
    const store = openStore();
    const { p } = seeded(store, 'junior');
    const r = p.consolidate();
    expect(r.abstractions.map((a) => a.outcome)).toEqual(['proposal', 'proposal']);
    expect(p.validFacts().filter((f) => f.level !== 'event')).toEqual([]);
    const queued = p
      .reviewQueue()
      .entries.map((i) => i.fact.id)
      .sort();
    expect(queued).toEqual(r.abstractions.map((a) => a.id).sort());
    expect(p.getFact(r.abstractions[0]?.id as string)).toMatchObject({ status: 'proposal', level: 'heuristic', reviewCause: ABOVE_TIER_CAUSE });
    store.close();
  });

  it('is idempotent and audits every run once with its parameters and results', () => {
    const store = openStore();
    const { p } = seeded(store, 'senior');
    const first = p.consolidate({ minCluster: 3 }, { actor: 'nightly' });
    const facts = JSON.stringify(stmt(store.db, 'SELECT * FROM facts ORDER BY id').all());
    const second = p.consolidate({ minCluster: 3 }, { actor: 'nightly' });
    expect(JSON.stringify(stmt(store.db, 'SELECT * FROM facts ORDER BY id').all())).toBe(facts);
    expect(second.abstractions.map((a) => [a.outcome, a.id])).toEqual(first.abstractions.map((a) => ['existing', a.id]));
    const audit = store.auditPage({ partitionId: p.id, factId: null, beforeId: null, limit: 100 }).entries.filter((a) => a.action === 'consolidate');
    expect(audit.map((a) => a.id).sort()).toEqual([first.auditId, second.auditId].sort());
    const entry = audit.find((a) => a.id === first.auditId);
    expect(entry?.details).toMatchObject({ params: { minCluster: 3 }, heuristics: 2, strategies: 0, proposals: 0, archived: [] });
    expect(entry?.targetIds.sort()).toEqual(first.abstractions.map((a) => a.id).sort());
    store.close();
  });

  it('writes nothing in a dry run and reports the same plan', () => {
    const store = openStore();
    const { p } = seeded(store, 'senior');
    const before = dump(store);
    const dry = p.consolidate({}, { dryRun: true });
    expect(dump(store)).toBe(before);
    expect(dry).toMatchObject({ dryRun: true, auditId: null });
    const run = p.consolidate();
    expect(run.abstractions.map((a) => [a.key, a.value, a.from])).toEqual(dry.abstractions.map((a) => [a.key, a.value, a.from]));
    store.close();
  });

  it('flags the heuristic needs_review when one of its events is deleted', () => {
    const store = openStore();
    const { p, ids } = seeded(store, 'senior');
    const h = p.consolidate().abstractions[0]?.id as string;
    p.deleteFacts({ ids: [ids.get('d2') as string] }, { actor: 'dana', reason: 'wrong' });
    expect(p.getFact(h)?.needsReview).toBe(true);
    store.close();
  });

  it('clusters heuristics into a strategy on a master partition', () => {
    const store = openStore();
    const p = store.scope(agent, { create: true });
    store.setMaturity(p.id, 'master', { actor: 'admin' });
    const q = store.scopeById(p.id);
    const texts = [
      'rollback the deploy when staging migration fails',
      'staging migration failure: rollback deploy',
      'deploy rollback after failed staging migration',
    ];
    texts.forEach((value, i) =>
      q.writeFact({ key: `deploy.rule_${i}`, value, entity: 'deploy', level: 'heuristic', source: { type: 'heuristic' } }, { inferSupersession: false }),
    );
    const r = q.consolidate();
    expect(r.abstractions.map((a) => [a.level, a.outcome, a.from.length])).toEqual([['strategy', 'fact', 3]]);
    expect(q.getFact(r.abstractions[0]?.id as string)?.level).toBe('strategy');
    store.close();
  });

  it('archives superseded, never-accessed, unimportant old events, and says which', () => {
    const store = openStore();
    const p = store.scope(agent, { create: true });
    const old = p.writeFact({ key: 'deploy.window', value: 'deploy on Tuesdays', ts: '2020-01-01T00:00:00.000Z', importance: 0.2, level: 'event' }).factId;
    const kept = p.writeFact({ key: 'deploy.owner', value: 'ops owns deploys', ts: '2020-01-01T00:00:00.000Z', importance: 2, level: 'event' }).factId;
    p.writeFact({ key: 'deploy.window', value: 'deploy on Thursdays', ts: '2020-02-01T00:00:00.000Z', level: 'event', supersedes: old });
    p.writeFact({ key: 'deploy.owner', value: 'platform owns deploys', ts: '2020-02-01T00:00:00.000Z', level: 'event', supersedes: kept });
    expect(p.consolidate({}, { dryRun: true }).archived).toEqual([old]);
    const r = p.consolidate();
    expect(r.archived).toEqual([old]);
    // Kept for audit, out of listings and past views.
    expect(p.getFact(old)).toBeDefined();
    expect(p.listFacts({ filter: { validity: 'all' } }).rows.map((f) => f.id)).not.toContain(old);
    expect(p.allFactsAsOf('2020-01-15T00:00:00.000Z').map((f) => f.id)).not.toContain(old);
    expect(p.consolidate().archived).toEqual([]);
    store.close();
  });

  it('refuses bad parameters with a typed error and writes nothing', () => {
    const store = openStore();
    const { p } = seeded(store, 'senior');
    const before = dump(store);
    expect(() => p.consolidate({ similarity: 0 })).toThrow(expect.objectContaining({ code: 'INVALID_INPUT' }));
    expect(() => p.consolidate({ minCluster: 1 })).toThrow(expect.objectContaining({ code: 'INVALID_INPUT' }));
    expect(dump(store)).toBe(before);
    store.close();
  });
});
