// Parses a request with its zod schema and turns failures into one INVALID_INPUT error that
// names each bad field, so callers outside the IPC registrar (CLI, library) get the same checks.
import type { z } from 'zod';
import { StatelensError } from '../../../shared/errors';
import { describeIssues, type IssueOptions } from '../../../shared/issues';

export function parseInput<S extends z.ZodType>(schema: S, input: unknown, what: string, options: IssueOptions = {}): z.infer<S> {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  throw new StatelensError('INVALID_INPUT', `Invalid ${what}: ${describeIssues(parsed.error, options)}`);
}
