// Ingesting the agents' wire format (ingest/wire.ts) from a JSONL file or a list of events:
// every line validated and applied inside ONE transaction, so a bad line — named with its field —
// leaves the database untouched. Turns go to the working set, writes through the engine's write
// path (supersession rules, inference, dependencies), queries become saved queries.
import type { z } from 'zod';
import type { PartitionRef } from '../../../shared/domain';
import { StatelensError, isStatelensError } from '../../../shared/errors';
import { fieldIssues } from '../../../shared/issues';
import type { FactWriteInput, WriteResult } from '../../../shared/writes';
import { writeFact } from '../facts/write';
import { setSignal } from '../layers/environment';
import { setIdentity } from '../layers/identity';
import { saveQuery } from '../layers/saved-queries';
import { addWorkingItem } from '../layers/working-set';
import { recordTurn } from '../layers/turns';
import type { PartitionHandle } from '../partition-handle';
import type { Store } from '../store';
import { DEFAULT_MAX_LINE_BYTES, readLines } from '../snapshot/line-reader';
import { MATURITY_NOT_WRITABLE } from '../partitions/partitions';
import { formatDesignation } from './designation';
import { WireEvent, type WireWrite } from './wire';

export interface IngestOptions {
  /** The partition for lines that do not name their own. */
  readonly partition?: PartitionRef;
  /** Validate and apply, then roll everything back. */
  readonly dryRun?: boolean;
  readonly maxLineBytes?: number;
  /** Name of the input in error messages. */
  readonly sourceName?: string;
  readonly onProgress?: (lines: number) => void;
  /** Audit actor for supersessions (default "ingest"). */
  readonly actor?: string;
}

export interface IngestSummary {
  lines: number;
  events: Record<string, number>;
  outcomes: Record<WriteResult['outcome'], number>;
  environmentSignals: number;
  workingItems: number;
  queries: number;
  /** Writes whose `supersedes` named nothing in the partition (stored as new facts). */
  unresolvedSupersedes: Array<{ line: number; write: number; supersedes: string }>;
  unresolvedDependencies: Array<{ line: number; write: number; refs: string[] }>;
  partitions: Array<{ id: number; partition: string }>;
  dryRun: boolean;
}

interface RawLine {
  readonly number: number;
  readonly text?: string;
  readonly value?: unknown;
  readonly terminated?: boolean;
}

class DryRunRollback extends Error {}

function lineError(source: string, line: number, field: string | undefined, message: string, cause?: string): StatelensError {
  return new StatelensError('IMPORT_FAILED', `${source} line ${line}${field ? `: field ${field}` : ''}: ${message}`, {
    line,
    ...(field ? { field } : {}),
    ...(cause ? { cause } : {}),
  });
}

function describeIssue(error: z.ZodError): { field: string | undefined; message: string } {
  const issue = error.issues[0];
  if (!issue) return { field: undefined, message: 'invalid event' };
  if (issue.code === 'unrecognized_keys' && issue.path.length === 0 && issue.keys.includes('maturity')) {
    return { field: 'maturity', message: MATURITY_NOT_WRITABLE };
  }
  // A union failure on `type` is clearer as the list of known types.
  if (issue.code === 'invalid_union' && issue.path.length === 1 && issue.path[0] === 'type') {
    return { field: 'type', message: 'unknown event type (expected conversation_turn, state_write, supersession, query or identity)' };
  }
  const field = fieldIssues(error, { root: '', max: 1 })[0]?.field;
  return { field: field || undefined, message: issue.message };
}

// A stated scope always wins over inference (a `"scope": "global"` keeps a fact global whatever
// its wording). `is_constraint: false` is the StateBench default on every write and carries no
// information: the engine's inference decides, as in `import statebench`.
function factInput(w: WireWrite, ts: string, eventIndex: number, turnIndex: number | null): FactWriteInput {
  const s = w.source;
  return {
    ...(w.id ? { label: w.id } : {}),
    key: w.key,
    value: w.value,
    source: {
      type: s?.type || 'user',
      identity: s?.identity ?? null,
      authority: s?.authority ?? null,
      eventIndex,
      ...(turnIndex !== null ? { turnIndex } : {}),
    },
    ts,
    ...(w.scope ? { scope: w.scope } : {}),
    ...(w.entity ? { entity: w.entity } : {}),
    ...(w.scope_id ? { scopeId: w.scope_id } : {}),
    ...(w.supersedes ? { supersedes: w.supersedes } : {}),
    ...(w.rule ? { rule: w.rule } : {}),
    ...(w.reason ? { reason: w.reason } : {}),
    ...(w.depends_on?.length ? { dependsOn: w.depends_on } : {}),
    ...(w.derived_facts?.length ? { derivedFacts: w.derived_facts } : {}),
    ...(w.is_constraint === true ? { isConstraint: true, ...(w.constraint_type ? { constraintType: w.constraint_type } : {}) } : {}),
    ...(w.importance !== undefined ? { importance: w.importance } : {}),
    ...(w.memory_type ? { memoryType: w.memory_type } : {}),
    ...(w.level ? { level: w.level } : {}),
    ...(w.time_sensitive !== undefined ? { timeSensitive: w.time_sensitive } : {}),
  };
}

/** Per-partition counters that continue what the database already holds. */
interface PartitionState {
  readonly handle: PartitionHandle;
  turns: Map<string, number>;
  queries: number;
}

class Ingestor {
  readonly summary: IngestSummary;
  private readonly partitions = new Map<string, PartitionState>();

  constructor(
    private readonly store: Store,
    private readonly options: IngestOptions,
    private readonly source: string,
  ) {
    this.summary = {
      lines: 0,
      events: {},
      outcomes: { created: 0, superseded: 0, proposal: 0, stale: 0, duplicate: 0 },
      environmentSignals: 0,
      workingItems: 0,
      queries: 0,
      unresolvedSupersedes: [],
      unresolvedDependencies: [],
      partitions: [],
      dryRun: Boolean(options.dryRun),
    };
  }

  partitionIds(): number[] {
    return [...this.partitions.values()].map((p) => p.handle.id);
  }

  private partition(ref: PartitionRef): PartitionState {
    const key = formatDesignation(ref);
    let state = this.partitions.get(key);
    if (!state) {
      // A new capability partition starts junior; its tier is never taken from the events.
      const handle = this.store.scope(ref, { create: true });
      const queries = this.store.db.prepare('SELECT count(*) FROM saved_queries WHERE partition_id = ?').pluck().get(handle.id) as number;
      state = { handle, turns: new Map(), queries };
      this.partitions.set(key, state);
      this.summary.partitions.push({ id: handle.id, partition: key });
    }
    return state;
  }

  private nextTurn(p: PartitionState, session: string): number {
    let n = p.turns.get(session);
    if (n === undefined) {
      n = this.store.db
        .prepare("SELECT count(*) FROM working_items WHERE partition_id = ? AND session_id = ? AND item_type = 'turn'")
        .pluck()
        .get(p.handle.id, session) as number;
    } else n++;
    p.turns.set(session, n);
    return n;
  }

  private lastTurn(p: PartitionState, session: string): number | null {
    return p.turns.get(session) ?? null;
  }

  apply(line: RawLine): void {
    let raw = line.value;
    if (line.text !== undefined) {
      if (line.text.trim() === '') return;
      try {
        raw = JSON.parse(line.text);
      } catch (e) {
        const hint = line.terminated === false ? ' — the file ends in the middle of this line (truncated)' : '';
        throw lineError(this.source, line.number, undefined, `not valid JSON (${e instanceof Error ? e.message : String(e)})${hint}`);
      }
    }
    const parsed = WireEvent.safeParse(raw);
    if (!parsed.success) {
      const { field, message } = describeIssue(parsed.error);
      throw lineError(this.source, line.number, field, message);
    }
    const event = parsed.data;
    const ref = event.partition ?? this.options.partition;
    if (!ref)
      throw lineError(
        this.source,
        line.number,
        'partition',
        'no partition: give the line a "partition" or the run --org with --user/--capability/--organizational',
      );
    this.summary.lines++;
    this.summary.events[event.type] = (this.summary.events[event.type] ?? 0) + 1;
    let p: PartitionState;
    try {
      p = this.partition(ref);
    } catch (e) {
      throw lineError(this.source, line.number, 'partition', e instanceof Error ? e.message : String(e), isStatelensError(e) ? e.code : undefined);
    }
    const ctx = p.handle.ctx;
    const session = event.session_id ?? 'default';
    const at = (field: string | undefined, fn: () => void): void => {
      try {
        fn();
      } catch (e) {
        throw lineError(this.source, line.number, field, e instanceof Error ? e.message : String(e), isStatelensError(e) ? e.code : undefined);
      }
    };
    switch (event.type) {
      case 'conversation_turn': {
        const turn = event.turn_index ?? this.nextTurn(p, session);
        if (event.turn_index !== undefined) p.turns.set(session, event.turn_index);
        at(undefined, () =>
          recordTurn(ctx, session, { speaker: event.speaker, text: event.text, ts: event.ts, turnIndex: turn }, { actor: this.options.actor ?? 'ingest' }),
        );
        this.summary.workingItems++;
        return;
      }
      case 'query':
        at(undefined, () =>
          saveQuery(ctx, { label: event.label ?? `Q${p.queries}`, prompt: event.prompt, ts: event.ts ?? null, groundTruth: event.ground_truth ?? null }),
        );
        p.queries++;
        this.summary.queries++;
        return;
      case 'identity': {
        const r = event.identity_role;
        at('identity_role', () =>
          setIdentity(
            ctx,
            {
              userName: r.user_name,
              userId: r.user_id ?? (ref.kind === 'user' ? ref.user : ''),
              authority: r.authority,
              department: r.department,
              organization: r.organization,
              permissions: r.permissions ?? [],
              communicationStyle: r.communication_style ?? null,
            },
            session,
          ),
        );
        return;
      }
      case 'state_write':
      case 'supersession':
        event.writes.forEach((w, i) => {
          const field = `writes.${i}`;
          if (w.layer === 'environment') {
            at(field, () => setSignal(ctx, w.key, w.value, event.ts));
            this.summary.environmentSignals++;
            return;
          }
          if (w.layer === 'working_set') {
            at(field, () =>
              addWorkingItem(ctx, {
                sessionId: session,
                key: w.key,
                value: typeof w.value === 'string' ? w.value : JSON.stringify(w.value),
                itemType: 'context',
                createdAt: event.ts,
                ...(w.expires_at !== undefined ? { expiresAt: w.expires_at } : {}),
                ...(w.priority !== undefined ? { priority: w.priority } : {}),
              }),
            );
            this.summary.workingItems++;
            return;
          }
          if (event.type === 'supersession' && !w.supersedes) {
            throw lineError(this.source, line.number, `${field}.supersedes`, 'a supersession write must name the fact it replaces (supersedes)');
          }
          let result: WriteResult | undefined;
          at(field, () => {
            result = writeFact(ctx, factInput(w, event.ts, line.number - 1, this.lastTurn(p, session)), {
              actor: this.options.actor ?? 'ingest',
              sessionId: session,
            });
          });
          if (!result) return;
          this.summary.outcomes[result.outcome]++;
          if (result.unresolvedSupersedes) this.summary.unresolvedSupersedes.push({ line: line.number, write: i, supersedes: result.unresolvedSupersedes });
          if (result.unresolvedDependencies.length > 0)
            this.summary.unresolvedDependencies.push({ line: line.number, write: i, refs: result.unresolvedDependencies });
        });
        return;
    }
  }
}

function run(store: Store, options: IngestOptions, source: string, lines: () => Iterable<RawLine>): IngestSummary {
  store.assertWritable();
  const ingestor = new Ingestor(store, options, source);
  const ids: number[] = [];
  try {
    store.write(ids, 'ingest', () => {
      let n = 0;
      for (const line of lines()) {
        ingestor.apply(line);
        if (++n % 1000 === 0) options.onProgress?.(n);
      }
      if (ingestor.summary.lines === 0) throw new StatelensError('IMPORT_FAILED', `${source} holds no events`, { line: 0 });
      ids.push(...ingestor.partitionIds());
      if (options.dryRun) throw new DryRunRollback();
    });
  } catch (e) {
    if (!(e instanceof DryRunRollback)) throw e;
  }
  options.onProgress?.(ingestor.summary.lines);
  return ingestor.summary;
}

/** Ingests a JSONL file (or an open descriptor: 0 is standard input) of wire events; blank
 * lines are skipped. */
export function ingestFile(store: Store, path: string | number, options: IngestOptions = {}): IngestSummary {
  const source = options.sourceName ?? (typeof path === 'number' ? 'stdin' : path);
  return run(store, options, source, () => readLines(path, options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES));
}

/** Ingests events already parsed (e.g. from another transport); positions count from 1. */
export function ingestEvents(store: Store, events: readonly unknown[], options: IngestOptions = {}): IngestSummary {
  const source = options.sourceName ?? 'events';
  return run(store, options, source, () => events.map((value, i) => ({ number: i + 1, value })));
}
