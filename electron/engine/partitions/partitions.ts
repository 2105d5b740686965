// Partition naming: org -> user memory, org + capability -> capability memory,
// org -> organisational knowledge. One row per partition; every data row carries its id.
import type { Maturity, PartitionKind, PartitionRef } from '../../../shared/domain';
import { normalisePartitionName } from '../../../shared/partition-name';

export interface PartitionRow {
  id: number;
  org_id: string;
  kind: PartitionKind;
  subject: string;
  maturity: Maturity | null;
  created_at: string;
}

/** `ref` with each name in the normal form partitions are stored in (unchecked: creating a
 * partition checks the names). */
export function normalisedRef(ref: PartitionRef): PartitionRef {
  // A caller outside TypeScript may pass anything: what is not text is left for the check to refuse.
  const normal = (name: string): string => (typeof name === 'string' ? normalisePartitionName(name) : name);
  switch (ref.kind) {
    case 'user':
      return { kind: 'user', org: normal(ref.org), user: normal(ref.user) };
    case 'capability':
      return { kind: 'capability', org: normal(ref.org), capability: normal(ref.capability) };
    case 'organizational':
      return { kind: 'organizational', org: normal(ref.org) };
    default:
      return ref;
  }
}

export function partitionSubject(ref: PartitionRef): string {
  switch (ref.kind) {
    case 'user':
      return ref.user;
    case 'capability':
      return ref.capability;
    case 'organizational':
      return '';
  }
}

export function refFromRow(row: Pick<PartitionRow, 'org_id' | 'kind' | 'subject'>): PartitionRef {
  switch (row.kind) {
    case 'user':
      return { kind: 'user', org: row.org_id, user: row.subject };
    case 'capability':
      return { kind: 'capability', org: row.org_id, capability: row.subject };
    case 'organizational':
      return { kind: 'organizational', org: row.org_id };
  }
}

export function partitionLabel(ref: PartitionRef): string {
  switch (ref.kind) {
    case 'user':
      return `${ref.org} / user ${ref.user}`;
    case 'capability':
      return `${ref.org} / capability ${ref.capability}`;
    case 'organizational':
      return `${ref.org} / organisational knowledge`;
  }
}

/** Why no write may carry a maturity: the agent that writes would be choosing its own tier. */
export const MATURITY_NOT_WRITABLE =
  "an agent's maturity is not part of a write (a writer cannot raise its own tier); an administrator sets it with `statelens maturity`";
