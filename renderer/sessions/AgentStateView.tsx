// A session's agent state: expectations grouped by status, assumptions with their confidence,
// tentative hypotheses, items, and the entities of the current understanding.
import type { AgentState, Expectation } from '../../shared/domain';
import { formatTime } from '../ui/format';

const STATUSES = ['pending', 'confirmed', 'failed'] as const;

function ExpectationItem({ e }: { e: Expectation }) {
  return (
    <li className="card expectation">
      <div className="memory-text">
        <strong>{e.action}</strong> → {e.expected_outcome}
      </div>
      <div className="faint">
        {e.expected_ids && e.expected_ids.length > 0 ? `ids ${e.expected_ids.join(', ')} · ` : ''}
        {e.expected_type ? `type ${e.expected_type} · ` : ''}
        {e.expected_count !== undefined ? `count ${e.expected_count} · ` : ''}
        {e.invariant ? `invariant: ${e.invariant} · ` : ''}
        {e.last_checked_at ? `checked ${formatTime(e.last_checked_at)}` : 'not checked yet'}
      </div>
    </li>
  );
}

export function AgentStateView({ state, updatedAt }: { state: AgentState; updatedAt: string | null }) {
  const byStatus = new Map<string, Expectation[]>(STATUSES.map((s) => [s, []]));
  for (const e of state.expectations) byStatus.get(e.status ?? 'pending')?.push(e);
  return (
    <div className="agent-state col" data-testid="agent-state">
      <p className="muted">
        Updated {formatTime(updatedAt)}
        {state.lastSummarizedAt ? ` · summarised ${formatTime(state.lastSummarizedAt)}` : ''}
      </p>
      <section aria-label="Expectations" className="col">
        <h4>Expectations ({state.expectations.length})</h4>
        <div className="expectation-columns">
          {STATUSES.map((s) => (
            <div key={s} className={`col expectation-col exp-${s}`} aria-label={`${s} expectations`} role="group">
              <h3>
                {s} ({byStatus.get(s)?.length ?? 0})
              </h3>
              <ul className="list-plain col">
                {(byStatus.get(s) ?? []).map((e, i) => (
                  <ExpectationItem key={e.id ?? i} e={e} />
                ))}
              </ul>
            </div>
          ))}
        </div>
      </section>
      <section aria-label="Assumptions" className="col">
        <h4>Assumptions ({state.assumptions.length})</h4>
        {state.assumptions.length === 0 ? <p className="faint">None.</p> : null}
        <ul className="list-plain col">
          {[...state.assumptions]
            .sort((a, b) => b.confidence - a.confidence)
            .map((a) => (
              <li key={a.id} className="assumption row">
                <div className="meter confidence" title={`confidence ${a.confidence.toFixed(2)}`}>
                  <div
                    className="meter-track"
                    role="meter"
                    aria-label={`Confidence in ${a.hypothesis.slice(0, 60)}`}
                    aria-valuemin={0}
                    aria-valuemax={1}
                    aria-valuenow={a.confidence}
                  >
                    <div className="meter-fill" style={{ width: `${Math.round(a.confidence * 100)}%` }} />
                  </div>
                </div>
                <span className="mono">{a.confidence.toFixed(2)}</span>
                <span className="memory-text grow">{a.hypothesis}</span>
                {a.evidence && a.evidence.length > 0 ? <span className="faint">{a.evidence.length} evidence</span> : null}
              </li>
            ))}
        </ul>
      </section>
      <section aria-label="Hypotheses" className="col">
        <h4>Tentative hypotheses ({state.tentative_hypotheses.length})</h4>
        {state.tentative_hypotheses.length === 0 ? <p className="faint">None.</p> : null}
        <ul className="list-plain col">
          {state.tentative_hypotheses.map((h) => (
            <li key={h.id} className="memory-text">
              {h.hypothesis}
              {h.reason ? <span className="muted"> — {h.reason}</span> : null}
            </li>
          ))}
        </ul>
      </section>
      <section aria-label="Items" className="col">
        <h4>Items ({state.items.length})</h4>
        {state.items.length === 0 ? <p className="faint">None.</p> : null}
        <ul className="list-plain col">
          {state.items.map((it) => (
            <li key={it.id} className={`row item-${it.status}`}>
              <span className="badge">{it.kind}</span>
              <span className={`badge ${it.status === 'active' ? 'badge-accent' : ''}`}>{it.status}</span>
              <span className="memory-text grow">
                <strong>{it.title}</strong>
                {it.details ? ` — ${it.details}` : ''}
              </span>
              <span className="faint mono">{formatTime(it.updatedAt)}</span>
            </li>
          ))}
        </ul>
      </section>
      <section aria-label="Current understanding" className="col">
        <h4>Current understanding</h4>
        <p className="muted">
          {state.current_understanding.entities.length} entities, {state.current_understanding.dependencies.length} dependencies
        </p>
        <ul className="list-plain row wrap">
          {state.current_understanding.entities.slice(0, 100).map((e) => (
            <li key={e.id} className="badge memory-text">
              {e.kind}: {e.name ?? e.id}
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}
