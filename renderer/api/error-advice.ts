// Turns the one error shape into what a person reads: a title and what to do next.
import type { ErrorCode, ErrorShape } from '../../shared/errors';

const ADVICE: Partial<Record<ErrorCode, { title: string; next: string }>> = {
  NO_DATABASE: { title: 'No database is open', next: 'Open a database from the picker (or start `statelens serve --db FILE`).' },
  NOT_A_STATELENS_DB: {
    title: 'This file is not a Statelens database',
    next: 'Open a database created by Statelens, or create one with `statelens demo --db FILE`.',
  },
  CORRUPT_DB: { title: 'The database file is damaged', next: 'Restore it from a snapshot export or a backup copy.' },
  DB_TOO_NEW: { title: 'The database was written by a newer Statelens', next: 'Update Statelens to open it.' },
  READ_ONLY: { title: 'The database is read-only', next: 'Reopen it with write access to delete or dismiss.' },
  DISK_FULL: { title: 'The disk is full', next: 'Free some space and try again.' },
  BUSY: { title: 'The database is busy', next: 'Another process holds a write lock; try again in a moment.' },
  DB_UNAVAILABLE: {
    title: 'The database server cannot be reached',
    next: 'Check that the PostgreSQL server is running and reachable, then reopen the database.',
  },
  NOT_SUPPORTED: {
    title: 'Not available for this database yet',
    next: 'This works on a Statelens database file; PostgreSQL support is arriving step by step.',
  },
  NOT_FOUND: { title: 'Not found', next: 'It may have been deleted by another process; the list has been refreshed.' },
  PERMISSION_DENIED: { title: 'Not allowed here', next: 'This action is not available in this mode.' },
  UNAUTHORIZED: { title: 'The session token is missing or wrong', next: 'Open the exact URL that `statelens serve` printed (it ends with ?token=...).' },
  INVALID_INPUT: { title: 'The request was refused', next: 'Check the values you entered.' },
  CANCELLED: { title: 'Cancelled', next: 'Nothing was changed.' },
  CONFLICT: { title: 'The data changed meanwhile', next: 'Review the refreshed view and try again.' },
  INTERNAL: { title: 'Something went wrong', next: 'Try again; if it persists, reload the window.' },
};

export function adviceFor(error: ErrorShape): { title: string; next: string } {
  return ADVICE[error.code] ?? { title: 'Something went wrong', next: 'Try again; if it persists, reload the window.' };
}
