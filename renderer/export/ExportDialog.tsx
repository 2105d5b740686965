// The export dialog: a snapshot of the database or the current partition in any of the
// snapshot formats, of everything or only of the table's filter and/or the state as of a time,
// with progress and cancel. Desktop writes where the save dialog says; browser mode offers the
// file as a one-time download.
import { useState } from 'react';
import { ExportFormat, type ChannelOutput } from '../../shared/contract';
import { toErrorShape, type ErrorShape } from '../../shared/errors';
import type { FactFilterInput } from '../../shared/query';
import { newOperationId, useApi, useProgress } from '../api/hooks';
import { Button } from '../ui/Button';
import { Dialog } from '../ui/Dialog';
import { activeFilterCount, cleanFilter } from '../memories/FilterBar';
import { Checkbox, SelectField } from '../ui/fields';
import { DateTimeField } from '../ui/DateTimeInput';
import { formatBytes, formatTime, plural } from '../ui/format';
import { ProgressBar } from '../ui/meters';
import { ErrorState } from '../ui/states';
import './export.css';

const FORMAT_TEXT: Record<ExportFormat, string> = {
  json: 'JSON snapshot (one document, re-importable)',
  ndjson: 'NDJSON snapshot (one record per line, streams, re-importable)',
  sqlite: 'SQLite file (a compact copy of the database)',
  markdown: 'Markdown (readable report)',
  csv: 'CSV (facts as rows, for spreadsheets)',
  statebench: 'StateBench JSONL (for the benchmark harness)',
};

type Phase =
  | { step: 'choose' }
  | { step: 'running'; operationId: string }
  | { step: 'done'; result: ChannelOutput<'export.start'> }
  | { step: 'failed'; error: ErrorShape };

export function ExportDialog({
  partitionId,
  partitionLabel,
  filter,
  asOf = null,
  onClose,
}: {
  partitionId: number | null;
  partitionLabel: string | null;
  filter: FactFilterInput;
  asOf?: string | null;
  onClose: () => void;
}) {
  const { transport } = useApi();
  const [format, setFormat] = useState<ExportFormat>('ndjson');
  const [scope, setScope] = useState<'partition' | 'database'>(partitionId !== null ? 'partition' : 'database');
  const [filtered, setFiltered] = useState(false);
  // Travelling in time, the export shows that time's state unless the user says otherwise.
  const [asOfOn, setAsOfOn] = useState(asOf !== null);
  const [asOfValue, setAsOfValue] = useState<string | undefined>(asOf ?? undefined);
  const conditions = activeFilterCount(filter);
  const [phase, setPhase] = useState<Phase>({ step: 'choose' });
  const progress = useProgress(phase.step === 'running' ? phase.operationId : undefined);

  async function start() {
    const operationId = newOperationId('export');
    setPhase({ step: 'running', operationId });
    // The table's conditions (its own time is the as-of choice below) and the as-of time.
    const { asOf: _tableAsOf, ...conditionsOf } = cleanFilter(filter);
    const selection = { ...(filtered && conditions > 0 ? conditionsOf : {}), ...(asOfOn && asOfValue ? { asOf: asOfValue } : {}) };
    try {
      const result = await transport.call('export.start', {
        format,
        partitionId: scope === 'partition' ? partitionId : null,
        operationId,
        ...(Object.keys(selection).length > 0 ? { filter: selection } : {}),
      });
      setPhase({ step: 'done', result });
    } catch (e) {
      setPhase({ step: 'failed', error: toErrorShape(e) });
    }
  }

  async function cancel() {
    if (phase.step !== 'running') return;
    try {
      await transport.call('export.cancel', { operationId: phase.operationId });
    } catch {
      // The export may have just finished; its own answer tells.
    }
  }

  const running = phase.step === 'running';
  const footer = running ? (
    <Button onClick={() => void cancel()} data-testid="export-cancel">
      Cancel export
    </Button>
  ) : phase.step === 'done' ? (
    <Button variant="primary" onClick={onClose}>
      Close
    </Button>
  ) : (
    <>
      <Button onClick={onClose}>Close</Button>
      <Button variant="primary" onClick={() => void start()} data-testid="export-start">
        Export
      </Button>
    </>
  );

  return (
    <Dialog title="Export a snapshot" onClose={running ? () => void cancel() : onClose} footer={footer}>
      {phase.step === 'done' ? (
        <ExportOutcome result={phase.result} />
      ) : (
        <>
          <SelectField<ExportFormat>
            label="Format"
            value={format}
            options={ExportFormat.options.map((f) => ({ value: f, label: `${f} — ${FORMAT_TEXT[f]}` }))}
            onChange={setFormat}
            disabled={running}
          />
          <SelectField<'partition' | 'database'>
            label="What to export"
            value={scope}
            onChange={setScope}
            disabled={running}
            options={[
              ...(partitionId !== null ? [{ value: 'partition' as const, label: `This partition (${partitionLabel ?? partitionId})` }] : []),
              { value: 'database' as const, label: 'The whole database' },
            ]}
          />
          <fieldset className="export-selection">
            <legend>What the file holds</legend>
            <Checkbox
              label={`Only the facts of the table's current filter (${conditions > 0 ? plural(conditions, 'condition') : 'none set'})`}
              checked={filtered && conditions > 0}
              onChange={setFiltered}
              disabled={running || conditions === 0}
            />
            <Checkbox
              label={asOfOn && asOfValue ? `The state as of ${formatTime(asOfValue)}` : 'The state as of a time'}
              checked={asOfOn}
              onChange={setAsOfOn}
              disabled={running}
            />
            {asOfOn ? <DateTimeField label="Export as of (UTC)" value={asOfValue} onChange={setAsOfValue} disabled={running} /> : null}
            <p className="faint">
              {asOfOn ? 'Facts as they stood then; working items, documents and audit entries as far as they existed. ' : ''}
              Applies to every format.
            </p>
          </fieldset>
          {running ? <ProgressBar label="Exporting" done={progress?.done ?? 0} total={progress?.total ?? null} /> : null}
          {running && progress ? <span className="muted">{progress.phase}</span> : null}
          {phase.step === 'failed' ? <ErrorState error={phase.error} context="Export" /> : null}
        </>
      )}
    </Dialog>
  );
}

export function ExportOutcome({ result }: { result: ChannelOutput<'export.start'> }) {
  if (result.status === 'cancelled') {
    return (
      <p role="status" data-testid="export-outcome">
        The export was cancelled; no file was kept.
      </p>
    );
  }
  if (result.status === 'saved') {
    return (
      <p role="status" data-testid="export-outcome">
        Saved {result.format} ({formatBytes(result.bytes)}) to <code className="memory-text">{result.path}</code>.
      </p>
    );
  }
  return (
    <div role="status" className="col" data-testid="export-outcome">
      <p>
        The {result.format} export is ready ({formatBytes(result.bytes)}).
      </p>
      <DownloadOnce url={result.url} fileName={result.fileName} />
    </div>
  );
}

/** The server serves an export once: after the click the link is replaced by what happened. */
function DownloadOnce({ url, fileName }: { url: string; fileName: string }) {
  const [used, setUsed] = useState(false);
  if (used) {
    return (
      <p data-testid="export-downloaded">
        Downloaded <code className="memory-text">{fileName}</code>. The link worked once and is gone; export again for another copy.
      </p>
    );
  }
  return (
    <>
      {/* The state changes after the click's default action (the download) has started. */}
      <a className="download-link" href={url} download={fileName} data-testid="export-download" onClick={() => setTimeout(() => setUsed(true), 0)}>
        Download {fileName}
      </a>
      <p className="faint">The link works once.</p>
    </>
  );
}
