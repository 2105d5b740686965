// Environment providers through the partition, on every store: configured per partition, fetched
// fresh at each assembly (a real .ics file and folder), a hanging provider named as unavailable.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeStores } from '../helpers/stores';

const USER = { kind: 'user', org: 'acme', user: 'ann' } as const;
const ics = (events: Array<[string, string, string]>): string =>
  ['BEGIN:VCALENDAR', ...events.flatMap(([s, e, t]) => ['BEGIN:VEVENT', `DTSTART:${s}`, `DTEND:${e}`, `SUMMARY:${t}`, 'END:VEVENT']), 'END:VCALENDAR'].join(
    '\r\n',
  );

let dir: string;
let hanging: Server;
let hangingUrl: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'statelens-providers-'));
  hanging = createServer(() => undefined); // accepts, never answers
  await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve));
  hangingUrl = `http://127.0.0.1:${(hanging.address() as AddressInfo).port}/team.ics`;
});
afterAll(() => {
  hanging.closeAllConnections();
  hanging.close();
  rmSync(dir, { recursive: true, force: true });
});

describeStores('environment providers', (openStore) => {
  it('fetches fresh at every assembly: an ended meeting is gone, a changed calendar shows at once', async () => {
    const store = openStore();
    const p = store.scope(USER, { create: true });
    const cal = join(dir, `cal-${Math.random().toString(36).slice(2)}.ics`);
    const folder = join(dir, `files-${Math.random().toString(36).slice(2)}`);
    mkdirSync(folder);
    writeFileSync(join(folder, 'draft.md'), 'x');
    // The store's clock (tests may start it at a fixed instant) is the provider's now.
    const now = Date.parse(p.assemble({ strategy: 'recent', query: 'q', budget: 100 }).now);
    const inHour = (h: number) => new Date(now + h * 3600_000).toISOString().replace(/[-:]/g, '').replace(/\.\d+/, '');
    writeFileSync(
      cal,
      ics([
        [inHour(-3), inHour(-2), 'Retro that ended'],
        [inHour(1), inHour(2), 'Budget review'],
      ]),
    );
    p.setEnvironment([{ key: 'office_status', value: 'office open' }]);
    p.setEnvironmentProviders([
      { kind: 'clock', timezone: 'Europe/Paris' },
      { kind: 'calendar', source: cal },
      { kind: 'recent_files', folder },
    ]);
    expect(p.environmentProviders().map((c) => c.kind)).toEqual(['clock', 'calendar', 'recent_files']);
    // The configuration is no signal of the environment.
    expect(p.environment().map((s) => s.key)).toEqual(['office_status']);

    const first = await p.assembleFresh({ strategy: 'state_based', query: 'what is next?', budget: 2000 });
    expect(first.text).toContain('calendar_proximity: Budget review');
    expect(first.text).not.toContain('Retro that ended');
    expect(first.text).toContain('recent_file_modifications: draft.md');
    expect(first.text).toContain('Europe/Paris');
    expect(first.text).toContain('office_status: office open'); // pushed signals as before
    expect(first.fetchedSignals?.map((s) => [s.provider, s.status])).toEqual([
      ['clock', 'ok'],
      [`calendar:${cal}`, 'ok'],
      [`recent_files:${folder}`, 'ok'],
    ]);

    // Nothing is cached: the next assembly reads the calendar as it is now.
    writeFileSync(cal, ics([[inHour(-1), inHour(-0.5), 'Budget review']]));
    const second = await p.assembleFresh({ strategy: 'reference', query: 'what is next?' });
    expect(second.text).toContain('calendar_proximity: No upcoming meetings');
    expect(second.text).not.toContain('Budget review');
    // The plain synchronous assembly fetches nothing and shows no provider signal.
    expect(p.assemble({ strategy: 'state_based', query: 'q', budget: 2000 }).text).not.toContain('calendar_proximity');
    store.close();
  });

  it('a provider that hangs or fails is named and the context says the signal is unavailable', async () => {
    const store = openStore();
    const p = store.scope(USER, { create: true });
    p.setEnvironmentProviders([
      { kind: 'calendar', source: hangingUrl },
      { kind: 'recent_files', folder: join(dir, 'missing') },
    ]);
    const r = await p.assembleFresh({ strategy: 'state_based', query: 'q', budget: 2000 }, { timeoutMs: 200 });
    expect(r.text).toContain(`calendar_proximity: unavailable (calendar:${hangingUrl} timed out)`);
    expect(r.text).toContain(`recent_file_modifications: unavailable (recent_files:${join(dir, 'missing')} failed)`);
    expect(r.fetchedSignals?.map((s) => s.status)).toEqual(['timeout', 'failed']);
    store.close();
  });

  it('bad configurations and the reserved key are typed errors that change nothing', () => {
    const store = openStore();
    const p = store.scope(USER, { create: true });
    expect(() => p.setEnvironmentProviders([{ kind: 'calendar', source: 'https://example.com/c.ics' }])).toThrow(
      expect.objectContaining({ code: 'INVALID_INPUT' }),
    );
    expect(() => p.setEnvironment([{ key: 'statelens:environment_providers', value: '[]' }])).toThrow(expect.objectContaining({ code: 'INVALID_INPUT' }));
    expect(p.environmentProviders()).toEqual([]);
    store.close();
  });
});
