// PostgreSQL failures as typed errors: a lost or refused connection, a lock or serialisation
// conflict, a constraint, a permission; the SQLSTATE stays in the details for callers that care.
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
  const code = codeFor(e);
  const message = code === 'DB_UNAVAILABLE' ? `The PostgreSQL connection to ${where} is unavailable: ${e.message}` : `PostgreSQL (${where}): ${e.message}`;
  const details: Record<string, unknown> = {};
  if (e.sqlstate) details.sqlstate = e.sqlstate;
  if (e.errno) details.errno = e.errno;
  if (e.constraint) details.constraint = e.constraint;
  if (e.detail) details.detail = e.detail;
  return new StatelensError(code, message, Object.keys(details).length ? details : undefined);
}
