// The security checklist's handlers, driven through fake sessions and webContents that record
// what security.ts installs (no Electron binary here): permissions denied, navigation, redirects,
// frames, webviews and new windows refused, only parsed https links handed to the system
// browser, and network requests limited to the app's origin.
import { beforeEach, describe, expect, it, vi } from 'vitest';

const openExternal = vi.fn(async (_url: string) => {});
vi.mock('electron', () => ({ shell: { openExternal } }));

const { hardenSession, hardenWebContents } = await import('./security');
const { APP_ORIGIN } = await import('./sender-policy');

type Handler = (...args: never[]) => unknown;

function fakeSession() {
  const installed: Record<string, Handler> = {};
  const session = {
    setPermissionRequestHandler: (h: Handler) => (installed.permissionRequest = h),
    setPermissionCheckHandler: (h: Handler) => (installed.permissionCheck = h),
    setDevicePermissionHandler: (h: Handler) => (installed.devicePermission = h),
    setDisplayMediaRequestHandler: (h: Handler) => (installed.displayMedia = h),
    webRequest: { onBeforeRequest: (h: Handler) => (installed.beforeRequest = h) },
  };
  return { session: session as unknown as Parameters<typeof hardenSession>[0], installed };
}

function fakeContents() {
  const listeners: Record<string, Handler> = {};
  let windowOpen: Handler | undefined;
  const contents = {
    on: (name: string, h: Handler) => (listeners[name] = h),
    setWindowOpenHandler: (h: Handler) => (windowOpen = h),
  };
  const fire = (name: string, ...args: unknown[]) => {
    const event = {
      defaultPrevented: false,
      preventDefault() {
        this.defaultPrevented = true;
      },
      url: typeof args[0] === 'string' ? args[0] : '',
    };
    (listeners[name] as unknown as (...a: unknown[]) => void)(event, ...args);
    return event.defaultPrevented;
  };
  return {
    contents: contents as unknown as Parameters<typeof hardenWebContents>[0],
    listeners,
    fire,
    open: (url: string) => (windowOpen as unknown as (d: { url: string }) => { action: string })({ url }),
  };
}

const log: string[] = [];
const production = { devOrigin: undefined, log: (l: string) => log.push(l) };

beforeEach(() => {
  log.length = 0;
  openExternal.mockClear();
});

describe('hardenSession', () => {
  it('denies every permission request and check, and every device and display-media request', () => {
    const { session, installed } = fakeSession();
    hardenSession(session, production);
    for (const permission of ['media', 'geolocation', 'notifications', 'clipboard-read', 'openExternal']) {
      const answers: boolean[] = [];
      (installed.permissionRequest as unknown as (c: unknown, p: string, cb: (ok: boolean) => void) => void)({}, permission, (ok) => answers.push(ok));
      expect(answers, permission).toEqual([false]);
      expect((installed.permissionCheck as unknown as (...a: unknown[]) => boolean)({}, permission, APP_ORIGIN)).toBe(false);
    }
    expect((installed.devicePermission as unknown as () => boolean)()).toBe(false);
    const media: unknown[] = [];
    (installed.displayMedia as unknown as (r: unknown, cb: (s: unknown) => void) => void)({}, (s) => media.push(s));
    expect(media).toEqual([{}]);
    expect(log.some((l) => l.includes('denied a request for the media permission'))).toBe(true);
  });

  it('lets only the app origin (and in development its dev server) load', () => {
    const cancelled = (devOrigin: string | undefined, url: string) => {
      const { session, installed } = fakeSession();
      hardenSession(session, { devOrigin, log: () => {} });
      let answer: { cancel: boolean } | undefined;
      (installed.beforeRequest as unknown as (d: { url: string }, cb: (r: { cancel: boolean }) => void) => void)({ url }, (r) => (answer = r));
      return answer?.cancel;
    };
    expect(cancelled(undefined, `${APP_ORIGIN}/index.html`)).toBe(false);
    expect(cancelled(undefined, `${APP_ORIGIN}/assets/app.js`)).toBe(false);
    for (const url of ['https://example.com/x.js', 'http://127.0.0.1:7777/api', 'file:///etc/passwd', 'app://evil/index.html', 'http://localhost:5173/']) {
      expect(cancelled(undefined, url), url).toBe(true);
    }
    expect(cancelled('http://localhost:5173', 'http://localhost:5173/src/main.tsx')).toBe(false);
    expect(cancelled('http://localhost:5173', 'ws://localhost:5173/')).toBe(false);
    expect(cancelled('http://localhost:5173', 'http://localhost:5174/')).toBe(true);
  });
});

describe('hardenWebContents', () => {
  it('refuses navigation, redirects and frame navigation away from the app, and every webview', () => {
    const c = fakeContents();
    hardenWebContents(c.contents, production);
    expect(c.fire('will-navigate', `${APP_ORIGIN}/index.html#/review`)).toBe(false);
    for (const url of ['https://example.com/', 'file:///etc/passwd', 'javascript:alert(1)', 'app://statelens.evil/']) {
      expect(c.fire('will-navigate', url), url).toBe(true);
      expect(c.fire('will-redirect', url), url).toBe(true);
      expect(c.fire('will-frame-navigate', url), url).toBe(true);
    }
    expect(c.fire('will-attach-webview', {}, {})).toBe(true);
    expect(log.some((l) => l.startsWith('statelens: refused navigation to https://example.com/'))).toBe(true);
  });

  it('denies every new window; only a well-formed https link goes to the system browser', () => {
    const c = fakeContents();
    hardenWebContents(c.contents, production);
    expect(c.open('https://github.com/statelens')).toEqual({ action: 'deny' });
    for (const url of [
      'http://example.com/',
      'file:///etc/passwd',
      'javascript:alert(1)',
      'smb://host/share',
      'https://user:pw@example.com/',
      `${APP_ORIGIN}/index.html`,
    ]) {
      expect(c.open(url), url).toEqual({ action: 'deny' });
    }
    expect(openExternal.mock.calls.map(([u]) => u)).toEqual(['https://github.com/statelens']);
  });
});
