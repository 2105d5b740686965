// Every delete (one fact, a selection, everything matching a filter) goes through this dialog:
// the engine's impact preview (what goes, which dependents get flagged, which chains are
// relinked), how the assembled context for a chosen query would change, then a confirmation,
// progress for large deletes, and a summary. Views refresh on the engine's data.changed.
import { useMemo, useState } from 'react';
import { flushSync } from 'react-dom';
import { DEFAULT_BUDGET } from '../../shared/assembly';
import { AssemblyStrategy, type ChannelInput, type ChannelOutput, type ContextChange } from '../../shared/contract';
import { IMPACT_VALUE_SNIPPET, type DeletionImpact, type ScrubReport, type SelectionEcho } from '../../shared/deletion';
import type { DeletionSelectionInput } from '../../shared/query';
import type { DeleteRequest } from '../app/state';
import { newOperationId, useMutation, useProgress, useQuery } from '../api/hooks';
import { Button } from '../ui/Button';
import { Dialog } from '../ui/Dialog';
import { Checkbox, SelectField, TextField } from '../ui/fields';
import { FactRef, useFactBriefs } from '../ui/FactRef';
import { formatNumber, formatTime, plural, statusWord } from '../ui/format';
import type { FactBrief } from '../../shared/inspect';
import { ProgressBar } from '../ui/meters';
import { ErrorState, Loading } from '../ui/states';
import { SourceDeletionText } from '../fact-detail/FactDetail';
import { toErrorShape, type ErrorShape } from '../../shared/errors';

const LIST_LIMIT = 30;
/** A delete this large, or of more than half its partition by filter, asks for its count typed. */
export const BROAD_DELETE_COUNT = 1000;

/** Whether a delete is broad enough that a tick is too easy a confirmation. */
export function isBroadDelete(count: number, partitionFacts: number | null, byFilter: boolean): boolean {
  if (count > BROAD_DELETE_COUNT) return true;
  return byFilter && partitionFacts !== null && count > 1 && count * 2 > partitionFacts;
}

/** The typed confirmation matches the count, with or without thousands separators. */
export function typedCountMatches(typed: string, count: number): boolean {
  return typed.replace(/[\s,.'\u00a0\u202f_]/g, '') === String(count);
}

export function selectionOf(request: DeleteRequest): DeletionSelectionInput {
  return request.kind === 'ids' ? { ids: [...request.ids] } : { filter: request.filter };
}

type BriefFor = (id: string) => FactBrief | null | undefined;

/** A fact as a readable reference, from the dialog's one read of briefs when it covers it. */
function Ref({ id, partitionId, briefFor }: { id: string; partitionId: number; briefFor: BriefFor }) {
  const brief = briefFor(id);
  return <FactRef id={id} partitionId={partitionId} {...(brief !== undefined ? { brief } : {})} />;
}

function RefList({ ids, label, partitionId, briefFor }: { ids: readonly string[]; label: string; partitionId: number; briefFor: BriefFor }) {
  if (ids.length === 0) return <p className="faint">None.</p>;
  return (
    <ul className="list-plain id-list" aria-label={label}>
      {ids.slice(0, LIST_LIMIT).map((id) => (
        <li key={id}>
          <Ref id={id} partitionId={partitionId} briefFor={briefFor} />
        </li>
      ))}
      {ids.length > LIST_LIMIT ? <li className="faint">…and {formatNumber(ids.length - LIST_LIMIT)} more</li> : null}
    </ul>
  );
}

const FIELD_TEXT: Record<string, string> = { supersededBy: 'superseded by', supersedes: 'supersedes', proposalFor: 'proposal for' };

/** The selection as the engine applied it, so the user confirms what will actually run. */
export function SelectionSummary({ echo }: { echo: SelectionEcho }) {
  return (
    <section aria-label="Selection" className="card" data-testid="impact-selection">
      <h4>Selected</h4>
      {echo.kind === 'all' ? (
        <p>Every fact of this partition.</p>
      ) : echo.kind === 'ids' ? (
        <p>{plural(echo.count, 'chosen fact')}.</p>
      ) : (
        <>
          <p>Every fact matching all of:</p>
          <ul className="list-plain" aria-label="Filter conditions">
            {echo.conditions.map((c) => (
              <li key={c} className="memory-text">
                {c}
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}

export function ImpactSummary({ preview }: { preview: DeletionImpact }) {
  const relinks = preview.relinked.slice(0, LIST_LIMIT);
  const { briefFor } = useFactBriefs(preview.partitionId, [
    ...preview.flagged.slice(0, LIST_LIMIT),
    ...relinks.flatMap((r) => [r.id, r.from, ...(r.to ? [r.to] : [])]),
  ]);
  const pid = preview.partitionId;
  return (
    <div className="impact col" data-testid="impact-preview">
      <SelectionSummary echo={preview.selection} />
      <section aria-label="Facts to delete" className="card">
        <h4>To delete</h4>
        <p>
          <strong data-testid="impact-delete-count">{plural(preview.toDelete, 'fact')}</strong>
          {preview.validToDelete > 0 ? ` (${formatNumber(preview.validToDelete)} valid now: their keys lose their current value)` : ''} will be removed, text
          included, from the database file and its search index. The audit log keeps who, when and why, never the text.
        </p>
        {preview.missingIds.length > 0 ? (
          <p className="state-error" role="alert">
            {plural(preview.missingIds.length, 'id')} no longer exist in this partition; refresh the selection.
          </p>
        ) : null}
        <ul className="list-plain impact-fact-list" aria-label="Facts to delete">
          {preview.facts.slice(0, LIST_LIMIT).map((f) => (
            <li key={f.id} title={f.id} className="impact-fact">
              <strong className="memory-text impact-fact-key">{f.key}</strong>{' '}
              <span className="memory-text impact-fact-value">{f.value.length >= IMPACT_VALUE_SNIPPET ? `${f.value}…` : f.value}</span>{' '}
              <span className="faint mono">{formatTime(f.ts)}</span> <span className="faint">{statusWord(f.status)}</span>
            </li>
          ))}
          {preview.toDelete > Math.min(preview.facts.length, LIST_LIMIT) ? (
            <li className="faint">…and {formatNumber(preview.toDelete - Math.min(preview.facts.length, LIST_LIMIT))} more</li>
          ) : null}
        </ul>
      </section>
      <section aria-label="Dependents to flag" className="card">
        <h4>Dependents flagged for review</h4>
        <p>
          <strong data-testid="impact-flag-count">{plural(preview.flaggedCount, 'fact')}</strong> that rest on them, directly or further down, will be marked
          needs review.
        </p>
        <RefList ids={preview.flagged} label="Facts to flag" partitionId={pid} briefFor={briefFor} />
      </section>
      <section aria-label="Chains relinked" className="card">
        <h4>Chains relinked</h4>
        {preview.relinkedCount === 0 ? (
          <p className="faint">No supersession chain passes through them.</p>
        ) : (
          <>
            <p>
              <span data-testid="impact-relink-count">{plural(preview.relinkedCount, 'chain pointer')}</span> change:{' '}
              {formatNumber(preview.relinkedCount - preview.clearedCount)} relinked to the nearest surviving version, {formatNumber(preview.clearedCount)}{' '}
              cleared
              {preview.orphanedCount > 0 ? `; ${plural(preview.orphanedCount, 'superseded fact')} left without a successor` : ''}
              {preview.proposalsAffected > 0 ? `; ${plural(preview.proposalsAffected, 'proposal')} re-pointed` : ''}.
            </p>
            <ul className="list-plain">
              {relinks.map((r, i) => (
                <li key={`${r.id}-${r.field}-${i}`} className="relink">
                  <Ref id={r.id} partitionId={pid} briefFor={briefFor} /> <span className="muted">{FIELD_TEXT[r.field] ?? r.field}:</span>{' '}
                  <Ref id={r.from} partitionId={pid} briefFor={briefFor} /> →{' '}
                  {r.to ? <Ref id={r.to} partitionId={pid} briefFor={briefFor} /> : <span className="faint">nothing (cleared)</span>}
                </li>
              ))}
            </ul>
          </>
        )}
      </section>
      {preview.truncated ? <p className="faint">Lists are cut short; the counts are exact.</p> : null}
    </div>
  );
}

export function ContextImpactView({ change }: { change: ContextChange }) {
  const { before, after } = change;
  return (
    <div className="col" data-testid="context-impact">
      <p>
        The <strong>{before.strategy}</strong> context for this query goes from {formatNumber(before.tokens)} to {formatNumber(after.tokens)} tokens (
        {formatNumber(before.counts.included)} → {formatNumber(after.counts.included)} items).
      </p>
      {change.removed.length === 0 && change.added.length === 0 ? <p className="muted">The assembled context would not change.</p> : null}
      {change.removed.length > 0 ? (
        <section aria-label="Would leave the context">
          <h4>
            Would leave it (<span data-testid="context-removed-count">{change.removed.length}</span>)
          </h4>
          <ul className="list-plain">
            {change.removed.slice(0, LIST_LIMIT).map((r) => (
              <li key={`${r.kind}:${r.id}`} className="memory-text diff-remove-text">
                − {r.label} <span className="faint">{r.kind}</span>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {change.added.length > 0 ? (
        <section aria-label="Would enter the context">
          <h4>Would take their place ({change.added.length})</h4>
          <ul className="list-plain">
            {change.added.slice(0, LIST_LIMIT).map((r) => (
              <li key={`${r.kind}:${r.id}`} className="memory-text diff-add-text">
                + {r.label} <span className="faint">{r.kind}</span>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </div>
  );
}

type Phase =
  | { step: 'review' }
  | { step: 'running'; operationId: string }
  | { step: 'done'; result: ChannelOutput<'deletion.apply'> }
  | { step: 'failed'; error: ErrorShape };

export function DeleteDialog({
  partitionId,
  request,
  onClose,
  onDeleted,
}: {
  partitionId: number;
  request: DeleteRequest;
  onClose: () => void;
  onDeleted: (ids: readonly string[]) => void;
}) {
  const selection = useMemo(() => selectionOf(request), [request]);
  const [phase, setPhase] = useState<Phase>({ step: 'review' });
  // Once the delete runs, the preview is what the user confirmed: it is not refreshed (the
  // facts it describes are gone).
  const preview = useQuery('deletion.preview', phase.step === 'review' || phase.step === 'failed' ? { partitionId, selection } : null, { keepPrevious: true });
  const saved = useQuery('savedQueries.list', { partitionId });
  // The deleted facts leave the view (an open fact closes) before the views refresh: flushed
  // now, so nothing still on screen asks for a fact that is gone.
  const apply = useMutation('deletion.apply', { onSuccess: (result) => flushSync(() => onDeleted(result.deletedIds)) });
  const [reason, setReason] = useState('');
  const [confirmed, setConfirmed] = useState(false);
  const [query, setQuery] = useState('');
  const [strategy, setStrategy] = useState<AssemblyStrategy>('state_based');
  const [budget, setBudget] = useState(String(DEFAULT_BUDGET));
  const [probe, setProbe] = useState<ChannelInput<'deletion.preview'>['context'] | null>(null);
  const withContext = useQuery('deletion.preview', probe ? { partitionId, selection, context: probe } : null);
  const progress = useProgress(phase.step === 'running' ? phase.operationId : undefined);

  const partitions = useQuery('partitions.list', {});
  // One fact: say whether the delete also reaches where it came from.
  const lone = request.kind === 'ids' && request.ids.length === 1 ? request.ids[0] : undefined;
  const loneDetail = useQuery('facts.get', lone !== undefined && phase.step === 'review' ? { partitionId, factId: lone } : null);
  const [typed, setTyped] = useState('');
  const count = preview.data?.toDelete ?? (request.kind === 'ids' ? request.ids.length : (request.count ?? 0));
  const partitionFacts = partitions.data?.partitions.find((p) => p.id === partitionId)?.facts ?? null;
  const broad = isBroadDelete(count, partitionFacts, request.kind === 'filter');
  const needsTick = count > 1 && !broad;
  const confirmedEnough = broad ? typedCountMatches(typed, count) : !needsTick || confirmed;
  // Deleting a lone proposal (a write that lacked the authority to supersede) is rejecting it.
  const rejecting = request.kind === 'ids' && count === 1 && preview.data?.facts[0]?.status === 'proposal';
  const title = rejecting
    ? 'Reject this proposal'
    : request.kind === 'filter'
      ? 'Delete every fact matching the filter'
      : count === 1
        ? 'Delete this fact'
        : `Delete ${formatNumber(count)} facts`;

  async function run() {
    const operationId = newOperationId('delete');
    setPhase({ step: 'running', operationId });
    try {
      const result = await apply.mutate({ partitionId, selection, reason: reason.trim() || undefined, operationId });
      setPhase({ step: 'done', result });
    } catch (e) {
      setPhase({ step: 'failed', error: toErrorShape(e) });
    }
  }

  const running = phase.step === 'running';
  const footer =
    phase.step === 'done' ? (
      <Button variant="primary" onClick={onClose} data-autofocus>
        Close
      </Button>
    ) : (
      <>
        <Button onClick={onClose} disabled={running}>
          Cancel
        </Button>
        {/* Only a current preview can be confirmed: not one kept from before a failed or running refresh. */}
        <Button
          variant="danger"
          onClick={() => void run()}
          disabled={!preview.data || preview.error !== undefined || preview.fetching || running || count === 0 || !confirmedEnough}
          data-testid="confirm-delete"
        >
          {running
            ? rejecting
              ? 'Rejecting…'
              : 'Deleting…'
            : rejecting
              ? 'Reject proposal'
              : count === 1
                ? 'Delete fact'
                : `Delete ${formatNumber(count)} facts`}
        </Button>
      </>
    );

  return (
    <Dialog title={title} onClose={running ? () => {} : onClose} footer={footer} wide>
      {phase.step === 'done' ? (
        <div className="col" role="status" data-testid="delete-summary">
          <p>
            {rejecting ? <>Rejected the proposal: it is removed, and the version it tried to replace stays current. </> : null}
            Deleted <strong>{plural(phase.result.deleted, 'fact')}</strong>; {plural(phase.result.flagged, 'dependent')} flagged for review;{' '}
            {plural(phase.result.relinked, 'chain pointer')} relinked
            {phase.result.cleared > 0 ? ` (${formatNumber(phase.result.cleared)} cleared)` : ''}.
          </p>
          {phase.result.scrub ? <ScrubNote scrub={phase.result.scrub} /> : null}
          <p className="muted">
            Recorded in the audit log{phase.result.auditId !== null ? ` (entry ${phase.result.auditId})` : ''}. Open views have refreshed.
          </p>
        </div>
      ) : preview.error ? (
        <ErrorState error={preview.error} onRetry={preview.refetch} context="Impact preview" />
      ) : !preview.data ? (
        <Loading label="Computing the impact" />
      ) : (
        <>
          {rejecting ? (
            <p data-testid="reject-explainer">
              This proposal never replaced the current version (its source lacked the authority). Rejecting it deletes the proposal; the current version is not
              touched.
            </p>
          ) : null}
          {request.kind === 'filter' && request.count !== null ? (
            <p data-testid="selected-count-echo" className={preview.data.toDelete === request.count ? '' : 'state-error'}>
              {preview.data.toDelete === request.count
                ? `You selected all ${plural(request.count, 'matching fact')}, loaded or not; all ${formatNumber(request.count)} will be deleted.`
                : `You selected ${plural(request.count, 'matching fact')}, but the filter now matches ${formatNumber(preview.data.toDelete)}: the delete applies to what matches now.`}
            </p>
          ) : null}
          {loneDetail.data ? (
            <p data-testid="delete-source-reach">
              This fact is <SourceDeletionText reach={loneDetail.data.sourceDeletion} />.
            </p>
          ) : null}
          <ImpactSummary preview={preview.data} />
          <section aria-label="Context impact" className="card col">
            <h4>How the assembled context would change</h4>
            <div className="row wrap">
              <TextField
                label="Query"
                className="grow"
                value={query}
                onChange={(e) => setQuery(e.target.value)}
                placeholder="What the agent is about to answer"
              />
              {saved.data && saved.data.queries.length > 0 ? (
                <SelectField
                  label="Saved query"
                  value=""
                  options={[
                    { value: '', label: 'pick…' },
                    ...saved.data.queries.slice(0, 200).map((q) => ({ value: String(q.id), label: q.label.slice(0, 60) })),
                  ]}
                  onChange={(v) => {
                    const q = saved.data?.queries.find((x) => String(x.id) === v);
                    if (q) setQuery(q.prompt);
                  }}
                />
              ) : null}
              <SelectField<AssemblyStrategy>
                label="Strategy"
                value={strategy}
                options={AssemblyStrategy.options.map((s) => ({ value: s, label: s }))}
                onChange={setStrategy}
              />
              <TextField label="Budget (tokens)" type="number" min={1} value={budget} onChange={(e) => setBudget(e.target.value)} size={6} />
              <Button onClick={() => setProbe({ query, strategy, budget: Math.max(1, Number(budget) || DEFAULT_BUDGET) })} disabled={withContext.fetching}>
                {withContext.fetching ? 'Assembling…' : 'Show context change'}
              </Button>
            </div>
            {withContext.error ? <p className="muted">Could not assemble: {withContext.error.message}</p> : null}
            {withContext.data?.context ? <ContextImpactView change={withContext.data.context} /> : null}
          </section>
          <TextField label="Reason (kept in the audit log)" value={reason} onChange={(e) => setReason(e.target.value)} maxLength={2000} />
          {needsTick ? (
            <Checkbox
              label={`I understand that ${plural(count, 'fact')} will be deleted permanently.`}
              checked={confirmed}
              onChange={setConfirmed}
              data-testid="confirm-tick"
            />
          ) : null}
          {broad ? (
            <div className="card col broad-delete" data-testid="broad-delete">
              <p role="note">
                This deletes <strong>{plural(count, 'fact')}</strong>
                {partitionFacts !== null && partitionFacts > 0 ? <> — {Math.round((count / partitionFacts) * 100)}% of this partition</> : null}. Type the
                number of facts to confirm.
              </p>
              <TextField
                label={`Type ${formatNumber(count)} to confirm`}
                value={typed}
                onChange={(e) => setTyped(e.target.value)}
                inputMode="numeric"
                autoComplete="off"
                data-testid="confirm-count"
              />
            </div>
          ) : null}
          {running ? <ProgressBar label="Deleting" done={progress?.done ?? 0} total={progress?.total ?? count} /> : null}
          {phase.step === 'failed' ? <ErrorState error={phase.error} context="Delete" /> : null}
        </>
      )}
    </Dialog>
  );
}

/** What the scrub after a delete reached: a file's scrub is complete or says what lingers; a
 * server's report says itself what it reached (table and index files) and what it cannot (WAL,
 * archives, backups). */
export function ScrubNote({ scrub }: { scrub: ScrubReport }) {
  if (!scrub.complete) return <p data-testid="scrub-note">The text may linger: {scrub.detail}</p>;
  return (
    <p className="muted" data-testid="scrub-note">
      {scrub.remedy === 'vacuum' ? scrub.detail : 'The deleted text is gone from the database file and its write-ahead log.'}
    </p>
  );
}
