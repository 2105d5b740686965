// PostgreSQL failures as typed errors: a lost or refused connection, a refused password or TLS
// certificate, a lock or serialisation conflict, a constraint, a permission; the SQLSTATE stays in
// the details for callers that care.
import { StatelensError, type ErrorCode } from '../../../../shared/errors';

/** What the bridge worker sends back for a failed request. */
export interface PgWireError {
  readonly message: string;
  readonly sqlstate?: string;
  /** A Node error code (ECONNREFUSED, ENOTFOUND…) when the failure is not PostgreSQL's. */
  readonly errno?: string;
  readonly detail?: string;
  readonly constraint?: string;
  /** The client had already lost its connection when the request came. */
  readonly lost: boolean;
}

const CONNECTION_ERRNOS = new Set(['ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'EAI_AGAIN']);
const CONNECTION_MESSAGE = /connection terminated|not queryable|server closed the connection|timeout expired|connection.*(ended|closed)/i;

/** Node's verdicts on a server certificate that no trusted authority vouches for. */
const UNTRUSTED_CERTIFICATE_ERRNOS = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'CERT_UNTRUSTED',
  'CERT_REJECTED',
  'CERT_SIGNATURE_FAILURE',
  'CERT_CHAIN_TOO_LONG',
  'INVALID_CA',
  'INVALID_PURPOSE',
]);
/** A valid certificate, but issued for another host name than the URL's. */
const WRONG_HOST_ERRNO = 'ERR_TLS_CERT_ALTNAME_INVALID';
/** The driver's own words (no code) when the URL asks for TLS and the server has none. */
const NO_TLS_MESSAGE = /server does not support SSL connections/i;
/** The driver's own words (no code) when the server asks for a SCRAM password and the URL has none. */
const NO_PASSWORD_MESSAGE = /client password must be a (non-empty )?string/i;

function hostOf(where: string): string {
  try {
    return new URL(where).hostname || where;
  } catch {
    return where;
  }
}

/**
 * Connection refusals whose raw driver text does not tell a person what to change: the server's
 * certificate is not trusted or not for this host, the server offers no TLS, no password was given,
 * or the server refused an unencrypted connection. Statelens refuses the first three itself (the
 * password is never sent), so they are permissions, not an unreachable server to retry.
 */
function refusalOf(e: PgWireError, where: string): StatelensError | undefined {
  const refused = (message: string) => new StatelensError('PERMISSION_DENIED', `PostgreSQL (${where}): ${message}`, detailsOf(e));
  if (e.errno === WRONG_HOST_ERRNO) {
    return refused(
      `refused: the server's certificate is not for ${hostOf(where)} (${e.message.replace(/[\s:]+$/, '')}); connect by the host name the certificate was issued for`,
    );
  }
  if (e.errno && UNTRUSTED_CERTIFICATE_ERRNOS.has(e.errno)) {
    return refused(
      `refused: the server's certificate could not be verified (${e.message}); when a private certificate authority signed it, name that authority's certificate in the URL with sslrootcert=/path/to/ca.crt`,
    );
  }
  if (!e.sqlstate && NO_TLS_MESSAGE.test(e.message)) {
    return refused('refused: the server does not offer TLS, and the URL asks for it (sslmode); nothing was sent unencrypted');
  }
  if (!e.sqlstate && NO_PASSWORD_MESSAGE.test(e.message)) {
    return refused('the server asks for a password and none was given');
  }
  // pg_hba.conf has no line for an unencrypted connection from here: most often it takes only TLS.
  if (e.sqlstate === '28000' && /no encryption\s*$/i.test(e.message)) {
    return refused(
      `${e.message}: if the server takes only TLS connections, connect with sslmode=verify-full (and sslrootcert=/path/to/ca.crt for a private certificate authority)`,
    );
  }
  return undefined;
}

function codeFor(e: PgWireError): ErrorCode {
  const s = e.sqlstate ?? '';
  if (e.lost || (e.errno && CONNECTION_ERRNOS.has(e.errno)) || (!s && CONNECTION_MESSAGE.test(e.message))) return 'DB_UNAVAILABLE';
  // 08: connection exception; 57P01-57P03: the server shut down or terminated this backend.
  if (s.startsWith('08') || /^57P0[1-3]$/.test(s)) return 'DB_UNAVAILABLE';
  if (s === '3D000' || s === '3F000') return 'NOT_FOUND'; // no such database / schema
  if (s.startsWith('28') || s === '42501') return 'PERMISSION_DENIED';
  // Serialisation failure, deadlock, lock not available: the caller may retry.
  if (s === '40001' || s === '40P01' || s === '55P03') return 'BUSY';
  if (s === '53100') return 'DISK_FULL';
  if (s === '25006') return 'READ_ONLY';
  if (s.startsWith('23')) return 'CONFLICT';
  return 'INTERNAL';
}

/** The typed error for a failed request against `where` (a redacted target name). */
export function toStatelensError(e: PgWireError, where: string): StatelensError {
  const refusal = refusalOf(e, where);
  if (refusal) return refusal;
  const code = codeFor(e);
  const message = code === 'DB_UNAVAILABLE' ? `The PostgreSQL connection to ${where} is unavailable: ${e.message}` : `PostgreSQL (${where}): ${e.message}`;
  return new StatelensError(code, message, detailsOf(e));
}

function detailsOf(e: PgWireError): Record<string, unknown> | undefined {
  const details: Record<string, unknown> = {};
  if (e.sqlstate) details.sqlstate = e.sqlstate;
  if (e.errno) details.errno = e.errno;
  if (e.constraint) details.constraint = e.constraint;
  if (e.detail) details.detail = e.detail;
  return Object.keys(details).length ? details : undefined;
}
