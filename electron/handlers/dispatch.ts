// One call through the contract, whatever the transport: known channel, bounded plain-JSON
// payload, strict input parse, the handler, (in development and tests) an output check, and any
// failure turned into the one error shape. IPC and HTTP both end here.
import { callDef, isCallChannel, payloadProblem, type CallResult } from '../../shared/contract';
import { StatelensError, toErrorShape } from '../../shared/errors';
import { describeIssues } from '../../shared/issues';
import type { Handlers } from './handlers';

export interface DispatchOptions {
  /** Check every handler's output against the contract (development and tests). */
  readonly validateOutput: boolean;
  /** Told about failures that are not the caller's fault (INTERNAL), for the log. */
  readonly onInternalError?: (channel: string, error: unknown) => void;
}

export type Dispatch = (channel: string, raw: unknown) => Promise<CallResult<unknown>>;

export function createDispatcher(handlers: Handlers, options: DispatchOptions): Dispatch {
  return async (channel, raw) => {
    try {
      if (!isCallChannel(channel)) throw new StatelensError('UNKNOWN_CHANNEL', `There is no channel named ${JSON.stringify(String(channel).slice(0, 100))}`);
      const problem = payloadProblem(raw);
      if (problem) throw new StatelensError('INVALID_INPUT', `The input of ${channel} is ${problem}`);
      const def = callDef(channel);
      const parsed = def.input.safeParse(raw);
      if (!parsed.success) {
        throw new StatelensError('INVALID_INPUT', `Invalid input for ${channel}: ${describeIssues(parsed.error, { root: 'input', max: 5 })}`, {
          issues: parsed.error.issues.slice(0, 20).map((i) => ({ path: i.path.map(String), message: i.message })),
        });
      }
      const handler = handlers[channel] as (input: unknown) => Promise<unknown>;
      const value = await handler(parsed.data);
      if (options.validateOutput) {
        const checked = def.output.safeParse(value);
        if (!checked.success)
          throw new StatelensError(
            'INTERNAL',
            `The handler of ${channel} returned a value outside the contract: ${describeIssues(checked.error, { root: 'output', max: 5 })}`,
          );
      }
      return { ok: true, value };
    } catch (e) {
      const error = toErrorShape(e);
      if (error.code === 'INTERNAL') options.onInternalError?.(channel, e);
      return { ok: false, error };
    }
  };
}
