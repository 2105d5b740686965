// Layer 4, the environment: external signals (timezone, location, alerts, calendars), each with
// the time it was observed. Every observation is kept; the environment at a time is the latest
// observation per key made by then, read as the specification's fields: current time and date
// (in the observed timezone), timezone, location and the rest as external data.
import { ENVIRONMENT_FIELD_KEYS, type Environment, type EnvironmentSignal } from '../../../shared/domain';
import { StatelensError } from '../../../shared/errors';
import { requireTimestamp } from '../../../shared/timestamp';
import { MAX_VALUE_CHARS, structuredValueProblem } from '../../../shared/writes';
import type { PartitionContext } from '../context';
import { stmt } from '../db/statements';

export function setSignal(ctx: PartitionContext, key: string, value: unknown, observedAt?: string, reserved = false): void {
  // Keys under "statelens:" hold the partition's own settings (its environment providers).
  if (!reserved && key.startsWith('statelens:'))
    throw new StatelensError('INVALID_INPUT', `Environment signal keys starting with "statelens:" are reserved; got ${key}`);
  if (!key || key.length > 500) throw new StatelensError('INVALID_INPUT', 'An environment signal needs a key of at most 500 characters');
  const problem = typeof value === 'object' && value !== null ? structuredValueProblem(value) : undefined;
  if (problem) throw new StatelensError('INVALID_INPUT', `Environment signal ${key}: the value ${problem}`);
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  if (text === undefined || text.length > MAX_VALUE_CHARS) throw new StatelensError('INVALID_INPUT', `Environment signal ${key} is missing or too large`);
  if (key === ENVIRONMENT_FIELD_KEYS.timezone && !isTimeZone(text))
    throw new StatelensError('INVALID_INPUT', `timezone must be an IANA time zone such as "Europe/Paris" or "UTC"; got "${text}"`);
  const observed = observedAt === undefined ? ctx.clock.now() : requireTimestamp(observedAt, `observedAt of environment signal ${key}`);
  stmt(
    ctx.db,
    `INSERT INTO environment_signals (partition_id, key, value, observed_at) VALUES (?, ?, ?, ?)
     ON CONFLICT (partition_id, key, observed_at) DO UPDATE SET value = excluded.value`,
  ).run(ctx.partitionId, key, text, observed);
}

/** The latest observation per key, as of `at` when given: a signal with no later observation of
 * its key by then (both stores accept it; each probe is one seek in the (partition, key,
 * observed_at) key). */
export const LATEST_SIGNALS_SQL = `SELECT s.key, s.value, s.observed_at FROM environment_signals s
  WHERE s.partition_id = @p AND (@at IS NULL OR s.observed_at <= @at) AND s.key <> 'statelens:environment_providers'
    AND NOT EXISTS (SELECT 1 FROM environment_signals l WHERE l.partition_id = s.partition_id AND l.key = s.key
      AND l.observed_at > s.observed_at AND (@at IS NULL OR l.observed_at <= @at))
  ORDER BY s.key`;

export function listSignals(ctx: PartitionContext, at: string | null = null): EnvironmentSignal[] {
  return stmt<[{ p: number; at: string | null }], { key: string; value: string; observed_at: string }>(ctx.db, LATEST_SIGNALS_SQL)
    .all({ p: ctx.partitionId, at })
    .map((r) => ({ key: r.key, value: r.value, observedAt: r.observed_at }));
}

/** Whether the runtime knows `zone` as an IANA time zone. */
export function isTimeZone(zone: string): boolean {
  if (!zone) return false;
  try {
    new Intl.DateTimeFormat('en-CA', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** The calendar date (YYYY-MM-DD) of an instant in a time zone; the UTC date when either is unusable. */
export function dateIn(instant: string, zone: string): string {
  const ms = Date.parse(instant);
  if (Number.isNaN(ms)) return instant.slice(0, 10);
  const date = new Date(ms);
  if (!isTimeZone(zone)) return date.toISOString().slice(0, 10);
  const parts = new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' }).formatToParts(date);
  const part = (type: string): string => parts.find((p) => p.type === type)?.value ?? '';
  return `${part('year')}-${part('month')}-${part('day')}`;
}

/** The environment's fields at `now` from the signals observed by then (a stored "now" signal is
 * replaced by `now` itself). */
export function environmentAt(now: string, signals: ReadonlyArray<{ key: string; value: string }>): Environment {
  let timezone = 'UTC';
  let location: string | null = null;
  const externalData: Record<string, string> = {};
  for (const s of signals) {
    if (s.key === ENVIRONMENT_FIELD_KEYS.timezone) timezone = isTimeZone(s.value) ? s.value : timezone;
    else if (s.key === ENVIRONMENT_FIELD_KEYS.location) location = s.value;
    else if (s.key.toLowerCase() !== 'now') externalData[s.key] = s.value;
  }
  return { currentTime: now, currentDate: dateIn(now, timezone), timezone, location, externalData };
}
