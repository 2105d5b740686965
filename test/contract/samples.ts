// Valid inputs for every call channel on the fixture database (typed by the contract, so a
// new channel without samples does not compile). Used by conformance, fuzzing and the
// HTTP-equals-IPC comparison.
import type { CallChannel, ChannelInput } from '../../shared/contract';
import type { Fixture } from './fixture';

export type Samples = { readonly [C in CallChannel]: ReadonlyArray<ChannelInput<C>> };

/** Inputs that only read: answered identically by every transport, whenever asked. */
export function readSamples(
  fx: Fixture,
): Omit<
  Samples,
  | 'db.open'
  | 'db.connect'
  | 'db.close'
  | 'db.trustForeignObjects'
  | 'review.dismiss'
  | 'review.dismissCause'
  | 'review.undoDismiss'
  | 'deletion.apply'
  | 'export.start'
  | 'export.cancel'
> {
  const p = fx.userPartition;
  return {
    'db.info': [{}],
    'db.recent': [{}],
    'db.recentServers': [{}],
    'partitions.list': [{}, { asOf: '2026-03-01T09:03:30.000Z' }],
    'facts.list': [
      { partitionId: p },
      { partitionId: p, filter: { validity: 'valid' }, sort: { column: 'importance', direction: 'desc' }, page: { limit: 5 } },
      { partitionId: p, filter: { search: 'budget' }, page: { limit: 10 } },
      { partitionId: p, filter: { needsReview: true } },
      { partitionId: p, filter: { asOf: '2026-03-01T09:03:30.000Z' } },
      { partitionId: p, sort: { column: 'key', direction: 'asc' }, page: { limit: 500 } },
      { partitionId: fx.orgPartition },
    ],
    'facts.searchAll': [
      { search: 'budget' },
      { search: 'budget', first: fx.orgPartition, perPartition: 20 },
      { search: 'budget', asOf: '2026-03-01T09:03:30.000Z' },
    ],
    'facts.get': [
      { partitionId: p, factId: fx.chainHeadId },
      { partitionId: p, factId: fx.flaggedId },
      { partitionId: p, factId: fx.chainHeadId, asOf: '2026-03-01T09:03:30.000Z' },
    ],
    'facts.chain': [{ partitionId: p, factId: fx.chainHeadId }],
    'facts.briefs': [
      { partitionId: p, factIds: [fx.chainHeadId, fx.flaggedId] },
      { partitionId: p, factIds: [] },
    ],
    'facts.neighbourhood': [
      { partitionId: p, factId: fx.flaggedId },
      { partitionId: p, factId: fx.factIds[0] ?? '', hops: 3, maxNodes: 10 },
    ],
    'facts.timeline': [{ partitionId: p }, { partitionId: p, buckets: 12 }],
    'facts.changes': [
      { partitionId: p, from: '2026-01-01T00:00:00.000Z', to: '2026-12-31T00:00:00.000Z' },
      { partitionId: p, from: '2026-12-31T00:00:00.000Z', to: '2026-01-01T00:00:00.000Z', limit: 3 },
    ],
    'review.queue': [{ partitionId: p }, { partitionId: p, page: { limit: 1 } }],
    'deletion.preview': [
      { partitionId: p, selection: { ids: [fx.factIds[0] ?? ''] } },
      { partitionId: p, selection: { filter: { search: 'coffee' } } },
      { partitionId: p, selection: { all: true } },
      { partitionId: p, selection: { ids: [fx.chainHeadId] }, context: { query: 'What is the Q3 budget?', budget: 400 } },
    ],
    'context.assemble': [
      { partitionId: p, strategy: 'state_based', query: 'budget', budget: 300 },
      { partitionId: p, strategy: 'recent', budget: 200 },
      { partitionId: p, strategy: 'reference' },
      { partitionId: p, strategy: 'context_document', sessionId: 's1' },
    ],
    'context.compare': [{ partitionId: p, strategies: ['state_based', 'balanced', 'reference'], query: 'Q3 budget', budget: 500 }],
    'sessions.list': [{ partitionId: p }],
    'workingItems.list': [
      { partitionId: p, sessionId: 's1' },
      { partitionId: p, sessionId: 'nobody' },
    ],
    'agentState.get': [
      { partitionId: p, sessionId: 's1' },
      { partitionId: p, sessionId: 'nobody' },
    ],
    'contextDocuments.get': [
      { partitionId: p, sessionId: 's1' },
      { partitionId: p, sessionId: 's1', version: 1 },
    ],
    'contextDocuments.versions': [{ partitionId: p, sessionId: 's1' }],
    'documents.list': [{ partitionId: fx.orgPartition }],
    'savedQueries.list': [{ partitionId: p }],
    'audit.list': [{}, { partitionId: p, limit: 5 }],
    'review.groups': [{ partitionId: p }, { partitionId: fx.orgPartition }],
  };
}

export function allSamples(fx: Fixture): Samples {
  const p = fx.userPartition;
  return {
    ...readSamples(fx),
    'db.open': [{ source: 'dialog' }, { source: 'recent', index: 0 }],
    'db.close': [{}],
    'db.trustForeignObjects': [{}],
    // The first recent server is a PGlite store where a test puts one (no-fact-creation.test.ts);
    // the form names a port nothing listens on, so it is refused without a network.
    'db.connect': [
      { source: 'recent', index: 0 },
      { source: 'form', url: 'postgres://nobody@127.0.0.1:1/memory?sslmode=disable', password: 'pw', schema: 'statelens', org: 'acme', remember: true },
    ],
    'review.dismiss': [{ partitionId: p, factIds: [fx.flaggedId], reason: 'checked by hand' }],
    'review.undoDismiss': [{ partitionId: p, auditId: 1 }],
    'review.dismissCause': [{ partitionId: p, causeFactId: fx.factIds[0] ?? '', reason: 'checked the whole group' }],
    'deletion.apply': [{ partitionId: p, selection: { ids: [fx.factIds[5] ?? ''] }, reason: 'wrong' }],
    'export.start': [
      { format: 'csv', partitionId: p, operationId: 'export-sample-1' },
      { format: 'csv', partitionId: p, filter: { search: 'budget' }, operationId: 'export-sample-2' },
    ],
    'export.cancel': [{ operationId: 'nothing-running' }],
  };
}
