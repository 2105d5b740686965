// Display formatting shared by the views (dates, numbers, sizes, ids).

/** The inspector's one time format: UTC, to the second, "2025-01-06 09:00:00 UTC". */
export function formatTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return `${d.toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

/** The date alone, as an ISO date (2025-01-06, UTC), where a day is all a label has room for. */
export function formatDate(iso: string | null | undefined): string {
  if (!iso) return '—';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toISOString().slice(0, 10);
}

export function formatNumber(n: number | null | undefined): string {
  return n === null || n === undefined ? '—' : n.toLocaleString('en-US');
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  if (n < 1024 ** 3) return `${(n / 1024 / 1024).toFixed(1)} MB`;
  return `${(n / 1024 ** 3).toFixed(2)} GB`;
}

export function shortId(id: string): string {
  return id.length > 14 ? `${id.slice(0, 6)}…${id.slice(-6)}` : id;
}

/** datetime-local value (minutes, UTC) <-> ISO string. The app works in UTC throughout. */
export function isoToLocalInput(iso: string | undefined): string {
  if (!iso) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  return d.toISOString().slice(0, 16);
}

export function localInputToIso(v: string): string | undefined {
  if (!v) return undefined;
  const d = new Date(v.length === 16 ? `${v}:00Z` : `${v}Z`);
  return Number.isNaN(d.getTime()) ? undefined : d.toISOString();
}

export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
}

/** A fact's status in the inspector's one vocabulary: an active fact is "valid" everywhere (the
 * table, dialogs, references); an active fact whose validity has ended is "expired". */
export function statusWord(status: string, isValid = status === 'active'): string {
  if (status === 'active') return isValid ? 'valid' : 'expired';
  return status;
}
