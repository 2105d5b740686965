// Runs sessions through the runner a configuration selects (or both, for comparison) against a
// Statelens database, returning per-session store calls and time.
import type { PartitionRef } from '../../../shared/domain';
import { parseDesignation } from '../ingest/designation';
import type { Store } from '../store';
import type { RunnerConfig } from './config';
import { createRunner, type RunnerLog } from './runners';
import { PartitionRunnerStore } from './store-adapter';
import type { RunnerName, Session, SessionReport } from './types';

export interface RunResult {
  readonly runner: RunnerName;
  readonly partition: PartitionRef;
  readonly sessions: SessionReport[];
  readonly totalCalls: number;
  readonly totalMs: number;
  readonly finalDocument: string | null;
}

function withSuffix(ref: PartitionRef, suffix: string): PartitionRef {
  switch (ref.kind) {
    case 'user':
      return { ...ref, user: `${ref.user}-${suffix}` };
    case 'capability':
      return { ...ref, capability: `${ref.capability}-${suffix}` };
    case 'organizational':
      return { kind: 'organizational', org: `${ref.org}-${suffix}` };
  }
}

export async function runSessions(
  store: Store,
  config: RunnerConfig,
  sessions: readonly Session[],
  log: RunnerLog,
  partition?: PartitionRef,
): Promise<RunResult> {
  const ref = partition ?? parseDesignation(config.store.partition);
  const handle = store.scope(ref, { create: true });
  const adapter = new PartitionRunnerStore(handle, config.store.context_session);
  const runner = createRunner(config, adapter, log);
  const reports: SessionReport[] = [];
  for (const s of sessions) reports.push(await runner.runSession(s));
  return {
    runner: runner.name,
    partition: ref,
    sessions: reports,
    totalCalls: adapter.calls.total,
    totalMs: reports.reduce((a, r) => a + r.ms, 0),
    finalDocument: handle.contextDocument(config.store.context_session)?.body ?? null,
  };
}

/** Both runners on the same sessions, each in its own partition (the configured one + suffix). */
export async function compareRunners(store: Store, config: RunnerConfig, sessions: readonly Session[], log: RunnerLog): Promise<RunResult[]> {
  const base = parseDesignation(config.store.partition);
  const out: RunResult[] = [];
  for (const contextOnly of [false, true]) {
    const c: RunnerConfig = { ...config, agent: { ...config.agent, context_only: contextOnly } };
    out.push(await runSessions(store, c, sessions, log, withSuffix(base, contextOnly ? 'context_only' : 'entries')));
  }
  return out;
}
