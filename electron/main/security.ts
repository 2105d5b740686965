// The Electron security checklist applied to every session and webContents: permissions
// denied, navigation and new windows refused (https links go to the system browser after
// parsing), no webviews, and network requests limited to the app's own origin.
import { shell, type Session, type WebContents } from 'electron';
import { safeExternalUrl } from './external-links';
import { APP_ORIGIN, originOf } from './sender-policy';

export interface SecurityOptions {
  /** The electron-vite dev server's origin in development; undefined in production. */
  readonly devOrigin: string | undefined;
  readonly log: (line: string) => void;
}

function isAppUrl(url: string, devOrigin: string | undefined): boolean {
  const origin = originOf(url);
  return origin === APP_ORIGIN || (devOrigin !== undefined && origin === devOrigin);
}

export function hardenSession(session: Session, options: SecurityOptions): void {
  session.setPermissionRequestHandler((_contents, permission, callback) => {
    options.log(`statelens: denied a request for the ${permission} permission`);
    callback(false);
  });
  session.setPermissionCheckHandler(() => false);
  session.setDevicePermissionHandler(() => false);
  session.setDisplayMediaRequestHandler((_request, callback) => callback({}));
  // The renderer needs nothing from the network: only our own origin (and the dev server's
  // websocket for hot reload in development) may load.
  session.webRequest.onBeforeRequest((details, callback) => {
    const allowed =
      isAppUrl(details.url, options.devOrigin) ||
      details.url.startsWith('devtools://') ||
      details.url.startsWith('data:') ||
      details.url.startsWith('blob:') ||
      (options.devOrigin !== undefined && details.url.startsWith(options.devOrigin.replace(/^http/, 'ws')));
    if (!allowed) options.log(`statelens: blocked a request to ${details.url.slice(0, 200)}`);
    callback({ cancel: !allowed });
  });
}

export function hardenWebContents(contents: WebContents, options: SecurityOptions): void {
  contents.on('will-navigate', (event, url) => {
    if (!isAppUrl(url, options.devOrigin)) {
      event.preventDefault();
      options.log(`statelens: refused navigation to ${url.slice(0, 200)}`);
    }
  });
  contents.on('will-redirect', (event, url) => {
    if (!isAppUrl(url, options.devOrigin)) event.preventDefault();
  });
  contents.on('will-frame-navigate', (event) => {
    if (!isAppUrl(event.url, options.devOrigin)) event.preventDefault();
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    const safe = safeExternalUrl(url);
    // Reviewed: only https URLs that parsed cleanly reach the system browser (safeExternalUrl).
    if (safe)
      void shell.openExternal(safe); // eng-disable OPEN_EXTERNAL_JS_CHECK
    else options.log(`statelens: refused to open ${url.slice(0, 200)}`);
    return { action: 'deny' };
  });
}
