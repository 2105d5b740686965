// One flagged fact in the review queue: its value, why it was flagged, the upstream change, and
// its actions; a row of keyboard triage.
import type { MouseEvent } from 'react';
import { Button } from '../ui/Button';
import { EarlierCauses } from '../ui/EarlierCauses';
import { FactBadges } from '../ui/FactBadges';
import { FactRef } from '../ui/FactRef';
import { formatTime } from '../ui/format';
import { TurnCauseText } from '../ui/TurnCause';
import type { ReviewEntry } from './review-pages';
import { factRowKey, ROW_ATTR, useTriageRow } from './triage';

export function ReviewCard({
  item,
  checked,
  onCheck,
  onOpen,
  onDismiss,
  onDelete,
  active,
}: {
  item: ReviewEntry;
  checked: boolean;
  /** `range`: Shift was held (select from the last checked row to this one). */
  onCheck: (on: boolean, range: boolean) => void;
  onOpen: () => void;
  onDismiss: () => void;
  onDelete: () => void;
  active: string | null;
}) {
  const f = item.fact;
  const key = factRowKey(f.id);
  useTriageRow(key, { factIds: () => [f.id], open: onOpen, dismiss: onDismiss, remove: onDelete });
  return (
    <li
      className={`review-card card ${active === key ? 'active' : ''} ${checked ? 'selected' : ''}`}
      data-fact-id={f.id}
      aria-label={`Review ${f.key}`}
      {...{ [ROW_ATTR]: key }}
      tabIndex={-1}
      data-shortcuts="grid"
    >
      <div className="row">
        <input
          type="checkbox"
          aria-label={`Select ${f.key}`}
          checked={checked}
          onChange={() => {}}
          onClick={(e: MouseEvent<HTMLInputElement>) => onCheck(e.currentTarget.checked, e.shiftKey)}
        />
        <button type="button" className="link-button review-key" onClick={onOpen}>
          {f.key}
        </button>
        <FactBadges fact={f} />
        <span className="grow" />
        <span className="faint mono">{formatTime(f.ts)}</span>
      </div>
      <div className="memory-text review-value">
        {f.valueClippedStart ? '…' : ''}
        {f.value}
        {f.valueClippedEnd ? '…' : ''}
      </div>
      <div className="review-cause-line">
        <span className="muted">Why: </span>
        <span className="memory-text">{item.cause.text ?? 'a fact it depends on changed'}</span>
      </div>
      <EarlierCauses causes={item.cause.earlier} />
      <div className="review-cause-line">
        <span className="muted">Upstream change: </span>
        {item.cause.cause ? (
          <span>
            <FactRef id={item.cause.cause.id} brief={item.cause.cause} />
            {item.cause.cause.supersessionRule ? <span className="faint"> ({item.cause.cause.supersessionRule})</span> : null}
          </span>
        ) : item.cause.causeFactId ? (
          <FactRef id={item.cause.causeFactId} brief={null} />
        ) : item.cause.turn ? (
          <TurnCauseText turn={item.cause.turn} />
        ) : (
          <span className="faint">not recorded</span>
        )}
        {item.cause.replacement ? (
          <span>
            {' '}
            → now <FactRef id={item.cause.replacement.id} brief={item.cause.replacement} />
          </span>
        ) : null}
      </div>
      <div className="row review-actions">
        <Button small onClick={onOpen}>
          Open
        </Button>
        <Button small onClick={onDismiss}>
          Dismiss flag
        </Button>
        <Button small variant="danger" onClick={onDelete}>
          Delete…
        </Button>
      </div>
    </li>
  );
}
