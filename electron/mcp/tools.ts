// The MCP tools agents use to write state and read contexts: facts (with supersedes), turns,
// environment signals, agent state deltas and expectation checks, context assembly, context
// documents and fact search. Every tool names its partition. Agents write; the inspector reviews.
// The one tool list: every transport serves it, with inputs in the portable schema subset
// (inputs.ts), an output schema per tool (outputs.ts) and annotations saying what a call changes.
import { z } from 'zod';
import { ToolResult } from '../../shared/agent-state';
import { AssemblyStrategy, DEFAULT_BUDGET, DEFAULT_STRATEGY, MAX_BUDGET, TokenizerName, type FetchedSignal } from '../../shared/assembly';
import { PartitionRef, type Fact } from '../../shared/domain';
import { StatelensError } from '../../shared/errors';
import { FactFilter } from '../../shared/query';
import { MAX_VALUE_CHARS } from '../../shared/writes';
import type { PartitionHandle } from '../engine/partition-handle';
import { MATURITY_NOT_WRITABLE, partitionLabel } from '../engine/partitions/partitions';
import type { Store } from '../engine/store';
import { Timestamp } from '../../shared/timestamp';
import { AgentStateDeltaArgument, FactArgument, IdentityArgument, PartitionArgument, ProviderArgument, SignalArgument } from './inputs';
import { OUTPUTS, type ToolName } from './outputs';

// Size: a call is one line of at most MAX_MESSAGE_BYTES (64 MiB). The largest calls are
// record_facts and record_turns, so each takes at most MAX_ITEMS_PER_CALL items of at most
// MAX_VALUE_CHARS (100,000) characters: 100 × 100,000 = 10,000,000 characters, at most 30 MB as
// UTF-8 (3 bytes a character) and 60 MB even if every character were a 6-byte JSON \u escape,
// under 64 MiB = 67.1 MB. A larger line is answered with a JSON-RPC error, never read.
const MAX_ITEMS_PER_CALL = 100;

/** The MCP tool annotations: hints to a client (and the person approving calls) about what a call
 * does. No tool reaches outside the database, so none is open-world. */
export interface ToolAnnotations {
  readonly readOnlyHint: boolean;
  readonly destructiveHint: boolean;
  readonly idempotentHint: boolean;
  readonly openWorldHint: boolean;
}

export interface McpTool {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly input: z.ZodObject;
  /** The `structuredContent` of a successful call. */
  readonly output: z.ZodObject;
  readonly annotations: ToolAnnotations;
  /** Writes create the partition when missing (a refused write is rolled back whole, so it
   * creates none); reads of a missing partition answer as an empty one (see absent). */
  readonly writes?: boolean;
  /** Fetches what the run needs from outside the store (bounded in time), before it runs. */
  prepare?(store: Store, args: Record<string, unknown>): Promise<unknown>;
  run(store: Store, args: Record<string, unknown>, prepared?: unknown): unknown;
}

const sessionId = z.string().min(1).max(200);
const partition = PartitionArgument;

/** Reads only: nothing changes however often it is called. */
const READ: ToolAnnotations = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
/** Adds or updates without removing: history is kept (a superseded fact stays in its chain). */
const ADDS: ToolAnnotations = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false };

function tool<N extends ToolName, S extends z.ZodObject>(def: {
  name: N;
  title: string;
  description: string;
  writes?: boolean;
  input: S;
  annotations: ToolAnnotations;
  prepare?(store: Store, args: z.output<S>): Promise<unknown>;
  run(store: Store, args: z.output<S>, prepared?: unknown): z.input<(typeof OUTPUTS)[N]>;
}): McpTool {
  return { ...def, output: OUTPUTS[def.name] } as unknown as McpTool;
}

function writable(store: Store, ref: PartitionRef): PartitionHandle {
  return store.scope(ref, { create: true });
}

function readable(store: Store, ref: PartitionRef): PartitionHandle {
  return store.scope(ref);
}

/** The partition a read names, or null when it does not exist yet (a well-formed name: a
 * malformed one is refused as a write would refuse it). */
function existing(store: Store, ref: PartitionRef): PartitionHandle | null {
  try {
    return store.scope(ref);
  } catch (e) {
    if (!(e instanceof StatelensError) || e.code !== 'NOT_FOUND') throw e;
  }
  const named = PartitionRef.safeParse(ref);
  if (!named.success) {
    const issue = named.error.issues[0];
    throw new StatelensError(
      'INVALID_INPUT',
      `Partition ${partitionLabel(ref)} is not a valid name: ${issue?.path.join('.') ?? 'name'} ${issue?.message ?? 'is invalid'}`,
      {
        field: issue?.path.join('.'),
      },
    );
  }
  return null;
}

const where = (h: PartitionHandle) => ({ partitionId: h.id, partition: partitionLabel(h.ref), exists: true });

/** How a read answers for a partition that does not exist yet: as an empty one, saying so (an
 * agent's first session reads before its first write). */
const absent = (ref: PartitionRef) => ({ partitionId: null, partition: partitionLabel(ref), exists: false });

export const TOOLS: readonly McpTool[] = [
  tool({
    name: 'record_facts',
    title: 'Record facts',
    description:
      'Write persistent facts. Name the fact a write replaces in `supersedes` (an id, a source label or a key); otherwise the engine finds the current fact of the same key, or of the same entity under another key (a versioned key such as address_v2 for address_v1, the same `entity` field, one entity with conflicting values such as meeting_time and meeting_day, or a value under a generic key that names the entity and states a change), and applies its rules: an equal value is a duplicate; a lower authority leaves a subordinate proposal; an older timestamp on a time-sensitive key is stale; otherwise it supersedes by authority, explicit correction cue, temporal or implicit conflict. Authority is read from role words in `source.authority` (policy > executive > director > manager > employee > contractor/intern > guest; unrecognised roles rank as peers); without one, the user\'s own words carry the authority of the identity of `session_id` (default "default"; never another session\'s) and a speaker given by title (source: "CFO") carries that title\'s. A stated `scope` always wins over inference. Returns one result per fact: outcome (created, superseded, proposal, stale or duplicate), the rule and reason with its evidence, and the authority role recognised. In capability memory the partition\'s maturity gates the `level` a fact may have (junior: event; senior: + heuristic; master: + strategy; a higher level is refused with LEVEL_NOT_ALLOWED). A write cannot carry or change the maturity: a new capability partition starts junior and only an administrator raises it (`statelens maturity`, audited); a `maturity` argument is refused with INVALID_INPUT.',
    writes: true,
    input: z.strictObject(
      {
        partition,
        facts: z.array(FactArgument).min(1).max(MAX_ITEMS_PER_CALL),
        actor: z.string().min(1).max(200).optional().describe('Who wrote, for the audit log'),
        session_id: sessionId
          .optional()
          .describe('The session writing: the user\'s own words carry its identity\'s authority (default: the session "default")'),
      },
      { error: (issue) => (issue.code === 'unrecognized_keys' && issue.keys.includes('maturity') ? `maturity: ${MATURITY_NOT_WRITABLE}` : undefined) },
    ),
    annotations: ADDS,
    run(store, a) {
      const h = writable(store, a.partition);
      return { ...where(h), results: h.writeFacts(a.facts, { ...(a.actor ? { actor: a.actor } : {}), ...(a.session_id ? { sessionId: a.session_id } : {}) }) };
    },
  }),
  tool({
    name: 'record_turns',
    title: 'Record conversation turns',
    description:
      'Append conversation turns to a session\'s working set (numbered after the turns already stored; a turn recorded again with the same turn_index replaces it; the working set lasts until end_session clears it). A turn that names the entity of a valid fact, states a different value of the same kind (day, time, date, amount, percentage, count, address, place, name) and carries a change cue ("let\'s do", "actually", "instead", "moved to", "now", "reschedule", ...) supersedes it with a fact written from the turn (rule implicit); when the turn hedges or asks, or the match is ambiguous, or it denies the fact without a new value, the fact is flagged needs_review with the turn as the cause. Imagined states ("what if"), constraints and facts from a source above a peer are never changed by a turn. Each item lists these `conflicts`.',
    writes: true,
    input: z.strictObject({
      partition,
      session_id: sessionId.default('default'),
      turns: z
        .array(
          z.strictObject({
            speaker: z.string().min(1).max(200),
            text: z.string().max(MAX_VALUE_CHARS),
            ts: Timestamp.optional(),
            turn_index: z.number().int().nonnegative().optional(),
          }),
        )
        .min(1)
        .max(MAX_ITEMS_PER_CALL),
    }),
    // A turn recorded again with its turn_index replaces the stored one.
    annotations: { ...ADDS, destructiveHint: true },
    run(store, a) {
      const h = writable(store, a.partition);
      const items = h.recordTurns(
        a.session_id,
        a.turns.map((t) => ({
          speaker: t.speaker,
          text: t.text,
          ...(t.ts ? { ts: t.ts } : {}),
          ...(t.turn_index !== undefined ? { turnIndex: t.turn_index } : {}),
        })),
      );
      return { ...where(h), sessionId: a.session_id, items };
    },
  }),
  tool({
    name: 'set_identity',
    title: 'Set the identity of a session',
    description:
      'Set who the user is (name, id, authority, department, organization, permissions) for a session. Each session of a partition has its own identity, used for every check of that session only: other sessions running at once keep theirs, and a session that set none has none (restricted text is withheld from it). The identity is fixed for the session once set: the same identity again changes nothing, a different one in the same session is refused with CONFLICT (end the session, or use a new session id, to change it). Assembly withholds restricted text from an identity outside its audience.',
    writes: true,
    input: z.strictObject({ partition, session_id: sessionId.default('default'), identity: IdentityArgument }),
    annotations: { ...ADDS, idempotentHint: true },
    run(store, a) {
      const h = writable(store, a.partition);
      h.setIdentity(a.identity, { sessionId: a.session_id });
      return { ...where(h), sessionId: a.session_id, identity: h.identity(a.session_id) };
    },
  }),
  tool({
    name: 'end_session',
    title: 'End a session',
    description:
      'End a session: its working set (turns and scratch items) is cleared and its identity is removed (other sessions keep theirs), so the next session starts fresh. Persistent facts, agent state and context documents stay. Working-set items also expire on their own at their expiry time.',
    input: z.strictObject({ partition, session_id: sessionId }),
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    run(store, a) {
      const h = readable(store, a.partition);
      return { ...where(h), ...h.endSession(a.session_id) };
    },
  }),
  tool({
    name: 'set_environment',
    title: 'Set environment signals',
    description:
      'Set environment signals with the time each was observed; every observation is kept and the latest per key holds. The value of a signal is text in `value`, or structured data as JSON text in `value_json`. Two keys are fields of their own: `timezone` (an IANA zone such as "Europe/Paris"; anything else is refused with INVALID_INPUT) and `location`; every other key is external data (API values, system state). Returns the signals and the environment as fields: currentTime, currentDate (in the timezone, UTC when none), timezone, location, externalData. Assembled contexts show the same fields.',
    writes: true,
    input: z.strictObject({
      partition,
      signals: z.array(SignalArgument).min(1).max(500),
    }),
    annotations: ADDS,
    run(store, a) {
      const h = writable(store, a.partition);
      h.setEnvironment(a.signals);
      return { ...where(h), environment: h.environment(), state: h.environmentState() };
    },
  }),
  tool({
    name: 'set_environment_providers',
    title: 'Set environment providers',
    description:
      'Set the environment providers queried fresh at every assembly of this partition (never cached; each answers within a deadline or is shown as unavailable, naming the provider). Kinds: {kind: "clock", timezone?} the current time in a zone; {kind: "calendar", source, limit?, timezone?} the next meetings of an iCalendar (.ics) file (absolute path, file: URL or a localhost URL): a meeting that ended is gone; {kind: "recent_files", folder, limit?} the most recently modified files of a folder (absolute path). Replaces the previous list; an empty list turns fetching off. Returns the providers.',
    writes: true,
    input: z.strictObject({ partition, providers: z.array(ProviderArgument).max(20) }),
    annotations: { ...ADDS, idempotentHint: true },
    run(store, a) {
      const h = writable(store, a.partition);
      return { ...where(h), providers: h.setEnvironmentProviders(a.providers) };
    },
  }),
  tool({
    name: 'update_agent_state',
    title: 'Update agent state',
    description:
      'Apply one delta to a session\'s agent state: entities and dependencies merge; assumptions, expectations and hypotheses upsert by id; item ops add / update / remove. The delta is either flat ({current_understanding, assumptions, expectations, tentative_hypotheses, items}) or the end-of-turn summarizer\'s output as it returns it ({agent_state_item_updates, agent_state_updates}), which also stamps lastSummarizedAt; not both. An item op is {op: "add", item}, {op: "update", id, patch} or {op: "remove", id}. Assembled contexts (state_based) include the session\'s agent state. Returns the new state.',
    writes: true,
    input: z.strictObject({ partition, session_id: sessionId, update: AgentStateDeltaArgument }),
    // An item op may remove an item.
    annotations: { ...ADDS, destructiveHint: true },
    run(store, a) {
      const h = writable(store, a.partition);
      return { ...where(h), state: h.applyAgentStateUpdate(a.session_id, a.update) };
    },
  }),
  tool({
    name: 'get_agent_state',
    title: 'Get agent state',
    description: "A session's agent state (null when the session has none).",
    input: z.strictObject({ partition, session_id: sessionId }),
    annotations: READ,
    run(store, a) {
      const h = readable(store, a.partition);
      return { ...where(h), ...h.agentStateRecord(a.session_id) };
    },
  }),
  tool({
    name: 'verify_expectation',
    title: 'Verify an expectation',
    description:
      'Check a structured tool result against one expectation with the deterministic matcher (ids, then type, then count, else skip): a match confirms it, a mismatch fails it and adds an assumption describing the discrepancy.',
    input: z.strictObject({ partition, session_id: sessionId, expectation_id: z.string().min(1).max(200), tool_result: ToolResult }),
    annotations: ADDS,
    run(store, a) {
      const h = readable(store, a.partition);
      return { ...where(h), ...h.verifyExpectation(a.session_id, a.expectation_id, a.tool_result) };
    },
  }),
  tool({
    name: 'assemble_context',
    title: 'Assemble a context',
    description:
      'Assemble the context a model would see, with a strategy (recent, important, balanced, state_based, reference, context_document; balanced when omitted: importance weighted by recency) and a token budget. Facts, items and documents the identity of `session_id` may not read (a session that set none may read no restricted text) (a restricted label such as "[CONFIDENTIAL — restricted to HR]" outside its audience) are withheld in every strategy, before any ranking. By default the agent takes the context (access counts of included facts are updated); preview: true changes nothing.',
    input: z.strictObject({
      partition,
      strategy: AssemblyStrategy.default(DEFAULT_STRATEGY),
      budget: z.number().int().min(0).max(MAX_BUDGET).default(DEFAULT_BUDGET),
      query: z.string().max(20_000).default(''),
      session_id: sessionId.default('default'),
      task_id: z.string().min(1).max(200).optional(),
      as_of: z.string().min(1).max(64).optional(),
      tokenizer: TokenizerName.optional(),
      preview: z.boolean().default(false),
      include_provenance: z.boolean().default(false).describe('Return the per-item provenance (can be long)'),
    }),
    // Taking a context counts an access on each included fact (preview: true changes nothing).
    annotations: ADDS,
    // The partition's environment providers are fetched fresh for a present-time assembly.
    async prepare(store, a) {
      if (a.as_of) return undefined;
      return existing(store, a.partition)?.fetchEnvironment();
    },
    run(store, a, prepared) {
      const h = readable(store, a.partition);
      const fetched = prepared as FetchedSignal[] | undefined;
      const request = {
        strategy: a.strategy,
        budget: a.budget,
        query: a.query,
        sessionId: a.session_id,
        ...(a.task_id ? { taskId: a.task_id } : {}),
        ...(a.as_of ? { asOf: a.as_of } : {}),
        ...(a.tokenizer ? { tokenizer: a.tokenizer } : {}),
        provenance: a.include_provenance ? ('full' as const) : ('included' as const),
      };
      const options = fetched ? { fetched } : {};
      const r = a.preview ? h.assemble(request, options) : h.takeContext(request, options);
      return {
        ...where(h),
        strategy: r.strategy,
        text: r.text,
        tokens: r.tokens,
        budget: r.budget,
        sections: r.sections.map((s) => ({ name: s.name, title: s.title, tokens: s.tokens })),
        counts: r.counts,
        ...(a.include_provenance ? { provenance: r.provenance } : {}),
        ...(r.fetchedSignals ? { fetchedSignals: r.fetchedSignals } : {}),
      };
    },
  }),
  tool({
    name: 'get_context',
    title: 'Get the context document',
    description:
      "The session's context document (latest version, or the one asked for); null when there is none. A partition that does not exist yet answers as an empty one (exists: false, partitionId null): a new memory's first session reads before it writes.",
    input: z.strictObject({ partition, session_id: sessionId, version: z.number().int().min(1).optional() }),
    annotations: READ,
    run(store, a) {
      const h = existing(store, a.partition);
      if (!h) return { ...absent(a.partition), document: null };
      return { ...where(h), document: h.contextDocument(a.session_id, a.version) };
    },
  }),
  tool({
    name: 'put_context',
    title: 'Put the context document',
    description: "Store a new version of the session's context document (sections Facts, Timeline, Entities, Preferences, Notes; at most 5,000 words).",
    writes: true,
    input: z.strictObject({ partition, session_id: sessionId, body: z.string().max(200_000) }),
    annotations: ADDS,
    run(store, a) {
      const h = writable(store, a.partition);
      return { ...where(h), document: h.putContextDocument(a.session_id, a.body) };
    },
  }),
  tool({
    name: 'search_facts',
    title: 'Search facts',
    description:
      'Full-text search over keys and values of one partition (valid facts by default), with optional inspector filters. Returns whole facts, newest first. Every word of `query` must match (the last also as a prefix); a query with no word in it (empty, or only punctuation such as "*") is refused with INVALID_INPUT rather than read as "everything". Leave `query` out to list without searching.',
    input: z.strictObject({
      partition,
      query: FactFilter.shape.search,
      filter: FactFilter.optional(),
      limit: z.number().int().min(1).max(100).default(20),
    }),
    annotations: READ,
    run(store, a) {
      const h = existing(store, a.partition);
      if (!h) return { ...absent(a.partition), facts: [], total: { count: 0, capped: false } };
      const filter = { validity: 'valid' as const, ...(a.filter ?? {}), ...(a.query !== undefined ? { search: a.query } : {}) };
      const page = h.listFacts({ filter, sort: { column: 'ts', direction: 'desc' }, page: { limit: a.limit } });
      const facts = page.rows.map((r) => h.getFact(r.id)).filter((f): f is Fact => f !== undefined);
      return { ...where(h), facts, total: page.total };
    },
  }),
  tool({
    name: 'await_consistency',
    title: 'Await consistency',
    description:
      'Returns once every committed write is visible (Statelens commits synchronously, so at once), with the database data version. With a partition: its id, and exists: false (partitionId null) when it does not exist yet.',
    input: z.strictObject({ partition: partition.optional() }),
    annotations: READ,
    run(store, a) {
      store.pollExternalChanges();
      if (!a.partition) return { consistent: true, dataVersion: store.dataVersion() };
      const h = existing(store, a.partition);
      return { consistent: true, dataVersion: store.dataVersion(), ...(h ? where(h) : absent(a.partition)) };
    },
  }),
];
