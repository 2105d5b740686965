// File › Import from…: memory another system keeps (the MCP memory server's file, Mem0, a
// LangGraph store export, a Letta agent file) imported into the open database, started only from
// the application menu. Main asks for the file with a native dialog and the engine worker reads
// and writes it; the renderer only hears progress (a display-only event) and never sends content.
// The dialogs are passed in, so this runs under Node in tests and with Electron's in the app.
import { StatelensError, isStatelensError } from '../../shared/errors';
import type { Progress } from '../../shared/contract';
import type { ForeignImportSummary } from '../engine/import/foreign/apply';
import type { ForeignSystem } from '../engine/import/foreign/plan';
import type { EngineHost } from '../engine-host/facade';

export interface ImportSource {
  readonly system: ForeignSystem;
  /** The menu item. */
  readonly label: string;
  readonly title: string;
  readonly filters: ReadonlyArray<{ readonly name: string; readonly extensions: readonly string[] }>;
}

const ALL_FILES = { name: 'All files', extensions: ['*'] };

export const IMPORT_SOURCES: readonly ImportSource[] = [
  {
    system: 'mcp-memory',
    label: 'MCP Memory JSONL…',
    title: "Import the MCP memory server's memory file",
    filters: [{ name: 'MCP memory file (JSONL)', extensions: ['jsonl', 'json'] }, ALL_FILES],
  },
  {
    system: 'mem0',
    label: 'Mem0 History Database or Export…',
    title: "Import Mem0's history database or memory export",
    filters: [{ name: 'Mem0 history (SQLite) or export (JSON)', extensions: ['db', 'sqlite', 'sqlite3', 'json'] }, ALL_FILES],
  },
  {
    system: 'langgraph',
    label: 'LangGraph Store Export…',
    title: 'Import a LangGraph store export',
    filters: [{ name: 'LangGraph store export (JSON, JSONL)', extensions: ['json', 'jsonl', 'ndjson'] }, ALL_FILES],
  },
  {
    system: 'letta',
    label: 'Letta Agent File…',
    title: 'Import a Letta agent file',
    filters: [{ name: 'Letta agent file', extensions: ['af', 'json'] }, ALL_FILES],
  },
];

/** What the import needs from the app: native dialogs and the window's progress bar. */
export interface ImportDialogs {
  /** A native open dialog; null when cancelled. */
  chooseFile(source: ImportSource): Promise<string | null>;
  /** A native message box. */
  showMessage(message: { readonly type: 'info' | 'error'; readonly title: string; readonly message: string; readonly detail: string }): Promise<void>;
  /** The window's own progress bar: a fraction, or null when done. */
  setProgress?(fraction: number | null): void;
}

export type ImportOutcome =
  | { readonly status: 'cancelled' }
  | { readonly status: 'imported'; readonly summary: ForeignImportSummary }
  | { readonly status: 'failed'; readonly error: StatelensError };

/** Runs one File › Import from… item: dialog, import in the worker, summary. Never throws:
 * a failure is shown (and returned); nothing was written then (the import is one transaction). */
export async function importFromMenu(system: ForeignSystem, engine: Pick<EngineHost, 'call' | 'on' | 'off'>, dialogs: ImportDialogs): Promise<ImportOutcome> {
  const source = IMPORT_SOURCES.find((s) => s.system === system);
  if (!source) throw new StatelensError('INVALID_INPUT', `No importer for ${system}`);
  const file = await dialogs.chooseFile(source);
  if (!file) return { status: 'cancelled' };
  const operationId = `import-${system}-${Date.now().toString(36)}`;
  const onProgress = (p: Progress): void => {
    if (p.operationId === operationId && p.total) dialogs.setProgress?.(p.done / p.total);
  };
  engine.on('progress', onProgress);
  try {
    const summary = await engine.call('import.foreign', { system, file }, operationId);
    await dialogs.showMessage({ type: 'info', title: 'Import finished', message: `Imported ${system} memory`, detail: summaryText(summary) });
    return { status: 'imported', summary };
  } catch (e) {
    const error = isStatelensError(e) ? e : new StatelensError('IMPORT_FAILED', e instanceof Error ? e.message : String(e));
    await dialogs.showMessage({
      type: 'error',
      title: 'Import failed',
      message: `Could not import ${file}`,
      detail: `${error.message}\n\nNothing was imported.`,
    });
    return { status: 'failed', error };
  } finally {
    engine.off('progress', onProgress);
    dialogs.setProgress?.(null);
  }
}

/** Records listed one by one in the summary; the rest are counted. */
const LISTED = 10;

/** The summary as the message box shows it (the CLI's, in sentences). */
export function summaryText(s: ForeignImportSummary): string {
  const lines = [
    `From ${s.sourceName} into ${s.partitions.map((p) => p.partition).join(', ')}:`,
    `${s.facts} facts (${s.supersessions} superseding an earlier version), ${s.dependencyEdges} dependencies, ` +
      `${s.deletions} deletions recorded, ${s.turns} conversation turns, ${s.duplicates} duplicates.`,
  ];
  if (s.skipped.length > 0) {
    lines.push('', `${s.skipped.length} records left out:`);
    for (const r of s.skipped.slice(0, LISTED)) lines.push(`  ${r.where}: ${r.reason}`);
    if (s.skipped.length > LISTED) lines.push(`  … and ${s.skipped.length - LISTED} more (statelens import ${s.system} --json lists all)`);
  }
  if (s.notes.length > 0) lines.push('', `${s.notes.length} notes (first: ${s.notes[0]?.where}: ${s.notes[0]?.reason})`);
  return lines.join('\n');
}
