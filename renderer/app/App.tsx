// The inspector's frame: top bar (database, time travel, export, theme, shortcuts), the
// partition picker and view navigation on the left, the current view, dialogs, a status bar.
import { useEffect, useState, type CSSProperties } from 'react';
import { AuditLog } from '../audit/AuditLog';
import { ContextView } from '../context/ContextView';
import { DeleteDialog } from '../delete/DeleteDialog';
import { ExportDialog } from '../export/ExportDialog';
import { GraphFullView } from '../graph/GraphFullView';
import { MemoriesView } from '../memories/MemoriesView';
import { CommandPalette } from '../palette/CommandPalette';
import { ConnectServerDialog } from '../partitions/ConnectServerDialog';
import { DatabasePanel } from '../partitions/DatabasePanel';
import { PartitionTree } from '../partitions/PartitionTree';
import { ReviewQueue } from '../review/ReviewQueue';
import { SessionsView } from '../sessions/SessionsView';
import { ShortcutOverlay } from '../shortcuts/ShortcutOverlay';
import { useShortcut } from '../shortcuts/shortcuts';
import { useTheme } from '../theme/theme';
import { TimeTravel, TimeTravelBanner, TimeTravelButton, useTimeTravelPanel } from '../timetravel/TimeTravel';
import { Button, IconButton } from '../ui/Button';
import { ErrorBoundary } from '../ui/ErrorBoundary';
import { formatNumber, formatTime } from '../ui/format';
import { EmptyState, ErrorState, Loading } from '../ui/states';
import { Splitter } from '../ui/Splitter';
import { useToast } from '../ui/Toast';
import { useConnection, useEvent, useLastChange, useQuery, useServerConnection } from '../api/hooks';
import type { ConnectionState } from '../api/transport';
import { databaseTitle, serverScope, type DbInfo } from '../../shared/contract';
import { clamp, useLayoutSize } from './layout-sizes';
import { useAppState, useDispatch, VIEW_LABELS, VIEWS, type View } from './state';

function ViewNav({ view, reviewCount }: { view: View; reviewCount: number }) {
  const dispatch = useDispatch();
  return (
    <nav className="view-nav" aria-label="Views">
      <ul className="list-plain">
        {VIEWS.map((v, i) => (
          <li key={v}>
            <button
              type="button"
              className="view-nav-item"
              aria-current={v === view ? 'page' : undefined}
              onClick={() => dispatch({ type: 'view', view: v })}
              title={`${VIEW_LABELS[v]} (${i + 1})`}
            >
              <span className="grow">{VIEW_LABELS[v]}</span>
              {v === 'review' && reviewCount > 0 ? <span className="badge badge-review">{formatNumber(reviewCount)}</span> : null}
              <kbd className="kbd faint">{i + 1}</kbd>
            </button>
          </li>
        ))}
      </ul>
    </nav>
  );
}

function LinkNotice({ text, onDismiss }: { text: string; onDismiss: () => void }) {
  return (
    <div className="link-notice row" role="alert" data-testid="link-notice">
      <span className="grow">{text}</span>
      <Button small onClick={onDismiss}>
        Dismiss
      </Button>
    </div>
  );
}

const CONNECTION_TEXT: Record<Exclude<ConnectionState, 'live'>, string> = {
  connecting: 'connecting…',
  reconnecting: 'reconnecting…',
  offline: 'offline: the statelens server does not answer (retrying)',
};

/** Tells the truth about the change stream: "live" only while it is connected. */
const SERVER_TEXT: Record<'reconnecting' | 'offline', string> = {
  reconnecting: 'reconnecting… the database server does not answer',
  offline: 'offline: the database server does not answer (retrying)',
};

function LiveIndicator() {
  const stream = useConnection();
  const server = useServerConnection();
  const last = useLastChange();
  // A dropped change stream says so first; then a database server that stopped answering.
  if (stream === 'live' && server) {
    return (
      <span
        className={server === 'offline' ? 'connection-offline' : 'faint'}
        data-testid="live-indicator"
        data-connection={server}
        data-source="server"
        role="status"
      >
        {SERVER_TEXT[server]}
      </span>
    );
  }
  const connection = stream;
  if (connection !== 'live') {
    return (
      <span className={connection === 'offline' ? 'connection-offline' : 'faint'} data-testid="live-indicator" data-connection={connection} role="status">
        {CONNECTION_TEXT[connection]}
      </span>
    );
  }
  const who = last?.event.origin === 'external' ? 'another process' : 'this app';
  return (
    <span className="faint" data-testid="live-indicator" data-connection="live" title={last?.event.what.join(', ')}>
      {last ? `live · last change by ${who} at ${formatTime(new Date(last.at).toISOString())}` : 'live'}
    </span>
  );
}

/** Which shared server, schema and organisation the inspector reads (the URL never has a password). */
function ServerStatus({ db }: { db: DbInfo }) {
  if (!db.server) return null;
  return (
    <span className="muted" data-testid="status-server" title={db.server.url}>
      server {db.name} · {serverScope(db.server)}
    </span>
  );
}

/** The sidebar's width: its default, and the bounds a drag keeps to. */
const SIDEBAR = { initial: 260, min: 180, max: 480 } as const;

function ThemeButton() {
  const { preference, resolved, toggle } = useTheme();
  useShortcut('theme', toggle);
  const label = `Theme: ${preference === 'system' ? `system (${resolved})` : preference}. Switch`;
  return (
    <IconButton label={label} onClick={toggle}>
      {resolved === 'dark' ? '☾' : '☀'}
    </IconButton>
  );
}

export function App() {
  const state = useAppState();
  const dispatch = useDispatch();
  const toast = useToast();
  const info = useQuery('db.info', {});
  const partitions = useQuery('partitions.list', info.data?.db ? {} : null, { keepPrevious: true });
  const list = partitions.data?.partitions;
  const current = list?.find((p) => p.id === state.partitionId) ?? null;
  // While time travelling, the sidebar and the status bar count the facts as they stood then.
  const pastPartitions = useQuery('partitions.list', info.data?.db && state.asOf ? { asOf: state.asOf } : null, { keepPrevious: true });
  const past = state.asOf ? (pastPartitions.data?.partitions ?? null) : null;
  const shownList = past ?? list;
  const shownCurrent = shownList?.find((p) => p.id === state.partitionId) ?? null;
  const travel = useTimeTravelPanel();

  // Pick a partition when none is chosen (or the chosen one vanished): the one with most facts.
  useEffect(() => {
    if (!list) return;
    if (list.length === 0) {
      if (state.partitionId !== null) dispatch({ type: 'partition', partitionId: null });
      return;
    }
    if (state.partitionId === null || !list.some((p) => p.id === state.partitionId)) {
      const best = [...list].sort((a, b) => b.facts - a.facts)[0];
      if (!best) return;
      // Say so when the link (or a partition deleted meanwhile) named one that is not here.
      const missing = state.partitionId === null ? null : `There is no partition ${state.partitionId} in this database; showing ${best.label} instead.`;
      const notice = [state.notice, missing].filter(Boolean).join(' ');
      dispatch({ type: 'partition', partitionId: best.id, ...(notice ? { notice } : {}) });
    }
  }, [list, state.partitionId, state.notice, dispatch]);

  useEffect(() => {
    document.title = databaseTitle(info.data?.db ?? null);
  }, [info.data]);

  useEvent('app.command', (c) => {
    if (c.command === 'export-snapshot') dispatch({ type: 'export', open: true });
    if (c.command === 'show-shortcuts') dispatch({ type: 'shortcuts', open: true });
    if (c.command === 'connect-server') dispatch({ type: 'connect', open: true });
  });

  const [sidebarStored, setSidebar, resetSidebar] = useLayoutSize('sidebar');
  const sidebar = clamp(sidebarStored ?? SIDEBAR.initial, SIDEBAR.min, SIDEBAR.max);

  const [paletteOpen, setPaletteOpen] = useState(false);
  useShortcut('palette', () => setPaletteOpen(true));
  useShortcut('help', () => dispatch({ type: 'shortcuts', open: true }));
  useShortcut('view.memories', () => dispatch({ type: 'view', view: 'memories' }));
  useShortcut('view.review', () => dispatch({ type: 'view', view: 'review' }));
  useShortcut('view.context', () => dispatch({ type: 'view', view: 'context' }));
  useShortcut('view.sessions', () => dispatch({ type: 'view', view: 'sessions' }));
  useShortcut('view.audit', () => dispatch({ type: 'view', view: 'audit' }));
  useShortcut('view.graph', () => dispatch({ type: 'view', view: 'graph' }));
  useShortcut('export', () => dispatch({ type: 'export', open: true }));
  useShortcut('escape', () => dispatch({ type: 'clearSelection' }));

  let main;
  if (info.error) main = <ErrorState error={info.error} onRetry={info.refetch} context="Connection" />;
  else if (!info.data) main = <Loading label="Connecting to the engine" />;
  else if (!info.data.db)
    main = (
      <EmptyState title="No database is open">
        {info.data.canOpenOther ? 'Open a database from the panel on the left, or the demo database.' : 'Start `statelens serve --db FILE` with a database.'}
      </EmptyState>
    );
  else if (partitions.error && !list) main = <ErrorState error={partitions.error} onRetry={partitions.refetch} context="Partitions" />;
  else if (!list) main = <Loading label="Loading partitions" />;
  else if (list.length === 0)
    main = (
      <EmptyState title="This database holds no memory yet">
        Agents write facts through the library, `statelens ingest`, `statelens import statebench FILE` or the MCP server. Try `statelens demo --db FILE` for
        sample data.
      </EmptyState>
    );
  else if (state.partitionId === null) main = <Loading label="Opening a partition" />;
  else {
    const key = state.partitionId;
    main =
      state.view === 'memories' ? (
        <MemoriesView key={key} />
      ) : state.view === 'review' ? (
        <ReviewQueue key={key} />
      ) : state.view === 'context' ? (
        <ContextView key={key} />
      ) : state.view === 'sessions' ? (
        <SessionsView key={key} />
      ) : state.view === 'graph' ? (
        <GraphFullView key={key} />
      ) : (
        <AuditLog key={key} />
      );
  }

  return (
    <div className="app" style={{ '--sidebar-w': `${sidebar}px` } as CSSProperties}>
      {/* The first Tab stop: past the top bar and the sidebar's many stops, into the view. */}
      <a
        className="skip-link"
        href="#main"
        onClick={(e) => {
          // "#main" is not an address of the inspector: move focus, never the address.
          e.preventDefault();
          document.getElementById('main')?.focus();
        }}
      >
        Skip to the main content
      </a>
      <header className="topbar" role="banner">
        <h1 className="brand">Statelens</h1>
        <span className="topbar-partition muted">{current ? current.label : ''}</span>
        <span className="grow" />
        {state.partitionId !== null ? <TimeTravelButton open={travel.open} onToggle={() => travel.setOpen(!travel.open)} /> : null}
        <Button small onClick={() => dispatch({ type: 'export', open: true })} disabled={!info.data?.db} title="Export a snapshot (e)">
          Export…
        </Button>
        <Button small onClick={() => setPaletteOpen(true)} title="Command palette (Ctrl/⌘+K)" aria-label="Go to… (command palette, Ctrl or Command+K)">
          Go to… <kbd className="kbd faint">Ctrl K</kbd>
        </Button>
        <ThemeButton />
        <IconButton label="Keyboard shortcuts (?)" onClick={() => dispatch({ type: 'shortcuts', open: true })}>
          ?
        </IconButton>
      </header>
      <aside className="sidebar" aria-label="Database and partitions">
        <ViewNav view={state.view} reviewCount={current?.needsReview ?? 0} />
        <DatabasePanel />
        {shownList && shownList.length > 0 ? (
          <PartitionTree
            partitions={shownList}
            asOf={past ? state.asOf : null}
            selectedId={state.partitionId}
            onSelect={(id) => dispatch({ type: 'partition', partitionId: id })}
          />
        ) : null}
      </aside>
      <Splitter
        className="sidebar-splitter"
        label="Sidebar width"
        value={sidebar}
        min={SIDEBAR.min}
        max={SIDEBAR.max}
        onChange={setSidebar}
        onReset={resetSidebar}
      />
      <main className="main" id="main" tabIndex={-1}>
        {state.notice ? <LinkNotice text={state.notice} onDismiss={() => dispatch({ type: 'notice', notice: null })} /> : null}
        {travel.open && state.partitionId !== null ? (
          <TimeTravel
            key={state.partitionId}
            onClose={() => {
              travel.setOpen(false);
              document.querySelector<HTMLElement>('button[aria-label="Time travel"]')?.focus();
            }}
          />
        ) : null}
        <TimeTravelBanner />
        <ErrorBoundary key={`${state.view}-${state.partitionId ?? ''}`} label={VIEW_LABELS[state.view]}>
          {main}
        </ErrorBoundary>
      </main>
      <footer className="statusbar">
        {shownCurrent && past && state.asOf ? (
          <span className="muted" data-testid="status-counts">
            {shownCurrent.label} as of {formatTime(state.asOf)}: {formatNumber(shownCurrent.validFacts)} valid of {formatNumber(shownCurrent.facts)} facts
            recorded then · {formatNumber(shownCurrent.workingItems)} working items · {formatNumber(shownCurrent.needsReview)} need review now
          </span>
        ) : current ? (
          <span className="muted" data-testid="status-counts">
            {current.label}: {formatNumber(current.validFacts)} valid of {formatNumber(current.facts)} facts · {formatNumber(current.needsReview)} need review ·{' '}
            {formatNumber(current.workingItems)} working items
          </span>
        ) : null}
        <span className="grow" />
        {info.data?.db?.server ? <ServerStatus db={info.data.db} /> : null}
        <LiveIndicator />
      </footer>
      {state.deleteRequest && state.partitionId !== null ? (
        <DeleteDialog
          partitionId={state.partitionId}
          request={state.deleteRequest}
          onClose={() => dispatch({ type: 'delete', request: null })}
          onDeleted={(ids) => {
            dispatch({ type: 'select', ids, mode: 'remove' });
            if (state.factId && ids.includes(state.factId)) dispatch({ type: 'openFact', factId: null });
            toast('Deleted. Views have refreshed.');
          }}
        />
      ) : null}
      {state.exportOpen ? (
        <ExportDialog
          partitionId={state.partitionId}
          partitionLabel={current?.label ?? null}
          filter={state.filter}
          asOf={state.asOf}
          onClose={() => dispatch({ type: 'export', open: false })}
        />
      ) : null}
      {paletteOpen ? <CommandPalette partitions={list ?? []} onClose={() => setPaletteOpen(false)} /> : null}
      {state.connectOpen ? <ConnectServerDialog initial={state.connectPrefill} onClose={() => dispatch({ type: 'connect', open: false })} /> : null}
      {state.shortcutsOpen ? <ShortcutOverlay onClose={() => dispatch({ type: 'shortcuts', open: false })} /> : null}
    </div>
  );
}
