// How a failed zod parse is told to a person: each bad field by its dotted path, with zod's
// message. One wording for the engine, the contract dispatcher and the MCP server.
import type { z } from 'zod';

export interface FieldIssue {
  /** The bad field's dotted path, or the caller's name for the whole value when that is wrong. */
  readonly field: string;
  readonly message: string;
}

export interface IssueOptions {
  /** What to call the whole value when the problem is not in one field (default "(root)"). */
  readonly root?: string;
  /** At most this many problems (default 10). */
  readonly max?: number;
}

/** The first problems of a failed parse, each with the field it is about. */
export function fieldIssues(error: z.ZodError, options: IssueOptions = {}): FieldIssue[] {
  return error.issues.slice(0, options.max ?? 10).map((i) => ({ field: i.path.map(String).join('.') || (options.root ?? '(root)'), message: i.message }));
}

/** The problems on one line: "field: message; field: message". */
export function describeIssues(error: z.ZodError, options: IssueOptions = {}): string {
  return fieldIssues(error, options)
    .map((i) => `${i.field}: ${i.message}`)
    .join('; ');
}
