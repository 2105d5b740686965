// StateBench import: replays a timeline JSONL file (one timeline per line; initial state, then
// events in order) into one user partition per timeline, all in ONE transaction, so a bad line
// imports nothing. Every line is validated before the first write.
import fs from 'node:fs';
import { CONSTRAINT_TYPES, SCOPES, type ConstraintType, type Scope } from '../../../shared/domain';
import { StatelensError, isStatelensError } from '../../../shared/errors';
import { fieldIssues } from '../../../shared/issues';
import type { FactWriteInput, WriteResult } from '../../../shared/writes';
import { recordAudit } from '../audit/audit';
import { stmt } from '../db/statements';
import { addEdge } from '../facts/dependencies';
import { resolveRef } from '../facts/write';
import type { PartitionHandle } from '../partition-handle';
import type { Store } from '../store';
import { StatebenchTimeline, type StatebenchFact, type StatebenchWrite } from './statebench-schema';

/** A supersession write whose target could not be found in its timeline. */
export interface UnresolvedSupersession {
  readonly line: number;
  readonly timeline: string;
  /** Index of the event in the timeline, or -1 for the initial state. */
  readonly event: number;
  readonly supersedes: string;
}

/** One applied supersession (collected on request, for conformance checks). */
export interface AppliedSupersession {
  readonly timeline: string;
  readonly partitionId: number;
  readonly event: number;
  readonly newFactId: string;
  readonly oldFactId: string | null;
  readonly supersedes: string;
}

export interface StatebenchImportStats {
  timelines: number;
  /** Facts stored (duplicates of a valid fact are not stored again). */
  facts: number;
  initialFacts: number;
  /** Writes that name `supersedes`, in the initial state or in events. */
  supersessionWrites: number;
  supersessionsResolved: number;
  unresolved: UnresolvedSupersession[];
  /** Supersessions the engine inferred (writes that named no target). */
  inferredSupersessions: number;
  proposals: number;
  stale: number;
  duplicates: number;
  turns: number;
  workingItems: number;
  environmentSignals: number;
  queries: number;
  dependencyEdges: number;
  partitionIds: number[];
  applied?: AppliedSupersession[];
}

export interface StatebenchImportOptions {
  /** Called after each timeline: (timelines done, total). */
  readonly onProgress?: (done: number, total: number) => void;
  /** Collect every applied supersession in `stats.applied`. */
  readonly collectSupersessions?: boolean;
  /** Name of the input, for error messages. */
  readonly sourceName?: string;
}

export interface ParsedLine {
  readonly line: number;
  readonly timeline: StatebenchTimeline;
}

/** Parses and validates every line; throws IMPORT_FAILED naming the first bad line and field. */
export function parseStatebenchJsonl(text: string, sourceName = 'input'): ParsedLine[] {
  const out: ParsedLine[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const raw = (lines[i] ?? '').replace(/\r$/, '');
    if (raw.trim() === '') continue;
    const line = i + 1;
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch (e) {
      throw new StatelensError('IMPORT_FAILED', `${sourceName} line ${line}: not valid JSON (${e instanceof Error ? e.message : String(e)})`, { line });
    }
    const parsed = StatebenchTimeline.safeParse(json);
    if (!parsed.success) {
      const issue = fieldIssues(parsed.error, { root: '(timeline)', max: 1 })[0] ?? { field: '(timeline)', message: 'invalid' };
      throw new StatelensError('IMPORT_FAILED', `${sourceName} line ${line}: field ${issue.field}: ${issue.message}`, { line, field: issue.field });
    }
    refuseDuplicateIds(parsed.data, line, sourceName);
    out.push({ line, timeline: parsed.data });
  }
  if (out.length === 0) throw new StatelensError('IMPORT_FAILED', `${sourceName} holds no timelines (empty file)`, { line: 0 });
  const seen = new Map<string, number>();
  for (const p of out) {
    const first = seen.get(p.timeline.id);
    if (first !== undefined)
      throw new StatelensError('IMPORT_FAILED', `${sourceName} line ${p.line}: field id: timeline "${p.timeline.id}" repeats line ${first}`, {
        line: p.line,
        field: 'id',
      });
    seen.set(p.timeline.id, p.line);
  }
  return out;
}

/** StateBench's label for a write it did not name: it repeats by design and names nothing. */
const UNNAMED_WRITE = 'W-AUTO';

/** A fact id names one fact of its timeline: `supersedes` and dependencies resolve by it, so a
 * repeated id would make them pick one of several facts silently. */
function refuseDuplicateIds(t: StatebenchTimeline, line: number, sourceName: string): void {
  const seen = new Map<string, string>();
  const claim = (id: string | null | undefined, where: string): void => {
    if (!id || id === UNNAMED_WRITE) return;
    const first = seen.get(id);
    if (first !== undefined) {
      throw new StatelensError(
        'IMPORT_FAILED',
        `${sourceName} line ${line} (timeline ${t.id}): field ${where}: fact id "${id}" repeats ${first}; fact ids must be unique in a timeline`,
        { line, field: where },
      );
    }
    seen.set(id, where);
  };
  (t.initial_state.persistent_facts ?? []).forEach((f, i) => claim(f.id, `initial_state.persistent_facts.${i}.id`));
  t.events.forEach((e, i) => {
    if (e.type === 'state_write' || e.type === 'supersession')
      e.writes.forEach((w, j) => claim(w.layer === 'persistent_facts' ? w.id : null, `events.${i}.writes.${j}.id`));
  });
}

/** Reads and validates a timeline file without touching any database. */
export function readStatebenchFile(path: string): ParsedLine[] {
  let text: string;
  try {
    text = fs.readFileSync(path, 'utf8');
  } catch (e) {
    const code = typeof e === 'object' && e !== null && 'code' in e ? String((e as { code: unknown }).code) : '';
    throw new StatelensError(
      code === 'ENOENT' ? 'NOT_FOUND' : 'IMPORT_FAILED',
      `${path} cannot be read (${code || (e instanceof Error ? e.message : String(e))})`,
    );
  }
  return parseStatebenchJsonl(text, path);
}

export function importStatebenchFile(store: Store, path: string, options: StatebenchImportOptions = {}): StatebenchImportStats {
  return importStatebenchParsed(store, readStatebenchFile(path), { sourceName: path, ...options });
}

export function importStatebenchText(store: Store, text: string, options: StatebenchImportOptions = {}): StatebenchImportStats {
  return importStatebenchParsed(store, parseStatebenchJsonl(text, options.sourceName ?? 'input'), options);
}

/** Replays validated lines (see parseStatebenchJsonl) in one transaction. */
export function importStatebenchParsed(store: Store, lines: readonly ParsedLine[], options: StatebenchImportOptions = {}): StatebenchImportStats {
  const sourceName = options.sourceName ?? 'input';
  const stats: StatebenchImportStats = {
    timelines: 0,
    facts: 0,
    initialFacts: 0,
    supersessionWrites: 0,
    supersessionsResolved: 0,
    unresolved: [],
    inferredSupersessions: 0,
    proposals: 0,
    stale: 0,
    duplicates: 0,
    turns: 0,
    workingItems: 0,
    environmentSignals: 0,
    queries: 0,
    dependencyEdges: 0,
    partitionIds: [],
    ...(options.collectSupersessions ? { applied: [] } : {}),
  };
  store.write(stats.partitionIds, 'import statebench', () => {
    for (const parsed of lines) {
      try {
        replayTimeline(store, parsed, stats);
      } catch (e) {
        if (isStatelensError(e) && /\bline \d+/.test(e.message)) throw e;
        const message = e instanceof Error ? e.message : String(e);
        throw new StatelensError('IMPORT_FAILED', `${sourceName} line ${parsed.line} (timeline ${parsed.timeline.id}): ${message}`, {
          line: parsed.line,
          ...(isStatelensError(e) ? { cause: e.code } : {}),
        });
      }
      stats.timelines++;
      options.onProgress?.(stats.timelines, lines.length);
    }
    refuseUnresolved(stats.unresolved, sourceName);
  });
  return stats;
}

/** Every `supersedes` must name a fact of its timeline: one that names nothing would store the
 * replacement beside what it meant to replace, so the whole import is refused (and rolled back). */
function refuseUnresolved(unresolved: readonly UnresolvedSupersession[], sourceName: string): void {
  const first = unresolved[0];
  if (!first) return;
  const list = unresolved
    .slice(0, 5)
    .map((u) => `line ${u.line} (timeline ${u.timeline}, ${u.event < 0 ? 'initial state' : `event ${u.event}`}): "${u.supersedes}"`);
  throw new StatelensError(
    'IMPORT_FAILED',
    `${sourceName}: ${unresolved.length} supersedes matched no fact, so nothing was imported: ${list.join('; ')}${unresolved.length > list.length ? '; …' : ''}`,
    { line: first.line, unresolved: unresolved.slice(0, 100) },
  );
}

// StateBench writes `scope: "global"` and `is_constraint: false` as defaults on every fact, so
// those values carry no information: the engine's own inference (scope cues, policy language)
// decides. Any other stated value is applied as given.
function statedScope(scope: string | null | undefined): Scope | undefined {
  return scope && scope !== 'global' && (SCOPES as readonly string[]).includes(scope) ? (scope as Scope) : undefined;
}

function statedConstraint(w: { is_constraint?: boolean | null; constraint_type?: string | null }): Pick<FactWriteInput, 'isConstraint' | 'constraintType'> {
  if (w.is_constraint !== true) return {};
  const type = w.constraint_type && (CONSTRAINT_TYPES as readonly string[]).includes(w.constraint_type) ? (w.constraint_type as ConstraintType) : undefined;
  return type ? { isConstraint: true, constraintType: type } : { isConstraint: true };
}

function textOf(v: unknown): string {
  return typeof v === 'string' ? v : JSON.stringify(v);
}

function sourceOf(s: StatebenchFact['source'], indexes: { eventIndex?: number; turnIndex?: number | null }): FactWriteInput['source'] {
  return {
    type: s?.type || 'user',
    identity: s?.identity ?? null,
    authority: s?.authority ?? null,
    ...(indexes.eventIndex !== undefined ? { eventIndex: indexes.eventIndex } : {}),
    ...(indexes.turnIndex !== undefined && indexes.turnIndex !== null ? { turnIndex: indexes.turnIndex } : {}),
  };
}

function count(stats: StatebenchImportStats, r: WriteResult): void {
  if (r.outcome === 'duplicate') {
    stats.duplicates++;
    return;
  }
  stats.facts++;
  if (r.outcome === 'proposal') stats.proposals++;
  if (r.outcome === 'stale') stats.stale++;
}

function replayTimeline(store: Store, { line, timeline: t }: ParsedLine, stats: StatebenchImportStats): void {
  const handle = store.scope({ kind: 'user', org: t.actors.user.org, user: t.id }, { create: true });
  if (handle.identity() || handle.validFacts().length > 0 || handle.savedQueries().length > 0) {
    throw new StatelensError('CONFLICT', `timeline ${t.id} is already imported into partition ${handle.id}; import into a new database`, {
      partitionId: handle.id,
    });
  }
  stats.partitionIds.push(handle.id);
  const init = t.initial_state;
  const firstTs = t.events.find((e) => e.ts)?.ts ?? undefined;
  const env = init.environment ?? {};
  const now = typeof env.now === 'string' ? env.now : firstTs;

  const role = init.identity_role;
  if (role) {
    handle.setIdentity({
      userName: role.user_name,
      userId: t.actors.user.id,
      authority: role.authority,
      department: role.department,
      organization: role.organization,
      permissions: role.permissions ?? [],
      communicationStyle: role.communication_style ?? null,
    });
  }

  importInitialFacts(handle, line, t.id, init.persistent_facts ?? [], now, stats);

  const items = init.working_set ?? [];
  if (items.length > 0) {
    handle.addWorkingItems(
      items.map((w, i) => ({
        key: `ws:${i}`,
        value: textOf(w.content),
        itemType: w.item_type || 'context',
        ...(w.ts || now ? { createdAt: (w.ts || now) as string } : {}),
        ...(typeof w.priority === 'number' ? { priority: w.priority } : {}),
      })),
    );
    stats.workingItems += items.length;
  }
  const signals = Object.entries(env).map(([key, value]) => ({ key, value, ...(now ? { observedAt: now } : {}) }));
  if (signals.length > 0) {
    handle.setEnvironment(signals);
    stats.environmentSignals += signals.length;
  }

  let turn = -1;
  let query = 0;
  for (const { event, eventIndex } of inTimeOrder(t.events)) {
    switch (event.type) {
      case 'conversation_turn': {
        // The engine's one turn path: a turn that contradicts a fact supersedes or flags it,
        // as it would for any agent recording its conversation.
        const [recorded] = handle.recordTurns(IMPORT_SESSION, [{ speaker: event.speaker, text: event.text, ts: event.ts, turnIndex: turn + 1 }], {
          actor: 'statebench import',
        });
        turn = recorded?.turnIndex ?? turn + 1;
        stats.turns++;
        stats.inferredSupersessions += recorded?.conflicts.filter((c) => c.outcome === 'superseded').length ?? 0;
        break;
      }
      case 'query':
        handle.saveQuery({ label: `Q${query++}`, prompt: event.prompt, ts: event.ts ?? null, groundTruth: event.ground_truth ?? null });
        stats.queries++;
        break;
      case 'state_write':
      case 'supersession':
        for (const w of event.writes) applyWrite(handle, line, t.id, eventIndex, turn, event.ts, w, stats);
        break;
    }
  }
}

/** The session a timeline's conversation is recorded in (the working set's default session). */
const IMPORT_SESSION = 'default';

/** Events in the order they happened: by timestamp, ties (and events without one, which take
 * the time of the event before them) in file order. A turn is checked against the facts written
 * before it, so a write listed after a turn but stamped earlier must be applied first. */
export function inTimeOrder<E extends { ts?: string | null }>(events: readonly E[]): Array<{ event: E; eventIndex: number }> {
  let last = '';
  const stamped = events.map((event, eventIndex) => {
    last = event.ts || last;
    return { event, eventIndex, at: last };
  });
  return stamped.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : a.eventIndex - b.eventIndex)).map(({ event, eventIndex }) => ({ event, eventIndex }));
}

function applyWrite(
  handle: PartitionHandle,
  line: number,
  timeline: string,
  eventIndex: number,
  turn: number,
  ts: string,
  w: StatebenchWrite,
  stats: StatebenchImportStats,
): void {
  if (w.layer === 'environment') {
    handle.setEnvironment([{ key: w.key, value: w.value, observedAt: ts }]);
    stats.environmentSignals++;
    return;
  }
  if (w.layer === 'working_set') {
    handle.addWorkingItems([{ key: w.key, value: textOf(w.value), itemType: 'context', createdAt: ts }]);
    stats.workingItems++;
    return;
  }
  const scope = statedScope(w.scope);
  const result = handle.writeFact({
    ...(w.id ? { label: w.id } : {}),
    key: w.key,
    value: w.value,
    source: sourceOf(w.source, { eventIndex, turnIndex: turn >= 0 ? turn : null }),
    ts,
    ...(scope ? { scope } : {}),
    ...(w.supersedes ? { supersedes: w.supersedes } : {}),
    ...(w.depends_on?.length ? { dependsOn: w.depends_on } : {}),
    ...(w.derived_facts?.length ? { derivedFacts: w.derived_facts } : {}),
    ...statedConstraint(w),
  });
  count(stats, result);
  stats.dependencyEdges += (w.depends_on?.length ?? 0) + (w.derived_facts?.length ?? 0) - result.unresolvedDependencies.length;
  if (w.supersedes) {
    stats.supersessionWrites++;
    if (result.unresolvedSupersedes !== null) stats.unresolved.push({ line, timeline, event: eventIndex, supersedes: w.supersedes });
    else if (result.supersededId) stats.supersessionsResolved++;
    stats.applied?.push({
      timeline,
      partitionId: handle.id,
      event: eventIndex,
      newFactId: result.factId,
      oldFactId: result.supersededId,
      supersedes: w.supersedes,
    });
  } else if (result.supersededId) {
    stats.inferredSupersessions++;
  }
}

/** Initial facts are written in the engine's one write path: a fact that replaces another (its
 * `supersedes`, or the other's `superseded_by`) is written after it and names it, so the engine
 * links the chain; the others meet the supersession rules as any write does (an initial state
 * can already hold an instruction that a higher authority overruled). Dependency edges are
 * added once all exist. */
function importInitialFacts(
  handle: PartitionHandle,
  line: number,
  timeline: string,
  facts: readonly StatebenchFact[],
  now: string | undefined,
  stats: StatebenchImportStats,
): void {
  if (facts.length === 0) return;
  const byLabel = new Map<string, number>();
  const byKey = new Map<string, number>();
  facts.forEach((f, i) => {
    if (!byLabel.has(f.id)) byLabel.set(f.id, i);
    if (f.is_valid !== false && !f.superseded_by) byKey.set(f.key, i);
  });
  // replaces[i] = j: fact i replaces fact j (named by label, else by key, as the engine resolves).
  const replaces = new Map<number, number>();
  facts.forEach((f, i) => {
    const old = f.supersedes ? (byLabel.get(f.supersedes) ?? byKey.get(f.supersedes)) : undefined;
    if (old !== undefined && old !== i) replaces.set(i, old);
    const next = f.superseded_by ? byLabel.get(f.superseded_by) : undefined;
    if (next !== undefined && next !== i && !replaces.has(next)) replaces.set(next, i);
  });

  const ownId = new Map<number, string>();
  const state = new Map<number, 'visiting' | 'done'>();
  const write = (i: number): void => {
    if (state.has(i)) return; // done, or a cycle in the source data: break it here
    state.set(i, 'visiting');
    const old = replaces.get(i);
    if (old !== undefined) write(old);
    const f = facts[i] as StatebenchFact;
    const oldId = old !== undefined ? ownId.get(old) : undefined;
    const scope = statedScope(f.scope);
    const result = handle.writeFact({
      label: f.id,
      key: f.key,
      value: f.value,
      source: sourceOf(f.source, {}),
      ...(f.ts || now ? { ts: (f.ts || now) as string } : {}),
      ...(scope ? { scope } : {}),
      ...(oldId ? { supersedes: oldId, reason: `initial state: ${f.id} replaces ${facts[old as number]?.id}` } : {}),
      ...statedConstraint(f),
    });
    ownId.set(i, result.factId);
    count(stats, result);
    stats.initialFacts++;
    const named = f.supersedes ?? null;
    if (named) {
      stats.supersessionWrites++;
      if (result.supersededId) stats.supersessionsResolved++;
      else stats.unresolved.push({ line, timeline, event: -1, supersedes: named });
    } else if (result.supersededId) {
      stats.inferredSupersessions++;
    }
    state.set(i, 'done');
  };
  facts.forEach((_, i) => write(i));

  // A fact stated invalid whose replacement is not in the initial state is still superseded:
  // its status follows the source, with no successor to point at.
  const ctx = handle.ctx;
  facts.forEach((f, i) => {
    const id = ownId.get(i);
    if (!id || !(f.is_valid === false || f.superseded_by)) return;
    const stored = handle.getFact(id);
    if (!stored || !stored.isValid) return;
    const reason = `stated invalid in the initial state${f.superseded_by ? ` (superseded by ${f.superseded_by}, not present)` : ''}`;
    stmt(
      ctx.db,
      `UPDATE facts SET status = 'superseded', is_valid = 0, supersession_rule = 'explicit', supersession_reason = ?, valid_to = ? WHERE id = ? AND partition_id = ?`,
    ).run(reason, stored.ts, id, ctx.partitionId);
    recordAudit(ctx, { actor: 'statebench import', action: 'supersede', targetIds: [id], reason: `explicit: ${reason}`, details: { rule: 'explicit' } });
  });

  facts.forEach((f, i) => {
    const id = ownId.get(i) as string;
    const resolve = (ref: string): string | undefined => {
      const j = byLabel.get(ref);
      if (j !== undefined) return ownId.get(j);
      return resolveRef(ctx, ref)?.fact.id;
    };
    for (const ref of f.depends_on ?? []) {
      const dep = resolve(ref);
      if (dep && dep !== id) {
        addEdge(ctx, id, dep);
        stats.dependencyEdges++;
      }
    }
    for (const ref of f.derived_facts ?? []) {
      const derived = resolve(ref);
      if (derived && derived !== id) {
        addEdge(ctx, derived, id);
        stats.dependencyEdges++;
      }
    }
  });
}
