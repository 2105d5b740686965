import { describe, expect, it } from 'vitest';
import type { Expectation } from '../../../shared/domain';
import { doesOutcomeMatch, explainOutcomeMatch, summarizeToolResult } from './matcher';

const exp = (e: Partial<Expectation>): Expectation => ({ id: 'e1', action: 'create tasks', expected_outcome: '2 tasks created', ...e });

describe('doesOutcomeMatch', () => {
  it('ids: every expected id must be in the result', () => {
    expect(doesOutcomeMatch(exp({ expected_ids: ['t1', 't2'] }), { id: 'r', ids: ['t2', 't1', 't3'] })).toBe('match');
    expect(doesOutcomeMatch(exp({ expected_ids: ['t1', 't2'] }), { id: 'r', ids: ['t1'] })).toBe('mismatch');
    expect(explainOutcomeMatch(exp({ expected_ids: ['t1', 't2'] }), { id: 'r', ids: ['t1'] })).toMatchObject({ criterion: 'ids', reason: 'missing ids: t2' });
    // Expected ids are required: a structured result without them does not match.
    expect(doesOutcomeMatch(exp({ expected_ids: ['t1'] }), { id: 'r', count: 1 })).toBe('mismatch');
  });

  it('ids come before type and count', () => {
    const e = exp({ expected_ids: ['t1'], expected_type: 'task', expected_count: 5 });
    expect(explainOutcomeMatch(e, { id: 'r', ids: ['t1'], types: ['doc'], count: 1 })).toMatchObject({ verdict: 'match', criterion: 'ids' });
  });

  it('type: the result must contain the expected type; type comes before count', () => {
    expect(doesOutcomeMatch(exp({ expected_type: 'task' }), { id: 'r', types: ['doc', 'task'] })).toBe('match');
    expect(doesOutcomeMatch(exp({ expected_type: 'task' }), { id: 'r', types: ['doc'] })).toBe('mismatch');
    expect(explainOutcomeMatch(exp({ expected_type: 'task', expected_count: 9 }), { id: 'r', types: ['task'], count: 1 })).toMatchObject({
      verdict: 'match',
      criterion: 'type',
    });
  });

  it('count: compared exactly, a missing count is 0', () => {
    expect(doesOutcomeMatch(exp({ expected_count: 2 }), { id: 'r', count: 2 })).toBe('match');
    expect(doesOutcomeMatch(exp({ expected_count: 2 }), { id: 'r', count: 3 })).toBe('mismatch');
    expect(doesOutcomeMatch(exp({ expected_count: 0 }), { id: 'r', types: ['x'] })).toBe('match');
    expect(doesOutcomeMatch(exp({ expected_count: 2 }), { id: 'r', types: ['x'] })).toBe('mismatch');
  });

  it('skips, never guesses, when either side has nothing structured', () => {
    expect(doesOutcomeMatch(exp({}), { id: 'r', ids: ['a'], count: 1 })).toBe('skip');
    expect(doesOutcomeMatch(exp({ expected_ids: [] }), { id: 'r', ids: ['a'] })).toBe('skip');
    expect(doesOutcomeMatch(exp({ expected_count: 2 }), { id: 'r', summary: 'done' })).toBe('skip');
    expect(explainOutcomeMatch(exp({}), { id: 'r' })).toEqual({ verdict: 'skip', criterion: null, reason: 'the expectation names no ids, type or count' });
  });

  it('summarises a result for the mismatch assumption', () => {
    expect(summarizeToolResult({ id: 'r', summary: 'created 1 task' })).toBe('created 1 task');
    expect(summarizeToolResult({ id: 'r', ids: ['a', 'b'], count: 2 })).toBe('ids [a, b]; count 2');
    expect(summarizeToolResult({ id: 'r' })).toBe('no structured output');
  });
});
