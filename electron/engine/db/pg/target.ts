// Where a PostgreSQL store lives: a server URL (postgres://…, or STATELENS_DB_URL) or an
// in-process PGlite database (in memory or in a data folder), told apart from a SQLite file path.
import { StatelensError } from '../../../../shared/errors';

export type PgTarget =
  | { readonly kind: 'server'; readonly url: string }
  /** In-process PostgreSQL; no dataDir means in memory (gone when closed). */
  | { readonly kind: 'pglite'; readonly dataDir?: string };

const SERVER_SCHEMES = ['postgres:', 'postgresql:'];
const PGLITE_SCHEME = 'pglite:';

/** True when `value` names a PostgreSQL store rather than a SQLite file. */
export function isDatabaseUrl(value: string): boolean {
  const v = value.trim().toLowerCase();
  return [...SERVER_SCHEMES, PGLITE_SCHEME].some((s) => v.startsWith(s));
}

/** `postgres://…` / `postgresql://…` for a server; `pglite:memory` or `pglite:/data/dir` for PGlite. */
export function parsePgTarget(value: string): PgTarget {
  const v = value.trim();
  const lower = v.toLowerCase();
  if (SERVER_SCHEMES.some((s) => lower.startsWith(s))) {
    try {
      new URL(v);
    } catch {
      throw new StatelensError('INVALID_INPUT', `${redactUrl(v)} is not a valid PostgreSQL URL`);
    }
    return { kind: 'server', url: v };
  }
  if (lower.startsWith(PGLITE_SCHEME)) {
    const rest = v.slice(PGLITE_SCHEME.length).replace(/^\/\/(?=\/)/, '');
    if (rest === '' || rest === 'memory' || rest === '//memory') return { kind: 'pglite' };
    return { kind: 'pglite', dataDir: rest };
  }
  throw new StatelensError('INVALID_INPUT', `${value} is not a PostgreSQL URL (postgres://user@host:5432/db)`);
}

/** The URL with any password replaced, for messages and logs: the one in the user information
 * (up to its last `@`, as URL parsers read it, so an unencoded `@` in it hides nothing) and a
 * `password=` parameter, which the driver takes as well. */
export function redactUrl(url: string): string {
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/[^:/?#@]*):[^/?#]*@/i, '$1:***@').replace(/([?&]password=)[^&#]*/gi, '$1***');
}

/** A short name for the target in messages (never the password). */
export function describeTarget(target: PgTarget): string {
  if (target.kind === 'server') return redactUrl(target.url);
  return target.dataDir ? `pglite:${target.dataDir}` : 'pglite:memory';
}
