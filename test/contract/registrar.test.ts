// Registrar and preload conformance on a real fixture database: every channel answers through
// the bridge inside the contract; foreign senders, unknown channels, extra keys and oversized
// payloads are refused with typed errors; events reach the page as payloads only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CALL_CHANNELS, callDef, callResultSchema, ipcCallChannel, splitChannel, type CallResult, type EventPayload } from '../../shared/contract';
import { ErrorShape } from '../../shared/errors';
import { APP_ORIGIN } from '../../electron/main/sender-policy';
import type { Fixture } from './fixture';
import { fakeFrame, FakeWebContents, senderEvent, startFixtureHarness, type FixtureHarness } from './harness';
import { allSamples } from './samples';

let fx: Fixture;
let h: FixtureHarness;

beforeAll(async () => {
  h = await startFixtureHarness('statelens-registrar-');
  fx = h.fx;
}, 120_000);
afterAll(() => h?.close());

type AnyCall = (input?: unknown) => Promise<CallResult<unknown>>;
function bridgeCall(channel: string): AnyCall {
  const [ns, m] = splitChannel(channel as never);
  return (h.bridge as unknown as Record<string, Record<string, AnyCall>>)[ns]![m]!;
}

function expectError(result: CallResult<unknown>, code: string): void {
  expect(result.ok).toBe(false);
  if (!result.ok) {
    expect(ErrorShape.parse(result.error).code).toBe(code);
    expect(result.error.message.length).toBeGreaterThan(0);
  }
}

describe('conformance', () => {
  it('registers exactly one IPC handler per call channel and nothing else', () => {
    expect([...h.ipcMain.handlers.keys()].sort()).toEqual(CALL_CHANNELS.map(ipcCallChannel).sort());
  });

  it('answers every read channel through the bridge, inside the contract', async () => {
    const samples = allSamples(fx);
    for (const channel of CALL_CHANNELS) {
      if (
        ['db.open', 'db.connect', 'db.close', 'review.dismiss', 'review.dismissCause', 'review.undoDismiss', 'deletion.apply', 'export.start'].includes(channel)
      )
        continue;
      for (const input of samples[channel]) {
        const result = await bridgeCall(channel)(input);
        expect(result.ok ? true : result.error, `${channel} ${JSON.stringify(input)}`).toBe(true);
        expect(callResultSchema(callDef(channel).output).safeParse(result).success).toBe(true);
      }
    }
  });

  it('the bridge exposes one function per channel plus on(), frozen, and nothing like ipcRenderer or invoke', () => {
    const keys = Object.keys(h.bridge).sort();
    const namespaces = [...new Set(CALL_CHANNELS.map((c) => splitChannel(c)[0]))];
    expect(keys).toEqual([...namespaces, 'on'].sort());
    expect(Object.isFrozen(h.bridge)).toBe(true);
    for (const ns of namespaces) {
      const group = (h.bridge as unknown as Record<string, Record<string, unknown>>)[ns]!;
      expect(Object.isFrozen(group)).toBe(true);
      for (const v of Object.values(group)) expect(typeof v).toBe('function');
    }
    const text = JSON.stringify(Object.keys(h.bridge)) + JSON.stringify(Object.values(h.bridge).map((g) => (typeof g === 'object' ? Object.keys(g) : [])));
    expect(text).not.toMatch(/invoke|ipcRenderer|send|require|process/);
  });

  it('resolves (never rejects) with a typed error for a missing fact', async () => {
    const r = await h.bridge.facts.get({ partitionId: fx.userPartition, factId: 'f_nope' });
    expectError(r, 'NOT_FOUND');
    expectError(await h.bridge.facts.list({ partitionId: 999 }), 'NOT_FOUND');
  });
});

describe('refusals', () => {
  const validList = () => ({ partitionId: fx.userPartition });

  it('refuses unknown channels', async () => {
    expectError(await h.registrar.receive('facts.create', senderEvent(h.contents), [{}]), 'UNKNOWN_CHANNEL');
    expectError(await h.registrar.receive('__proto__', senderEvent(h.contents), [{}]), 'UNKNOWN_CHANNEL');
    expectError(await h.registrar.receive('progress', senderEvent(h.contents), [{}]), 'UNKNOWN_CHANNEL');
    await expect(h.ipcMain.invoke('statelens:call:facts.create', senderEvent(h.contents), {})).rejects.toThrow(/No handler registered/);
  });

  it('refuses sub-frames, foreign origins, destroyed frames and other webContents', async () => {
    const sub = fakeFrame(`${APP_ORIGIN}/index.html`, h.contents.mainFrame);
    const sameUrlNotMain = fakeFrame(`${APP_ORIGIN}/index.html`);
    const cases = [
      senderEvent(h.contents, sub),
      senderEvent(h.contents, sameUrlNotMain),
      senderEvent(h.contents, null),
      senderEvent(h.contents, { ...h.contents.mainFrame, url: 'https://evil.example/' }),
      senderEvent(h.contents, { ...h.contents.mainFrame, url: 'file:///etc/passwd' }),
      senderEvent(h.contents, { ...h.contents.mainFrame, url: 'app://other/index.html' }),
      senderEvent(h.contents, { ...h.contents.mainFrame, url: 'http://localhost:5173/' }),
      senderEvent(h.contents, { ...h.contents.mainFrame, url: 'not a url' }),
    ];
    for (const event of cases) expectError(await h.registrar.receive('facts.list', event, [validList()]), 'FORBIDDEN_SENDER');
    const stranger = new FakeWebContents();
    expectError(await h.registrar.receive('facts.list', senderEvent(stranger), [validList()]), 'FORBIDDEN_SENDER');
    // The same refusal through the registered IPC handler.
    const viaIpc = (await h.ipcMain.invoke(ipcCallChannel('facts.list'), senderEvent(h.contents, sub), validList())) as CallResult<unknown>;
    expectError(viaIpc, 'FORBIDDEN_SENDER');
  });

  it('refuses extra keys, wrong types, extra arguments, oversized and non-JSON payloads', async () => {
    const ok = senderEvent(h.contents);
    expectError(await h.registrar.receive('facts.list', ok, [{ ...validList(), extra: 1 }]), 'INVALID_INPUT');
    expectError(await h.registrar.receive('facts.list', ok, [{ partitionId: '1' }]), 'INVALID_INPUT');
    expectError(await h.registrar.receive('facts.list', ok, ['SELECT * FROM facts']), 'INVALID_INPUT');
    expectError(await h.registrar.receive('facts.list', ok, [validList(), validList()]), 'INVALID_INPUT');
    const big = { partitionId: fx.userPartition, selection: { ids: Array.from({ length: 90_000 }, (_, i) => `f_${i}_${'x'.repeat(100)}`) } };
    const tooBig = await h.registrar.receive('deletion.preview', ok, [big]);
    expectError(tooBig, 'INVALID_INPUT');
    expect(!tooBig.ok && tooBig.error.message).toMatch(/larger than/);
    expectError(await h.registrar.receive('facts.list', ok, [new Map([['partitionId', 1]])]), 'INVALID_INPUT');
    let deep: unknown = validList();
    for (let i = 0; i < 50; i++) deep = { partitionId: 1, filter: deep };
    expectError(await h.registrar.receive('facts.list', ok, [deep]), 'INVALID_INPUT');
  });

  it('accepts a missing argument as an empty input where the channel takes none', async () => {
    const r = (await h.ipcMain.invoke(ipcCallChannel('partitions.list'), senderEvent(h.contents))) as CallResult<unknown>;
    expect(r.ok).toBe(true);
  });
});

describe('events', () => {
  it('delivers data.changed to the page as the payload alone, and unsubscribes', async () => {
    const seen: Array<EventPayload<'data.changed'>> = [];
    const raw: unknown[][] = [];
    const off = h.bridge.on('data.changed', (...args: unknown[]) => {
      raw.push(args);
      seen.push(args[0] as EventPayload<'data.changed'>);
    });
    const r = await h.bridge.review.dismiss({ partitionId: fx.userPartition, factIds: [fx.flaggedId], reason: 'checked' });
    expect(r.ok).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(seen.some((e) => e.origin === 'local' && e.partitionIds.includes(fx.userPartition))).toBe(true);
    expect(raw.every((args) => args.length === 1)).toBe(true);
    off();
    expect(h.contents.listenerCount('statelens:event:data.changed')).toBe(0);
  });

  it('refuses to subscribe to anything but the contract events', () => {
    expect(() => h.bridge.on('facts.list' as never, () => {})).toThrow(/no event/);
    expect(() => h.bridge.on('data.changed', 'not a function' as never)).toThrow(/function/);
  });

  it("reports deletion progress under the caller's operation id and records who deleted", async () => {
    const progress: Array<EventPayload<'progress'>> = [];
    const off = h.bridge.on('progress', (p) => progress.push(p));
    const r = await h.bridge.deletion.apply({
      partitionId: fx.userPartition,
      selection: { filter: { search: 'coffee' } },
      reason: 'cleanup',
      operationId: 'delete-coffee-1',
    });
    off();
    expect(r.ok).toBe(true);
    if (r.ok) expect(r.value.deleted).toBeGreaterThan(0);
    expect(progress.some((p) => p.operationId === 'delete-coffee-1' && p.operation === 'deletion' && p.finished)).toBe(true);
    const audit = await h.bridge.audit.list({ partitionId: fx.userPartition });
    expect(audit.ok && audit.value.entries.some((e) => e.action === 'delete' && e.actor === 'tester (contract tests)')).toBe(true);
  });
});
