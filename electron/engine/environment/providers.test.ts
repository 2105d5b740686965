import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseIcs } from './ics';
import { fetchFresh, freshSignalLine, validateProvider } from './providers';

const ICS = [
  'BEGIN:VCALENDAR',
  'VERSION:2.0',
  'BEGIN:VEVENT',
  'DTSTART:20261128T090000Z',
  'DTEND:20261128T093000Z',
  'SUMMARY:Standup that already ended',
  'END:VEVENT',
  'BEGIN:VEVENT',
  'DTSTART;TZID=Europe/Paris:20261128T110000',
  'DTEND;TZID=Europe/Paris:20261128T120000',
  // A folded line: the continuation starts with a space.
  'SUMMARY:Design review of the quarterly ',
  ' roadmap\\, with Bob',
  'BEGIN:VALARM',
  'TRIGGER:-PT15M',
  'SUMMARY:alarm text is not the event',
  'END:VALARM',
  'END:VEVENT',
  'BEGIN:VEVENT',
  'DTSTART;VALUE=DATE:20261130',
  'SUMMARY:Offsite',
  'END:VEVENT',
  'BEGIN:VEVENT',
  'DTSTART:20261128T100000Z',
  'DURATION:PT2H',
  'SUMMARY:Workshop under way',
  'END:VEVENT',
  'END:VCALENDAR',
].join('\r\n');

describe('iCalendar reader', () => {
  it('reads UTC, TZID, all-day and duration events, unfolding lines and skipping nested alarms', () => {
    const events = parseIcs(ICS, 'UTC');
    expect(events.map((e) => e.summary)).toEqual([
      'Standup that already ended',
      'Design review of the quarterly roadmap, with Bob',
      'Offsite',
      'Workshop under way',
    ]);
    // 11:00 in Paris in November is 10:00 UTC (CET, UTC+1).
    expect(events[1]).toMatchObject({ start: '2026-11-28T10:00:00.000Z', end: '2026-11-28T11:00:00.000Z', allDay: false });
    expect(events[2]).toMatchObject({ start: '2026-11-30T00:00:00.000Z', end: '2026-12-01T00:00:00.000Z', allDay: true });
    expect(events[3]?.end).toBe('2026-11-28T12:00:00.000Z');
    // A TZID in summer time: 11:00 in Paris in July is 09:00 UTC (CEST, UTC+2).
    const summer = parseIcs('BEGIN:VCALENDAR\nBEGIN:VEVENT\nDTSTART;TZID=Europe/Paris:20260701T110000\nSUMMARY:x\nEND:VEVENT\nEND:VCALENDAR');
    expect(summer[0]?.start).toBe('2026-07-01T09:00:00.000Z');
  });

  it('rejects what is not a calendar or a malformed date with a typed error', () => {
    expect(() => parseIcs('hello')).toThrow(expect.objectContaining({ code: 'INVALID_INPUT' }));
    expect(() => parseIcs('BEGIN:VCALENDAR\nBEGIN:VEVENT\nDTSTART:tomorrow\nEND:VEVENT\nEND:VCALENDAR')).toThrow(/not an iCalendar date-time/);
  });
});

describe('environment providers', () => {
  let dir: string;
  let hanging: Server;
  let hangingUrl: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'statelens-env-'));
    // A server that accepts the request and never answers: a provider that hangs.
    hanging = createServer(() => undefined);
    await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve));
    hangingUrl = `http://127.0.0.1:${(hanging.address() as AddressInfo).port}/cal.ics`;
  });
  afterAll(() => {
    hanging.closeAllConnections();
    hanging.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('calendar proximity from a real .ics file: a meeting that ended is gone, one under way shows', async () => {
    const file = join(dir, 'work.ics');
    writeFileSync(file, ICS);
    const now = () => new Date('2026-11-28T09:45:00Z');
    const [s] = await fetchFresh([validateProvider({ kind: 'calendar', source: file })], { now });
    expect(s).toMatchObject({ key: 'calendar_proximity', status: 'ok', provider: `calendar:${file}`, fetchedAt: '2026-11-28T09:45:00.000Z' });
    expect(s?.value).not.toContain('Standup');
    expect(s?.value).toMatch(/^Design review of the quarterly roadmap, with Bob \(.*in 15 min\); Workshop under way \(.*in 15 min\); Offsite/);
    // Fetched fresh: the same provider later no longer shows the design review once it ended.
    const [later] = await fetchFresh([validateProvider({ kind: 'calendar', source: `file://${file}` })], { now: () => new Date('2026-11-28T11:30:00Z') });
    expect(later?.value).not.toContain('Design review');
    expect(later?.value).toContain('Workshop under way (now');
  });

  it('recent file modifications of a real folder, newest first; a missing folder is named as failed', async () => {
    const folder = join(dir, 'project');
    rmSync(folder, { recursive: true, force: true });
    mkdirSync(folder);
    for (const [name, t] of [
      ['old.txt', 1_700_000_000],
      ['new.md', 1_800_000_000],
      ['mid.ts', 1_750_000_000],
    ] as const) {
      writeFileSync(join(folder, name), name);
      utimesSync(join(folder, name), t, t);
    }
    const [s, missing] = await fetchFresh([
      validateProvider({ kind: 'recent_files', folder, limit: 2 }),
      validateProvider({ kind: 'recent_files', folder: join(dir, 'nope') }),
    ]);
    expect(s?.value).toBe(`new.md (${new Date(1_800_000_000_000).toISOString()}); mid.ts (${new Date(1_750_000_000_000).toISOString()})`);
    expect(missing).toMatchObject({ status: 'failed', value: null, provider: `recent_files:${join(dir, 'nope')}` });
    expect(freshSignalLine(missing!)).toBe(`recent_file_modifications: unavailable (recent_files:${join(dir, 'nope')} failed)`);
  });

  it('a provider that hangs is cut at the deadline and named, while the others answer', async () => {
    const started = Date.now();
    const [clock, cal] = await fetchFresh(
      [validateProvider({ kind: 'clock', timezone: 'Asia/Tokyo' }), validateProvider({ kind: 'calendar', source: hangingUrl })],
      { timeoutMs: 300, now: () => new Date('2026-11-28T09:45:00Z') },
    );
    expect(Date.now() - started).toBeLessThan(5000); // bounded by the deadline, not by the server
    expect(clock?.value).toContain('Asia/Tokyo');
    expect(clock?.value).toContain('18:45');
    expect(cal).toMatchObject({ status: 'timeout', value: null, provider: `calendar:${hangingUrl}` });
    expect(freshSignalLine(cal!)).toBe(`calendar_proximity: unavailable (calendar:${hangingUrl} timed out)`);
  });

  it('rejects configurations reaching off this machine or malformed', () => {
    for (const bad of [
      { kind: 'calendar', source: 'https://calendar.example.com/x.ics' },
      { kind: 'calendar', source: 'relative.ics' },
      { kind: 'recent_files', folder: 'relative' },
      { kind: 'clock', timezone: 'Mars/Olympus' },
      { kind: 'weather' },
      { kind: 'recent_files', folder: '/tmp', limit: 0 },
    ])
      expect(() => validateProvider(bad), JSON.stringify(bad)).toThrow(expect.objectContaining({ code: 'INVALID_INPUT' }));
  });
});
