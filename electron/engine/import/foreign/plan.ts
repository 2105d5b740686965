// A source-neutral plan for importing memory another system keeps (the MCP memory server, Mem0,
// LangGraph stores, Letta agent files): per partition, the facts in write order with their
// provenance, the deletions the source recorded and the conversation turns, plus every record
// that was left out and why. Readers build a plan; apply.ts writes it in one transaction.
import { PartitionRef } from '../../../../shared/domain';
import { StatelensError } from '../../../../shared/errors';
import { canonicalTimestamp } from '../../../../shared/timestamp';
import { MAX_VALUE_CHARS, structuredValueProblem } from '../../../../shared/writes';

export const FOREIGN_SYSTEMS = ['mcp-memory', 'mem0', 'langgraph', 'letta'] as const;
export type ForeignSystem = (typeof FOREIGN_SYSTEMS)[number];

/** Where a record came from, kept with the fact in the import's audit entry. */
export interface Provenance {
  /** The source's own id for the record (entity name, memory id, store key, block id...). */
  readonly sourceId: string;
  /** Where in the input: "line 3", "history row 12", "store row (ns, key)". */
  readonly where: string;
  readonly actor?: string | null;
  readonly createdAt?: string | null;
  readonly updatedAt?: string | null;
  /** Anything else the source says about the record (entity type, role, metadata...). */
  readonly extra?: Record<string, unknown>;
}

export type ForeignValue = string | number | boolean | Record<string, unknown> | unknown[];

export interface ForeignFact {
  /** Unique in its partition's plan: stored as the fact's label; `supersedes` and `dependsOn` name it. */
  readonly ref: string;
  readonly key: string;
  readonly value: ForeignValue;
  /** Canonical UTC; absent when the source gives no time (the import's time applies). */
  readonly ts?: string;
  /** Who wrote it in the source (stored as the fact's source identity). */
  readonly identity?: string | null;
  /** The ref of the version this one replaces (an earlier fact of the same partition plan). */
  readonly supersedes?: string;
  readonly reason?: string;
  /** A session-scoped fact (a Mem0 run): the scope id is the session. */
  readonly session?: string;
  readonly dependsOn?: readonly string[];
  readonly provenance: Provenance;
}

/** A record the source deleted before the import: its text is not brought in, only the fact
 * that it existed and was deleted (who, when), as a deletion in the audit. */
export interface ForeignDeletion {
  readonly provenance: Provenance;
  readonly deletedAt?: string | null;
  /** How many versions the source kept of it before the deletion. */
  readonly versions: number;
}

export interface ForeignTurn {
  readonly session: string;
  readonly speaker: string;
  readonly text: string;
  readonly ts?: string;
}

export interface ForeignPartitionPlan {
  readonly partition: PartitionRef;
  readonly facts: ForeignFact[];
  readonly deletions: ForeignDeletion[];
  readonly turns: ForeignTurn[];
}

/** A record left out (or brought in changed), with where it was and why. */
export interface SkippedRecord {
  readonly where: string;
  readonly reason: string;
}

export interface ForeignPlan {
  readonly system: ForeignSystem;
  readonly sourceName: string;
  readonly partitions: ForeignPartitionPlan[];
  /** Records not imported, and why. */
  readonly skipped: SkippedRecord[];
  /** Records imported with a change worth knowing (a timestamp without a zone read as UTC...). */
  readonly notes: SkippedRecord[];
}

export function emptyPlan(system: ForeignSystem, sourceName: string): ForeignPlan {
  return { system, sourceName, partitions: [], skipped: [], notes: [] };
}

/** The plan of `partition` in `plan`, added when missing (partitions keep first-seen order). */
export function partitionPlan(plan: ForeignPlan, partition: PartitionRef): ForeignPartitionPlan {
  const key = JSON.stringify(partition);
  const found = plan.partitions.find((p) => JSON.stringify(p.partition) === key);
  if (found) return found;
  const made: ForeignPartitionPlan = { partition, facts: [], deletions: [], turns: [] };
  plan.partitions.push(made);
  return made;
}

/** `ref` checked as a partition name (names come from the source: a user id with a line break
 * cannot name a partition); undefined, with the record noted as skipped, when it is not one. */
export function checkedPartition(plan: ForeignPlan, ref: PartitionRef, where: string): PartitionRef | undefined {
  const parsed = PartitionRef.safeParse(ref);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  plan.skipped.push({ where, reason: `cannot name a partition: ${issue?.path.join('.') ?? 'name'} ${issue?.message ?? 'is invalid'}` });
  return undefined;
}

/** The input cannot be read as the source's format at all: nothing is imported. */
export function malformed(sourceName: string, where: string, message: string, details: Record<string, unknown> = {}): StatelensError {
  return new StatelensError('IMPORT_FAILED', `${sourceName}${where ? ` ${where}` : ''}: ${message}; nothing was imported`, details);
}

/** Parses a whole-file JSON document; a syntax error names its line. */
export function parseJsonDocument(content: string, sourceName: string): unknown {
  try {
    return JSON.parse(content);
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    const at = /position (\d+)/.exec(message);
    const line = at ? content.slice(0, Number(at[1])).split('\n').length : content.trimEnd().split('\n').length;
    throw malformed(sourceName, `line ${line}`, `not valid JSON (${message})`, { line });
  }
}

/** The canonical UTC form of a source's timestamp: ISO text (a space for the "T", as SQLite and
 * Python print them, is accepted), or epoch seconds / milliseconds. A time without a zone is
 * read as UTC and noted; one that cannot be read is dropped and noted. */
export function sourceTimestamp(plan: ForeignPlan, value: unknown, where: string): string | undefined {
  if (value === null || value === undefined || value === '') return undefined;
  if (typeof value === 'number' && Number.isFinite(value)) {
    const ms = value < 1e11 ? value * 1000 : value;
    const d = new Date(ms);
    if (!Number.isNaN(d.getTime())) return d.toISOString();
  }
  if (value instanceof Date && !Number.isNaN(value.getTime())) return value.toISOString();
  if (typeof value === 'string') {
    const text = value.trim().replace(/^(\d{4}-\d{2}-\d{2}) (\d)/, '$1T$2');
    const canonical = canonicalTimestamp(text);
    if (canonical) {
      if (!/(?:[Zz]|[+-]\d{2}:?\d{2})$/.test(text)) plan.notes.push({ where, reason: `timestamp "${value}" has no time zone: read as UTC` });
      return canonical;
    }
  }
  plan.notes.push({ where, reason: `timestamp ${JSON.stringify(value).slice(0, 80)} is not a date-time: the import's time is used` });
  return undefined;
}

/** Why a value cannot be stored as a fact (empty, or over the size and depth limits), or undefined. */
export function valueProblem(value: unknown): string | undefined {
  if (value === null || value === undefined) return 'the value is empty';
  if (typeof value === 'string') {
    if (value.trim() === '') return 'the value is empty';
    if (value.length > MAX_VALUE_CHARS) return `the value is ${value.length} characters, over the limit of ${MAX_VALUE_CHARS}`;
    return undefined;
  }
  if (typeof value === 'number') return Number.isFinite(value) ? undefined : 'the value is not a finite number';
  if (typeof value === 'boolean') return undefined;
  if (typeof value === 'object') {
    if (Object.keys(value).length === 0) return 'the value is empty';
    const problem = structuredValueProblem(value);
    return problem ? `the value ${problem}` : undefined;
  }
  return `the value is a ${typeof value}`;
}

/** Fields of `record` outside `known`, noted once per record (they are not imported). */
export function noteUnknownFields(plan: ForeignPlan, record: Record<string, unknown>, known: readonly string[], where: string): void {
  const unknown = Object.keys(record).filter((k) => !known.includes(k));
  if (unknown.length > 0) plan.notes.push({ where, reason: `fields not imported: ${unknown.slice(0, 10).join(', ')}${unknown.length > 10 ? ', …' : ''}` });
}

/** A string field of a source record, trimmed; undefined when absent, empty or not text. */
export function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
