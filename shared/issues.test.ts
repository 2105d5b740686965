import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { describeIssues, fieldIssues } from './issues';

const Shape = z.strictObject({ a: z.object({ b: z.number() }), list: z.array(z.string()) });

function errorOf(schema: z.ZodType, value: unknown): z.ZodError {
  const parsed = schema.safeParse(value);
  if (parsed.success) throw new Error('expected a failure');
  return parsed.error;
}

describe('zod issues for people', () => {
  it('names each bad field by its dotted path, array indexes included', () => {
    const issues = fieldIssues(errorOf(Shape, { a: { b: 'x' }, list: ['ok', 3] }));
    expect(issues.map((i) => i.field)).toEqual(['a.b', 'list.1']);
    expect(issues.every((i) => i.message.length > 0)).toBe(true);
  });

  it("names the whole value by the caller's word when the problem is not in one field", () => {
    expect(fieldIssues(errorOf(Shape, null))[0]?.field).toBe('(root)');
    expect(describeIssues(errorOf(Shape, 7), { root: 'input' })).toMatch(/^input: /);
  });

  it('keeps at most `max` problems, joined on one line', () => {
    const many = z.array(z.number());
    const error = errorOf(
      many,
      Array.from({ length: 30 }, () => 'x'),
    );
    expect(fieldIssues(error)).toHaveLength(10);
    const line = describeIssues(error, { max: 3 });
    expect(line.split('; ')).toHaveLength(3);
    expect(line).not.toContain('\n');
  });

  it('reads a symbol in a path instead of throwing', () => {
    const error = new z.ZodError([{ code: 'custom', path: [Symbol('s'), 'x'], message: 'bad', input: undefined }]);
    expect(describeIssues(error)).toBe('Symbol(s).x: bad');
  });
});
