// Grows the channel fuzzing to the values that look plausible but cannot mean anything:
// timestamps that are not date-times and partition names with control characters, NUL, line
// breaks or bidirectional marks. Every channel whose sample payloads carry such a field gets each
// bad value in it, and must answer a typed INVALID_INPUT, never success and never INTERNAL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CALL_CHANNELS, callDef, callResultSchema } from '../../shared/contract';
import type { Fixture } from './fixture';
import { senderEvent, startFixtureHarness, type FixtureHarness } from './harness';
import { allSamples } from './samples';

const TIME_KEYS = new Set(['ts', 'asOf', 'from', 'to', 'at']);
const NAME_KEYS = new Set(['org', 'user', 'capability']);
const BAD_TIMES = ['zzzz', '9999-pinned', '2026-02-30T00:00:00Z', '2026-01-01', '10:00+05:00', '2026-01-01T25:00:00Z', '2026-01-01T00:00:00\u202eZ'];
const BAD_NAMES = ['ac\u0000me', 'ac\nme', 'ac\u202eme', 'ac\u2066me', 'ac\u200fme', 'a\u0007b'];

let fx: Fixture;
let h: FixtureHarness;

beforeAll(async () => {
  h = await startFixtureHarness('statelens-fuzz-bad-');
  fx = h.fx;
}, 120_000);
afterAll(() => h?.close());

type Path = Array<string | number>;

function fieldPaths(v: unknown, keys: ReadonlySet<string>, prefix: Path = []): Path[] {
  if (Array.isArray(v)) return v.flatMap((x, i) => fieldPaths(x, keys, [...prefix, i]));
  if (!v || typeof v !== 'object') return [];
  return Object.entries(v).flatMap(([k, x]) => [...(keys.has(k) && typeof x === 'string' ? [[...prefix, k]] : []), ...fieldPaths(x, keys, [...prefix, k])]);
}

/** Where a time may be added although the sample has none: a filter's bounds and as-of time,
 * and the as-of time of an assembly request (any object with a budget or strategy). */
function timeSlots(v: unknown, prefix: Path = []): Path[] {
  if (Array.isArray(v)) return v.flatMap((x, i) => timeSlots(x, [...prefix, i]));
  if (!v || typeof v !== 'object') return [];
  const o = v as Record<string, unknown>;
  const here: Path[] = [];
  if (prefix[prefix.length - 1] === 'filter') here.push([...prefix, 'from'], [...prefix, 'to'], [...prefix, 'asOf']);
  if ('budget' in o || 'strategy' in o || 'strategies' in o) here.push([...prefix, 'asOf']);
  return [...here, ...Object.entries(o).flatMap(([k, x]) => timeSlots(x, [...prefix, k]))];
}

function withValue(sample: unknown, at: Path, value: string): unknown {
  const copy = structuredClone(sample) as Record<string | number, unknown>;
  const parent = at.slice(0, -1).reduce<Record<string | number, unknown>>((o, k) => o[k] as Record<string | number, unknown>, copy);
  parent[at[at.length - 1] as string | number] = value;
  return copy;
}

describe('malformed timestamps and unsafe partition names, on every channel that takes them', () => {
  it('answer INVALID_INPUT', async () => {
    await h.services.engine.call('db.openPath', { path: fx.path, create: false, readonly: false });
    const samples = allSamples(fx) as Record<string, readonly unknown[]>;
    const tried: Record<string, number> = {};
    for (const channel of CALL_CHANNELS) {
      for (const sample of samples[channel] ?? []) {
        for (const [keys, values] of [
          [TIME_KEYS, BAD_TIMES],
          [NAME_KEYS, BAD_NAMES],
        ] as const) {
          const slots = keys === TIME_KEYS ? [...fieldPaths(sample, keys), ...timeSlots(sample)] : fieldPaths(sample, keys);
          for (const at of slots) {
            for (const value of values) {
              const payload = withValue(sample, at, value);
              const result = await h.registrar.receive(channel, senderEvent(h.contents), [payload]);
              expect(callResultSchema(callDef(channel).output).safeParse(result).success).toBe(true);
              expect(result.ok ? 'ok' : result.error.code, `${channel} ${at.join('.')}=${JSON.stringify(value)}`).toBe('INVALID_INPUT');
              tried[channel] = (tried[channel] ?? 0) + 1;
            }
          }
        }
      }
    }
    console.log(`bad values per channel: ${JSON.stringify(tried)}`);
    expect(Object.keys(tried).length).toBeGreaterThan(0);
  }, 300_000);
});
