// The runners' store adapter over a Statelens partition: the five operations a runner needs
// (await_consistency, get_context, put_context, add_entry, list_entries), each counted, so a
// benchmark can show exactly how many store calls a session cost.
import { addWorkingItem } from '../layers/working-set';
import type { PartitionHandle } from '../partition-handle';
import { SessionMessage, StoreCallCounter, type RunnerStore } from './types';

/** Entries are working-set items of this type, one per message, holding the message as JSON. */
export const ENTRY_ITEM_TYPE = 'entry';

export class PartitionRunnerStore implements RunnerStore {
  readonly calls = new StoreCallCounter();

  constructor(
    private readonly handle: PartitionHandle,
    private readonly contextSession: string,
  ) {}

  /** Writes commit synchronously, so consistency only means seeing other processes' commits. */
  async awaitConsistency(): Promise<void> {
    this.calls.count('await_consistency');
    this.handle.pollExternalChanges();
  }

  async getContext(): Promise<string | null> {
    this.calls.count('get_context');
    return this.handle.contextDocument(this.contextSession)?.body ?? null;
  }

  async putContext(body: string): Promise<void> {
    this.calls.count('put_context');
    this.handle.putContextDocument(this.contextSession, body);
  }

  async addEntry(sessionId: string, message: SessionMessage): Promise<void> {
    this.calls.count('add_entry');
    this.handle.transact('working_set', (ctx) => {
      // Entries are a log: each gets its own key (a working-set key holds one item).
      const n = ctx.db
        .prepare('SELECT count(*) FROM working_items WHERE partition_id = ? AND session_id = ? AND item_type = ?')
        .pluck()
        .get(ctx.partitionId, sessionId, ENTRY_ITEM_TYPE) as number;
      addWorkingItem(ctx, {
        sessionId,
        key: `entry:${n}`,
        value: JSON.stringify(message),
        itemType: ENTRY_ITEM_TYPE,
        speaker: message.role,
        createdAt: message.ts,
      });
    });
  }

  async listEntries(sessionId: string, offset: number): Promise<SessionMessage[]> {
    this.calls.count('list_entries');
    return this.handle
      .workingItems({ sessionId, includeExpired: true })
      .filter((w) => w.itemType === ENTRY_ITEM_TYPE)
      .slice(offset)
      .map((w) => SessionMessage.parse(JSON.parse(w.value)));
  }
}
