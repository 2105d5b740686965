// A session's agent state (what the agent assumes, expects and is working on): stored as one JSON document per (partition, session),
// changed only by deltas (merge / upsert / item ops) and by verifying expectations against
// tool results. Writers run inside the caller's transaction (PartitionHandle.transact).
import {
  AgentStateUpdate,
  flattenAgentStateDelta,
  isSummarizerOutput,
  SummarizerOutput,
  ToolResult,
  type AgentStateDelta,
  type AgentStateRecord,
  type AgentStateUpdateInput,
  type VerificationResult,
} from '../../../shared/agent-state';
import { AgentState, type AgentStateItem, type Assumption, type Expectation } from '../../../shared/domain';
import { StatelensError } from '../../../shared/errors';
import { describeIssues } from '../../../shared/issues';
import { z } from 'zod';
import type { PartitionContext } from '../context';
import { stmt } from '../db/statements';
import { parseInput } from '../query/validate';
import { explainOutcomeMatch, summarizeToolResult } from './matcher';

/** Largest stored state (JSON); a delta that would grow it further is refused. */
export const MAX_AGENT_STATE_BYTES = 4 * 1024 * 1024;
export const SessionIdInput = z.string().min(1).max(200);

export function emptyAgentState(sessionId: string): AgentState {
  return { sessionId, current_understanding: { entities: [], dependencies: [] }, assumptions: [], expectations: [], tentative_hypotheses: [], items: [] };
}

export function agentStateRecord(ctx: PartitionContext, sessionIdInput: string): AgentStateRecord {
  const sessionId = parseInput(SessionIdInput, sessionIdInput, 'session id');
  const row = stmt<[number, string], { state: string; updated_at: string }>(
    ctx.db,
    'SELECT state, updated_at FROM agent_states WHERE partition_id = ? AND session_id = ?',
  ).get(ctx.partitionId, sessionId);
  if (!row) return { state: null, updatedAt: null };
  let json: unknown;
  try {
    json = JSON.parse(row.state);
  } catch {
    json = undefined;
  }
  const parsed = AgentState.safeParse(json);
  if (!parsed.success) throw new StatelensError('CORRUPT_DB', `The stored agent state of session ${sessionId} is not valid agent state`, { sessionId });
  return { state: parsed.data, updatedAt: row.updated_at };
}

/** The session's state, or an empty one when the agent has not written any. */
export function getAgentState(ctx: PartitionContext, sessionId: string): AgentState {
  return agentStateRecord(ctx, sessionId).state ?? emptyAgentState(sessionId);
}

function upsert<T extends { id: string }>(list: readonly T[], incoming: readonly T[]): T[] {
  const out = [...list];
  const at = new Map(out.map((x, i) => [x.id, i]));
  for (const x of incoming) {
    const i = at.get(x.id);
    if (i === undefined) {
      at.set(x.id, out.length);
      out.push(x);
    } else out[i] = { ...out[i], ...x } as T;
  }
  return out;
}

export interface MergeServices {
  now(): string;
  newId(prefix: string): string;
}

/** Applies one delta to a state (pure apart from ids and time). Throws CONFLICT / NOT_FOUND
 * for item ops that do not fit the state, so a bad delta changes nothing. */
export function mergeAgentState(state: AgentState, update: AgentStateUpdate, services: MergeServices): AgentState {
  const now = services.now();
  const next: AgentState = structuredClone(state);
  const cu = update.current_understanding;
  if (cu?.entities) next.current_understanding.entities = upsert(next.current_understanding.entities, cu.entities);
  if (cu?.dependencies) {
    const key = (d: { from: string; to: string; rel?: string | undefined }) => `${d.from}\u0000${d.to}\u0000${d.rel ?? ''}`;
    const seen = new Set(next.current_understanding.dependencies.map(key));
    for (const d of cu.dependencies) {
      if (seen.has(key(d))) continue;
      seen.add(key(d));
      next.current_understanding.dependencies.push(d);
    }
  }
  if (update.assumptions) next.assumptions = upsert(next.assumptions, update.assumptions);
  if (update.expectations) {
    const known = new Set(next.expectations.map((e) => e.id));
    const withIds = update.expectations.map((e) => {
      const id = e.id ?? services.newId('exp');
      return known.has(id) ? { ...e, id } : { status: 'pending' as const, ...e, id };
    });
    next.expectations = upsert(
      next.expectations.map((e) => ({ ...e, id: e.id ?? services.newId('exp') })),
      withIds,
    );
  }
  if (update.tentative_hypotheses) next.tentative_hypotheses = upsert(next.tentative_hypotheses, update.tentative_hypotheses);
  for (const op of update.items ?? []) {
    if (op.op === 'add') {
      if (next.items.some((i) => i.id === op.item.id))
        throw new StatelensError('CONFLICT', `Agent state item ${op.item.id} already exists; use an update`, { itemId: op.item.id });
      next.items.push({ ...op.item, createdAt: op.item.createdAt ?? now, updatedAt: op.item.updatedAt ?? now });
    } else if (op.op === 'update') {
      const i = next.items.findIndex((x) => x.id === op.id);
      const current = next.items[i];
      if (!current) throw new StatelensError('NOT_FOUND', `No agent state item ${op.id} to update`, { itemId: op.id });
      const updated: AgentStateItem = { ...current, ...op.patch, id: current.id, updatedAt: op.patch.updatedAt ?? now };
      next.items[i] = updated;
    } else {
      next.items = next.items.filter((x) => x.id !== op.id);
    }
  }
  if (update.lastSummarizedAt !== undefined) next.lastSummarizedAt = update.lastSummarizedAt;
  return next;
}

function store(ctx: PartitionContext, state: AgentState): void {
  const checked = AgentState.safeParse(state);
  if (!checked.success) throw new StatelensError('INVALID_INPUT', `The update would leave invalid agent state: ${describeIssues(checked.error)}`);
  const json = JSON.stringify(checked.data);
  if (Buffer.byteLength(json, 'utf8') > MAX_AGENT_STATE_BYTES) {
    throw new StatelensError(
      'INVALID_INPUT',
      `Agent state of session ${state.sessionId} would exceed ${MAX_AGENT_STATE_BYTES} bytes; remove items or assumptions first`,
    );
  }
  stmt(
    ctx.db,
    `INSERT INTO agent_states (partition_id, session_id, state, updated_at) VALUES (?, ?, ?, ?)
     ON CONFLICT (partition_id, session_id) DO UPDATE SET state = excluded.state, updated_at = excluded.updated_at`,
  ).run(ctx.partitionId, state.sessionId, json, ctx.clock.now());
}

/** Applies one delta (flat, or the summarizer's output, which also stamps lastSummarizedAt) to
 * the session's state and stores it; returns the new state. */
export function applyAgentStateUpdate(ctx: PartitionContext, sessionId: string, updateInput: AgentStateUpdateInput): AgentState {
  const delta: AgentStateDelta = isSummarizerOutput(updateInput)
    ? parseInput(SummarizerOutput, updateInput, 'summarizer output')
    : parseInput(AgentStateUpdate, updateInput, 'agent state update');
  const update = flattenAgentStateDelta(delta);
  if (isSummarizerOutput(delta) && update.lastSummarizedAt === undefined) update.lastSummarizedAt = ctx.clock.now();
  const next = mergeAgentState(getAgentState(ctx, sessionId), update, { now: () => ctx.clock.now(), newId: (p) => ctx.newId(p) });
  store(ctx, next);
  return next;
}

/**
 * Checks a tool result against one expectation: a match confirms it, a mismatch
 * fails it and adds an assumption describing the discrepancy, a skip changes nothing.
 */
export function verifyExpectation(ctx: PartitionContext, sessionId: string, expectationId: string, toolResultInput: ToolResult): VerificationResult {
  const result = parseInput(ToolResult, toolResultInput, 'tool result');
  const state = getAgentState(ctx, sessionId);
  const expectation = state.expectations.find((e) => e.id === expectationId);
  if (!expectation) throw new StatelensError('NOT_FOUND', `No expectation ${expectationId} in session ${sessionId}`, { sessionId, expectationId });
  const m = explainOutcomeMatch(expectation, result);
  if (m.verdict === 'skip') return { outcome: 'skipped', verdict: m.verdict, criterion: null, reason: m.reason, expectation, assumption: null, state };
  const now = ctx.clock.now();
  const checked: Expectation = { ...expectation, status: m.verdict === 'match' ? 'confirmed' : 'failed', last_checked_at: now };
  const assumption: Assumption | null =
    m.verdict === 'mismatch'
      ? {
          id: ctx.newId('asm'),
          hypothesis: `Expected "${expectation.expected_outcome}" but got "${summarizeToolResult(result)}"`,
          confidence: 0.7,
          evidence: [result.id],
        }
      : null;
  const next: AgentState = {
    ...state,
    expectations: state.expectations.map((e) => (e.id === expectationId ? checked : e)),
    assumptions: assumption ? [...state.assumptions, assumption] : state.assumptions,
  };
  store(ctx, next);
  return {
    outcome: m.verdict === 'match' ? 'confirmed' : 'failed',
    verdict: m.verdict,
    criterion: m.criterion,
    reason: m.reason,
    expectation: checked,
    assumption,
    state: next,
  };
}
