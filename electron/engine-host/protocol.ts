// The messages between the engine facade (main process or `statelens serve`) and the engine
// worker thread. Plain structured-clone data only; errors travel as the shared error shape.
import type { AgentStateChanged, DataChanged, Progress } from '../../shared/contract';
import type { ErrorShape } from '../../shared/errors';
import type { EngineOpName } from './operations';

export interface WorkerOptions {
  /** A better-sqlite3 addon built for this runtime's ABI (Electron passes its own build). */
  readonly nativeBinding?: string;
  /** How often to look for other processes' writes (PRAGMA data_version), in milliseconds. */
  readonly pollMs?: number;
  /** Who the audit log names for deletions and dismissals made through this host. */
  readonly actor?: string;
}

export type ToWorker =
  | {
      readonly type: 'call';
      readonly id: number;
      readonly op: EngineOpName;
      readonly input: unknown;
      readonly operationId: string | undefined;
      readonly cancelFlag: SharedArrayBuffer;
    }
  | { readonly type: 'cancel'; readonly operationId: string }
  | { readonly type: 'shutdown' };

export type FromWorker =
  | { readonly type: 'ready' }
  | { readonly type: 'result'; readonly id: number; readonly ok: true; readonly value: unknown }
  | { readonly type: 'result'; readonly id: number; readonly ok: false; readonly error: ErrorShape }
  | { readonly type: 'progress'; readonly progress: Progress }
  | { readonly type: 'changed'; readonly event: DataChanged }
  | { readonly type: 'agentStateChanged'; readonly event: AgentStateChanged }
  | { readonly type: 'closed' };
