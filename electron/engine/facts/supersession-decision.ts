// The supersession decision for one write, as a pure function of the facts currently valid
// (the same key's, and those filed under a related entity) and the write: create, duplicate,
// subordinate proposal, stale, or supersede by one of the four rules, with the evidence.
// The write path (write.ts) reads the candidates and applies the decision.
import type { SupersessionRule } from '../../../shared/domain';
import { describeAuthority, recogniseAuthority, type RecognisedAuthority } from './authority';
import { changeCue, sameEntity, type EntityEvidence } from './entity';
import { correctionCue } from './inference';
import type { FactRow } from './rows';

/** What the decision reads of a fact currently valid. */
export type CurrentFact = Pick<FactRow, 'id' | 'key' | 'value' | 'ts' | 'source_type' | 'source_authority' | 'time_sensitive' | 'entity'>;

export interface DecisionInput {
  readonly key: string;
  readonly value: string;
  readonly ts: string;
  readonly sourceType: string;
  /** The authority text the write is ranked by (its source's, or the writing session's identity's). */
  readonly authorityText: string | null;
  readonly authority: RecognisedAuthority;
  readonly timeSensitive: boolean;
  readonly entity: string | null;
}

export type SupersessionDecision =
  | { readonly kind: 'create' }
  | { readonly kind: 'duplicate'; readonly fact: CurrentFact }
  | { readonly kind: 'proposal'; readonly fact: CurrentFact; readonly rule: 'authority'; readonly reason: string; readonly evidence: EntityEvidence | null }
  /** An older timestamp on a time-sensitive fact: the write path places it in the history. */
  | { readonly kind: 'stale'; readonly fact: CurrentFact; readonly rule: 'temporal'; readonly evidence: EntityEvidence | null }
  | {
      readonly kind: 'supersede';
      readonly fact: CurrentFact;
      readonly rule: SupersessionRule;
      readonly reason: string;
      readonly evidence: EntityEvidence | null;
    };

function entityNote(e: EntityEvidence | null): string {
  return e ? `; same entity "${e.entity}" (${e.kind}: ${e.detail})` : '';
}

/**
 * Decides what a write does to the facts valid now in its scope: `sameKey` is the current fact
 * of its key; `related` are other current facts filed under an entity the write may be about,
 * newest first. The same key decides when it has a fact; otherwise the first related fact with
 * clear same-entity evidence does (entries of one series by equal authorities only with a change
 * cue). Then: an equal value is a duplicate; a lower authority makes
 * a subordinate proposal; an older timestamp on a time-sensitive fact is stale; otherwise the
 * write supersedes, by authority (it outranks), explicit (a correction cue), temporal
 * (time-sensitive) or implicit (a conflicting value for the same key or entity).
 */
export function decideSupersession(input: DecisionInput, sameKey: CurrentFact | undefined, related: readonly CurrentFact[] = []): SupersessionDecision {
  let current = sameKey;
  let evidence: EntityEvidence | null = null;
  if (!current) {
    for (const candidate of related) {
      const e = sameEntity(candidate, input);
      if (e) {
        current = candidate;
        evidence = e;
        break;
      }
    }
  }
  if (!current) return { kind: 'create' };
  const fact = current;
  if (current.value === input.value) return { kind: 'duplicate', fact: current };

  const theirs = recogniseAuthority(current.source_authority, current.source_type);
  const ours = describeAuthority(input.authorityText, input.sourceType, input.authority);
  const them = describeAuthority(current.source_authority, current.source_type, theirs);
  const timeSensitive = input.timeSensitive || current.time_sensitive === 1;
  // Entries of one series by equal authorities stand side by side unless the later says it
  // changes the earlier: two equals disagreeing is a conflict to settle, not a replacement.
  if (evidence?.kind === 'key-series' && input.authority.rank === theirs.rank && !changeCue(input.value)) return { kind: 'create' };
  if (input.authority.rank < theirs.rank) {
    return {
      kind: 'proposal',
      fact: current,
      rule: 'authority',
      reason: `${ours} may not override ${them}; kept as a subordinate proposal${entityNote(evidence)}`,
      evidence,
    };
  }
  if (timeSensitive && input.ts < current.ts) return { kind: 'stale', fact: current, rule: 'temporal', evidence };
  const supersede = (rule: SupersessionRule, why: string): SupersessionDecision => ({
    kind: 'supersede',
    fact,
    rule,
    reason: `${why}${entityNote(evidence)}`,
    evidence,
  });
  if (input.authority.rank > theirs.rank) return supersede('authority', `${ours} outranks ${them}`);
  const cue = correctionCue(input.value);
  if (cue) return supersede('explicit', `correction cue "${cue}" in the new value`);
  if (timeSensitive) return supersede('temporal', `newer timestamp on a time-sensitive key (${input.ts} after ${current.ts})`);
  return supersede('implicit', evidence ? 'same entity with a conflicting value' : 'same key with a conflicting value');
}

/** What a write that names its target in `supersedes` may do to it. */
export interface NamedTargetWrite {
  readonly scope: string;
  readonly scopeId: string | null;
  readonly authorityText: string | null;
  readonly sourceType: string;
  readonly ranked: RecognisedAuthority;
  /** The reference as the source gave it (id, label or key). */
  readonly named: string;
}

/**
 * Naming a target does not bypass the rules a write without one meets: authority is checked
 * before the write (a lower source leaves a subordinate proposal, as the implicit path does),
 * and a scoped write (task, hypothetical, draft, session) never invalidates a fact outside its
 * own scope: it is stored beside it and shadows it there only. Null: the write supersedes.
 */
export function checkNamedTarget(
  target: Pick<CurrentFact, 'source_type' | 'source_authority'> & { readonly scope: string; readonly scope_id: string | null },
  write: NamedTargetWrite,
): { readonly kind: 'proposal' | 'shadow'; readonly reason: string } | null {
  const theirs = recogniseAuthority(target.source_authority, target.source_type);
  if (write.ranked.rank < theirs.rank) {
    const ours = describeAuthority(write.authorityText, write.sourceType, write.ranked);
    const them = describeAuthority(target.source_authority, target.source_type, theirs);
    return { kind: 'proposal', reason: `named ${write.named} as superseded, but ${ours} may not override ${them}; kept as a subordinate proposal` };
  }
  const sameScope = target.scope === write.scope && target.scope_id === write.scopeId;
  if (write.scope !== 'global' && !sameScope) {
    const where = write.scopeId ? `${write.scope} scope (${write.scopeId})` : `${write.scope} scope`;
    return {
      kind: 'shadow',
      reason: `named ${write.named} (${target.scope} scope) as superseded; a scoped write never invalidates a fact outside its scope, so it shadows it only in its ${where} and the ${target.scope} fact stays valid`,
    };
  }
  return null;
}
