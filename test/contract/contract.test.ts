// The contract itself: every channel listed once with strict, bounded schemas; no channel that
// creates or edits a fact; the bridge layout and the payload guard derived from it.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  CALL_CHANNELS,
  CONTRACT,
  EVENT_CHANNELS,
  MAX_PAYLOAD_BYTES,
  bridgeLayout,
  callDef,
  ipcCallChannel,
  isCallChannel,
  isEventChannel,
  payloadProblem,
  type CallChannel,
} from '../../shared/contract';
import { MAX_PAGE_SIZE } from '../../shared/query';
import { allSamples } from './samples';
import type { Fixture } from './fixture';

const fx: Fixture = {
  path: '/x.db',
  userPartition: 1,
  capabilityPartition: 2,
  orgPartition: 3,
  otherOrgPartition: 4,
  factIds: ['f_1', 'f_2', 'f_3', 'f_4', 'f_5', 'f_6'],
  flaggedId: 'f_2',
  chainHeadId: 'f_4',
};
const samples = allSamples(fx);

describe('the channel table', () => {
  it('lists exactly these channels, each once', () => {
    expect([...CALL_CHANNELS].sort()).toEqual(
      [
        'agentState.get',
        'audit.list',
        'context.assemble',
        'context.compare',
        'contextDocuments.get',
        'contextDocuments.versions',
        'db.close',
        'db.connect',
        'db.info',
        'db.open',
        'db.recent',
        'db.recentServers',
        'db.trustForeignObjects',
        'deletion.apply',
        'deletion.preview',
        'documents.list',
        'export.cancel',
        'export.start',
        'facts.briefs',
        'facts.chain',
        'facts.changes',
        'facts.get',
        'facts.list',
        'facts.neighbourhood',
        'facts.searchAll',
        'facts.timeline',
        'partitions.list',
        'review.dismiss',
        'review.dismissCause',
        'review.groups',
        'review.queue',
        'review.undoDismiss',
        'savedQueries.list',
        'sessions.list',
        'workingItems.list',
      ].sort(),
    );
    expect([...EVENT_CHANNELS].sort()).toEqual(['agentState.changed', 'app.command', 'data.changed', 'progress']);
    expect(new Set(Object.keys(CONTRACT)).size).toBe(CALL_CHANNELS.length + EVENT_CHANNELS.length);
  });

  it('has no channel that creates or edits a fact: the only mutations delete, dismiss a flag, open/close/trust a file or server, or export', () => {
    const mutations = CALL_CHANNELS.filter((c) => callDef(c).kind === 'mutation').sort();
    expect(mutations).toEqual([
      'db.close',
      'db.connect',
      'db.open',
      'db.trustForeignObjects',
      'deletion.apply',
      'export.cancel',
      'export.start',
      'review.dismiss',
      'review.dismissCause',
      'review.undoDismiss',
    ]);
    // What each channel does to the stored facts is checked by calling it: no-fact-creation.test.ts.
  });

  it('rejects an agent write (a fact body) merged into any channel input', () => {
    const write = { key: 'budget', value: 'forged', supersedes: 'f_1', source: { type: 'user' } };
    for (const c of CALL_CHANNELS) {
      for (const sample of samples[c]) {
        expect(callDef(c).input.safeParse({ ...(sample as object), ...write }).success, c).toBe(false);
        expect(callDef(c).input.safeParse({ ...(sample as object), fact: write }).success, c).toBe(false);
        expect(callDef(c).input.safeParse({ ...(sample as object), facts: [write] }).success, c).toBe(false);
      }
    }
  });

  it('accepts every sample (so the rejections above are about the extra keys)', () => {
    for (const c of CALL_CHANNELS)
      for (const sample of samples[c]) expect(callDef(c).input.safeParse(sample).success, `${c} ${JSON.stringify(sample)}`).toBe(true);
  });

  it('is strict at every level: unknown keys are rejected in nested objects too', () => {
    const nested: Array<[CallChannel, unknown]> = [
      ['facts.list', { partitionId: 1, filter: { validity: 'valid', sql: '1=1' } }],
      ['facts.list', { partitionId: 1, sort: { column: 'key', direction: 'asc', nulls: 'first' } }],
      ['facts.list', { partitionId: 1, page: { limit: 5, offset: 10 } }],
      ['deletion.apply', { partitionId: 1, selection: { ids: ['f_1'], all: true } }],
      ['deletion.preview', { partitionId: 1, selection: { ids: ['f_1'] }, context: { query: 'x', sql: 'y' } }],
      ['db.open', { source: 'dialog', path: '/etc/passwd' }],
      ['db.open', { source: 'recent', index: 0, path: '/etc/passwd' }],
      ['export.start', { format: 'json', partitionId: null, operationId: 'abcdefgh', path: '/tmp/x' }],
    ];
    for (const [c, input] of nested) expect(callDef(c).input.safeParse(input).success, `${c} ${JSON.stringify(input)}`).toBe(false);
  });

  it('never takes a path from the renderer to open a database', () => {
    for (const input of [{ source: 'path', path: '/tmp/x.db' }, { path: '/tmp/x.db' }, { source: 'dialog', defaultPath: '/tmp' }, '/tmp/x.db']) {
      expect(callDef('db.open').input.safeParse(input).success).toBe(false);
    }
  });

  it('connects to a server only by a postgres:// URL without a password in it, never a file or in-process database', () => {
    const form = { source: 'form', url: 'postgres://ana@db.example:5432/memory?sslmode=verify-full', org: 'acme' };
    const parsed = callDef('db.connect').input.safeParse(form);
    expect(parsed.success && parsed.data).toEqual({ ...form, schema: 'statelens', remember: true });
    const withCa = { ...form, url: 'postgres://ana@db.example:5432/memory?sslmode=verify-full&sslrootcert=/etc/statelens/ca.crt' };
    expect(callDef('db.connect').input.safeParse(withCa).success).toBe(true);
    for (const url of [
      'postgres://ana:secret@db.example/memory',
      'postgres://ana@db.example/memory?password=secret',
      'postgres://ana@db.example/memory?sslmode=verify-full&Password=secret',
      'pglite:/tmp/data',
      'pglite:memory',
      '/tmp/x.db',
      'file:///tmp/x.db',
      'https://db.example/memory',
      'postgres://db.example',
      'postgres:///memory',
    ])
      expect(callDef('db.connect').input.safeParse({ ...form, url }).success, url).toBe(false);
    for (const bad of [
      { ...form, schema: 'Robert"); DROP' },
      { ...form, schema: '1st' },
      { ...form, org: 'ac\u202eme' },
      { ...form, org: '' },
      { ...form, org: 'a/b' },
      { ...form, path: '/tmp/x.db' },
      { source: 'recent', index: 0, url: form.url },
      { source: 'recent', index: 10 },
    ])
      expect(callDef('db.connect').input.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
  });

  it('never sends a kept password back: recent servers say only whether one is kept', () => {
    const server = {
      index: 0,
      url: 'postgres://ana@db.example/memory',
      schema: 'statelens',
      org: 'acme',
      openedAt: '2026-01-01T00:00:00.000Z',
      hasPassword: true,
    };
    const out = callDef('db.recentServers').output;
    expect(out.safeParse({ servers: [server] }).success).toBe(true);
    expect(out.safeParse({ servers: [{ ...server, password: 'secret' }] }).success).toBe(false);
  });

  it('bounds pages, strings, numbers and lists', () => {
    const bad: Array<[CallChannel, unknown]> = [
      ['facts.list', { partitionId: 1, page: { limit: MAX_PAGE_SIZE + 1 } }],
      ['facts.list', { partitionId: 1, page: { limit: 0 } }],
      ['facts.list', { partitionId: 1, filter: { search: 'x'.repeat(501) } }],
      ['facts.list', { partitionId: 0 }],
      ['facts.list', { partitionId: 2 ** 31 }],
      ['facts.list', { partitionId: 1.5 }],
      ['facts.get', { partitionId: 1, factId: 'f'.repeat(201) }],
      ['facts.get', { partitionId: 1, factId: '' }],
      ['facts.neighbourhood', { partitionId: 1, factId: 'f', hops: 99 }],
      ['facts.neighbourhood', { partitionId: 1, factId: 'f', maxNodes: 1_000_000 }],
      ['review.queue', { partitionId: 1, page: { limit: 10_000 } }],
      ['review.dismiss', { partitionId: 1, factIds: [] }],
      ['review.undoDismiss', { partitionId: 1, auditId: 0 }],
      ['review.dismissCause', { partitionId: 1 }],
      ['review.dismissCause', { partitionId: 1, causeFactId: '' }],
      ['review.queue', { partitionId: 1, causeFactId: 'f'.repeat(201) }],
      ['workingItems.list', { partitionId: 1 }],
      ['review.dismiss', { partitionId: 1, factIds: Array.from({ length: 10_001 }, (_, i) => `f_${i}`) }],
      ['review.dismiss', { partitionId: 1, factIds: ['f'], reason: 'r'.repeat(2001) }],
      ['deletion.apply', { partitionId: 1, selection: { ids: [] } }],
      ['context.assemble', { partitionId: 1, strategy: 'state_based', budget: -1 }],
      ['context.assemble', { partitionId: 1, strategy: 'state_based', budget: 1e12 }],
      ['context.assemble', { partitionId: 1, strategy: 'psychic' }],
      ['context.compare', { partitionId: 1, strategies: ['recent'] }],
      ['context.compare', { partitionId: 1, strategies: ['recent', 'recent'] }],
      ['audit.list', { limit: 501 }],
      ['export.start', { format: 'json', partitionId: null, operationId: 'short' }],
      ['export.start', { format: 'exe', partitionId: null, operationId: 'abcdefgh' }],
      ['db.open', { source: 'recent', index: 10 }],
      ['db.open', { source: 'recent', index: -1 }],
    ];
    for (const [c, input] of bad) expect(callDef(c).input.safeParse(input).success, `${c} ${JSON.stringify(input).slice(0, 120)}`).toBe(false);
  });

  it('derives everything from one table: bridge layout, IPC names, channel guards', () => {
    const layout = bridgeLayout();
    const fromLayout = Object.entries(layout).flatMap(([ns, ms]) => ms.map(([m, c]) => [`${ns}.${m}`, c]));
    expect(fromLayout.map(([a]) => a).sort()).toEqual([...CALL_CHANNELS].sort());
    for (const [a, c] of fromLayout) expect(a).toBe(c);
    expect(Object.keys(layout)).not.toContain('on');
    expect(new Set(CALL_CHANNELS.map(ipcCallChannel)).size).toBe(CALL_CHANNELS.length);
    expect(isCallChannel('facts.list')).toBe(true);
    expect(isCallChannel('progress')).toBe(false);
    expect(isCallChannel('constructor')).toBe(false);
    expect(isCallChannel('__proto__')).toBe(false);
    expect(isEventChannel('data.changed')).toBe(true);
    expect(isEventChannel('facts.list')).toBe(false);
  });

  it('every output and event schema is a zod schema the dispatcher can check', () => {
    for (const c of CALL_CHANNELS) expect(callDef(c).output).toBeInstanceOf(z.ZodType);
  });
});

describe('payloadProblem', () => {
  it('accepts plain JSON data', () => {
    expect(payloadProblem({ a: [1, 'x', null, true, { b: 2 }] })).toBeUndefined();
    expect(payloadProblem(Object.create(null))).toBeUndefined();
  });
  it('refuses what structured clone carries but JSON does not', () => {
    for (const v of [new Map(), new Set(), new Date(), new Uint8Array(4), /x/, new ArrayBuffer(8), { nested: new Map() }, [new Date()]]) {
      expect(payloadProblem(v)).toMatch(/not plain JSON/);
    }
  });
  it('refuses large and deep payloads early', () => {
    expect(payloadProblem({ ids: ['x'.repeat(MAX_PAYLOAD_BYTES)] })).toMatch(/larger/);
    expect(payloadProblem(new Array(MAX_PAYLOAD_BYTES).fill(0))).toMatch(/larger/);
    let deep: unknown = 1;
    for (let i = 0; i < 40; i++) deep = { d: deep };
    expect(payloadProblem(deep)).toMatch(/deeper/);
  });
});
