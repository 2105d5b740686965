// The scoped context every engine function receives: one connection, one partition, a clock
// and an id source. Holding a PartitionContext is the only way to reach a partition's rows.
import type { Maturity, PartitionKind } from '../../shared/domain';
import type { EngineDb } from './db/connection';

export interface EngineClock {
  now(): string;
}

export interface ChangeEvent {
  /** `local`: this process wrote; `external`: another process did (seen via data_version). */
  readonly origin: 'local' | 'external';
  readonly partitionIds: readonly number[];
  readonly what: readonly string[];
  /** The sessions whose agent state changed (announced as their own event by the hosts). */
  readonly agentStates?: readonly AgentStateChange[];
}

export interface AgentStateChange {
  readonly partitionId: number;
  readonly sessionId: string;
}

export interface EngineServices {
  readonly db: EngineDb;
  readonly clock: EngineClock;
  newId(prefix: string): string;
  emit(event: ChangeEvent): void;
}

export interface PartitionContext extends EngineServices {
  readonly partitionId: number;
  readonly orgId: string;
  readonly kind: PartitionKind;
  readonly subject: string;
  readonly maturity: Maturity | null;
}

/** What a partition handle needs from the open database it belongs to: all-or-nothing writes
 * announced as a change, the file's path, and a look for other processes' commits. The store
 * provides it; taking this instead of the store keeps the handle below the store. */
export interface PartitionOwner {
  readonly path: string;
  write<T>(partitionIds: readonly number[], what: string, fn: () => T, agentStates?: (result: T) => readonly AgentStateChange[]): T;
  pollExternalChanges(): boolean;
}

/** A partition that can be written: its context, one transaction per call, and the database
 * file it lives in (for work on the file itself, such as scrubbing deleted text). */
export interface WritablePartition {
  readonly ctx: PartitionContext;
  readonly path: string;
  transact<T>(what: string, fn: (ctx: PartitionContext) => T, agentStates?: (result: T) => readonly AgentStateChange[]): T;
}
