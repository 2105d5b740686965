// The two context runners (entries, context only) behind one interface. Entries: every message stored as an entry,
// the context document re-synthesised and put every N messages (and at session end). Context
// only: messages held in memory and one synthesis at session end — exactly three store calls
// per session (await consistency, get context, put context). Both log which runner is active.
import type { RunnerConfig } from './config';
import { synthesize, type SynthesisOptions } from './synthesis';
import type { Runner, RunnerName, RunnerStore, Session, SessionMessage, SessionReport, StoreCallKind } from './types';

export type RunnerLog = (line: string) => void;

interface CallMark {
  readonly total: number;
  readonly byKind: Record<StoreCallKind, number>;
}

function mark(store: RunnerStore): CallMark {
  return { total: store.calls.total, byKind: { ...store.calls.byKind } };
}

function report(name: RunnerName, session: Session, store: RunnerStore, before: CallMark, started: number, words: number): SessionReport {
  const byKind = { ...store.calls.byKind };
  for (const k of Object.keys(byKind) as StoreCallKind[]) byKind[k] -= before.byKind[k];
  return {
    runner: name,
    sessionId: session.id,
    date: session.date,
    messages: session.messages.length,
    storeCalls: store.calls.total - before.total,
    callsByKind: byKind,
    ms: performance.now() - started,
    words,
  };
}

export class ContextOnlyRunner implements Runner {
  readonly name = 'context_only' as const;
  constructor(
    private readonly store: RunnerStore,
    private readonly options: SynthesisOptions,
    private readonly log: RunnerLog,
  ) {
    log(`runner=context_only context_only=true synthesis=session_end max_words=${options.maxWords}`);
  }

  async runSession(session: Session): Promise<SessionReport> {
    const started = performance.now();
    const before = mark(this.store);
    await this.store.awaitConsistency();
    const previous = await this.store.getContext();
    // Messages stay in memory: no entry is stored, nothing is flushed mid-session.
    const held: SessionMessage[] = [...session.messages];
    const next = synthesize(previous, { ...session, messages: held }, this.options);
    await this.store.putContext(next.text);
    const r = report(this.name, session, this.store, before, started, next.words);
    this.log(
      `runner=context_only context_only=true session=${session.id} date=${session.date} messages=${r.messages} store_calls=${r.storeCalls} words=${next.words} pruned=${next.pruned} ms=${r.ms.toFixed(2)}`,
    );
    return r;
  }
}

export class EntriesRunner implements Runner {
  readonly name = 'entries' as const;
  constructor(
    private readonly store: RunnerStore,
    private readonly options: SynthesisOptions & { readonly flushEvery: number },
    private readonly log: RunnerLog,
  ) {
    log(`runner=entries context_only=false flush_every=${options.flushEvery} max_words=${options.maxWords}`);
  }

  async runSession(session: Session): Promise<SessionReport> {
    const started = performance.now();
    const before = mark(this.store);
    await this.store.awaitConsistency();
    const previous = await this.store.getContext();
    let words = 0;
    let pending = 0;
    const flush = async (): Promise<void> => {
      // Re-synthesise from the session-start document and every entry stored so far, read back
      // from the store, so the end-of-session document matches the context-only runner's.
      const entries = await this.store.listEntries(session.id, 0);
      const next = synthesize(previous, { ...session, messages: entries }, this.options);
      await this.store.putContext(next.text);
      words = next.words;
      pending = 0;
    };
    for (const m of session.messages) {
      await this.store.addEntry(session.id, m);
      if (++pending >= this.options.flushEvery) await flush();
    }
    if (pending > 0) await flush();
    const r = report(this.name, session, this.store, before, started, words);
    this.log(
      `runner=entries context_only=false session=${session.id} date=${session.date} messages=${r.messages} store_calls=${r.storeCalls} words=${words} ms=${r.ms.toFixed(2)}`,
    );
    return r;
  }
}

/** The runner the TOML selects (context_only = true by default). */
export function createRunner(config: RunnerConfig, store: RunnerStore, log: RunnerLog): Runner {
  const synthesis: SynthesisOptions = { maxWords: config.agent.max_words, protectRecentSessions: config.agent.protect_recent_sessions };
  return config.agent.context_only
    ? new ContextOnlyRunner(store, synthesis, log)
    : new EntriesRunner(store, { ...synthesis, flushEvery: config.agent.flush_every }, log);
}
