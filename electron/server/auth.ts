// Browser-mode access control: a random session token required on every request (header for
// API calls; query or cookie for the page, its assets, events and downloads), a Host header
// that must name our loopback address (against DNS rebinding), and loopback-only binding.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { TOKEN_HEADER, TOKEN_QUERY } from '../../shared/contract';
import { StatelensError } from '../../shared/errors';

export const LOOPBACK = '127.0.0.1';

export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Only 127.0.0.1 (or `localhost`, which we bind as 127.0.0.1): never a public interface. */
export function loopbackHost(host: string | undefined): string {
  if (host === undefined || host === LOOPBACK || host === 'localhost') return LOOPBACK;
  throw new StatelensError(
    'PERMISSION_DENIED',
    `statelens serve binds to ${LOOPBACK} only (asked for ${host}); reach it from another machine through an SSH tunnel: ssh -L PORT:127.0.0.1:PORT host`,
    { host },
  );
}

export function tokensEqual(expected: string, given: string | undefined): boolean {
  if (given === undefined) return false;
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}

export function cookieName(port: number): string {
  return `statelens_${port}`;
}

function cookieValue(req: IncomingMessage, name: string): string | undefined {
  const header = req.headers.cookie;
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

export interface PresentedToken {
  readonly header: string | undefined;
  readonly query: string | undefined;
  readonly cookie: string | undefined;
}

export function presentedToken(req: IncomingMessage, url: URL, port: number): PresentedToken {
  const h = req.headers[TOKEN_HEADER];
  const auth = req.headers.authorization;
  const bearer = typeof auth === 'string' && auth.startsWith('Bearer ') ? auth.slice(7) : undefined;
  return {
    header: (typeof h === 'string' ? h : undefined) ?? bearer,
    query: url.searchParams.get(TOKEN_QUERY) ?? undefined,
    cookie: cookieValue(req, cookieName(port)),
  };
}

/** The Host header must be our own loopback origin (a rebinding attacker's page sends its own name). */
export function hostAllowed(req: IncomingMessage, port: number): boolean {
  const host = req.headers.host;
  return host === `${LOOPBACK}:${port}` || host === `localhost:${port}`;
}

/** An Origin header, when a browser sends one, must be ours too (no cross-site calls). */
export function originAllowed(req: IncomingMessage, port: number): boolean {
  const origin = req.headers.origin;
  return origin === undefined || origin === `http://${LOOPBACK}:${port}` || origin === `http://localhost:${port}`;
}
