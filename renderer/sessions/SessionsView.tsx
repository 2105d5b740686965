// Sessions of the partition: each one's working items (turns and notes), agent state and context
// documents (every version, with a diff between any two).
import { useEffect, useState } from 'react';
import { useAppState } from '../app/state';
import { useQuery } from '../api/hooks';
import { DiffView } from '../ui/DiffView';
import { SelectField } from '../ui/fields';
import { formatTime } from '../ui/format';
import { EmptyState, ErrorState, Loading } from '../ui/states';
import { Tabs } from '../ui/Tabs';
import { AgentStateView } from './AgentStateView';
import './sessions.css';

function ContextDocuments({ partitionId, sessionId }: { partitionId: number; sessionId: string }) {
  const versions = useQuery('contextDocuments.versions', { partitionId, sessionId });
  const list = versions.data?.versions ?? [];
  const latest = list.reduce((m, v) => Math.max(m, v.version), 0);
  const [right, setRight] = useState<number | null>(null);
  const [left, setLeft] = useState<number | null>(null);
  useEffect(() => {
    setRight(null);
    setLeft(null);
  }, [sessionId]);
  const r = right ?? latest;
  const l = left ?? (list.length > 1 ? Math.max(1, r - 1) : r);
  const docR = useQuery('contextDocuments.get', r > 0 ? { partitionId, sessionId, version: r } : null);
  const docL = useQuery('contextDocuments.get', l > 0 && l !== r ? { partitionId, sessionId, version: l } : null);
  if (versions.error) return <ErrorState error={versions.error} onRetry={versions.refetch} context="Context documents" />;
  if (!versions.data) return <Loading label="Loading context documents" />;
  if (list.length === 0)
    return (
      <EmptyState title="No context document">
        This session has no context document. Agents that keep one (the context_document strategy) write it at the end of a session.
      </EmptyState>
    );
  const options = [...list]
    .sort((a, b) => b.version - a.version)
    .map((v) => ({ value: String(v.version), label: `v${v.version} · ${formatTime(v.createdAt)} · ${v.words} words` }));
  const bodyR = docR.data?.document?.body;
  const bodyL = l === r ? bodyR : docL.data?.document?.body;
  return (
    <div className="col context-docs">
      <div className="row wrap">
        <SelectField label="Compare from" value={String(l)} options={options} onChange={(v) => setLeft(Number(v))} />
        <SelectField label="to version" value={String(r)} options={options} onChange={(v) => setRight(Number(v))} />
      </div>
      {bodyR === undefined || bodyL === undefined ? (
        <Loading label="Loading versions" />
      ) : (
        <>
          {l !== r ? <DiffView before={bodyL} after={bodyR} beforeLabel={`v${l}`} afterLabel={`v${r}`} /> : null}
          <section className="card" aria-label={`Context document version ${r}`}>
            <h4>Version {r}</h4>
            <pre className="memory-text doc-body">{bodyR}</pre>
          </section>
        </>
      )}
    </div>
  );
}

/** The session's working set: conversation turns and notes, oldest first; expired ones marked. */
function WorkingItems({ partitionId, sessionId }: { partitionId: number; sessionId: string }) {
  const q = useQuery('workingItems.list', { partitionId, sessionId });
  if (q.error) return <ErrorState error={q.error} onRetry={q.refetch} context="Working items" />;
  if (!q.data) return <Loading label="Loading working items" />;
  if (q.data.items.length === 0)
    return <EmptyState title="No working items">This session has no working items (conversation turns or notes an agent keeps while it works).</EmptyState>;
  const now = Date.now();
  return (
    <div className="col">
      {q.data.truncated ? <p className="faint">The first {q.data.items.length.toLocaleString('en-US')} working items.</p> : null}
      <table className="working-items" aria-label={`Working items of ${sessionId}`}>
        <thead>
          <tr>
            <th scope="col">Turn</th>
            <th scope="col">Who</th>
            <th scope="col">Kind</th>
            <th scope="col">Key</th>
            <th scope="col">Text</th>
            <th scope="col">Added</th>
            <th scope="col">Expires</th>
          </tr>
        </thead>
        <tbody>
          {q.data.items.map((w) => {
            const expired = w.expiresAt !== null && Date.parse(w.expiresAt) <= now;
            return (
              <tr key={w.id} className={expired ? 'expired' : undefined}>
                <td className="mono">{w.turnIndex ?? '—'}</td>
                <td className="memory-text">{w.speaker ?? '—'}</td>
                <td>{w.itemType}</td>
                <td className="memory-text">{w.key}</td>
                <td className="memory-text working-item-text">{w.value}</td>
                <td className="mono nowrap">{formatTime(w.createdAt)}</td>
                <td className="nowrap">
                  {w.expiresAt === null ? <span className="faint">never</span> : expired ? <span className="badge">expired</span> : formatTime(w.expiresAt)}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

function AgentStatePane({ partitionId, sessionId }: { partitionId: number; sessionId: string }) {
  const q = useQuery('agentState.get', { partitionId, sessionId });
  if (q.error) return <ErrorState error={q.error} onRetry={q.refetch} context="Agent state" />;
  if (!q.data) return <Loading label="Loading agent state" />;
  if (!q.data.state)
    return <EmptyState title="No agent state">This session has recorded no agent state (expectations, assumptions, hypotheses, items).</EmptyState>;
  return <AgentStateView state={q.data.state} updatedAt={q.data.updatedAt} />;
}

export function SessionsView() {
  const { partitionId } = useAppState();
  const q = useQuery('sessions.list', partitionId === null ? null : { partitionId });
  const [sessionId, setSessionId] = useState<string | null>(null);
  const [tab, setTab] = useState<'working' | 'state' | 'documents'>('state');
  const sessions = q.data?.sessions ?? [];
  const current = sessionId && sessions.some((s) => s.sessionId === sessionId) ? sessionId : (sessions[0]?.sessionId ?? null);
  if (partitionId === null) return null;
  if (q.error) return <ErrorState error={q.error} onRetry={q.refetch} context="Sessions" />;
  if (!q.data) return <Loading label="Loading sessions" />;
  if (sessions.length === 0)
    return <EmptyState title="No sessions">No agent has recorded a session (working set, agent state or context document) in this partition.</EmptyState>;
  return (
    <section className="sessions-view" aria-label="Sessions">
      <nav className="session-list" aria-label="Sessions">
        {q.data.truncated ? <p className="faint">The {sessions.length.toLocaleString('en-US')} most recently active sessions.</p> : null}
        <ul className="list-plain">
          {sessions.map((s) => (
            <li key={s.sessionId}>
              <button
                type="button"
                className="partition-item session-item"
                aria-current={s.sessionId === current ? 'true' : undefined}
                onClick={() => setSessionId(s.sessionId)}
              >
                <span className="memory-text">{s.sessionId}</span>
                <span className="faint">
                  {[
                    s.hasAgentState ? 'agent state' : null,
                    s.contextDocumentVersions > 0 ? `${s.contextDocumentVersions} document version${s.contextDocumentVersions === 1 ? '' : 's'}` : null,
                    `${s.workingItems} working item${s.workingItems === 1 ? '' : 's'}`,
                  ]
                    .filter(Boolean)
                    .join(' · ')}
                </span>
                {s.lastActivityAt ? <span className="faint">last {formatTime(s.lastActivityAt)}</span> : null}
              </button>
            </li>
          ))}
        </ul>
      </nav>
      <div className="session-body">
        {current ? (
          <Tabs
            label="Session views"
            tabs={[
              { id: 'state', label: 'Agent state' },
              { id: 'working', label: 'Working items' },
              { id: 'documents', label: 'Context documents' },
            ]}
            value={tab}
            onChange={setTab}
          >
            <div className="session-pane">
              {tab === 'working' ? (
                <WorkingItems partitionId={partitionId} sessionId={current} />
              ) : tab === 'state' ? (
                <AgentStatePane partitionId={partitionId} sessionId={current} />
              ) : (
                <ContextDocuments partitionId={partitionId} sessionId={current} />
              )}
            </div>
          </Tabs>
        ) : null}
      </div>
    </section>
  );
}
