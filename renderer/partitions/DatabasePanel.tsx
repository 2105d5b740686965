// The database picker: which file or server is open, and (desktop) open another, connect to a
// server, or reopen a recent one. Browser mode serves one database fixed on the `statelens serve`
// command line.
import { useState } from 'react';
import { serverScope, type DbState } from '../../shared/contract';
import { useDispatch } from '../app/state';
import { useMutation, useQuery } from '../api/hooks';
import { Button } from '../ui/Button';
import { formatBytes } from '../ui/format';
import { useToast } from '../ui/Toast';

/** The last two segments of a path ("…/folder/file.db"): the full path is in the tooltip. */
export function tailOfPath(p: string): string {
  const parts = p.split(/[\\/]/).filter(Boolean);
  return parts.length <= 2 ? p : `…/${parts.slice(-2).join('/')}`;
}

export function DatabaseSummary({ state }: { state: DbState }) {
  if (!state.db) return <p className="muted">No database is open.</p>;
  if (state.db.server)
    return (
      <div className="db-summary" title={state.db.server.url}>
        <div className="row">
          <strong className="grow db-name">{state.db.name}</strong>
          <span className="badge">server</span>
          {state.db.readonly ? <span className="badge">read-only</span> : null}
        </div>
        <div className="faint mono db-path">{state.db.server.url}</div>
        <div className="faint">
          {serverScope(state.db.server)} · v{state.db.schemaVersion}
        </div>
      </div>
    );
  return (
    <div className="db-summary" title={state.db.path}>
      <div className="row">
        <strong className="grow db-name">{state.db.name}</strong>
        {state.db.readonly ? <span className="badge">read-only</span> : null}
        {state.db.isDefault ? <span className="badge">demo</span> : null}
      </div>
      <div className="faint mono db-path">{tailOfPath(state.db.path)}</div>
      <div className="faint">
        {formatBytes(state.db.sizeBytes)} · schema v{state.db.schemaVersion} · {state.mode === 'browser' ? 'browser mode' : 'desktop'}
      </div>
    </div>
  );
}

/** A file carrying objects Statelens did not create opens read-only: this says which, and lets the
 * user confirm they trust them (two steps, so a stray click cannot). */
export function ForeignObjectsNotice({ objects }: { objects: readonly string[] }) {
  const trust = useMutation('db.trustForeignObjects');
  const toast = useToast();
  const [confirming, setConfirming] = useState(false);
  async function doTrust() {
    try {
      await trust.mutate({});
      toast('The database is open for writing');
    } catch (e) {
      toast(`Could not open the database for writing: ${e instanceof Error ? e.message : String(e)}`, 'error');
    }
    setConfirming(false);
  }
  return (
    <div className="db-foreign" role="alert" aria-label="Objects Statelens did not create">
      <p>
        This database holds {objects.length === 1 ? 'an object' : `${objects.length} objects`} Statelens did not create. They could copy or change what is
        written and deleted (a trigger can keep deleted text), so the file is open read-only.
      </p>
      <ul className="list-plain mono">
        {objects.slice(0, 10).map((o) => (
          <li key={o}>{o}</li>
        ))}
        {objects.length > 10 ? <li>… and {objects.length - 10} more</li> : null}
      </ul>
      {confirming ? (
        <div className="row wrap">
          <span>Deletions will never be reported as removing the text while these exist.</span>
          <Button small onClick={() => void doTrust()} disabled={trust.pending}>
            Trust them and allow writing
          </Button>
          <Button small className="btn-ghost" onClick={() => setConfirming(false)} disabled={trust.pending}>
            Keep read-only
          </Button>
        </div>
      ) : (
        <Button small onClick={() => setConfirming(true)}>
          Allow writing…
        </Button>
      )}
    </div>
  );
}

export function DatabasePanel() {
  const info = useQuery('db.info', {});
  const canOpen = info.data?.canOpenOther === true;
  const recent = useQuery('db.recent', canOpen ? {} : null);
  const servers = useQuery('db.recentServers', canOpen ? {} : null);
  const open = useMutation('db.open');
  const reconnect = useMutation('db.connect');
  const dispatch = useDispatch();
  const toast = useToast();

  async function doReconnect(index: number) {
    try {
      const r = await reconnect.mutate({ source: 'recent', index });
      if (r.state.db) toast(`Connected to ${r.state.db.name}`);
    } catch (e) {
      toast(`Could not connect to the server: ${e instanceof Error ? e.message : String(e)}`, 'error');
    }
  }

  async function doOpen(input: Parameters<typeof open.mutate>[0]) {
    try {
      const r = await open.mutate(input);
      if (!r.cancelled && r.state.db) toast(`Opened ${r.state.db.name}`);
    } catch (e) {
      toast(`Could not open the database: ${e instanceof Error ? e.message : String(e)}`, 'error');
    }
  }

  return (
    <section className="db-panel" aria-label="Database">
      {info.data ? <DatabaseSummary state={info.data} /> : info.error ? <p className="muted">{info.error.message}</p> : <p className="muted">Connecting…</p>}
      {info.data?.db?.foreignObjects?.length && info.data.db.readonly ? <ForeignObjectsNotice objects={info.data.db.foreignObjects} /> : null}
      {canOpen ? (
        <div className="row wrap">
          <Button small onClick={() => void doOpen({ source: 'dialog' })} disabled={open.pending}>
            Open database…
          </Button>
          <Button small onClick={() => void doOpen({ source: 'default' })} disabled={open.pending}>
            Demo database
          </Button>
          <Button small onClick={() => dispatch({ type: 'connect', open: true })} disabled={open.pending || reconnect.pending}>
            Connect to server…
          </Button>
        </div>
      ) : null}
      {canOpen && recent.data && recent.data.entries.length > 0 ? (
        <details className="db-recent">
          <summary>Recent databases</summary>
          <ul className="list-plain">
            {recent.data.entries.map((r) => (
              <li key={r.index}>
                <Button
                  small
                  className="btn-ghost"
                  disabled={!r.exists || open.pending}
                  title={r.path}
                  onClick={() => void doOpen({ source: 'recent', index: r.index })}
                >
                  {r.name}
                  {r.exists ? '' : ' (missing)'}
                </Button>
              </li>
            ))}
          </ul>
        </details>
      ) : null}
      {canOpen && servers.data && servers.data.servers.length > 0 ? (
        <details className="db-recent">
          <summary>Recent servers</summary>
          <ul className="list-plain">
            {servers.data.servers.map((r) => (
              <li key={r.index}>
                <Button
                  small
                  className="btn-ghost"
                  disabled={reconnect.pending}
                  title={r.url}
                  onClick={() =>
                    // Without a kept password, the form asks for it (the server and organisation filled in).
                    r.hasPassword ? void doReconnect(r.index) : dispatch({ type: 'connect', open: true, prefill: { url: r.url, schema: r.schema, org: r.org } })
                  }
                >
                  {r.org} · {r.schema}
                  {r.hasPassword ? '' : ' (no password kept)'}
                </Button>
              </li>
            ))}
          </ul>
        </details>
      ) : null}
    </section>
  );
}
