// The small visual vocabulary of a fact: validity, review flag, memory type, constraint.
import type { Fact, MemoryType } from '../../shared/domain';
import { statusWord } from './format';

export function StatusBadge({ status, isValid }: { status: string; isValid: boolean }) {
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

export function FactBadges({ fact }: { fact: Pick<Fact, 'status' | 'isValid' | 'needsReview' | 'isConstraint' | 'constraintType'> }) {
  return (
    <span className="row wrap">
      <StatusBadge status={fact.status} isValid={fact.isValid} />
      {fact.needsReview ? <ReviewBadge /> : null}
      {fact.isConstraint ? <span className="badge badge-accent">constraint{fact.constraintType ? `: ${fact.constraintType}` : ''}</span> : null}
    </span>
  );
}
