// The deterministic expectation matcher: expected ids, then type, then count;
// with nothing structured to compare it answers `skip` rather than guessing.
import type { MatchVerdict, ToolResult } from '../../../shared/agent-state';
import type { Expectation } from '../../../shared/domain';

export interface MatchExplanation {
  readonly verdict: MatchVerdict;
  readonly criterion: 'ids' | 'type' | 'count' | null;
  readonly reason: string;
}

const list = (xs: readonly string[]): string => (xs.length > 5 ? `${xs.slice(0, 5).join(', ')}, … (${xs.length})` : xs.join(', '));

export function explainOutcomeMatch(expectation: Expectation, result: ToolResult): MatchExplanation {
  const expectsIds = (expectation.expected_ids?.length ?? 0) > 0;
  const expectsType = expectation.expected_type !== undefined && expectation.expected_type !== '';
  const expectsCount = typeof expectation.expected_count === 'number';
  if (!expectsIds && !expectsType && !expectsCount) {
    return { verdict: 'skip', criterion: null, reason: 'the expectation names no ids, type or count' };
  }
  // Only verify when the tool result carries structured output to compare: no guessing from text.
  if (result.ids === undefined && result.types === undefined && result.count === undefined) {
    return { verdict: 'skip', criterion: null, reason: 'the tool result has no structured output (ids, types or count)' };
  }
  if (expectsIds) {
    const got = new Set(result.ids ?? []);
    const missing = (expectation.expected_ids ?? []).filter((id) => !got.has(id));
    return missing.length === 0
      ? { verdict: 'match', criterion: 'ids', reason: 'every expected id is in the result' }
      : { verdict: 'mismatch', criterion: 'ids', reason: `missing ids: ${list(missing)}` };
  }
  if (expectsType) {
    const type = expectation.expected_type as string;
    return result.types?.includes(type)
      ? { verdict: 'match', criterion: 'type', reason: `the result contains type ${type}` }
      : { verdict: 'mismatch', criterion: 'type', reason: `no ${type} in the result types (${list(result.types ?? [])})` };
  }
  const count = result.count ?? 0;
  return count === expectation.expected_count
    ? { verdict: 'match', criterion: 'count', reason: `count is ${count}` }
    : { verdict: 'mismatch', criterion: 'count', reason: `count is ${count}, expected ${expectation.expected_count}` };
}

/** `match`, `mismatch`, or `skip` when there is not enough structure to decide. */
export function doesOutcomeMatch(expectation: Expectation, result: ToolResult): MatchVerdict {
  return explainOutcomeMatch(expectation, result).verdict;
}

/** A short description of a tool result for the assumption a mismatch records. */
export function summarizeToolResult(result: ToolResult): string {
  if (result.summary !== undefined && result.summary.trim() !== '') return result.summary.slice(0, 300);
  const parts: string[] = [];
  if (result.ids !== undefined) parts.push(`ids [${list(result.ids)}]`);
  if (result.types !== undefined) parts.push(`types [${list(result.types)}]`);
  if (result.count !== undefined) parts.push(`count ${result.count}`);
  return (parts.join('; ') || 'no structured output').slice(0, 300);
}
