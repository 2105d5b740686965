// The shape of a benchmark section in `statelens bench`: each section runs its measurements
// and returns rows (figure, unit, target, baseline); the runner prints one Markdown report.
// Sections print progress through `log` only and assert nothing.
import os from 'node:os';
import Database from 'better-sqlite3';

export interface BenchRow {
  readonly metric: string;
  readonly value: number;
  readonly unit: string;
  /** The figure the section aims for, e.g. "≥ 100,000 facts/s". */
  readonly target?: string;
  /** A figure measured in the same run to compare with, e.g. raw inserts and the ratio. */
  readonly baseline?: string;
}

export interface BenchOptions {
  /** Small sizes only (the CI run; the whole quick report stays well under 15 minutes). */
  readonly quick?: boolean;
  /** Folder for scratch databases (default: the OS temp folder). */
  readonly dir?: string;
  /** The PostgreSQL server the postgres section measures on (--db URL or STATELENS_DB_URL). */
  readonly pgUrl?: string;
  /** Progress lines (the runner sends them to stderr). */
  readonly log?: (line: string) => void;
}

export interface BenchSection {
  readonly name: string;
  run(opts: BenchOptions): Promise<BenchRow[]> | BenchRow[];
}

export interface MachineInfo {
  cpu: string;
  cores: number;
  memoryGiB: number;
  node: string;
  sqlite: string;
  platform: string;
  loadAverage: number[];
}

export function machineInfo(): MachineInfo {
  const db = new Database(':memory:');
  try {
    return {
      cpu: os.cpus()[0]?.model.trim() ?? 'unknown',
      cores: os.cpus().length,
      memoryGiB: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
      node: process.version,
      sqlite: db.prepare('SELECT sqlite_version()').pluck().get() as string,
      platform: `${os.platform()} ${os.release()} ${os.arch()}`,
      loadAverage: os.loadavg().map((l) => Math.round(l * 100) / 100),
    };
  } finally {
    db.close();
  }
}

/** A whole number from the environment, or the fallback (bounded CI runs vs the full runs). */
export function envInt(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  return Number.isFinite(n) && n > 0 ? Math.floor(n) : fallback;
}

/** Rounds for display: whole numbers from 100 up, two decimals below. */
export function round(x: number): number {
  return x >= 100 ? Math.round(x) : Math.round(x * 100) / 100;
}

export function sizeLabel(n: number): string {
  return n >= 1_000_000 ? `${n / 1_000_000}M` : n >= 1000 ? `${n / 1000}k` : String(n);
}

export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  if (s.length === 0) return NaN;
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
}
