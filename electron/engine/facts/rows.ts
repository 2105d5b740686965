// The one mapping between a `facts` row and the domain Fact, so every reader agrees.
import type { Fact } from '../../../shared/domain';

export interface FactRow {
  rid: number;
  id: string;
  partition_id: number;
  org_id: string;
  label: string | null;
  key: string;
  value: string;
  source_type: string;
  source_identity: string | null;
  source_authority: string | null;
  source_turn: number | null;
  source_event: number | null;
  ts: string;
  created_at: string;
  last_accessed_at: string | null;
  access_count: number;
  importance: number;
  memory_type: Fact['memoryType'];
  level: Fact['level'];
  scope: Fact['scope'];
  scope_id: string | null;
  status: Fact['status'];
  is_valid: number;
  superseded_by: string | null;
  supersedes: string | null;
  supersession_rule: Fact['supersessionRule'];
  supersession_reason: string | null;
  valid_to: string | null;
  proposal_for: string | null;
  needs_review: number;
  review_cause: string | null;
  review_cause_fact: string | null;
  is_constraint: number;
  constraint_type: Fact['constraintType'];
  time_sensitive: number;
  /** The entity the writer named (as written), or null. */
  entity: string | null;
  /** The entity the fact is filed under for same-entity lookups (see facts/entity.ts). */
  entity_key: string | null;
}

export const FACT_COLUMNS = `f.rid, f.id, f.partition_id, f.org_id, f.label, f.key, f.value, f.source_type,
  f.source_identity, f.source_authority, f.source_turn, f.source_event, f.ts, f.created_at,
  f.last_accessed_at, f.access_count, f.importance, f.memory_type, f.level, f.scope, f.scope_id,
  f.status, f.is_valid, f.superseded_by, f.supersedes, f.supersession_rule, f.supersession_reason,
  f.valid_to, f.proposal_for, f.needs_review, f.review_cause, f.review_cause_fact, f.is_constraint,
  f.constraint_type, f.time_sensitive, f.entity, f.entity_key`;

export function rowToFact(row: FactRow, dependsOn: string[] = [], derivedFacts: string[] = []): Fact {
  return {
    id: row.id,
    label: row.label,
    key: row.key,
    value: row.value,
    source: {
      type: row.source_type,
      identity: row.source_identity,
      authority: row.source_authority,
      turnIndex: row.source_turn,
      eventIndex: row.source_event,
    },
    ts: row.ts,
    createdAt: row.created_at,
    lastAccessedAt: row.last_accessed_at,
    accessCount: row.access_count,
    importance: row.importance,
    memoryType: row.memory_type,
    level: row.level,
    scope: row.scope,
    scopeId: row.scope_id,
    status: row.status,
    isValid: row.is_valid === 1,
    supersededBy: row.superseded_by,
    supersedes: row.supersedes,
    supersessionRule: row.supersession_rule,
    supersessionReason: row.supersession_reason,
    validTo: row.valid_to,
    proposalFor: row.proposal_for,
    needsReview: row.needs_review === 1,
    reviewCause: row.review_cause,
    reviewCauseFact: row.review_cause_fact,
    isConstraint: row.is_constraint === 1,
    constraintType: row.constraint_type,
    timeSensitive: row.time_sensitive === 1,
    dependsOn,
    derivedFacts,
  };
}
