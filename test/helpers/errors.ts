// What a call threw, for tests of the typed errors bad input must get.
import { isStatelensError, type StatelensError } from '../../shared/errors';

/** The StatelensError `fn` throws; anything else thrown, or nothing, fails the test. */
export function thrownBy(fn: () => unknown): StatelensError {
  try {
    fn();
  } catch (e) {
    if (isStatelensError(e)) return e;
    throw e;
  }
  throw new Error('expected a StatelensError, and nothing was thrown');
}

/** The code of the error `fn` throws: "no error" when it throws none, "untyped: ..." for an error
 * that is not a StatelensError (so an assertion on the code shows what came instead). */
export function codeOf(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    return isStatelensError(e) ? e.code : `untyped: ${String(e)}`;
  }
  return 'no error';
}
