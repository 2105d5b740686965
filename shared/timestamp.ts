// Timestamps: ISO-8601 date-times, stored in one canonical UTC form (YYYY-MM-DDTHH:MM:SS.sssZ)
// so that the database's text order is time order. An offset is applied; a date-time without
// one is read as UTC. Anything else — a bare word, a date alone, 25:00 — is refused.
import { z } from 'zod';
import { StatelensError } from './errors';

const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?([Zz]|[+-]\d{2}:?\d{2})?$/;
const MAX_INPUT = 64;

/** The canonical UTC form of an ISO-8601 date-time, or undefined when `text` is not one. */
export function canonicalTimestamp(text: string): string | undefined {
  if (text.length > MAX_INPUT) return undefined;
  const m = DATE_TIME.exec(text);
  if (!m) return undefined;
  const [year, month, day, hour, minute] = [m[1], m[2], m[3], m[4], m[5]].map(Number) as [number, number, number, number, number];
  const second = m[6] === undefined ? 0 : Number(m[6]);
  const millis = m[7] === undefined ? 0 : Math.floor(Number(`0.${m[7]}`) * 1000);
  if (month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59) return undefined;
  const check = new Date(0);
  check.setUTCFullYear(year, month - 1, day); // not Date.UTC, which maps years 0-99 to 1900+
  check.setUTCHours(hour, minute, second, millis);
  // Dates roll over (31 February becomes 3 March): such a date is refused, not moved.
  if (check.getUTCFullYear() !== year || check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day) return undefined;
  const local = check.getTime();
  const offset = m[8] === undefined || /^[Zz]$/.test(m[8]) ? 0 : offsetMinutes(m[8]);
  if (offset === undefined) return undefined;
  const utc = new Date(local - offset * 60_000);
  const utcYear = utc.getUTCFullYear();
  // Outside 0000-9999 toISOString widens the year and text order would no longer be time order.
  if (utcYear < 0 || utcYear > 9999) return undefined;
  return utc.toISOString();
}

function offsetMinutes(text: string): number | undefined {
  const digits = text.slice(1).replace(':', '');
  const hours = Number(digits.slice(0, 2));
  const minutes = Number(digits.slice(2, 4));
  if (hours > 23 || minutes > 59) return undefined;
  return (text.startsWith('-') ? -1 : 1) * (hours * 60 + minutes);
}

export function isCanonicalTimestamp(text: string): boolean {
  return canonicalTimestamp(text) === text;
}

export const TIMESTAMP_HINT = 'an ISO-8601 date-time such as 2025-03-01T14:30:00Z (an offset is converted to UTC; none means UTC)';

/** The canonical form of `text`, or an INVALID_INPUT error naming `what`. */
export function requireTimestamp(text: string, what: string): string {
  const canonical = canonicalTimestamp(text);
  if (canonical === undefined)
    throw new StatelensError('INVALID_INPUT', `${what} is not a date-time: "${text.slice(0, MAX_INPUT)}"; expected ${TIMESTAMP_HINT}`, { field: what });
  return canonical;
}

/** A timestamp on input: refused unless it is an ISO-8601 date-time, then canonical UTC. */
export const Timestamp = z
  .string()
  .max(MAX_INPUT)
  .transform((text, ctx) => {
    const canonical = canonicalTimestamp(text);
    if (canonical === undefined) {
      ctx.addIssue({ code: 'custom', message: `not a date-time: "${text.slice(0, MAX_INPUT)}"; expected ${TIMESTAMP_HINT}` });
      return z.NEVER;
    }
    return canonical;
  })
  .meta({ description: TIMESTAMP_HINT });
