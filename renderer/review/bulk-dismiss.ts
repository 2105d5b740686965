// Dismissing the review flags of a selection of any size: one `review.dismiss` request per
// batch of at most the contract's cap (MAX_DISMISS_IDS), one after another, stopping at the
// first failure so the caller knows exactly which facts were dealt with and which were not.
import { MAX_DISMISS_IDS, type DismissResult } from '../../shared/inspect';

export interface BulkDismissOutcome {
  /** Ids of the batches that went through (their flags are cleared, or they were not flagged). */
  readonly done: readonly string[];
  /** Flags actually cleared. */
  readonly dismissed: number;
  /** Requests that succeeded. */
  readonly batches: number;
  /** Ids not dealt with because a request failed (empty when all went through). */
  readonly remaining: readonly string[];
  /** Audit entry of the last request that went through (what an undo names). */
  readonly lastAuditId: number | null;
  /** What stopped it. */
  readonly error?: unknown;
}

export function batchesOf<T>(items: readonly T[], size: number): T[][] {
  if (!Number.isInteger(size) || size < 1) throw new RangeError(`batch size must be a positive whole number, not ${size}`);
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

export async function dismissInBatches(
  ids: readonly string[],
  dismiss: (batch: string[]) => Promise<DismissResult>,
  size: number = MAX_DISMISS_IDS,
): Promise<BulkDismissOutcome> {
  const batches = batchesOf([...new Set(ids)], size);
  const done: string[] = [];
  let dismissed = 0;
  let lastAuditId: number | null = null;
  for (let i = 0; i < batches.length; i++) {
    const batch = batches[i] ?? [];
    try {
      const r = await dismiss(batch);
      dismissed += r.dismissed.length;
      lastAuditId = r.auditId ?? lastAuditId;
      done.push(...batch);
    } catch (error) {
      return { done, dismissed, batches: i, remaining: batches.slice(i).flat(), lastAuditId, error };
    }
  }
  return { done, dismissed, batches: batches.length, remaining: [], lastAuditId };
}
