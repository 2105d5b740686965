// What the handlers need from their host besides the engine: native dialogs and the recent
// list in the desktop app; fixed answers and a download folder in browser mode.
import type { AppMode, CredentialOutcome, ExportFormat, RecentEntry, RecentServer } from '../../shared/contract';

export interface DefaultDatabase {
  readonly path: string;
  /** Demo data generated into it when it is created (first run). */
  readonly demo: { readonly facts: number; readonly seed: number };
}

/** Where an export goes: a path the user chose (desktop) or a one-time download (browser). */
export type ExportTarget =
  | { readonly kind: 'file'; readonly path: string }
  | { readonly kind: 'download'; readonly path: string; readonly fileName: string; publish(bytes: number): string; discard(): void };

export interface ServerRef {
  readonly url: string;
  readonly schema: string;
  readonly org: string;
}

/** Desktop: servers connected to before and their kept passwords (which never leave main). */
export interface ServerShell {
  list(): Promise<RecentServer[]>;
  /** The recent server at `index` with its kept password (null: none kept), or null. */
  recent(index: number): Promise<(ServerRef & { readonly password: string | null }) | null>;
  /** Puts `server` first in the list; keeps `password` (null: forget it; undefined: leave it). */
  remember(server: ServerRef, password: string | null | undefined): Promise<CredentialOutcome>;
}

export interface Shell {
  readonly mode: AppMode;
  /** Desktop: the native open dialog; null when the user cancels. */
  chooseDatabase(): Promise<string | null>;
  recent(): Promise<RecentEntry[]>;
  rememberRecent(path: string): Promise<void>;
  defaultDatabase(): DefaultDatabase | null;
  /** Desktop: the native save dialog; null when the user cancels. Browser: a server-side file. */
  chooseExportTarget(format: ExportFormat, suggestedName: string): Promise<ExportTarget | null>;
  /** Desktop only: connecting to PostgreSQL servers (absent: `db.connect` is refused). */
  readonly servers?: ServerShell;
}

export const EXPORT_EXTENSIONS: Readonly<Record<ExportFormat, string>> = {
  json: 'json',
  ndjson: 'ndjson',
  sqlite: 'db',
  markdown: 'md',
  csv: 'csv',
  statebench: 'json',
};
