// Every call channel fuzzed through the registrar (as the main frame of our window) with at
// least 1,000 random payloads: junk of every shape, valid samples with one part mutated, and
// valid samples. The app never crashes and answers only typed errors: never INTERNAL, which
// is what an escaped exception, a worker crash or an output outside the contract becomes.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { CALL_CHANNELS, callDef, callResultSchema, type CallChannel, type CallResult } from '../../shared/contract';
import { ErrorShape } from '../../shared/errors';
import type { Fixture } from './fixture';
import { senderEvent, startFixtureHarness, type FixtureHarness } from './harness';
import { allSamples } from './samples';

const RUNS = 1000;
let fx: Fixture;
let h: FixtureHarness;

beforeAll(async () => {
  h = await startFixtureHarness('statelens-fuzz-');
  fx = h.fx;
}, 120_000);
afterAll(() => h?.close());

const odd = fc.oneof(
  fc.constantFrom(-1, 0, 1, 2 ** 31, 2 ** 53, -0, 1.5, NaN, Infinity, -Infinity, '', ' ', '0', 'null', '__proto__', 'constructor', null, true, [], {}),
  fc.string({ maxLength: 50 }),
  fc.string({ minLength: 400, maxLength: 3000 }),
  fc.integer(),
  fc.double(),
  fc.array(fc.string({ maxLength: 10 }), { maxLength: 5 }),
  fc.anything({ maxDepth: 2 }),
);

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

/** Paths to every value inside `v` (objects and arrays), the root included. */
function paths(v: unknown, prefix: Array<string | number> = []): Array<Array<string | number>> {
  const out = [prefix];
  if (Array.isArray(v)) v.forEach((x, i) => out.push(...paths(x, [...prefix, i])));
  else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) out.push(...paths(x, [...prefix, k]));
  return out;
}

function mutate(sample: unknown, pick: number, how: number, value: unknown, key: string): unknown {
  const copy = structuredClone(sample) as Json;
  const all = paths(copy);
  const p = all[pick % all.length] ?? [];
  if (p.length === 0) return how % 2 === 0 ? value : { ...(copy as object), [key]: value };
  const parent = p.slice(0, -1).reduce<Json>((o, k) => (o as Record<string | number, Json>)[k] as Json, copy) as Record<string | number, unknown>;
  const last = p[p.length - 1] as string | number;
  switch (how % 4) {
    case 0:
      parent[last] = value; // wrong type or out of range
      break;
    case 1:
      delete parent[last]; // missing field
      break;
    case 2:
      if (parent[last] && typeof parent[last] === 'object' && !Array.isArray(parent[last]))
        (parent[last] as Record<string, unknown>)[key] = value; // unknown key
      else parent[last] = value;
      break;
    default:
      if (Array.isArray(parent[last])) (parent[last] as unknown[]).push(value);
      else parent[last] = [value];
  }
  return copy;
}

function payloads(channel: CallChannel): fc.Arbitrary<unknown> {
  const samples = allSamples(fx)[channel] as readonly unknown[];
  const sample = fc.constantFrom(...samples);
  const mutated = fc
    .tuple(sample, fc.nat(), fc.nat(), odd, fc.constantFrom('x', 'sql', 'path', '__proto__', 'constructor', 'toString', 'partitionId'))
    .map(([s, pick, how, v, k]) => mutate(s, pick, how, v, k));
  return fc.oneof(
    {
      arbitrary: fc.anything({
        maxDepth: 3,
        withNullPrototype: true,
        withMap: true,
        withSet: true,
        withDate: true,
        withTypedArray: true,
        withSparseArray: true,
        withBigInt: false,
      }),
      weight: 3,
    },
    { arbitrary: mutated, weight: 6 },
    { arbitrary: sample, weight: 1 },
  );
}

function check(channel: CallChannel, payload: unknown, result: CallResult<unknown>): void {
  expect(callResultSchema(callDef(channel).output).safeParse(result).success, `${channel}: answer outside the contract`).toBe(true);
  if (!result.ok) {
    ErrorShape.parse(result.error);
    if (result.error.code === 'INTERNAL')
      throw new Error(`${channel} answered INTERNAL (${result.error.message}) to ${String(JSON.stringify(payload)).slice(0, 300)}`);
  }
}

describe('fuzzing every channel', () => {
  const counts: Record<string, { ok: number; errors: Record<string, number> }> = {};
  afterAll(() => {
    for (const [c, n] of Object.entries(counts)) console.log(`fuzz ${c.padEnd(26)} ok ${String(n.ok).padStart(4)}  errors ${JSON.stringify(n.errors)}`);
  });

  for (const channel of CALL_CHANNELS) {
    it(`${channel}: ${RUNS} random payloads, typed answers only`, async () => {
      await h.services.engine.call('db.openPath', { path: fx.path, create: false, readonly: false });
      const tally = (counts[channel] = { ok: 0, errors: {} as Record<string, number> });
      await fc.assert(
        fc.asyncProperty(payloads(channel), async (payload) => {
          const result = await h.registrar.receive(channel, senderEvent(h.contents), [payload]);
          check(channel, payload, result);
          if (result.ok) tally.ok += 1;
          else tally.errors[result.error.code] = (tally.errors[result.error.code] ?? 0) + 1;
        }),
        { numRuns: RUNS, seed: 20260301 + CALL_CHANNELS.indexOf(channel) },
      );
    });
  }
});

/** Searches with no word to look for: each once read as "no search", which selected everything. */
const MEANINGLESS_SEARCHES = ['', ' ', '*', '"', '"((', '^', '()', '...', '-- **', '\u0000', '\uE000\uE001', '\t\n'];
/** Searches over the limits: too many words, too many characters. */
const OVERSIZED_SEARCHES = [Array.from({ length: 40 }, (_, i) => `word${i}`).join(' '), 'x'.repeat(501), 'budget '.repeat(30_000)];

/** Every channel whose input holds a fact filter's search, as an input carrying `search`. */
const SEARCH_INPUTS: Partial<Record<CallChannel, (search: string, partitionId: number, n: number) => unknown>> = {
  'facts.list': (search, partitionId) => ({ partitionId, filter: { search } }),
  'facts.searchAll': (search, partitionId) => ({ search, first: partitionId }),
  'deletion.preview': (search, partitionId) => ({ partitionId, selection: { filter: { search, validity: 'all' } } }),
  'deletion.apply': (search, partitionId) => ({ partitionId, selection: { filter: { search } }, reason: 'fuzz' }),
  'export.start': (search, partitionId, n) => ({ format: 'csv', partitionId, filter: { search }, operationId: `fuzz-search-${n}` }),
};

/** Whether a channel's input schema has a `search` field anywhere inside it. */
function takesSearch(channel: CallChannel): boolean {
  return JSON.stringify(z.toJSONSchema(callDef(channel).input, { unrepresentable: 'any', io: 'input' })).includes('"search":');
}

describe('searches that mean nothing or too much, on every channel that takes a search', () => {
  it('covers every such channel', () => {
    expect(CALL_CHANNELS.filter(takesSearch).sort()).toEqual(Object.keys(SEARCH_INPUTS).sort());
  });

  it('answers INVALID_INPUT naming the search, and deletes or writes nothing', async () => {
    await h.services.engine.call('db.openPath', { path: fx.path, create: false, readonly: false });
    const count = async (): Promise<number> => {
      const r = await h.registrar.receive('facts.list', senderEvent(h.contents), [{ partitionId: fx.userPartition, page: { limit: 1 } }]);
      if (!r.ok) throw new Error(r.error.message);
      return (r.value as { total: { count: number } }).total.count;
    };
    const before = await count();
    expect(before).toBeGreaterThan(0);
    let n = 0;
    for (const [channel, input] of Object.entries(SEARCH_INPUTS) as Array<[CallChannel, (s: string, p: number, n: number) => unknown]>) {
      for (const search of [...MEANINGLESS_SEARCHES, ...OVERSIZED_SEARCHES]) {
        const payload = input(search, fx.userPartition, n++);
        const result = await h.registrar.receive(channel, senderEvent(h.contents), [payload]);
        check(channel, payload, result);
        const what = `${channel} with search ${JSON.stringify(search.slice(0, 40))}`;
        expect(result.ok, what).toBe(false);
        if (!result.ok) {
          expect(result.error.code, what).toBe('INVALID_INPUT');
          expect(result.error.message, what).toMatch(/search/);
        }
      }
    }
    expect(await count()).toBe(before);
  });

  it('refuses a delete by a filter that restricts nothing; { all: true } is the explicit way', async () => {
    await h.services.engine.call('db.openPath', { path: fx.path, create: false, readonly: false });
    for (const channel of ['deletion.preview', 'deletion.apply'] as const) {
      for (const filter of [{}, { validity: 'all' }, { memoryTypes: [], scopes: [] }]) {
        const payload = { partitionId: fx.userPartition, selection: { filter } };
        const result = await h.registrar.receive(channel, senderEvent(h.contents), [payload]);
        check(channel, payload, result);
        expect(result.ok ? 'ok' : `${result.error.code} ${result.error.message}`, `${channel} ${JSON.stringify(filter)}`).toMatch(
          /^INVALID_INPUT .*restricts nothing/,
        );
      }
    }
    const all = await h.registrar.receive('deletion.preview', senderEvent(h.contents), [{ partitionId: fx.userPartition, selection: { all: true } }]);
    expect(all.ok && (all.value as { selection: unknown }).selection).toEqual({ kind: 'all' });
  });
});
