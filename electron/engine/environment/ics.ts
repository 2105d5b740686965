// A small iCalendar (RFC 5545) reader for what calendar proximity needs: each VEVENT's start, end
// and summary, with UTC, TZID and floating date-times, all-day dates and folded lines. Recurrence
// rules are not expanded: a recurring event is read as its first occurrence.
import { StatelensError } from '../../../shared/errors';

export interface CalendarEvent {
  summary: string;
  /** ISO instants (UTC); an all-day event spans its days' midnights in the reading time zone. */
  start: string;
  end: string;
  allDay: boolean;
}

interface Property {
  name: string;
  params: Record<string, string>;
  value: string;
}

/** Joins folded lines (a line break followed by a space or tab continues the previous line). */
export function unfold(text: string): string[] {
  return text
    .replace(/\r\n/g, '\n')
    .replace(/\r/g, '\n')
    .replace(/\n[ \t]/g, '')
    .split('\n');
}

function parseLine(line: string): Property | null {
  // The value starts after the first colon outside a quoted parameter value.
  let quoted = false;
  let colon = -1;
  for (let i = 0; i < line.length; i++) {
    if (line[i] === '"') quoted = !quoted;
    else if (line[i] === ':' && !quoted) {
      colon = i;
      break;
    }
  }
  if (colon < 0) return null;
  const [name = '', ...rawParams] = line.slice(0, colon).split(';');
  const params: Record<string, string> = {};
  for (const p of rawParams) {
    const eq = p.indexOf('=');
    if (eq > 0) params[p.slice(0, eq).toUpperCase()] = p.slice(eq + 1).replace(/^"|"$/g, '');
  }
  return { name: name.toUpperCase(), params, value: line.slice(colon + 1) };
}

function unescapeText(value: string): string {
  return value.replace(/\\([\\;,nN])/g, (_m, c: string) => (c === 'n' || c === 'N' ? '\n' : c));
}

/** The offset (ms) of `zone` from UTC at the instant `utcMs`. */
function zoneOffsetMs(zone: string, utcMs: number): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(new Date(utcMs));
  const n = (type: string): number => Number(parts.find((p) => p.type === type)?.value ?? 0);
  return Date.UTC(n('year'), n('month') - 1, n('day'), n('hour'), n('minute'), n('second')) - utcMs;
}

/** The UTC instant of a wall-clock time in `zone` (two passes settle the offset across a DST change). */
export function wallTimeToUtc(y: number, mo: number, d: number, h: number, mi: number, s: number, zone: string): number {
  const wall = Date.UTC(y, mo - 1, d, h, mi, s);
  let guess = wall - zoneOffsetMs(zone, wall);
  guess = wall - zoneOffsetMs(zone, guess);
  return guess;
}

function knownZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** A DTSTART/DTEND value as epoch ms; all-day dates are midnight in `zone`. */
function parseDateValue(prop: Property, zone: string): { ms: number; allDay: boolean } {
  const date = /^(\d{4})(\d{2})(\d{2})$/.exec(prop.value);
  if (date || prop.params.VALUE === 'DATE') {
    if (!date) throw new StatelensError('INVALID_INPUT', `${prop.name} "${prop.value}" is not a date (YYYYMMDD)`);
    return { ms: wallTimeToUtc(Number(date[1]), Number(date[2]), Number(date[3]), 0, 0, 0, zone), allDay: true };
  }
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})(Z?)$/.exec(prop.value);
  if (!m) throw new StatelensError('INVALID_INPUT', `${prop.name} "${prop.value}" is not an iCalendar date-time`);
  const [y, mo, d, h, mi, s] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  if (m[7] === 'Z') return { ms: Date.UTC(y, mo - 1, d, h, mi, s), allDay: false };
  // A TZID the runtime does not know (a custom VTIMEZONE name) falls back to the reading zone.
  const tzid = prop.params.TZID;
  const z = tzid && knownZone(tzid) ? tzid : zone;
  return { ms: wallTimeToUtc(y, mo, d, h, mi, s, z), allDay: false };
}

/** An RFC 5545 DURATION (e.g. PT1H30M, P1D, P1W) in ms. */
export function parseDuration(value: string): number {
  const m = /^([+-])?P(?:(\d+)W)?(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)S)?)?$/.exec(value);
  if (!m || value === 'P' || value.endsWith('T')) throw new StatelensError('INVALID_INPUT', `DURATION "${value}" is not an iCalendar duration`);
  const [w, d, h, mi, s] = m.slice(2, 7).map((x) => Number(x ?? 0)) as [number, number, number, number, number];
  const ms = ((((w * 7 + d) * 24 + h) * 60 + mi) * 60 + s) * 1000;
  return m[1] === '-' ? -ms : ms;
}

/** Every VEVENT of an iCalendar text; `zone` reads floating times and all-day dates. */
export function parseIcs(text: string, zone = 'UTC'): CalendarEvent[] {
  if (!/BEGIN:VCALENDAR/i.test(text)) throw new StatelensError('INVALID_INPUT', 'Not an iCalendar file (no BEGIN:VCALENDAR)');
  const events: CalendarEvent[] = [];
  let current: Property[] | null = null;
  let depth = 0; // components nested in the VEVENT (VALARM) are skipped
  for (const line of unfold(text)) {
    if (!line.trim()) continue;
    const prop = parseLine(line);
    if (!prop) continue;
    if (prop.name === 'BEGIN' && prop.value.toUpperCase() === 'VEVENT' && current === null) current = [];
    else if (current !== null && prop.name === 'BEGIN') depth++;
    else if (current !== null && prop.name === 'END' && depth > 0) depth--;
    else if (current !== null && prop.name === 'END' && prop.value.toUpperCase() === 'VEVENT') {
      const event = toEvent(current, zone);
      if (event) events.push(event);
      current = null;
    } else if (current !== null && depth === 0) current.push(prop);
  }
  return events;
}

function toEvent(props: Property[], zone: string): CalendarEvent | null {
  const get = (name: string): Property | undefined => props.find((p) => p.name === name);
  const dtstart = get('DTSTART');
  if (!dtstart) return null;
  if (get('STATUS')?.value.toUpperCase() === 'CANCELLED') return null;
  const start = parseDateValue(dtstart, zone);
  const dtend = get('DTEND');
  const duration = get('DURATION');
  let endMs: number;
  if (dtend) endMs = parseDateValue(dtend, zone).ms;
  else if (duration) endMs = start.ms + parseDuration(duration.value);
  else endMs = start.allDay ? start.ms + 24 * 3600_000 : start.ms; // RFC 5545 §3.6.1 defaults
  return {
    summary: unescapeText(get('SUMMARY')?.value ?? '(no title)'),
    start: new Date(start.ms).toISOString(),
    end: new Date(Math.max(endMs, start.ms)).toISOString(),
    allDay: start.allDay,
  };
}
