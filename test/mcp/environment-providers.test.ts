// Environment providers over MCP (the SDK client, the real `statelens mcp` child process): an
// agent sets them, and every assemble_context fetches them fresh; a provider that hangs is named
// as timed out; on every store.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { dbTarget } from '../helpers/db-targets';
import { describeStores } from '../helpers/stores';
import { connectMcp, type McpSession } from './client';

const stamp = (ms: number) => new Date(ms).toISOString().replace(/[-:]/g, '').replace(/\.\d+/, '');

describeStores('environment providers over MCP', (_open, kind) => {
  let mcp: McpSession;
  let dir: string;
  let hanging: Server;
  let hangingUrl: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'statelens-mcp-env-'));
    hanging = createServer(() => undefined); // accepts, never answers
    await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve));
    hangingUrl = `http://127.0.0.1:${(hanging.address() as AddressInfo).port}/c.ics`;
    mcp = await connectMcp(dbTarget(kind, 'envproviders').db, 'statelens-env-providers-test');
  }, 120_000);

  afterAll(async () => {
    await mcp?.close();
    hanging.closeAllConnections();
    hanging.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('assemble_context shows fresh calendar and file signals with their provider; a hanging one is named', async () => {
    const P = 'user:acme/env';
    const cal = join(dir, 'team.ics');
    const folder = join(dir, 'work');
    mkdirSync(folder);
    writeFileSync(join(folder, 'plan.md'), 'x');
    const now = Date.now();
    writeFileSync(
      cal,
      [
        'BEGIN:VCALENDAR',
        'BEGIN:VEVENT',
        `DTSTART:${stamp(now - 7200_000)}`,
        `DTEND:${stamp(now - 3600_000)}`,
        'SUMMARY:Ended sync',
        'END:VEVENT',
        'BEGIN:VEVENT',
        `DTSTART:${stamp(now + 3600_000)}`,
        `DTEND:${stamp(now + 7200_000)}`,
        'SUMMARY:Launch review',
        'END:VEVENT',
        'END:VCALENDAR',
      ].join('\r\n'),
    );
    const set = await mcp.ok('set_environment_providers', {
      partition: P,
      providers: [
        { kind: 'calendar', source: cal },
        { kind: 'recent_files', folder },
        { kind: 'calendar', source: hangingUrl },
      ],
    });
    expect((set.providers as unknown[]).length).toBe(3);
    const r = await mcp.ok('assemble_context', { partition: P, strategy: 'state_based', query: 'next meeting', preview: true });
    expect(r.text).toContain('calendar_proximity: Launch review');
    expect(r.text).not.toContain('Ended sync');
    expect(r.text).toContain('recent_file_modifications: plan.md');
    expect(r.text).toContain(`calendar_proximity: unavailable (calendar:${hangingUrl} timed out)`);
    const fetched = r.fetchedSignals as Array<{ provider: string; status: string; fetchedAt: string }>;
    expect(fetched.map((s) => [s.provider, s.status])).toEqual([
      [`calendar:${cal}`, 'ok'],
      [`recent_files:${folder}`, 'ok'],
      [`calendar:${hangingUrl}`, 'timeout'],
    ]);
    expect(Number.isNaN(Date.parse(fetched[0]!.fetchedAt))).toBe(false);

    const bad = await mcp.call('set_environment_providers', { partition: P, providers: [{ kind: 'calendar', source: 'https://example.com/x.ics' }] });
    expect(bad.isError).toBe(true);
    expect(bad.body.code).toBe('INVALID_INPUT');
  });
});
