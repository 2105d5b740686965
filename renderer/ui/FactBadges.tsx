// The small visual vocabulary of a fact: validity, review flag, memory type, constraint.
import type { Fact, MemoryType } from '../../shared/domain';
import type { AsOfState } from '../../shared/inspect';
import { statusWord } from './format';

const THEN_WORDS: Record<AsOfState, string> = { valid: 'valid then', 'not-yet': 'not yet written', ended: 'superseded then', never: 'never valid' };

/** A fact's status; with `then` (time travel), as it stood at the as-of instant. */
export function StatusBadge({ status, isValid, then }: { status: string; isValid: boolean; then?: AsOfState | undefined }) {
  if (then !== undefined) {
    if (status === 'proposal') return <span className="badge badge-proposal">proposal</span>;
    return (
      <span className={`badge ${then === 'valid' ? 'badge-valid' : 'badge-superseded'}`} data-as-of="then">
        {THEN_WORDS[then]}
      </span>
    );
  }
  if (isValid) return <span className="badge badge-valid">valid</span>;
  if (status === 'proposal') return <span className="badge badge-proposal">proposal</span>;
  return <span className="badge badge-superseded">{statusWord(status, isValid)}</span>;
}

export function ReviewBadge() {
  return (
    <span className="badge badge-review" title="Needs review">
      needs review
    </span>
  );
}

export function MemoryTypeDot({ type }: { type: MemoryType | string }) {
  return <span className={`dot dot-${type}`} aria-hidden="true" />;
}

export function MemoryTypeLabel({ type }: { type: MemoryType | string }) {
  return (
    <span className="row nowrap">
      <MemoryTypeDot type={type} />
      <span className="truncate" title={type}>
        {type}
      </span>
    </span>
  );
}

export function FactBadges({
  fact,
  then,
}: {
  fact: Pick<Fact, 'status' | 'isValid' | 'needsReview' | 'isConstraint' | 'constraintType'>;
  /** Time travel: the status as it stood at the as-of instant. */
  then?: AsOfState | undefined;
}) {
  return (
    <span className="row wrap">
      <StatusBadge status={fact.status} isValid={fact.isValid} then={then} />
      {fact.needsReview ? <ReviewBadge /> : null}
      {fact.isConstraint ? <span className="badge badge-accent">constraint{fact.constraintType ? `: ${fact.constraintType}` : ''}</span> : null}
    </span>
  );
}
