// The app:// protocol that serves the built renderer with the app's CSP: a standard, secure
// scheme (so the page has a real origin, app://statelens), files only from out/renderer and
// never outside it.
import fs from 'node:fs';
import { protocol, type Session } from 'electron';
import { SECURITY_HEADERS } from '../server/http-security';
import { contentTypeOf, resolveStatic } from '../server/static-files';
import { APP_HOST, APP_SCHEME } from './sender-policy';

/** Must run before the app is ready. */
export function registerAppScheme(): void {
  protocol.registerSchemesAsPrivileged([{ scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true, codeCache: true } }]);
}

export function serveAppProtocol(session: Session, rendererDir: string): void {
  session.protocol.handle(APP_SCHEME, (request) => {
    const url = new URL(request.url);
    if (url.host !== APP_HOST || (request.method !== 'GET' && request.method !== 'HEAD')) return new Response('Not found', { status: 404 });
    const resolved = resolveStatic(rendererDir, url.pathname);
    if (resolved.kind !== 'file')
      return new Response(resolved.kind === 'refused' ? 'Bad path' : 'Not found', { status: resolved.kind === 'refused' ? 400 : 404 });
    return new Response(fs.readFileSync(resolved.file), { status: 200, headers: { ...SECURITY_HEADERS, 'content-type': contentTypeOf(resolved.file) } });
  });
}
