// Everything known about one fact: value, source and authority, scope, constraint, importance,
// access statistics, supersession, dependencies both ways, why it needs review, audit entries.
import type { ChannelOutput } from '../../shared/contract';
import type { AuditEntry, Fact } from '../../shared/domain';
import { readableReason } from '../chain/readable';
import { Button } from '../ui/Button';
import { EarlierCauses } from '../ui/EarlierCauses';
import { FactRef } from '../ui/FactRef';
import { FactBadges, MemoryTypeLabel } from '../ui/FactBadges';
import { formatTime } from '../ui/format';
import { Highlight } from '../ui/Highlight';
import { KeyText } from '../ui/KeyText';
import { TurnCauseText } from '../ui/TurnCause';

export type FactDetailData = ChannelOutput<'facts.get'>;
type Brief = FactDetailData['dependsOn'][number];
type Cause = NonNullable<FactDetailData['reviewCause']>;

export interface FactDetailActions {
  onOpen(id: string): void;
  onCopyId(id: string): void;
  onDelete(id: string): void;
  onDismiss(id: string): void;
}

/** A chain neighbour as a readable reference; the chain already holds its key, value and status. */
function ChainRef({ id, chain, onOpen }: { id: string | null; chain: FactDetailData['chain']; onOpen: (id: string) => void }) {
  if (!id) return <span className="faint">—</span>;
  const known = [...chain.versions, ...chain.proposals].find((v) => v.id === id);
  return <FactRef id={id} {...(known ? { brief: known } : {})} onOpen={onOpen} />;
}

function BriefList({ items, empty, travelling, onOpen }: { items: readonly Brief[]; empty: string; travelling: boolean; onOpen: (id: string) => void }) {
  if (items.length === 0) return <p className="faint">{empty}</p>;
  return (
    <ul className="list-plain brief-list">
      {items.map((b) => (
        <li key={b.id} className="brief">
          <button type="button" className="link-button brief-key" onClick={() => onOpen(b.id)} aria-label={`Open ${b.key}`}>
            <KeyText text={b.key} />
          </button>
          <span className="brief-value memory-text">{b.value.length > 160 ? `${b.value.slice(0, 160)}…` : b.value}</span>
          <FactBadges
            fact={{ status: b.status, isValid: b.isValid, needsReview: b.needsReview, isConstraint: false, constraintType: null }}
            then={travelling ? (b.isValid ? 'valid' : 'ended') : undefined}
          />
          {b.supersessionRule ? <span className="faint">superseded ({b.supersessionRule})</span> : null}
        </li>
      ))}
    </ul>
  );
}

export function AuditList({ entries }: { entries: readonly AuditEntry[] }) {
  if (entries.length === 0) return <p className="faint">No audit entries for this fact.</p>;
  return (
    <ul className="list-plain audit-mini">
      {entries.map((e) => (
        <li key={e.id}>
          <span className="mono faint">{formatTime(e.at)}</span> <strong>{e.action}</strong> by {e.actor}
          {e.reason ? <span className="muted"> — {e.reason}</span> : null}
        </li>
      ))}
    </ul>
  );
}

/** Whether deleting the fact also removes it where it came from (a file a watcher keeps in step). */
export function SourceDeletionText({ reach }: { reach: FactDetailData['sourceDeletion'] }) {
  if (!reach) return <>deleted in Statelens only</>;
  return (
    <>
      deletable at source (file <span className="mono">{reach.file}</span>, kept in step by {reach.system} --watch)
    </>
  );
}

function sourceText(f: Fact): string {
  const s = f.source;
  const parts = [s.type];
  if (s.identity) parts.push(`(${s.identity})`);
  return parts.join(' ');
}

/** A deleted upstream fact as the audit log knows it: who deleted it, when, the entry and its
 * reason. Its key and text went with it (a deletion leaves no copy of them, the audit included). */
function DeletedCause({ deleted }: { deleted: NonNullable<Cause['deleted']> }) {
  return (
    <p className="deleted-cause">
      Upstream fact <span className="mono">{deleted.factId}</span> was deleted by <strong>{deleted.deletedBy}</strong> at{' '}
      <span className="mono">{formatTime(deleted.deletedAt)}</span> (audit entry #{deleted.auditId}
      {deleted.reason ? <>: {deleted.reason}</> : null}). Its key and text were erased with it, so neither can be shown.
    </p>
  );
}

/** Why a fact is flagged: the recorded cause, the upstream fact that changed and what replaced it. */
export function ReviewCauseView({
  fact,
  cause,
  onOpen,
}: {
  fact: Pick<Fact, 'reviewCause' | 'reviewCauseFact'>;
  cause: Cause | null;
  onOpen: (id: string) => void;
}) {
  const causeId = cause?.causeFactId ?? fact.reviewCauseFact;
  return (
    <section aria-label="Why this fact needs review" className="card review-cause">
      <h4>Needs review</h4>
      <p className="memory-text">{cause?.text ?? fact.reviewCause ?? 'A fact it depends on changed.'}</p>
      <EarlierCauses causes={cause?.earlier ?? []} />
      {cause?.cause ? (
        <p>
          Upstream change: <FactRef id={cause.cause.id} brief={cause.cause} onOpen={onOpen} />
          {cause.cause.supersessionRule ? <span className="muted"> ({cause.cause.supersessionRule})</span> : null}
        </p>
      ) : cause?.turn ? (
        <p>
          Contradicted by <TurnCauseText turn={cause.turn} />
        </p>
      ) : cause?.deleted ? (
        <DeletedCause deleted={cause.deleted} />
      ) : causeId ? (
        <p>
          Upstream fact: <FactRef id={causeId} brief={null} onOpen={onOpen} /> (it was deleted).
        </p>
      ) : null}
      {cause?.replacement ? (
        <p>
          Replaced by <FactRef id={cause.replacement.id} brief={cause.replacement} onOpen={onOpen} />
        </p>
      ) : null}
    </section>
  );
}

const AS_OF_WORDS: Record<NonNullable<FactDetailData['asOf']>['state'], string> = {
  valid: 'valid then',
  'not-yet': 'not recorded yet',
  ended: 'no longer valid then',
  never: 'never valid',
};

/** How the fact stood at the time-travel instant, and which version of it was valid then. */
function AsOfCard({ data, onOpen }: { data: FactDetailData; onOpen: (id: string) => void }) {
  const past = data.asOf;
  if (!past) return null;
  const f = data.fact;
  const why =
    past.state === 'not-yet'
      ? `It was recorded later, at ${formatTime(f.ts)}.`
      : past.state === 'ended'
        ? `Its validity ended at ${formatTime(f.validTo)}${f.supersessionRule ? ` (${f.supersessionRule} supersession)` : ''}.`
        : past.state === 'never'
          ? f.status === 'proposal'
            ? 'A proposal is kept beside the fact it failed to replace; it is never the valid version.'
            : 'A newer write outranked it from the start.'
          : f.validTo
            ? `It stayed valid until ${formatTime(f.validTo)}.`
            : 'It is still valid now.';
  return (
    <section aria-label="As of the time-travel instant" className={`card fact-asof fact-asof-${past.state}`} data-testid="fact-asof" data-state={past.state}>
      <p>
        As of <strong>{formatTime(past.at)}</strong>: <strong className="fact-asof-state">{AS_OF_WORDS[past.state]}</strong>. {why}
      </p>
      {past.validVersion ? (
        <p>
          Valid then: <FactRef id={past.validVersion.id} brief={past.validVersion} onOpen={onOpen} />
        </p>
      ) : null}
      {past.laterEdges > 0 ? (
        <p className="faint">
          {past.laterEdges === 1 ? 'One linked fact was' : `${past.laterEdges} linked facts were`} recorded after this instant and{' '}
          {past.laterEdges === 1 ? 'is' : 'are'} left out below; the links below show their status as it was then.
        </p>
      ) : (
        <p className="faint">The links below show their status as it was then.</p>
      )}
    </section>
  );
}

export function FactDetail({ data, actions, terms = [] }: { data: FactDetailData; actions: FactDetailActions; terms?: readonly string[] }) {
  const f = data.fact;
  return (
    <article className="fact-detail" aria-label={`Fact ${f.key}`}>
      <header className="col">
        <div className="row wrap">
          <h2 className="grow memory-text fact-key">{f.key}</h2>
          <FactBadges fact={f} then={data.asOf?.state} />
        </div>
        <div className="row wrap">
          <code className="faint">{f.id}</code>
          <Button small onClick={() => actions.onCopyId(f.id)} aria-label="Copy fact id">
            Copy id
          </Button>
          <span className="grow" />
          {f.needsReview ? (
            <Button small onClick={() => actions.onDismiss(f.id)}>
              Dismiss review flag
            </Button>
          ) : null}
          <Button small variant="danger" onClick={() => actions.onDelete(f.id)}>
            {f.status === 'proposal' ? 'Reject proposal…' : 'Delete…'}
          </Button>
        </div>
      </header>

      <section aria-label="Value" className="fact-value card">
        <Highlight className="memory-text" text={f.value} terms={terms} />
      </section>

      <AsOfCard data={data} onOpen={actions.onOpen} />

      {f.needsReview ? <ReviewCauseView fact={f} cause={data.reviewCause} onOpen={actions.onOpen} /> : null}

      <section aria-label="Fields">
        <dl className="kv">
          <dt>Label</dt>
          <dd>{f.label ?? <span className="faint">—</span>}</dd>
          <dt>Memory type</dt>
          <dd>
            <MemoryTypeLabel type={f.memoryType} />
            {f.level ? <span className="muted"> · level {f.level}</span> : null}
          </dd>
          <dt>Source</dt>
          <dd>{sourceText(f)}</dd>
          <dt>Deleting</dt>
          <dd data-testid="source-deletion">
            <SourceDeletionText reach={data.sourceDeletion} />
          </dd>
          <dt>Authority</dt>
          <dd>{f.source.authority ?? <span className="faint">—</span>}</dd>
          <dt>Turn / event</dt>
          <dd>
            {f.source.turnIndex ?? '—'} / {f.source.eventIndex ?? '—'}
          </dd>
          <dt>Scope</dt>
          <dd>
            {f.scope}
            {f.scopeId ? <span className="muted"> ({f.scopeId})</span> : null}
          </dd>
          <dt>Constraint</dt>
          <dd>{f.isConstraint ? (f.constraintType ?? 'yes') : 'no'}</dd>
          <dt>Importance</dt>
          <dd>{f.importance.toFixed(2)}</dd>
          <dt>Time-sensitive</dt>
          <dd>{f.timeSensitive ? 'yes' : 'no'}</dd>
          <dt>Time</dt>
          <dd>{formatTime(f.ts)}</dd>
          <dt>Valid until</dt>
          <dd>{f.validTo ? formatTime(f.validTo) : f.isValid ? 'still valid' : '—'}</dd>
          <dt>Recorded</dt>
          <dd>{formatTime(f.createdAt)}</dd>
          <dt>Accesses</dt>
          <dd>
            {f.accessCount.toLocaleString('en-US')} · last {formatTime(f.lastAccessedAt)}
          </dd>
          <dt>Supersedes</dt>
          <dd>
            <ChainRef id={f.supersedes} chain={data.chain} onOpen={actions.onOpen} />
          </dd>
          <dt>Superseded by</dt>
          <dd>
            {data.asOf?.state === 'valid' && f.supersededBy ? <span className="muted">not yet then; later by </span> : null}
            <ChainRef id={f.supersededBy} chain={data.chain} onOpen={actions.onOpen} />
          </dd>
          {f.supersessionRule ? (
            <>
              <dt>Rule</dt>
              <dd>
                {data.asOf?.state === 'valid' ? <span className="muted">later: </span> : null}
                <span className="badge">{f.supersessionRule}</span>{' '}
                {f.supersessionReason ? <span className="memory-text">{readableReason(f.supersessionReason)}</span> : null}
              </dd>
            </>
          ) : null}
          {f.proposalFor ? (
            <>
              <dt>Proposal for</dt>
              <dd>
                <ChainRef id={f.proposalFor} chain={data.chain} onOpen={actions.onOpen} />
              </dd>
            </>
          ) : null}
          <dt>Chain</dt>
          <dd>
            {data.chain.versions.length} version{data.chain.versions.length === 1 ? '' : 's'}
            {data.chain.proposals.length > 0 ? `, ${data.chain.proposals.length} proposal${data.chain.proposals.length === 1 ? '' : 's'}` : ''}
          </dd>
        </dl>
      </section>

      <section aria-label="Depends on" className="col">
        <h4>Depends on ({data.dependsOn.length})</h4>
        <BriefList items={data.dependsOn} empty="Rests on no other fact." travelling={data.asOf !== null} onOpen={actions.onOpen} />
      </section>
      <section aria-label="Derived facts" className="col">
        <h4>Derived facts that rest on it ({data.derivedFacts.length})</h4>
        <BriefList items={data.derivedFacts} empty="Nothing rests on this fact." travelling={data.asOf !== null} onOpen={actions.onOpen} />
        {data.edgesTruncated ? <p className="faint">More edges exist than listed here; the graph tab shows the neighbourhood.</p> : null}
      </section>
      <section aria-label="Audit entries" className="col">
        <h4>Audit</h4>
        <AuditList entries={data.audit} />
      </section>
    </article>
  );
}
