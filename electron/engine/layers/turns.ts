// Conversation turns: each is appended to its session's working set and then checked against
// the valid facts it may contradict (implicit supersession). A confident contradiction writes
// the replacement fact from the turn; a doubtful one flags the fact needs_review with the turn
// as the cause. Every path that records turns (library, MCP, ingest) goes through recordTurn.
import { z } from 'zod';
import { StatelensError } from '../../../shared/errors';
import { MAX_VALUE_CHARS } from '../../../shared/writes';
import { recordAudit } from '../audit/audit';
import { queryWords, ftsTerm } from '../assembly/terms';
import type { PartitionContext } from '../context';
import { dialectOf, type Dialect } from '../db/dialect';
import { stmt } from '../db/statements';
import { flagFact } from '../facts/dependencies';
import { authorityRank, ROLE_RANKS } from '../facts/authority';
import { sessionIdentity } from './identity';
import {
  backReference,
  describeKinds,
  detectTurnConflicts,
  detectUnnamedChange,
  mayChangeFacts,
  type TurnConflict,
  type ValueChange,
} from '../facts/turn-conflicts';
import { writeFact } from '../facts/write';
import { addWorkingItem } from './working-set';

export const TurnInput = z.strictObject({
  speaker: z.string().min(1).max(200),
  text: z.string().max(MAX_VALUE_CHARS),
  ts: z.string().min(1).max(64).optional(),
  turnIndex: z.number().int().nonnegative().optional(),
});
export type TurnInput = z.input<typeof TurnInput>;

/** What a turn did to one fact it contradicts. */
export interface TurnConflictOutcome {
  readonly factId: string;
  readonly outcome: 'superseded' | 'needs_review';
  /** The fact written from the turn (superseded only). */
  readonly newFactId: string | null;
  readonly cue: string;
  readonly entity: string;
  readonly changes: readonly ValueChange[];
  /** Why it was only flagged (needs_review only). */
  readonly doubt: string | null;
  /** The explanation recorded on the fact. */
  readonly reason: string;
}

export interface RecordedTurn {
  readonly id: string;
  readonly turnIndex: number;
  readonly conflicts: readonly TurnConflictOutcome[];
}

/** Facts read per turn word: bounds the check at any partition size (newest first). */
const CANDIDATES_PER_WORD = 50;

interface CandidateRow {
  id: string;
  key: string;
  value: string;
  ts: string;
  scope: string;
  scope_id: string | null;
  source_type: string;
  source_authority: string | null;
  is_constraint: number;
  memory_type: string;
  level: string | null;
  importance: number;
  time_sensitive: number;
  constraint_type: string | null;
}

/** The newest valid facts matching one word (as many as a word may bring). */
function candidatesSql(dialect: Dialect): string {
  const fts = dialect.ftsFacts('?');
  return `SELECT f.id, f.key, f.value, f.ts, f.scope, f.scope_id, f.source_type, f.source_authority, f.is_constraint,
    f.memory_type, f.level, f.importance, f.time_sensitive, f.constraint_type
  FROM ${fts.from}
  WHERE ${fts.match} AND +f.partition_id = ? AND +f.is_valid = 1
  ORDER BY ${fts.rid} DESC LIMIT ${CANDIDATES_PER_WORD}`;
}

/** Valid facts sharing a word with the turn that it could speak about: established by the turn's
 * time, global or of this session (never hypothetical, draft or another session's). */
function candidates(ctx: PartitionContext, sessionId: string, text: string, at: string): CandidateRow[] {
  const byId = new Map<string, CandidateRow>();
  const dialect = dialectOf(ctx.db);
  const sql = candidatesSql(dialect);
  for (const w of queryWords(text).slice(0, 40)) {
    for (const r of stmt<[string, number], CandidateRow>(ctx.db, sql).all(dialect.ftsQuery(ftsTerm(w.stem, w.word)), ctx.partitionId)) byId.set(r.id, r);
  }
  return [...byId.values()].filter((f) => f.ts <= at && (f.scope === 'global' || f.scope === 'task' || (f.scope === 'session' && f.scope_id === sessionId)));
}

/** Current facts an unnamed change is matched against (newest first): bounds the check at any
 * partition size; a partition holding more in scope is judged on its newest. */
const UNNAMED_CHANGE_POOL = 1000;

/** The current facts in scope of a turn at its time, whatever words they share with it: the pool
 * in which a change stated without the entity's name looks for the one fact holding its kind. */
function factsInScope(ctx: PartitionContext, sessionId: string, at: string): CandidateRow[] {
  return stmt<[number, string, string], CandidateRow>(
    ctx.db,
    `SELECT f.id, f.key, f.value, f.ts, f.scope, f.scope_id, f.source_type, f.source_authority, f.is_constraint,
      f.memory_type, f.level, f.importance, f.time_sensitive, f.constraint_type
    FROM facts f
    WHERE f.partition_id = ? AND f.ts <= ? AND f.is_valid = 1
      AND (f.scope IN ('global', 'task') OR (f.scope = 'session' AND f.scope_id = ?))
    ORDER BY f.ts DESC, f.rid DESC LIMIT ${UNNAMED_CHANGE_POOL}`,
  ).all(ctx.partitionId, at, sessionId);
}

/** A fact the speaker of a turn may not override: a constraint, or a source ranked above the
 * speaker. The user speaks with the authority of the session's identity (so their own words, which a
 * write records with that authority, stay theirs to change); any other speaker as a peer. */
function outranksSpeaker(f: CandidateRow, speakerRank: number): boolean {
  return f.is_constraint === 1 || authorityRank(f.source_authority, f.source_type) > speakerRank;
}

function speakerRankOf(ctx: PartitionContext, sessionId: string, speaker: string): number {
  const identity = speaker.trim().toLowerCase() === 'user' ? sessionIdentity(ctx, sessionId) : undefined;
  return Math.max(ROLE_RANKS.peer, identity ? authorityRank(identity.authority, 'user') : ROLE_RANKS.peer);
}

function turnRef(sessionId: string, turnIndex: number, speaker: string): string {
  return `turn ${turnIndex} of session "${sessionId}" (${speaker})`;
}

/** The recorded explanation: which turn, which cue, which entity, what kind of value changed. */
function explain(c: TurnConflict, ref: string): string {
  if (c.byValueKind) {
    const kinds = describeKinds(c.changes);
    const held =
      c.byValueKind.holders === 1
        ? `"${c.entity}" is the only current fact in scope holding a ${kinds}`
        : `"${c.entity}" is one of ${c.byValueKind.holders} current facts in scope holding a ${kinds}`;
    return `${ref} states a different ${kinds} with the change cue "${c.cue}" without naming what it changes; ${held}`;
  }
  const what = c.changes.length > 0 ? `states a different ${describeKinds(c.changes)}` : 'denies it';
  return `${ref} names "${c.entity}" with the change cue "${c.cue}" and ${what}`;
}

/** Turns looked back over to find what "that" in a correction refers to. */
const BACK_REFERENCE_TURNS = 3;

/**
 * A correction that refers back ("change that to Thursday") replaces the fact whose value the
 * most recent earlier turns of the session stated: the nearest such turn decides, and it must
 * quote exactly one fact the speaker may change; then the fact takes the value the correction
 * states. Nothing when no earlier turn quotes a fact, or the value is already the fact's.
 */
function backReferenceConflict(
  ctx: PartitionContext,
  sessionId: string,
  turnIndex: number,
  text: string,
  at: string,
  speakerRank: number,
): { fact: CandidateRow; conflict: TurnConflict } | null {
  const back = backReference(text);
  if (!back) return null;
  const earlier = stmt<[number, string, number], string>(
    ctx.db,
    `SELECT value FROM working_items WHERE partition_id = ? AND session_id = ? AND item_type = 'turn' AND turn_index < ? ORDER BY turn_index DESC LIMIT ${BACK_REFERENCE_TURNS}`,
  )
    .pluck()
    .all(ctx.partitionId, sessionId, turnIndex);
  for (const said of earlier) {
    const lower = said.toLowerCase();
    const named = back.names ? new Set(queryWords(back.names).map((w) => w.stem)) : null;
    // A value alone may be no searchable word ("500"): the attribute the correction names finds its fact.
    const pool =
      named && back.names ? [...candidates(ctx, sessionId, said, at), ...candidates(ctx, sessionId, back.names, at)] : candidates(ctx, sessionId, said, at);
    const quoted = [...new Map(pool.map((f) => [f.id, f])).values()].filter(
      (f) =>
        !outranksSpeaker(f, speakerRank) &&
        f.value.trim().length > 0 &&
        lower.includes(f.value.trim().toLowerCase()) &&
        (!named || queryWords(f.key.replace(/_/g, ' ')).some((w) => named.has(w.stem))),
    );
    if (quoted.length === 0) continue;
    const [fact] = quoted;
    if (quoted.length > 1 || !fact) return null;
    if (fact.value.trim().toLowerCase() === back.value.toLowerCase()) return null;
    const change: ValueChange = { kind: 'name', from: fact.value, to: back.value };
    return {
      fact,
      conflict: { factId: fact.id, cue: back.cue, entity: fact.key, changes: [change], confident: true, doubt: null, replacement: back.value },
    };
  }
  return null;
}

export function nextTurnIndex(ctx: PartitionContext, sessionId: string): number {
  const max = stmt<[number, string], number | null>(
    ctx.db,
    "SELECT max(turn_index) FROM working_items WHERE partition_id = ? AND session_id = ? AND item_type = 'turn'",
  )
    .pluck()
    .get(ctx.partitionId, sessionId);
  return max === null || max === undefined ? 0 : max + 1;
}

/** Appends one turn and applies what it contradicts. Runs inside the caller's transaction. */
export function recordTurn(ctx: PartitionContext, sessionId: string, raw: TurnInput, options: { actor?: string } = {}): RecordedTurn {
  const parsed = TurnInput.safeParse(raw);
  if (!parsed.success)
    throw new StatelensError('INVALID_INPUT', `Invalid turn: ${parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ')}`);
  const turn = parsed.data;
  const turnIndex = turn.turnIndex ?? nextTurnIndex(ctx, sessionId);
  const at = turn.ts ?? ctx.clock.now();
  const id = addWorkingItem(ctx, { sessionId, key: `turn:${turnIndex}`, value: turn.text, itemType: 'turn', speaker: turn.speaker, turnIndex, createdAt: at });

  const facts = mayChangeFacts(turn.text) ? candidates(ctx, sessionId, turn.text, at) : [];
  const byId = new Map(facts.map((f) => [f.id, f]));
  const ref = turnRef(sessionId, turnIndex, turn.speaker);
  const conflicts: TurnConflictOutcome[] = [];
  const speakerRank = speakerRankOf(ctx, sessionId, turn.speaker);
  const detected = detectTurnConflicts(
    turn.text,
    facts.filter((f) => !outranksSpeaker(f, speakerRank)),
  );
  if (detected.length === 0) {
    const back = backReferenceConflict(ctx, sessionId, turnIndex, turn.text, at, speakerRank);
    if (back) {
      byId.set(back.fact.id, back.fact);
      detected.push(back.conflict);
    }
  }
  // Nothing named (not even a fact the speaker may not change): the one current fact holding the
  // kind of value the turn states (facts the speaker may not change count as holders, so the
  // turn stays ambiguous, but are left alone).
  if (detected.length === 0 && mayChangeFacts(turn.text) && detectTurnConflicts(turn.text, facts).length === 0) {
    const pool = factsInScope(ctx, sessionId, at);
    for (const c of detectUnnamedChange(turn.text, pool)) {
      const fact = pool.find((f) => f.id === c.factId);
      if (!fact || outranksSpeaker(fact, speakerRank)) continue;
      byId.set(fact.id, fact);
      detected.push(c);
    }
  }
  for (const c of detected) {
    const fact = byId.get(c.factId);
    if (!fact) continue;
    const reason = explain(c, ref);
    const details = { sessionId, turnIndex, workingItemId: id, cue: c.cue, kinds: c.changes.map((x) => x.kind) };
    if (c.confident && c.replacement !== null) {
      const written = writeFact(
        ctx,
        {
          key: fact.key,
          value: c.replacement,
          source: { type: 'conversation', identity: turn.speaker, turnIndex },
          ts: at,
          scope: fact.scope as 'global',
          scopeId: fact.scope_id,
          memoryType: fact.memory_type as 'user',
          ...(fact.level ? { level: fact.level as 'event' } : {}),
          importance: fact.importance,
          isConstraint: fact.is_constraint === 1,
          timeSensitive: fact.time_sensitive === 1,
          supersedes: fact.id,
          rule: 'implicit',
          reason,
        },
        { actor: options.actor ?? 'engine', auditReason: `${ref}: change cue "${c.cue}"`, sessionId },
      );
      conflicts.push({
        factId: fact.id,
        outcome: 'superseded',
        newFactId: written.factId,
        cue: c.cue,
        entity: c.entity,
        changes: c.changes,
        doubt: null,
        reason,
      });
    } else {
      const said = c.changes.length > 0 ? `: ${c.changes.map((x) => `${x.to} instead of ${x.from}`).join('; ')}` : '';
      const cause = `contradicted by ${reason}${said}; not applied because ${c.doubt ?? 'it was not confident'}`;
      flagFact(ctx, fact.id, cause, null);
      recordAudit(ctx, {
        actor: options.actor ?? 'engine',
        action: 'flag_review',
        targetIds: [fact.id, id],
        reason: `${ref}: change cue "${c.cue}", not applied (${c.doubt ?? 'not confident'})`,
        details,
      });
      conflicts.push({
        factId: fact.id,
        outcome: 'needs_review',
        newFactId: null,
        cue: c.cue,
        entity: c.entity,
        changes: c.changes,
        doubt: c.doubt,
        reason: cause,
      });
    }
  }
  return { id, turnIndex, conflicts };
}
