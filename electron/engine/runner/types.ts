// What a runner processes: sessions of messages, each message optionally carrying the
// structured state an agent extracted from it (facts, entities, preferences, notes). The
// deterministic synthesis works from that structure, never from free text.
import { z } from 'zod';

export const Extracted = z.strictObject({
  facts: z
    .array(z.strictObject({ key: z.string().min(1).max(200), value: z.string().max(2000), supersedes: z.string().min(1).max(200).optional() }))
    .max(100)
    .optional(),
  entities: z
    .array(
      z.strictObject({
        name: z.string().min(1).max(200),
        kind: z.string().max(100).optional(),
        relation: z.string().max(1000).optional(),
        removed: z.boolean().optional(),
      }),
    )
    .max(100)
    .optional(),
  preferences: z
    .array(z.strictObject({ topic: z.string().min(1).max(200), value: z.string().max(1000) }))
    .max(100)
    .optional(),
  notes: z.array(z.string().min(1).max(2000)).max(100).optional(),
});
export type Extracted = z.infer<typeof Extracted>;

export const SessionMessage = z.strictObject({
  role: z.enum(['user', 'assistant']),
  text: z.string().max(100_000),
  ts: z.string().min(1).max(64),
  extracted: Extracted.optional(),
});
export type SessionMessage = z.infer<typeof SessionMessage>;

export interface Session {
  readonly id: string;
  /** The session's date (YYYY-MM-DD), the Timeline's unit. */
  readonly date: string;
  readonly messages: readonly SessionMessage[];
}

/** The store operations a runner may use; the adapter counts every call. */
export interface RunnerStore {
  awaitConsistency(): Promise<void>;
  getContext(): Promise<string | null>;
  putContext(body: string): Promise<void>;
  addEntry(sessionId: string, message: SessionMessage): Promise<void>;
  listEntries(sessionId: string, offset: number): Promise<SessionMessage[]>;
  readonly calls: StoreCallCounter;
}

export type StoreCallKind = 'await_consistency' | 'get_context' | 'put_context' | 'add_entry' | 'list_entries';

export class StoreCallCounter {
  total = 0;
  readonly byKind: Record<StoreCallKind, number> = { await_consistency: 0, get_context: 0, put_context: 0, add_entry: 0, list_entries: 0 };
  count(kind: StoreCallKind): void {
    this.total++;
    this.byKind[kind]++;
  }
}

export interface SessionReport {
  readonly runner: RunnerName;
  readonly sessionId: string;
  readonly date: string;
  readonly messages: number;
  readonly storeCalls: number;
  readonly callsByKind: Record<StoreCallKind, number>;
  readonly ms: number;
  readonly words: number;
}

export type RunnerName = 'entries' | 'context_only';

export interface Runner {
  readonly name: RunnerName;
  runSession(session: Session): Promise<SessionReport>;
}
