// Environment providers: signals fetched fresh at assembly time and never cached (the clock and
// time zone, the next meetings of an iCalendar file or local URL, the latest changed files of a
// folder). Each fetch has a deadline; a provider that fails or hangs yields an "unavailable"
// signal naming it, never a stale value.
import { readdir, readFile, stat } from 'node:fs/promises';
import { isAbsolute, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FetchedSignal } from '../../../shared/assembly';
import { StatelensError } from '../../../shared/errors';
import { isTimeZone } from '../layers/environment';
import { parseIcs } from './ics';

export type ProviderConfig =
  | { kind: 'clock'; timezone?: string }
  | { kind: 'calendar'; source: string; limit?: number; timezone?: string }
  | { kind: 'recent_files'; folder: string; limit?: number };

export type FreshSignal = FetchedSignal;

export const DEFAULT_PROVIDER_TIMEOUT_MS = 500;
const MAX_LIMIT = 50;
const TIMED_OUT = Symbol('timed out');

/** The name a provider is reported under in the provenance. */
export function providerName(c: ProviderConfig): string {
  if (c.kind === 'clock') return 'clock';
  if (c.kind === 'calendar') return `calendar:${c.source}`;
  return `recent_files:${c.folder}`;
}

const KEY: Record<ProviderConfig['kind'], string> = { clock: 'clock', calendar: 'calendar_proximity', recent_files: 'recent_file_modifications' };

function isLoopbackUrl(u: URL): boolean {
  return (u.protocol === 'http:' || u.protocol === 'https:') && ['localhost', '127.0.0.1', '[::1]'].includes(u.hostname);
}

/** Checks a configuration; bad input is a typed error. Sources must be on this machine. */
export function validateProvider(raw: unknown): ProviderConfig {
  const c = raw as Partial<Record<string, unknown>> | null;
  if (!c || typeof c !== 'object') throw new StatelensError('INVALID_INPUT', 'An environment provider is an object with a kind');
  const limit = c.limit;
  if (limit !== undefined && (!Number.isInteger(limit) || (limit as number) < 1 || (limit as number) > MAX_LIMIT))
    throw new StatelensError('INVALID_INPUT', `limit must be an integer from 1 to ${MAX_LIMIT}`);
  const tz = c.timezone;
  if (tz !== undefined && (typeof tz !== 'string' || !isTimeZone(tz)))
    throw new StatelensError('INVALID_INPUT', `timezone must be an IANA time zone; got ${String(tz)}`);
  if (c.kind === 'clock') return { kind: 'clock', ...(tz ? { timezone: tz as string } : {}) };
  if (c.kind === 'calendar') {
    const source = c.source;
    if (typeof source !== 'string' || !source) throw new StatelensError('INVALID_INPUT', 'A calendar provider needs a source: an .ics path or a local URL');
    if (/^[a-z]+:\/\//i.test(source)) {
      const u = new URL(source);
      if (u.protocol !== 'file:' && !isLoopbackUrl(u))
        throw new StatelensError('INVALID_INPUT', `A calendar URL must be on this machine (file: or localhost); got ${u.host}`);
    } else if (!isAbsolute(source)) throw new StatelensError('INVALID_INPUT', 'A calendar path must be absolute');
    return { kind: 'calendar', source, ...(limit ? { limit: limit as number } : {}), ...(tz ? { timezone: tz as string } : {}) };
  }
  if (c.kind === 'recent_files') {
    if (typeof c.folder !== 'string' || !isAbsolute(c.folder))
      throw new StatelensError('INVALID_INPUT', 'A recent_files provider needs an absolute folder path');
    return { kind: 'recent_files', folder: c.folder, ...(limit ? { limit: limit as number } : {}) };
  }
  throw new StatelensError('INVALID_INPUT', `Unknown environment provider kind ${String(c.kind)}; expected clock, calendar or recent_files`);
}

function clockText(now: Date, zone: string): string {
  const local = new Intl.DateTimeFormat('en-GB', { timeZone: zone, dateStyle: 'full', timeStyle: 'short', hourCycle: 'h23' }).format(now);
  return `${local} (${zone}; ${now.toISOString()})`;
}

async function readCalendar(source: string, signal: AbortSignal): Promise<string> {
  if (!/^[a-z]+:\/\//i.test(source)) return readFile(source, { encoding: 'utf8', signal });
  const u = new URL(source);
  if (u.protocol === 'file:') return readFile(fileURLToPath(u), { encoding: 'utf8', signal });
  const res = await fetch(u, { signal });
  if (!res.ok) throw new Error(`HTTP ${res.status}`);
  return res.text();
}

/** The meetings still to come or under way at `now` (an ended meeting is gone), soonest first. */
export function upcomingText(text: string, now: Date, zone: string, limit: number): string {
  const t = now.getTime();
  const next = parseIcs(text, zone)
    .filter((e) => Date.parse(e.end) > t)
    .sort((a, b) => a.start.localeCompare(b.start))
    .slice(0, limit);
  if (next.length === 0) return 'No upcoming meetings';
  const fmt = new Intl.DateTimeFormat('en-GB', { timeZone: zone, dateStyle: 'medium', timeStyle: 'short', hourCycle: 'h23' });
  return next
    .map((e) => {
      const startMs = Date.parse(e.start);
      const when =
        startMs <= t
          ? `now, until ${fmt.format(new Date(e.end))}`
          : e.allDay
            ? `all day ${e.start.slice(0, 10)}`
            : `${fmt.format(new Date(startMs))}, in ${Math.round((startMs - t) / 60000)} min`;
      return `${e.summary} (${when})`;
    })
    .join('; ');
}

async function recentFiles(folder: string, limit: number): Promise<string> {
  const entries = await readdir(folder, { withFileTypes: true });
  const files = await Promise.all(entries.filter((e) => e.isFile()).map(async (e) => ({ name: e.name, mtime: (await stat(join(folder, e.name))).mtime })));
  files.sort((a, b) => b.mtime.getTime() - a.mtime.getTime() || a.name.localeCompare(b.name));
  if (files.length === 0) return 'No files';
  return files
    .slice(0, limit)
    .map((f) => `${f.name} (${f.mtime.toISOString()})`)
    .join('; ');
}

/** One provider's fetch, without a deadline (the caller races it). */
export async function runProvider(c: ProviderConfig, now: Date, signal: AbortSignal): Promise<string> {
  if (c.kind === 'clock') return clockText(now, c.timezone ?? 'UTC');
  if (c.kind === 'calendar') return upcomingText(await readCalendar(c.source, signal), now, c.timezone ?? 'UTC', c.limit ?? 3);
  return recentFiles(c.folder, c.limit ?? 5);
}

export type ProviderRunner = (c: ProviderConfig, now: Date, signal: AbortSignal) => Promise<string>;

/** Fetches every provider at once, each bounded by `timeoutMs`: the result is ready by then even
 * when a provider hangs (its late answer is ignored; it is asked to abort). */
export async function fetchFresh(
  configs: readonly ProviderConfig[],
  opts: { timeoutMs?: number; now?: () => Date; run?: ProviderRunner } = {},
): Promise<FreshSignal[]> {
  const timeoutMs = opts.timeoutMs ?? DEFAULT_PROVIDER_TIMEOUT_MS;
  const now = opts.now ?? (() => new Date());
  const run = opts.run ?? runProvider;
  return Promise.all(
    configs.map(async (c): Promise<FreshSignal> => {
      const base = { key: KEY[c.kind], provider: providerName(c) };
      const controller = new AbortController();
      let timer: ReturnType<typeof setTimeout> | undefined;
      const timeout = new Promise<typeof TIMED_OUT>((resolve) => {
        timer = setTimeout(() => resolve(TIMED_OUT), timeoutMs);
      });
      try {
        const value = await Promise.race([run(c, now(), controller.signal), timeout]);
        if (value === TIMED_OUT) {
          controller.abort();
          return { ...base, value: null, fetchedAt: now().toISOString(), status: 'timeout', error: `no answer within ${timeoutMs} ms` };
        }
        return { ...base, value, fetchedAt: now().toISOString(), status: 'ok' };
      } catch (e) {
        return { ...base, value: null, fetchedAt: now().toISOString(), status: 'failed', error: e instanceof Error ? e.message : String(e) };
      } finally {
        clearTimeout(timer);
      }
    }),
  );
}

/** The line a fresh signal contributes to the context: its value, or that it is unavailable. */
export function freshSignalLine(s: FreshSignal): string {
  return s.value !== null ? `${s.key}: ${s.value}` : `${s.key}: unavailable (${s.provider} ${s.status === 'timeout' ? 'timed out' : 'failed'})`;
}
