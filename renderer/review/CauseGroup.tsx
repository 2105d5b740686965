// One cause group of the review queue: "72 facts rest on budget, deleted by root 2 min ago",
// with the group's actions (open the cause, show its facts, select, dismiss or delete them all).
import type { ReviewGroup } from '../../shared/inspect';
import { Button } from '../ui/Button';
import { FactRef } from '../ui/FactRef';
import { formatNumber, plural, statusWord } from '../ui/format';
import { ErrorState, Loading } from '../ui/states';
import { ReviewCard } from './ReviewCard';
import { useReviewPages } from './review-pages';
import { timeAgo } from './time-ago';
import { groupRowKey, ROW_ATTR, useTriageRow, type TriageActions } from './triage';

/** How the upstream fact changed, in words (after "N facts rest on …"). */
export function causeChange(group: ReviewGroup, now = Date.now()): string {
  if (group.deleted)
    return `deleted by ${group.deleted.deletedBy} ${timeAgo(group.deleted.deletedAt, now)}${group.deleted.reason ? ` (“${group.deleted.reason}”)` : ''}`;
  if (group.replacement) return 'superseded by';
  if (group.cause) return group.cause.isValid ? 'which changed' : `now ${statusWord(group.cause.status, group.cause.isValid)}`;
  if (group.causeFactId !== null) return 'which no longer exists';
  return '';
}

/** The group's one-line name for notices: the cause's key, or what is known of it. */
export function causeName(group: ReviewGroup): string {
  if (group.cause) return group.cause.key;
  if (group.causeFactId === null) return 'conversation turns';
  return 'a deleted fact';
}

export interface GroupHandlers {
  readonly onOpenCause: (group: ReviewGroup) => void;
  readonly onDismissAll: (group: ReviewGroup) => void;
  readonly onDeleteAll: (group: ReviewGroup) => void;
  readonly onSelectAll: (group: ReviewGroup) => void;
  readonly groupIds: (group: ReviewGroup) => Promise<readonly string[]>;
}

export function CauseGroup({
  partitionId,
  group,
  expanded,
  onExpand,
  handlers,
  active,
  factProps,
}: {
  partitionId: number;
  group: ReviewGroup;
  expanded: boolean;
  onExpand: (on: boolean) => void;
  handlers: GroupHandlers;
  active: string | null;
  factProps: (id: string, key: string) => Omit<Parameters<typeof ReviewCard>[0], 'item' | 'active'>;
}) {
  const key = groupRowKey(group.causeFactId);
  const actions: TriageActions = {
    factIds: () => handlers.groupIds(group),
    open: () => handlers.onOpenCause(group),
    dismiss: () => handlers.onDismissAll(group),
    remove: () => handlers.onDeleteAll(group),
    expand: onExpand,
  };
  useTriageRow(key, actions);
  const n = plural(group.count, 'fact');
  const canOpen = group.cause !== null || group.deleted !== null;
  const headingId = `review-group-${key}`;
  return (
    <li className="review-group card" aria-labelledby={headingId} data-cause={group.causeFactId ?? ''}>
      <div className={`review-group-head ${active === key ? 'active' : ''}`} {...{ [ROW_ATTR]: key }} tabIndex={-1} data-shortcuts="grid">
        <p className="review-group-title" id={headingId}>
          <strong data-testid="group-count">{n}</strong>{' '}
          {group.causeFactId === null ? (
            <>were flagged by a conversation turn, not by a changed fact</>
          ) : (
            <>
              {group.count === 1 ? 'rests' : 'rest'} on{' '}
              {group.cause ? (
                <FactRef id={group.cause.id} brief={group.cause} />
              ) : (
                <span className="review-erased" title="The audit log keeps who deleted it and when, never its key or text">
                  a deleted fact (key and text erased)
                </span>
              )}
              , <span data-testid="group-change">{causeChange(group)}</span>
              {group.replacement ? (
                <>
                  {' '}
                  <FactRef id={group.replacement.id} brief={group.replacement} />
                </>
              ) : null}
            </>
          )}
        </p>
        {group.text && group.causeFactId === null ? <p className="faint memory-text review-group-why">{group.text}</p> : null}
        <div className="row wrap review-group-actions">
          <Button small aria-expanded={expanded} onClick={() => onExpand(!expanded)}>
            {expanded ? `Hide the ${formatNumber(group.count)}` : `Show ${n}`}
          </Button>
          {canOpen ? (
            <Button small onClick={actions.open}>
              {group.cause ? 'Open the cause' : 'Open the deletion'}
            </Button>
          ) : null}
          <Button small onClick={() => handlers.onSelectAll(group)} title="Select every fact of the group (again: unselect them)">
            Select all
          </Button>
          <Button small variant="primary" onClick={actions.dismiss} data-testid="dismiss-group">
            Dismiss all {formatNumber(group.count)}
          </Button>
          <Button small variant="danger" onClick={actions.remove}>
            Delete {formatNumber(group.count)}…
          </Button>
        </div>
      </div>
      {expanded ? <GroupMembers partitionId={partitionId} causeFactId={group.causeFactId} active={active} factProps={factProps} /> : null}
    </li>
  );
}

function GroupMembers({
  partitionId,
  causeFactId,
  active,
  factProps,
}: {
  partitionId: number;
  causeFactId: string | null;
  active: string | null;
  factProps: (id: string, key: string) => Omit<Parameters<typeof ReviewCard>[0], 'item' | 'active'>;
}) {
  const pages = useReviewPages(partitionId, causeFactId);
  if (pages.error) return <ErrorState error={pages.error} onRetry={pages.refetch} context="Facts of this group" />;
  if (pages.loading) return <Loading label="Loading the group's facts" />;
  return (
    <ul className="list-plain review-group-members col">
      {pages.entries.map((item) => (
        <ReviewCard key={item.fact.id} item={item} active={active} {...factProps(item.fact.id, item.fact.key)} />
      ))}
      {pages.hasMore ? (
        <li>
          <Button small onClick={pages.loadMore} disabled={pages.loadingMore}>
            Load more
          </Button>
        </li>
      ) : null}
    </ul>
  );
}
