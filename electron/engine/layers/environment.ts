// Layer 4, the environment: external signals (now, timezone, alerts, calendars), each with the
// time it was observed. Every observation is kept; the environment at a time is the latest
// observation per key made by then.
import type { EnvironmentSignal } from '../../../shared/domain';
import { StatelensError } from '../../../shared/errors';
import { requireTimestamp } from '../../../shared/timestamp';
import type { PartitionContext } from '../context';
import { stmt } from '../db/statements';

export function setSignal(ctx: PartitionContext, key: string, value: unknown, observedAt?: string): void {
  if (!key || key.length > 500) throw new StatelensError('INVALID_INPUT', 'An environment signal needs a key of at most 500 characters');
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  if (text === undefined || text.length > 100_000) throw new StatelensError('INVALID_INPUT', `Environment signal ${key} is missing or too large`);
  const observed = observedAt === undefined ? ctx.clock.now() : requireTimestamp(observedAt, `observedAt of environment signal ${key}`);
  stmt(
    ctx.db,
    `INSERT INTO environment_signals (partition_id, key, value, observed_at) VALUES (?, ?, ?, ?)
     ON CONFLICT (partition_id, key, observed_at) DO UPDATE SET value = excluded.value`,
  ).run(ctx.partitionId, key, text, observed);
}

/** The latest observation per key, as of `at` when given (SQLite takes the bare columns from the
 * row holding max(observed_at)). */
export const LATEST_SIGNALS_SQL = `SELECT key, value, max(observed_at) AS observed_at FROM environment_signals
  WHERE partition_id = @p AND (@at IS NULL OR observed_at <= @at) GROUP BY key ORDER BY key`;

export function listSignals(ctx: PartitionContext, at: string | null = null): EnvironmentSignal[] {
  return stmt<[{ p: number; at: string | null }], { key: string; value: string; observed_at: string }>(ctx.db, LATEST_SIGNALS_SQL)
    .all({ p: ctx.partitionId, at })
    .map((r) => ({ key: r.key, value: r.value, observedAt: r.observed_at }));
}
