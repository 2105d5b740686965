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

/** The text of a date-time input, in the app's one 24-hour format without the zone (the labels
 * say UTC): "2025-01-06 09:00"; seconds only when there are some. */
export function isoToInputText(iso: string | null | undefined): string {
  if (!iso) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  const text = d.toISOString().slice(0, 19).replace('T', ' ');
  return text.endsWith(':00') ? text.slice(0, 16) : text;
}

const INPUT_TIME = /^\s*(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{1,2}):(\d{2})(?::(\d{2}))?)?\s*(?:UTC|Z)?\s*$/i;

/** A typed date-time (UTC) as an ISO string: "2025-01-06 09:00", with seconds, with a "T", or a
 * date alone (midnight); undefined for empty or unreadable text or an impossible date. */
export function inputTextToIso(text: string): string | undefined {
  const m = INPUT_TIME.exec(text);
  if (!m) return undefined;
  const [y, mo, d, h = '0', mi = '0', s = '0'] = m.slice(1).map((x) => x ?? undefined) as string[];
  const t = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s));
  const date = new Date(t);
  // Date.UTC rolls 2025-02-30 over into March: such a date was mistyped.
  if (Number.isNaN(t) || date.getUTCMonth() !== Number(mo) - 1 || date.getUTCDate() !== Number(d) || Number(h) > 23 || Number(mi) > 59 || Number(s) > 59)
    return undefined;
  return date.toISOString();
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
