// Which environment providers a partition queries: stored as an observation of a reserved
// environment key (so its history, snapshots and deletion follow the environment's), and never
// shown as a signal itself.
import { StatelensError } from '../../../shared/errors';
import type { PartitionContext } from '../context';
import { stmt } from '../db/statements';
import { setSignal } from '../layers/environment';
import { validateProvider, type ProviderConfig } from './providers';

export const PROVIDERS_KEY = 'statelens:environment_providers';
const MAX_PROVIDERS = 20;

/** Replaces the partition's providers (an empty list turns fetching off). */
export function setProviders(ctx: PartitionContext, configs: readonly unknown[]): ProviderConfig[] {
  if (!Array.isArray(configs) || configs.length > MAX_PROVIDERS)
    throw new StatelensError('INVALID_INPUT', `Environment providers are a list of at most ${MAX_PROVIDERS}`);
  const valid = configs.map(validateProvider);
  setSignal(ctx, PROVIDERS_KEY, JSON.stringify(valid), undefined, true);
  return valid;
}

/** The partition's providers as last configured (none when never configured). */
export function getProviders(ctx: PartitionContext): ProviderConfig[] {
  const row = stmt<[number, string], { value: string }>(
    ctx.db,
    'SELECT value FROM environment_signals WHERE partition_id = ? AND key = ? ORDER BY observed_at DESC LIMIT 1',
  ).get(ctx.partitionId, PROVIDERS_KEY);
  if (!row) return [];
  const parsed: unknown = JSON.parse(row.value);
  return Array.isArray(parsed) ? parsed.map(validateProvider) : [];
}
